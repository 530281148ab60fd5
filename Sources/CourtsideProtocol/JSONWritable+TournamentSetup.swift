public import CourtsideModel

// The `tournament` read's answer written as Foundation would, with sorted keys: a Reply writes
// its own JSON, so every value in it does too.

extension TournamentSetup.SetupGame: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("away")
        writer.value(away)
        if let court {
            writer.key("court")
            writer.value(court)
        }
        if let division {
            writer.key("division")
            writer.value(division)
        }
        if let group {
            writer.key("group")
            writer.value(group)
        }
        writer.key("home")
        writer.value(home)
        writer.key("id")
        writer.value(id)
        if let playedIf {
            writer.key("played_if")
            writer.value(playedIf)
        }
        writer.key("rules")
        writer.value(rules)
        if let start {
            writer.key("start")
            writer.value(start)
        }
        writer.endObject()
    }
}

extension TournamentSetup.Round: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("games")
        writer.value(games)
        writer.key("name")
        writer.value(name)
        writer.endObject()
    }
}

extension TournamentSetup: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("courts")
        writer.value(courts)
        if let divisions {
            writer.key("divisions")
            writer.value(divisions)
        }
        writer.key("games")
        writer.value(games)
        writer.key("groups")
        writer.value(groups)
        if let inactivePlayers {
            writer.key("inactive_players")
            writer.value(inactivePlayers)
        }
        if let language {
            writer.key("language")
            writer.value(language)
        }
        writer.key("rounds")
        writer.value(rounds)
        if let seeds {
            writer.key("seeds")
            writer.value(seeds)
        }
        if let swissByes {
            writer.key("swiss_byes")
            writer.value(swissByes)
        }
        writer.key("teams")
        writer.value(teams)
        writer.key("tie_breakers")
        writer.value(tieBreakers)
        if let timing {
            writer.key("timing")
            writer.value(timing)
        }
        writer.key("tournament")
        writer.value(tournament)
        if let withdrawn {
            writer.key("withdrawn")
            writer.value(withdrawn)
        }
        writer.endObject()
    }
}
