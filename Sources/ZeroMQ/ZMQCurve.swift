import CZeroMQ
import Foundation

/// A CURVE key (public or secret) in Z85 text: 40 characters for 32 bytes.
public struct CurveKey: Hashable, Sendable, CustomStringConvertible {
    /// The key as Z85 text, as libzmq's socket options and certificate files carry it.
    public let z85: String

    /// Checks that `z85` is 40 characters of the Z85 alphabet that decode to 32 bytes.
    public init?(z85: String) {
        guard z85.utf8.count == 40 else { return nil }
        var bytes = [UInt8](repeating: 0, count: 32)
        guard zmq_z85_decode(&bytes, z85) != nil else { return nil }
        self.z85 = z85
    }

    /// Prints nothing of the key: a secret one would end up in log lines otherwise. Log a
    /// public key's ``z85`` explicitly where it helps.
    public var description: String { "CurveKey(…)" }
}

/// A CURVE key pair: a long-term identity for a server or a client.
public struct CurveKeyPair: Hashable, Sendable {
    public let publicKey: CurveKey
    public let secretKey: CurveKey

    public init(publicKey: CurveKey, secretKey: CurveKey) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// A new random key pair (`zmq_curve_keypair`).
    public static func generate() throws(ZMQError) -> CurveKeyPair {
        var publicText = [CChar](repeating: 0, count: 41)
        var secretText = [CChar](repeating: 0, count: 41)
        guard zmq_curve_keypair(&publicText, &secretText) == 0 else { throw ZMQError.last("zmq_curve_keypair") }
        // libzmq's output is always valid Z85.
        return CurveKeyPair(
            publicKey: CurveKey(z85: z85String(publicText))!, secretKey: CurveKey(z85: z85String(secretText))!)
    }

    /// The pair of a secret key, its public half derived from it (`zmq_curve_public`).
    public init(secretKey: CurveKey) throws(ZMQError) {
        var publicText = [CChar](repeating: 0, count: 41)
        guard zmq_curve_public(&publicText, secretKey.z85) == 0 else { throw ZMQError.last("zmq_curve_public") }
        self.init(publicKey: CurveKey(z85: z85String(publicText))!, secretKey: secretKey)
    }
}

/// What a client needs to talk to a CURVE server: its own key pair and the server's public key.
public struct CurveClientKeys: Hashable, Sendable {
    public var client: CurveKeyPair
    public var serverPublicKey: CurveKey

    public init(client: CurveKeyPair, serverPublicKey: CurveKey) {
        self.client = client
        self.serverPublicKey = serverPublicKey
    }
}

extension ZMQSocket {
    /// Makes this socket a CURVE client of a server; call before `connect`.
    public func useCurve(_ keys: CurveClientKeys) throws(ZMQError) {
        try set(.curveServerKey(keys.serverPublicKey))
        try set(.curvePublicKey(keys.client.publicKey))
        try set(.curveSecretKey(keys.client.secretKey))
    }
}

/// A ZeroMQ certificate file, in the ZPL format that CZMQ's zcert and pyzmq's
/// `zmq.auth.create_certificates` write: `NAME.key` holds the public key, `NAME.key_secret`
/// the public and the secret key.
public struct ZMQCertificate: Hashable, Sendable {
    public var publicKey: CurveKey
    /// Present in a secret certificate only.
    public var secretKey: CurveKey?

