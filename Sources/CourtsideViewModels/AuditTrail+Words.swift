public import CourtsideLocalization
public import CourtsideModel

extension AuditTrail {
    /// An event's kind in `words`' language: "Ann +2", "game created: Lions vs Tigers".
    public static func describe(_ kind: GameEvent.Kind, words: Words = .english) -> String {
        let side = { (side: Side) in words(side == .home ? .sideHome : .sideAway) }
        let because = { (text: String, reason: String?) in
            reason.map { words(.auditWithReason, ["text": text, "reason": $0]) } ?? text
        }
        return switch kind {
        case .gameCreated(let setup): words(.auditGameCreated, ["home": setup.home.name, "away": setup.away.name])
        case .move(let player, let move):
            words(.auditMove, ["player": "\(player)", "move": GameViewModel.moveText(move, words: words)])
        case .retraction(let version, let reason): because(words(.auditRetraction, ["version": "\(version)"]), reason)
        case .clockStarted: words(.auditClockStarted)
        case .clockPaused: words(.auditClockPaused)
        case .timeExpired: words(.auditTimeExpired)
        case .timeout(let team): words(.auditTimeout, ["side": side(team)])
        case .teamsAssigned(let home, let away): words(.auditTeamsAssigned, ["home": home.name, "away": away.name])
        case .forfeit(let team, let reason): because(words(.auditForfeit, ["side": side(team)]), reason)
        case .ended(let result, let reason):
            words(result == .noResult ? .auditEndedNoResult : .auditEndedAsItStood, ["reason": reason])
        case .setupChanged(let court, _): words(.auditMoved, ["court": court ?? words(.auditNoCourt)])
        case .tournamentChanged(let change, let reason): because(describe(change, words: words), reason)
        }
    }

    /// A tournament change in `words`' language: "Dee Day (dee) joins lions".
    public static func describe(_ change: TournamentChange, words: Words = .english) -> String {
        let list = { (items: [String]) in items.joined(separator: words(.listSeparator)) }
        let versus = { (home: String, away: String) in words(.gameTitle, ["home": home, "away": away]) }
        switch change {
        case .teamRegistered(let team, let group, let division):
            var text = words(.auditTeamRegistered, ["team": team.name, "id": "\(team.id)"])
            if let group { text = words(.auditInGroup, ["text": text, "group": group]) }
            if let division { text = words(.auditInDivision, ["text": text, "division": division]) }
            return text
        case .playerAdded(let team, let player):
            return words(.auditPlayerAdded, ["player": player.name, "id": "\(player.id)", "team": "\(team)"])
        case .playerRenamed(let team, let player, let name):
            return words(.auditPlayerRenamed, ["player": "\(player)", "team": "\(team)", "name": name])
        case .playerActive(let team, let player, let active):
            return words(active ? .auditPlayerActive : .auditPlayerInactive, ["player": "\(player)", "team": "\(team)"])
        case .gameScheduled(let game):
            let text = words(
                .auditGameScheduled, ["game": "\(game.id)", "title": versus("\(game.home)", "\(game.away)")])
            let details = [game.court, game.start.map { words(.auditAt, ["start": $0]) }].compactMap { $0 }
            return details.isEmpty ? text : list([text] + details)
        case .gameEdited(let edit):
            let changes = [
                edit.court.map { words(.auditChangeCourt, ["court": $0]) },
                edit.start.map { words(.auditChangeStart, ["start": $0]) }, edit.rules.map { _ in words(.auditChangeRules) },
                edit.home.map { words(.auditChangeHome, ["team": "\($0)"]) },
                edit.away.map { words(.auditChangeAway, ["team": "\($0)"]) },
            ].compactMap { $0 }
            return words(.auditGameEdited, ["game": "\(edit.game)", "changes": list(changes)])
        case .teamWithdrawn(let team): return words(.auditTeamWithdrawn, ["team": "\(team)"])
        case .swissRoundPaired(let pairing):
            let text = words(
                .auditSwissPaired,
                [
                    "round": "\(pairing.round)", "group": pairing.group,
                    "games": list(pairing.games.map { versus("\($0.home)", "\($0.away)") }),
                ])
            return pairing.bye.map { words(.auditSwissBye, ["text": text, "team": "\($0)"]) } ?? text
        case .drawPublished(let draw):
            let text = words(
                .auditDrawPublished,
                [
                    "subject": "\(draw.subject)", "teams": words.number(draw.schedule.teams.count),
                    "games": words.number(draw.schedule.games.count),
                ])
            return draw.randomSeed.map { words(.auditRandomSeed, ["text": text, "seed": "\($0)"]) } ?? text
        }
    }
}
