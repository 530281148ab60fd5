import ArgumentParser
import CourtsideWeb
import Foundation

/// `courtside-web desk`: what the organiser's desk needs set up.
struct Desk: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Sets up the organiser's desk at /desk.", subcommands: [Passphrase.self])

    struct Passphrase: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Reads a passphrase on standard input and prints its bcrypt hash, for --desk-passphrase-file.",
            discussion: """
                The file keeps only the hash: whoever reads it cannot sign in with it. At least 10 \\
                characters.

                Example:
                  read -rs PASS && printf '%s' "$PASS" | courtside-web desk passphrase > desk.hash
                  courtside-web --desk-passphrase-file desk.hash
                """)

        func run() throws {
            let passphrase = (readLine(strippingNewline: true) ?? "")
            guard passphrase.count >= 10 else {
                throw ValidationError("the passphrase must have at least 10 characters (read from standard input)")
            }
            print(DeskGateway.hash(passphrase: passphrase))
        }
    }
}
