import CourtsideModel
import Synchronization

/// The one place where decisions that settle who plays a bracket game meet: a retraction that
/// may change a result, and the first action of a game whose teams come from results.
///
/// Each game decides its commands on its own actor, so a retraction in a semi-final and the
/// start of the final can be decided at the same moment. Checking either against the committed
/// games would let both through. The gate checks both against the games as decided, under one
/// lock: of the two, the first wins and the second is refused (`bracket_locked` for the
/// retraction, `bracket_pending` for the start, until the bracket has re-assigned the teams).
final class BracketGate: Sendable {
    private struct State {
        var schedule: Schedule?
        /// Every game as last decided in a way that matters to the bracket: created, started,
        /// finished or reopened, re-assigned, or changed by a retraction, as the tables read it
        /// (``BracketGame``). Scores of games still in play may lag; no bracket slot reads them.
        var games: BracketGames
    }

    private let state: Mutex<State>

    init(games: [GameID: Game]) { state = Mutex(State(games: BracketGames(games))) }

    /// The tournament schedule in force, if any.
    var schedule: Schedule? { state.withLock { $0.schedule } }

    /// Puts `schedule` in force; whether it is the first one.
    func use(_ schedule: Schedule) -> Bool {
        state.withLock { state in
            defer { state.schedule = schedule }
            return state.schedule == nil
        }
    }

    /// Records a state that nothing refuses: a game created, or its time run out.
    func record(_ game: Game) {
        let kept = BracketGame(game)
        state.withLock { $0.games.record(kept) }
    }

    /// Lets the decision that turns `current` into `next` through, and records it, or returns
    /// why the bracket refuses it. Most decisions never take the lock.
    func admit(_ command: GameCommand, from current: Game, to next: Game) -> CourtsideError? {
        let retracts = if case .retract = command { true } else { false }
        let reassigns = if case .assignTeams = command { true } else { false }
        let starts = !current.hasStarted && next.hasStarted
        guard retracts || reassigns || starts || current.isFinished != next.isFinished else { return nil }
        return state.withLock { state -> CourtsideError? in
            if let schedule = state.schedule {
                if retracts, let locked = schedule.lockedDependent(of: next, in: state.games) {
                    return CourtsideError(
                        .bracketLocked,
                        "this would change who plays in \(locked), which has already started; the result of \(next.id) stands")
                }
                if starts, let scheduled = schedule.game(next.id) {
                    let lineup = schedule.lineup(for: scheduled, state.games)
                    if lineup?.home.id != next.setup.home.id || lineup?.away.id != next.setup.away.id {
                        return CourtsideError(
                            .bracketPending,
                            "the teams of \(next.id) are not settled: a result they come from has changed; "
                                + "the bracket re-assigns them once it is final")
                    }
                }
            }
            state.games.record(BracketGame(next))
            return nil
        }
    }
}
