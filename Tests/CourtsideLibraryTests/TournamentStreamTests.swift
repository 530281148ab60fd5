import CourtsideLibrary
import CourtsideModel
import CourtsideStorage
import Foundation
import Testing

/// The organiser's changes through the library alone: the log's tournament stream, its place in
/// the numbering and the commits' stream, and the games that follow.
@Suite("the tournament's stream through the library", .timeLimit(.minutes(LibraryTestLimits.minutes)))
struct TournamentStreamTests {
    @Test("a change takes the next sequence, reaches the commits' stream only, and its games follow; a restart keeps it")
    func stream() async throws {
        let directory = try TemporaryDirectory()
        var library = try Tournament.open(directory.url)
        await library.useSchedule(TournamentTests.schedule)
        let before = library.snapshot().sequence
        let commits = library.commits()
        let updates = library.updates()
        let dee = Player(id: "dee", name: "Dee")
        let receipt = try await library.change(
            .playerAdded(team: "t1", player: dee), reason: "late", origin: origin("organiser", "add-dee"))
        #expect(receipt.gameID == .tournament && receipt.version == 1 && receipt.sequence == before + 1)
        // The games of t1 not over get the roster, each under the bracket's origin.
        let t1Games = TournamentTests.schedule.games.filter { $0.home == .team("t1") || $0.away == .team("t1") }.map(\.id)
        for id in t1Games {
            let game = try library.snapshot(of: id).value
            #expect(game.setup.home.has("dee") || game.setup.away.has("dee"), "\(id)")
        }
        #expect(library.snapshot().sequence == before + 1 + Int64(t1Games.count))
        var sawChange = false
        for await commit in commits {
            if commit.tournament.map(\.sequence) == [receipt.sequence] {
                #expect(commit.updates.isEmpty)
                sawChange = true
            }
            if commit.updates.last?.event.sequence == before + 1 + Int64(t1Games.count) { break }
        }
        #expect(sawChange)
        var firstUpdate: GameUpdate?
        for await update in updates {
            firstUpdate = update
            break
        }
        #expect(firstUpdate?.event.sequence == before + 2 && firstUpdate?.event.kind.typeName == "teams_assigned")
        // A retry is the original answer; the same player again from another command is refused.
        #expect(
            try await library.change(
                .playerAdded(team: "t1", player: dee), reason: "late", origin: origin("organiser", "add-dee"))
                == receipt)
        await #expect(throws: CourtsideError.self) {
            try await library.change(.playerAdded(team: "t2", player: dee), origin: origin("organiser", "again"))
        }
        #expect(try await library.log(of: .tournament).map(\.sequence) == [receipt.sequence])

        await library.close()
        library = try Tournament.open(directory.url)
        await library.useSchedule(TournamentTests.schedule)
        #expect(library.tournamentChanges == [.playerAdded(team: "t1", player: dee)])
        #expect(library.currentSchedule?.teams["t1"]?.has("dee") == true)
        #expect(library.snapshot().sequence == before + 1 + Int64(t1Games.count))
        await library.close()
    }
}
