import Testing

@testable import CourtsideWeb

/// Who a request counts against behind a reverse proxy (`--trusted-proxy`).
@Suite("The client's address behind a trusted proxy")
struct ClientAddressTests {
    let behind = ClientAddress(trustedProxies: ["127.0.0.1", "10.0.0.5"])

    @Test("no trusted proxy: the peer, whatever the header says")
    func untrusted() {
        #expect(ClientAddress().client(peer: "192.168.1.7", forwardedFor: ["6.6.6.6"]) == "192.168.1.7")
        #expect(behind.client(peer: "192.168.1.7", forwardedFor: ["6.6.6.6"]) == "192.168.1.7")
        #expect(behind.client(peer: nil, forwardedFor: []) == "unknown")
    }

    @Test("from a trusted proxy: the rightmost address no trusted proxy holds; what the client wrote before it never counts")
    func trusted() {
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: ["192.168.1.7"]) == "192.168.1.7")
        // A guest that sends its own header to look like another: the proxy appends the real one.
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: ["192.168.1.99, 192.168.1.7"]) == "192.168.1.7")
        // Two proxies in a row, and the header split over two fields.
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: ["1.2.3.4, 192.168.1.8", "10.0.0.5"]) == "192.168.1.8")
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: ["fe80::1"]) == "fe80::1")
    }

    @Test("from a trusted proxy with no header, or junk in it: the proxy's own address")
    func junk() {
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: []) == "127.0.0.1")
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: ["not an address"]) == "127.0.0.1")
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: ["1.2.3.999"]) == "127.0.0.1")
        #expect(behind.client(peer: "127.0.0.1", forwardedFor: ["10.0.0.5"]) == "10.0.0.5")
    }

    @Test("an IPv4 peer mapped into IPv6 by a dual-stack socket is the same address")
    func mapped() {
        #expect(behind.client(peer: "::ffff:127.0.0.1", forwardedFor: ["::ffff:192.168.1.7"]) == "192.168.1.7")
        #expect(behind.client(peer: "::FFFF:192.168.1.9", forwardedFor: []) == "192.168.1.9")
        #expect(ClientAddress(trustedProxies: ["::ffff:10.0.0.5"]).trustedProxies == ["10.0.0.5"])
        #expect(ClientAddress.normalized("::1") == "::1" && ClientAddress.normalized("fe80::ffff:1") == "fe80::ffff:1")
    }
}
