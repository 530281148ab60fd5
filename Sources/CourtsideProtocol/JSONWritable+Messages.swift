// The protocol's messages as JSONWriter writes them, byte for byte what their Codable
// conformances give through WireCoding (see CourtsideModel's JSONWritable+Model.swift).

public import CourtsideModel

extension LiveState: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        Self.write(
            version: version, score: score, counts: counts, clock: clock, status: status, winner: winner,
            endReason: endReason, timeExpired: timeExpired, overtimeTargets: overtimeTargets, teamFouls: teamFouls,
            timeoutsUsed: timeoutsUsed, startedAt: startedAt, endedAt: endedAt, to: &writer)
    }

    /// The JSON of `LiveState(game)`, written from the game itself.
    static func writeJSON(of game: borrowing Game, to writer: inout JSONWriter) {
        write(
            version: game.version, score: game.score, counts: game.counts, clock: game.clock,
            status: game.status,
            winner: game.winner, endReason: game.endReason, timeExpired: game.timeExpired,
            overtimeTargets: game.overtimeTargets, teamFouls: game.teamFouls, timeoutsUsed: game.timeoutsUsed,
            startedAt: game.startedAt, endedAt: game.endedAt, to: &writer)
    }

    private static func write(
        version: Int, score: SideValues, counts: PlayerCounts, clock: GameClock, status: GameStatus,
        winner: Side?, endReason: EndReason?, timeExpired: Bool, overtimeTargets: SideValues?, teamFouls: SideValues,
        timeoutsUsed: SideValues, startedAt: Timestamp?, endedAt: Timestamp?, to writer: inout JSONWriter
    ) {
        writer.beginObject()
        writer.key("clock")
        writer.value(clock)
        writer.key("counts")
        counts.writeJSON(to: &writer)
        if let endReason {
            writer.key("end_reason")
            writer.value(endReason)
        }
        if let endedAt {
            writer.key("ended_at")
            writer.value(endedAt)
        }
        if let overtimeTargets {
            writer.key("overtime_targets")
            writer.value(overtimeTargets)
        }
        writer.key("score")
        writer.value(score)
        if let startedAt {
            writer.key("started_at")
            writer.value(startedAt)
        }
        writer.key("status")
        writer.value(status)
        writer.key("team_fouls")
        writer.value(teamFouls)
        writer.key("time_expired")
        writer.value(timeExpired)
        writer.key("timeouts_used")
        writer.value(timeoutsUsed)
        writer.key("version")
        writer.value(version)
        if let winner {
            writer.key("winner")
            writer.value(winner)
        }
        writer.endObject()
    }
}

extension EventMessage: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        Self.write(
            at: at, epoch: epoch, kind: event, game: game, origin: origin, sequence: sequence, type: type,
            version: version, to: &writer
        ) { writer in writer.value(state) }
    }

    /// The JSON of `EventMessage(epoch:event:game:)`, the same bytes, written straight from the
    /// event and the game: the publisher writes one per event, and building the message first
    /// would copy every string of the event and the game's counts, only to drop them.
    public static func json(epoch: String, event: borrowing GameEvent, game: borrowing Game) -> [UInt8] {
        JSONWriter.written { append(epoch: epoch, event: event, game: game, to: &$0) }
    }

    /// As ``json(epoch:event:game:)``, appended to what `writer` holds: a publisher writes a
    /// commit's events one after another in one buffer, and hands it over whole.
    public static func append(epoch: String, event: borrowing GameEvent, game: borrowing Game, to writer: inout JSONWriter) {
        writer.startNextValue()
        write(
            at: event.at, epoch: epoch, kind: event.kind, game: event.gameID, origin: event.origin,
            sequence: event.sequence, type: "event", version: event.version, to: &writer
        ) { writer in LiveState.writeJSON(of: game, to: &writer) }
    }

    private static func write(
        at: Timestamp, epoch: String, kind: GameEvent.Kind, game: GameID, origin: CommandOrigin, sequence: Int64,
        type: String, version: Int, to writer: inout JSONWriter, state: (inout JSONWriter) -> Void
    ) {
        writer.beginObject()
        writer.key("at")
        writer.value(at)
        writer.key("epoch")
        writer.value(epoch)
        writer.key("event")
        writer.value(kind)
        writer.key("game")
        writer.value(game)
        writer.key("origin")
        writer.value(origin)
        writer.key("sequence")
        writer.value(sequence)
        writer.key("state")
        state(&writer)
        writer.key("type")
        writer.value(type)
        writer.key("version")
        writer.value(version)
        writer.endObject()
    }
}

