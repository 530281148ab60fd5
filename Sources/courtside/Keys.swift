import ArgumentParser
import Foundation
import ZeroMQ

/// `courtside keys`: CURVE certificates for the daemon and its clients.
struct Keys: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make and read the CURVE certificates of a secured daemon and its clients.",
        discussion: """
            A certificate is ZeroMQ's file format (as CZMQ's zcert and pyzmq's \
            zmq.auth.create_certificates write it): NAME.key holds the public key, which you may \
            hand out; NAME.key_secret holds both keys and stays with its owner.

            Examples:
              courtside keys new server --dir keys      # the daemon's: security.server_certificate
              courtside keys new court-1 --dir keys     # a keeper's: list keys/court-1.key in security.clients
              courtside keys show keys/server.key       # the 40-character public key, for public_key: or --server-key
            """,
        subcommands: [New.self, Show.self])

    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new key pair as NAME.key (public) and NAME.key_secret (mode 0600).")

        @Argument(help: "The certificate's name: the client's name in the daemon's config, or server.")
        var name: String

        @Option(help: ArgumentHelp("Where to write the two files.", valueName: "dir"))
        var dir = "."

        func validate() throws {
            guard !name.isEmpty, !name.contains("/") else { throw ValidationError("NAME must not be empty or contain /") }
        }

        func run() throws {
            let pair = try CurveKeyPair.generate()
            let (publicPath, secretPath) = try ZMQCertificate.write(pair, name: name, directory: dir)
            print("wrote \(publicPath) (public) and \(secretPath) (secret, mode 0600)")
            print("public key: \(pair.publicKey.z85)")
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Print a certificate's public key (Z85).")

        @Argument(help: "A certificate file, public or secret.") var file: String

        func run() throws {
            do {
                print(try ZMQCertificate.load(path: file).publicKey.z85)
            } catch {
                FileHandle.standardError.write(Data("courtside: \(error)\n".utf8))
                throw ExitCode(1)
            }
        }
    }
}
