// The tournament's tables as JSONWriter writes them: slots, the bracket, the standings, with
// the same bytes as their Codable conformances (FastEncodingTests hold them to Foundation's).

extension Slot: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .team(let team):
            writer.key("team")
            writer.value(team)
        case .winner(let game):
            writer.key("winner_of")
            writer.value(game)
        case .loser(let game):
            writer.key("loser_of")
            writer.value(game)
        case .groupRank(let group, let rank):
            writer.key("group")
            writer.value(group)
            writer.key("rank")
            writer.value(rank)
        case .bestOfRank(let rank, let place, let groups):
            writer.key("best_of_rank")
            writer.value(rank)
            writer.key("groups")
            writer.beginArray()
            for group in groups { writer.value(group) }
            writer.endArray()
            writer.key("place")
            writer.value(place)
        case .swissPairing(let group, let round, let pairing, let side):
            writer.key("pairing")
            writer.value(pairing)
            writer.key("round")
            writer.value(round)
            writer.key("side")
            writer.value(side.rawValue)
            writer.key("swiss")
            writer.value(group)
        }
        writer.endObject()
    }
}

extension BracketEntry: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("away")
        writer.value(away)
        if let awayTeam {
            writer.key("away_team")
            writer.value(awayTeam)
        }
        if let court {
            writer.key("court")
            writer.value(court)
        }
        if let division {
            writer.key("division")
            writer.value(division)
        }
        writer.key("game")
        writer.value(game)
        if let group {
            writer.key("group")
            writer.value(group)
        }
        writer.key("home")
        writer.value(home)
        if let homeTeam {
            writer.key("home_team")
            writer.value(homeTeam)
        }
        if let round {
            writer.key("round")
            writer.value(round)
        }
        if let score {
            writer.key("score")
            writer.value(score)
        }
        if let start {
            writer.key("start")
            writer.value(start)
        }
        writer.key("state")
        writer.value(state)
        if let winner {
            writer.key("winner")
            writer.value(winner)
        }
        writer.endObject()
    }
}

extension StandingRow: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("difference")
        writer.value(difference)
        writer.key("lost")
        writer.value(lost)
        writer.key("name")
        writer.value(name)
        writer.key("played")
        writer.value(played)
        writer.key("points_against")
        writer.value(pointsAgainst)
        writer.key("points_for")
        writer.value(pointsFor)
        writer.key("rank")
        writer.value(rank)
        writer.key("team")
        writer.value(team)
        writer.key("won")
        writer.value(won)
        writer.endObject()
    }
}

extension GroupStandings: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("complete")
        writer.value(complete)
        if let division {
            writer.key("division")
            writer.value(division)
        }
        writer.key("group")
        writer.value(group)
        writer.key("name")
        writer.value(name)
        writer.key("rows")
        writer.value(rows)
        writer.endObject()
    }
}

extension TieBreaker: JSONWritable {}

extension Group: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if let division {
            writer.key("division")
            writer.value(division)
        }
        writer.key("id")
        writer.value(id)
        writer.key("name")
        writer.value(name)
        writer.key("teams")
        writer.value(teams)
        writer.endObject()
    }
}

extension Division: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.value(id)
        writer.key("name")
        writer.value(name)
        writer.key("teams")
        writer.value(teams)
        if let tieBreakers {
            writer.key("tie_breakers")
            writer.value(tieBreakers)
        }
        writer.endObject()
    }
}