extension TournamentEventMessage: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("at")
        writer.value(at)
        writer.key("change")
        writer.value(change)
        writer.key("epoch")
        writer.value(epoch)
        writer.key("origin")
        writer.value(origin)
        if let reason {
            writer.key("reason")
            writer.value(reason)
        }
        writer.key("sequence")
        writer.value(sequence)
        writer.key("type")
        writer.value(type)
        writer.key("version")
        writer.value(version)
        writer.endObject()
    }
}

extension StandingsMessage: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("epoch")
        writer.value(epoch)
        writer.key("groups")
        writer.value(groups)
        writer.key("sequence")
        writer.value(sequence)
        writer.key("type")
        writer.value(type)
        writer.endObject()
    }
}

extension BracketMessage: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("epoch")
        writer.value(epoch)
        writer.key("games")
        writer.value(games)
        writer.key("sequence")
        writer.value(sequence)
        writer.key("type")
        writer.value(type)
        writer.endObject()
    }
}

extension GameSummary.TeamName: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.value(id)
        writer.key("name")
        writer.value(name)
        writer.endObject()
    }
}

extension GameSummary: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("away")
        writer.value(away)
        if let court {
            writer.key("court")
            writer.value(court)
        }
        writer.key("game")
        writer.value(game)
        writer.key("home")
        writer.value(home)
        writer.key("state")
        writer.value(state)
        writer.endObject()
    }
}

extension ErrorBody: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("code")
        writer.value(code)
        writer.key("message")
        writer.value(message)
        writer.endObject()
    }
}

extension Reply: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if let bracket {
            writer.key("bracket")
            writer.value(bracket)
        }
        if let commandID {
            writer.key("command_id")
            writer.value(commandID)
        }
        writer.key("epoch")
        writer.value(epoch)
        if let error {
            writer.key("error")
            writer.value(error)
        }
        if let events {
            writer.key("events")
            writer.value(events)
        }
        if let game {
            writer.key("game")
            writer.value(game)
        }
        if let games {
            writer.key("games")
            writer.value(games)
        }
        writer.key("ok")
        writer.value(ok)
        if let sequence {
            writer.key("sequence")
            writer.value(sequence)
        }
        if let snapshot {
            writer.key("snapshot")
            writer.value(snapshot)
        }
        if let standings {
            writer.key("standings")
            writer.value(standings)
        }
        if let tournament {
            writer.key("tournament")
            writer.value(tournament)
        }
        if let version {
            writer.key("version")
            writer.value(version)
        }
        writer.endObject()
    }
}

extension HeartbeatMessage: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("at")
        writer.value(at)
        if let bracketSequence {
            writer.key("bracket_sequence")
            writer.value(bracketSequence)
        }
        writer.key("epoch")
        writer.value(epoch)
        writer.key("protocol")
        writer.value(`protocol`)
        writer.key("sequence")
        writer.value(sequence)
        if let standingsSequence {
            writer.key("standings_sequence")
            writer.value(standingsSequence)
        }
        writer.key("type")
        writer.value(type)
        writer.endObject()
    }
}

extension GameBeatMessage: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("epoch")
        writer.value(epoch)
        writer.key("game")
        writer.value(game)
        writer.key("type")
        writer.value(type)
        writer.key("version")
        writer.value(version)
        writer.endObject()
    }
}
