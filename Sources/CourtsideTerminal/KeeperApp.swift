public import CourtsideClient
public import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels
import Foundation
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// `courtside keeper GAME`: the scorekeeper's terminal for one court.
///
/// Keys: a digit picks a player, then p (+1), t (+2), x (free throw), a (assist), r (rebound)
/// or f (foul) records the move; u undoes the last move sent from here; space starts or pauses
/// the clock; [ and ] call a time-out for home and away; q quits. The screen shows the score, the clock, the last moves and the last answer.
public final class KeeperApp {
    public let endpoints: Endpoints
    public let game: GameID
    private let client: CommandClient
    private var selected: Int?
    private var message = "pick a player (digit), then a move"
    /// Versions of the moves recorded from this terminal, newest last, for undo.
    private var sent: [Int] = []

    public init(endpoints: Endpoints, game: GameID, client: CommandClient) {
        self.endpoints = endpoints
        self.game = game
        self.client = client
    }

    public func run() throws(CourtsideError) {
        let sync = try DisplaySync(endpoints: endpoints, game: game, client: client)
        guard sync.games[game] != nil else { throw CourtsideError(.unknownGame, "no game has id \(game)") }
        try Terminal().run(
            following: sync,
            screen: { () throws(CourtsideError) in
                guard let state = sync.games[game] else { throw CourtsideError(.unknownGame, "game \(game) is gone") }
                return screen(state, sync: sync)
            },
            key: { key in
                if let state = sync.games[game] { press(key, state: state) }
            })
    }

    /// The players in key order: home first, then away.
    private func players(_ state: GameState) -> [Player] { state.setup.home.players + state.setup.away.players }

    private func press(_ key: UInt8, state: GameState) {
        let roster = players(state)
        if let digit = Int(String(UnicodeScalar(key))), digit >= 1, digit <= roster.count {
            selected = digit - 1
            message = "\(roster[digit - 1].name): p +1, t +2, x free throw, a assist, r rebound, f foul"
            return
        }
        let moves: [UInt8: MoveKind] = [
            UInt8(ascii: "p"): .onePoint, UInt8(ascii: "t"): .twoPoints, UInt8(ascii: "a"): .assist,
            UInt8(ascii: "r"): .rebound, UInt8(ascii: "f"): .foul, UInt8(ascii: "x"): .freeThrow,
        ]
        if let move = moves[key] {
            guard let selected else {
                message = "pick a player first (1-\(roster.count))"
                return
            }
            let player = roster[selected]
            perform("\(player.name) \(GameViewModel.moveText(move))", .move(game: game, player: player.id, move: move)) {
                self.sent.append($0)
            }
            self.selected = nil
        } else if key == UInt8(ascii: "u") {
            guard let target = sent.last ?? state.plays.last(where: { $0.retractedBy == nil })?.version else {
                message = "nothing to undo"
                return
            }
            perform("undo v\(target)", .retract(game: game, version: target)) { _ in self.sent.removeAll { $0 == target } }
        } else if key == UInt8(ascii: "[") || key == UInt8(ascii: "]") {
            let side: Side = key == UInt8(ascii: "[") ? .home : .away
            perform("time-out \(state.setup.team(side).name)", .timeout(game: game, side: side)) { _ in }
        } else if key == UInt8(ascii: " ") {
            let command: GameCommand = state.live.clock.isRunning ? .pauseClock : .startClock
            perform(command == .startClock ? "clock start" : "clock pause", .clock(game: game, command: command)) { _ in }
        }
    }

    private func perform(_ label: String, _ operation: Request.Operation, then: (Int) -> Void) {
        do {
            let reply = try client.command(operation)
            let version = reply.version ?? 0
            then(version)
            message = "\(label): ok (v\(version))"
        } catch {
            message = "\(label): refused: \(error.message) [\(error.code)]"
        }
    }

    private func screen(_ state: GameState, sync: DisplaySync) -> [String] {
        let view = GameViewModel(state, now: sync.daemonNow(), lastPlays: 6)
        var lines = [
            "Courtside keeper  \(view.id)\(view.court.map { "  \($0)" } ?? "")",
            "",
            "   \(view.homeName)   \(view.score)   \(view.awayName)      \(view.clock)  \(view.statusLabel)",
            "",
        ]
        for (index, player) in (view.homePlayers + view.awayPlayers).enumerated() {
            let marker = index == selected ? ">" : " "
            let team = player.side == .home ? view.homeName : view.awayName
            lines.append(
                "\(marker) \(index + 1)  \(player.name.padding(toLength: 16, withPad: " ", startingAt: 0)) "
                    + "\(team.padding(toLength: 12, withPad: " ", startingAt: 0)) \(player.points) pts")
        }
        lines += ["", "Last moves:"] + (view.lastPlays.isEmpty ? ["  (none yet)"] : view.lastPlays.map { "  " + $0 })
        lines += [
            "", "> " + message, "",
            "digit: player   p +1  t +2  x free throw  a assist  r rebound  f foul   u undo   space clock   [ ] time-out   q quit",
            sync.isStale ? "STALE: no heartbeat from \(endpoints.events)" : "live from \(endpoints.events)",
        ]
        return lines
    }
}
