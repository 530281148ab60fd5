// The organiser's tournament changes, written as Foundation's sorted-keys encoder writes them
// (FastEncodingTests compare the two), since a change is an event like any other.

extension ScheduledGame: JSONWritable {
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
        if let round {
            writer.key("round")
            writer.value(round)
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

extension GameEdit: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if let away {
            writer.key("away")
            writer.value(away)
        }
        if let court {
            writer.key("court")
            writer.value(court)
        }
        writer.key("game")
        writer.value(game)
        if let home {
            writer.key("home")
            writer.value(home)
        }
        if let preset {
            writer.key("preset")
            writer.value(preset)
        }
        if let rules {
            writer.key("rules")
            writer.value(rules)
        }
        if let start {
            writer.key("start")
            writer.value(start)
        }
        writer.endObject()
    }
}

extension TournamentChange: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .teamRegistered(let team, let group, let division):
            if let division {
                writer.key("division")
                writer.value(division)
            }
            if let group {
                writer.key("group")
                writer.value(group)
            }
            writer.key("team")
            writer.value(team)
        case .playerAdded(let team, let player):
            writer.key("player")
            writer.value(player)
            writer.key("team")
            writer.value(team)
        case .playerRenamed(let team, let player, let name):
            writer.key("name")
            writer.value(name)
            writer.key("player")
            writer.value(player)
            writer.key("team")
            writer.value(team)
        case .playerActive(let team, let player, let active):
            writer.key("active")
            writer.value(active)
            writer.key("player")
            writer.value(player)
            writer.key("team")
            writer.value(team)
        case .gameScheduled(let game):
            writer.key("game")
            writer.value(game)
        case .gameEdited(let edit):
            writer.key("edit")
            writer.value(edit)
        case .drawPublished(let draw):
            writer.key("draw")
            writer.value(draw)
        case .teamWithdrawn(let team):
            writer.key("team")
            writer.value(team)
        case .swissRoundPaired(let pairing):
            writer.key("pairing")
            writer.value(pairing)
        }
        writer.key("type")
        writer.value(typeName)
        writer.endObject()
    }
}

extension SwissRoundPairing: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if let bye {
            writer.key("bye")
            writer.value(bye)
        }
        writer.key("games")
        writer.value(games)
        writer.key("group")
        writer.value(group)
        writer.key("round")
        writer.value(round)
        writer.endObject()
    }
}

extension SwissRoundPairing.PairedGame: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("away")
        writer.value(away)
        writer.key("game")
        writer.value(game)
        writer.key("home")
        writer.value(home)
        writer.endObject()
    }
}

extension PublishedDraw: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if let event {
            writer.key("event")
            writer.value(event)
        }
        if let randomSeed {
            writer.key("random_seed")
            writer.value(String(randomSeed))
        }
        writer.key("schedule")
        writer.value(schedule)
        writer.endObject()
    }
}

extension Schedule: JSONWritable {
    /// As ``Schedule/encode(to:)`` writes it, keys sorted; the inactive players in id order
    /// (Foundation writes a set in whatever order it holds).
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("courts")
        writer.value(courts)
        if !divisions.isEmpty {
            writer.key("divisions")
            writer.value(divisions)
        }
        writer.key("games")
        writer.value(games)
        writer.key("groups")
        writer.value(groups)
        writer.key("inactive_players")
        writer.value(inactivePlayers.sorted())
        writer.key("rounds")
        writer.value(rounds)
        if !seeds.isEmpty {
            writer.key("seeds")
            writer.value(seeds)
        }
        if !swissByes.isEmpty {
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
        if !withdrawn.isEmpty {
            writer.key("withdrawn")
            writer.value(withdrawn.sorted())
        }
        writer.endObject()
    }
}