    public init(publicKey: CurveKey, secretKey: CurveKey? = nil) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }

    /// The key pair of a secret certificate, or nil for a public one.
    public var keyPair: CurveKeyPair? { secretKey.map { CurveKeyPair(publicKey: publicKey, secretKey: $0) } }

    /// Why a certificate could not be read.
    public struct Problem: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// Reads the `curve` section's `public-key` and `secret-key` from ZPL text.
    public static func parse(_ text: String) throws(Problem) -> ZMQCertificate {
        var section = ""
        var values: [String: String] = [:]
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            // Z85 has '#' in its alphabet, so only a line that starts with one is a comment.
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { continue }
            // ZPL nests by indentation; the keys we read live one level under `curve`.
            let indented = line.first?.isWhitespace == true
            guard indented else {
                section = trimmed
                continue
            }
            guard section == "curve", let equals = trimmed.firstIndex(of: "=") else { continue }
            let name = trimmed[..<equals].trimmingCharacters(in: .whitespaces)
            var value = trimmed[trimmed.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if let quote = value.first, quote == "\"" || quote == "'" {
                value = String(value.dropFirst().prefix { $0 != quote })
            } else if let comment = value.range(of: " #") {
                value = value[..<comment.lowerBound].trimmingCharacters(in: .whitespaces)
            }
            values[name] = value
        }
        guard let publicText = values["public-key"] else {
            throw Problem(description: "no public-key in its curve section; is it a ZeroMQ certificate?")
        }
        guard let publicKey = CurveKey(z85: publicText) else {
            throw Problem(description: "its public-key is not a 40-character Z85 key")
        }
        guard let secretText = values["secret-key"] else { return ZMQCertificate(publicKey: publicKey) }
        guard let secretKey = CurveKey(z85: secretText) else {
            throw Problem(description: "its secret-key is not a 40-character Z85 key")
        }
        guard (try? CurveKeyPair(secretKey: secretKey).publicKey) == publicKey else {
            throw Problem(description: "its public-key does not belong to its secret-key")
        }
        return ZMQCertificate(publicKey: publicKey, secretKey: secretKey)
    }

    /// Reads a certificate file.
    public static func load(path: String) throws(Problem) -> ZMQCertificate {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw Problem(description: "cannot read \(path) (\(error.localizedDescription))")
        }
        do {
            return try parse(text)
        } catch {
            throw Problem(description: "\(path): \(error.description)")
        }
    }

    /// The file's text: public only, or with the secret key too.
    public func text(includingSecret: Bool) -> String {
        var lines = [
            "#   ****  Generated by courtside  ****",
            "#   ZeroMQ CURVE \(includingSecret ? "**Secret**" : "Public") Certificate",
            includingSecret
                ? "#   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions."
                : "#   Exchange securely, or use a secure mechanism to verify the contents",
            "",
            "metadata",
            "curve",
            "    public-key = \"\(publicKey.z85)\"",
        ]
        if includingSecret, let secretKey { lines.append("    secret-key = \"\(secretKey.z85)\"") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Writes `NAME.key` (mode 0644) and `NAME.key_secret` (mode 0600) into `directory`, as
    /// zcert does. Refuses to overwrite either file, so an existing identity is never lost.
    public static func write(_ pair: CurveKeyPair, name: String, directory: String) throws -> (public: String, secret: String) {
        let certificate = ZMQCertificate(publicKey: pair.publicKey, secretKey: pair.secretKey)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let publicPath = (directory as NSString).appendingPathComponent("\(name).key")
        let secretPath = publicPath + "_secret"
        for path in [publicPath, secretPath] where FileManager.default.fileExists(atPath: path) {
            throw Problem(description: "\(path) exists already; remove it first to replace the key")
        }
        try writeFile(certificate.text(includingSecret: false), to: publicPath, mode: 0o644)
        try writeFile(certificate.text(includingSecret: true), to: secretPath, mode: 0o600)
        return (publicPath, secretPath)
    }

    /// Creates the file with its final mode, so the secret is never readable by others, not even briefly.
    private static func writeFile(_ text: String, to path: String, mode: mode_t) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard fd >= 0 else { throw Problem(description: "cannot create \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            throw Problem(description: "cannot write \(path): \(String(cString: strerror(errno)))")
        }
        fchmod(fd, mode)  // the umask may have narrowed the public file's mode
    }
}

/// The text of a NUL-terminated Z85 buffer that libzmq filled in.
func z85String(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}
