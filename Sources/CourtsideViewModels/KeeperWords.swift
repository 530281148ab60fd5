public import CourtsideLocalization
public import CourtsideModel

/// The keeper page's words about a game, in one language: a player's counts as the page shows
/// them ("7 pts · 1 foul") and as a screen reader says them ("Ann Avery, Lions: 7 points, 1
/// foul"), a move's button and its spoken name, a play's line and its undo. ``GameViewModel``
/// fills its fields from these; the page's own frame takes the moves' words from here too.
public enum KeeperWords {
    /// The counts beside a player's name: points always, each other move once it happened.
    public static func counts(_ counts: MoveCounts, words: Words = .english) -> String {
        // The abbreviations stay as they are at any count ("2 reb"); a foul is a word ("2 fouls").
        let others: [(MoveKind, MessageKey)] = [
            (.freeThrow, .keeperCountsFreeThrows), (.assist, .keeperCountsAssists), (.rebound, .keeperCountsRebounds),
        ]
        var made = others.filter { counts[$0.0] > 0 }.map { words($0.1, ["count": words.number(counts[$0.0])]) }
        if counts[.foul] > 0 { made.append(words.plural(.keeperCountsFouls, count: counts[.foul])) }
        return ([words.plural(.keeperCountsPoints, count: counts.points)] + made).joined(separator: " · ")
    }

    /// A player's button as a screen reader says it: who, for which team, and their counts (or
    /// that they are inactive).
    public static func playerLabel(
        name: String, team: String, counts: MoveCounts, isActive: Bool, words: Words = .english
    ) -> String {
        let spoken: String
        if isActive {
            let others: [(MoveKind, MessageKey)] = [
                (.freeThrow, .keeperSpokenFreeThrows), (.assist, .keeperSpokenAssists),
                (.rebound, .keeperSpokenRebounds), (.foul, .countFouls),
            ]
            let made = others.filter { counts[$0.0] > 0 }.map { words.plural($0.1, count: counts[$0.0]) }
            spoken = ([words.plural(.keeperSpokenPoints, count: counts.points)] + made)
                .joined(separator: words(.listSeparator))
        } else {
            spoken = words(.keeperInactive)
        }
        return words(.keeperPlayerLabel, ["player": name, "team": team, "counts": spoken])
    }

    /// A move's button, short enough for a thumb: "+2", "FT", "REB".
    public static func button(_ move: MoveKind, words: Words = .english) -> String { words(keys(move).button) }

    /// A move as a screen reader says it: "2 points", "free throw".
    public static func spoken(_ move: MoveKind, words: Words = .english) -> String { words(keys(move).spoken) }

    /// The keys of a move's button and of its spoken name.
    private static func keys(_ move: MoveKind) -> (button: MessageKey, spoken: MessageKey) {
        switch move {
        case .onePoint: (.keeperButtonOnePoint, .keeperMoveOnePoint)
        case .twoPoints: (.keeperButtonTwoPoints, .keeperMoveTwoPoints)
        case .freeThrow: (.keeperButtonFreeThrow, .keeperMoveFreeThrow)
        case .assist: (.keeperButtonAssist, .keeperMoveAssist)
        case .rebound: (.keeperButtonRebound, .keeperMoveRebound)
        case .foul: (.keeperButtonFoul, .keeperMoveFoul)
        }
    }

    /// The clock button's action (as the protocol's `clock` names it) and its words: "pause"
    /// while the clock runs, else "start"; no action once the game is final.
    public static func clockAction(isFinished: Bool, isRunning: Bool, words: Words = .english) -> (String, String) {
        isFinished
            ? ("", words(.keeperClockOver))
            : isRunning ? ("pause", words(.keeperClockPause)) : ("start", words(.keeperClockStart))
    }
}
