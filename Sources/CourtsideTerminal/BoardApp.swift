public import CourtsideClient
public import CourtsideModel
import CourtsideViewModels
import Foundation
import ZeroMQ

#if canImport(Glibc)
    import Glibc
#endif

/// `courtside board`: a live board for one game or for every game.
///
/// Redraws on every event and ten times a second in between, so the clock runs smoothly from
/// the last known value; marks itself stale when heartbeats stop and says when it resynced.
public struct BoardApp {
    public var endpoints: Endpoints
    public var game: GameID?
    public var clientID: String

    public init(endpoints: Endpoints, game: GameID?, clientID: String) {
        self.endpoints = endpoints
        self.game = game
        self.clientID = clientID
    }

    /// The screen as it stands now.
    public func screen(_ sync: DisplaySync) throws(CourtsideError) -> [String] {
        let now = sync.daemonNow()
        let status = SyncStatus(
            endpoint: endpoints.events, isStale: sync.isStale,
            lastResync: sync.lastResync.map { ($0.reason.rawValue, Int((ContinuousClock.now - $0.at).components.seconds)) },
            resyncs: sync.resyncs)
        if let game {
            guard let state = sync.games[game] else {
                // Scheduled, but the results have not decided its teams yet.
                let entry = sync.bracket.first { $0.game == game }
                let matchup = entry.map { "\($0.home) vs \($0.away)" } ?? ""
                return ["Courtside  \(game)", "", "   waiting for its teams: \(matchup)", "", status.line, "q: quit"]
            }
            return Screens.board(GameViewModel(state, now: now), status: status)
        }
        return Screens.bigScreen(TournamentViewModel(sync.games.values, now: now), standings: sync.standings, status: status)
    }

    /// Prints the board once, after a short look at the event stream.
    public func printOnce() throws(CourtsideError) {
        let sync = try connect()
        try sync.pump(timeoutMilliseconds: 300)
        print(try screen(sync).joined(separator: "\n"))
    }

    /// Runs until the user presses q (or Ctrl-C).
    public func run() throws(CourtsideError) {
        let sync = try connect()
        try Terminal().run(following: sync, screen: { () throws(CourtsideError) in try screen(sync) }, key: { _ in })
    }

    private func connect() throws(CourtsideError) -> DisplaySync {
        let client = CommandClient(endpoints: endpoints, clientID: clientID)
        return try DisplaySync(endpoints: endpoints, game: game, client: client)
    }
}
