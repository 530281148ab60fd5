import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@testable import CourtsideWeb

/// The gateway's own HTTP server (``GatewayServer``), as courtside-web runs it.
@Suite("the gateway's server")
struct GatewayServerTests {
    @Test("a connection's requests run on its channel's event loop, no hand-over to the cooperative pool")
    func onTheLoop() async throws {
        let router = Router(context: GatewayRequestContext.self)
        router.get("/where") { _, context -> String in context.channel.eventLoop.inEventLoop ? "loop" : "elsewhere" }
        router.post("/where") { request, context -> String in
            _ = try await request.body.collect(upTo: 1024)
            return context.channel.eventLoop.inEventLoop ? "loop" : "elsewhere"
        }
        let gate = ConnectionGate(maximum: 16, perAddress: 16, userTimeout: .seconds(10), logger: Logger(label: "test"))
        let app = Application(
            router: router, server: GatewayServer.builder(limits: GatewayLimits(), gate: gate, tls: nil),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await app.test(.live) { client in
            try await client.execute(uri: "/where", method: .get) { response in
                #expect(String(buffer: response.body) == "loop")
            }
            try await client.execute(uri: "/where", method: .post, body: ByteBuffer(string: "{}")) { response in
                #expect(String(buffer: response.body) == "loop", "after awaiting the body")
            }
        }
    }
}
