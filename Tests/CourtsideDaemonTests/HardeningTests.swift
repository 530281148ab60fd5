import CourtsideClient
import CourtsideModel
import CourtsideProtocol
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a venue's daemon must survive from its own clients and its own machine.
@Suite("courtsided hardening", .serialized)
struct HardeningTests {
    @Test("no client speaks as the daemon: a reserved client id is refused, and the bracket still re-assigns the final")
    func reservedOrigins() throws {
        let daemon = try DaemonProcess(schedule: TournamentProtocolTests.schedule)
        let client = CommandClient(endpoint: daemon.commandEndpoint, clientID: "court-1")
        var g1Last = 0
        for _ in 0..<8 { g1Last = try client.command(.move(game: "g1", player: "ann", move: .twoPoints)).version ?? 0 }
        for _ in 0..<15 { try client.command(.move(game: "g2", player: "gus", move: .onePoint)) }
        #expect(try eventually { try client.snapshot(game: "final").games.first?.setup.home.id == "lions" })

        // The bracket's own next command, sent in advance by a client: refused at the door.
        for clientID in ["courtside.bracket", "courtside", "courtside.clock"] {
            let hijack = try client.send(
                .retract(game: "final", version: 99), origin: CommandOrigin(clientID: clientID, commandID: "assign:final:v1"))
            #expect(hijack.error?.code == .badRequest)
            #expect(hijack.error?.message.contains("reserved") == true)
        }

        // Tigers now win g1, so the final becomes Tigers v Bears.
        try client.command(.retract(game: "g1", version: g1Last))
        for _ in 0..<8 { try client.command(.move(game: "g1", player: "di", move: .twoPoints)) }
        #expect(try eventually { try client.snapshot(game: "final").games.first?.setup.home.id == "tigers" })
        #expect(try client.snapshot(game: "final").games.first?.setup.away.id == "bears")
    }
}

/// Asks until the condition holds (the bracket acts after a commit, not within its reply), for
/// at most `seconds`.
func eventually(seconds: Double = 10, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if try condition() { return true }
        usleep(50_000)
    }
    return try condition()
}
