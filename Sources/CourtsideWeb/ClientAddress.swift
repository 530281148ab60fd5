/// The address a request counts against (wrong PINs, joins, passphrase checks): the peer's own,
/// or, when the peer is a reverse proxy the gateway was told to trust (`--trusted-proxy`), the
/// client the proxy names in `X-Forwarded-For`.
///
/// Behind HAProxy or nginx every browser reaches the gateway from the proxy's address: without
/// this, one guest's wrong PINs would hold back every phone's join. The header is read from its
/// right, where the trusted proxies appended, and the first address no trusted proxy holds is the
/// client's; anything left of it was written by the client and may be forged, so it never counts.
public struct ClientAddress: Sendable {
    /// The proxies' addresses (`127.0.0.1`, `10.0.0.5`), as the gateway sees them connect.
    public let trustedProxies: Set<String>

    public init(trustedProxies: Set<String> = []) { self.trustedProxies = Set(trustedProxies.map(Self.normalized)) }

    /// The client's address for a request from `peer` with these `X-Forwarded-For` values
    /// (several headers read as one list, in order).
    public func client(peer: String?, forwardedFor: [String]) -> String {
        guard let peer = peer.map(Self.normalized) else { return "unknown" }
        guard trustedProxies.contains(peer) else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }.map {
            Self.normalized($0.trimmingCharacters(in: .whitespaces))
        }
        for hop in hops.reversed() where !trustedProxies.contains(hop) {
            // A malformed entry ends the trust: the proxy wrote none such, so the client did.
            return Self.isAddress(hop) ? hop : peer
        }
        // Every hop a trusted proxy: the request came from one of them (a health check, say).
        return hops.first ?? peer
    }

    /// An IPv4 address as itself where a dual-stack socket reports it mapped into IPv6
    /// (`::ffff:127.0.0.1`), so that one client or proxy has one name.
    public static func normalized(_ address: String) -> String {
        let prefix = "::ffff:"
        guard address.lowercased().hasPrefix(prefix), address.contains(".") else { return address }
        return String(address.dropFirst(prefix.count))
    }

    /// Whether `text` is an IPv4 or IPv6 address as a proxy writes one (no port, no brackets).
    public static func isAddress(_ text: String) -> Bool {
        guard !text.isEmpty, text.count <= 45 else { return false }
        if text.contains(":") { return text.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." } }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in UInt8(part).map { _ in part.count <= 3 } ?? false }
    }
}
