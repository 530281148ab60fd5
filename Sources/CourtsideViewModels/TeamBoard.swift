public import CourtsideLocalization
public import CourtsideModel

/// What a board shows of one team besides its score: its team fouls against the rules' tiers
/// and its time-outs. Every field is ready to draw; the browser's court TV binds them as they are.
public struct TeamBoard: Hashable, Sendable, Encodable {
    public var fouls: Int
    /// The tier the team's fouls have reached, as the protocol names it (`none`,
    /// `two_free_throws`, `two_free_throws_and_possession`); empty when the rules have no tiers.
    public var tier: String
    /// "no bonus", "bonus: 2 FT" or "bonus: 2 FT + ball"; empty without tiers.
    public var tierText: String
    /// The next tier and where it starts: "2 FT + ball from foul 10"; empty at the last one.
    public var nextText: String
    /// "time-outs left" when the rules limit them, else "time-outs used".
    public var timeoutsLabel: String
    /// The time-outs left when the rules limit them, else those used.
    public var timeouts: Int
    /// One dot per time-out allowed: "●" left, "○" used; empty when they are not limited.
    public var timeoutPips: String
    /// How many time-outs the rules allow a team, if they limit them.
    public var timeoutsAllowed: Int?
    /// The fouls in one line, when the rules count them in tiers: "fouls 8" below the first
    /// tier, "fouls 8, bonus: 2 FT" from it on. Stored, so the encoded board carries it: the
    /// keeper page binds it rather than composing it.
    public var foulsLine: String?
    /// "time-outs left 1", when the rules limit time-outs; stored for the same reason.
    public var timeoutsLine: String?
    /// The fouls as the keeper page always shows them: ``foulsLine``, or "fouls 3" without tiers.
    public var foulsText: String
    /// The time-outs as the keeper page shows them: "time-outs left 1 ●○", or "time-outs used 2".
    public var timeoutsText: String

    /// The board of `side` in `game`, in `words`' language.
    public init(_ game: Game, _ side: Side, words: Words = .english) {
        fouls = game.teamFouls[side]
        if let tiers = game.rules.teamFouls {
            let tier = tiers.penalty(after: fouls)
            self.tier = tier.rawValue
            switch tier {
            case .none:
                tierText = words(.boardNoBonus)
                nextText = words(.boardNextFreeThrows, ["foul": words.number(tiers.freeThrowsFrom)])
            case .twoFreeThrows:
                tierText = words(.boardBonusFreeThrows)
                nextText = words(.boardNextBall, ["foul": words.number(tiers.possessionFrom)])
            case .twoFreeThrowsAndPossession:
                tierText = words(.boardBonusBall)
                nextText = ""
            }
        } else {
            (tier, tierText, nextText) = ("", "", "")
        }
        let used = game.timeoutsUsed[side]
        timeoutsAllowed = game.rules.timeoutsPerTeam
        if let allowed = timeoutsAllowed {
            let left = max(0, allowed - used)
            timeoutsLabel = words(.boardTimeoutsLeft)
            timeouts = left
            timeoutPips = String(repeating: "●", count: left) + String(repeating: "○", count: allowed - left)
        } else {
            timeoutsLabel = words(.boardTimeoutsUsed)
            timeouts = used
            timeoutPips = ""
        }
        let count = words.number(fouls)
        foulsLine =
            switch tier {
            case "": nil
            case FoulPenalty.none.rawValue: words(.boardFouls, ["count": count])
            default: words(.boardFoulsTier, ["count": count, "tier": tierText])
            }
        let timeoutsWords = "\(timeoutsLabel) \(timeouts)"
        timeoutsLine = timeoutsAllowed == nil ? nil : timeoutsWords
        foulsText = foulsLine ?? words(.boardFouls, ["count": count])
        timeoutsText = timeoutsWords + (timeoutPips.isEmpty ? "" : " \(timeoutPips)")
    }

}
