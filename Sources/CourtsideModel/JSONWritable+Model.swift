// The model's values as JSONWriter writes them: the same bytes as their Codable conformances
// through WireCoding. Keys are written in sorted order (by UTF-8 bytes); an optional field is
// left out when nil, as synthesized `encodeIfPresent` does. Tests/CourtsideProtocolTests/
// FastEncodingTests.swift holds each of them to Foundation's output.

// MARK: Single values

extension JSONWritable where Self: RawRepresentable, RawValue == String {
    public func writeJSON(to writer: inout JSONWriter) { writer.value(rawValue) }
}

extension Identifier: JSONWritable {}
extension Side: JSONWritable {}
extension GameStatus: JSONWritable {}
extension EndReason: JSONWritable {}
extension EarlyResult: JSONWritable {}
extension MoveKind: JSONWritable {}
extension BracketState: JSONWritable {}
extension TimeLimit.AtTime: JSONWritable {}
extension CourtsideError.Code: JSONWritable {}

extension Timestamp: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) { writer.value(rawValue) }
}

// MARK: Objects

extension SideValues: JSONWritable {
    /// Each key and its number in one reservation: three of these are in every event.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("away", value: away)
        writer.key("home", value: home)
        writer.endObject()
    }
}

extension MoveCounts: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("assist", value: assist)
        writer.key("foul", value: foul)
        writer.key("free_throw", value: freeThrow)
        writer.key("one_point", value: onePoint)
        writer.key("rebound", value: rebound)
        writer.key("two_points", value: twoPoints)
        writer.endObject()
    }
}

extension PlayerCounts: JSONWritable {
    /// An object keyed by the players' ids, written in the order the counts hold them, which is
    /// the order of `.sortedKeys`.
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        for (player, counts) in self {
            writer.key(player.rawValue)
            counts.writeJSON(to: &writer)
        }
        writer.endObject()
    }
}

extension GameClock: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("accumulated_ms")
        writer.value(accumulated)
        if let runningSince {
            writer.key("running_since")
            writer.value(runningSince)
        }
        writer.endObject()
    }
}

extension CommandOrigin: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("client_id")
        writer.value(clientID)
        writer.key("command_id")
        writer.value(commandID)
        writer.endObject()
    }
}

extension Player: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.value(id)
        writer.key("name")
        writer.value(name)
        writer.endObject()
    }
}

extension Team: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("id")
        writer.value(id)
        writer.key("name")
        writer.value(name)
        writer.key("players")
        writer.value(players)
        writer.endObject()
    }
}

extension TimeLimit: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("at_time")
        writer.value(atTime)
        writer.key("milliseconds")
        writer.value(milliseconds)
        writer.key("overtime_points")
        writer.value(overtimePoints)
        writer.endObject()
    }
}

extension TeamFoulRules: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("free_throws_from")
        writer.value(freeThrowsFrom)
        writer.key("possession_from")
        writer.value(possessionFrom)
        writer.endObject()
    }
}

extension RuleSet: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        if let forfeitScore {
            writer.key("forfeit_score")
            writer.value(forfeitScore)
        }
        if let hardCap {
            writer.key("hard_cap")
            writer.value(hardCap)
        }
        if let preset {
            writer.key("preset")
            writer.value(preset)
        }
        if let shotClockSeconds {
            writer.key("shot_clock_seconds")
            writer.value(shotClockSeconds)
        }
        writer.key("target_score")
        writer.value(targetScore)
        if let teamFouls {
            writer.key("team_fouls")
            writer.value(teamFouls)
        }
        if let timeLimit {
            writer.key("time_limit")
            writer.value(timeLimit)
        }
        if let timeoutsPerTeam {
            writer.key("timeouts_per_team")
            writer.value(timeoutsPerTeam)
        }
        writer.key("win_by")
        writer.value(winBy)
        writer.endObject()
    }
}

extension GameSetup: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("away")
        writer.value(away)
        if let court {
            writer.key("court")
            writer.value(court)
        }
        writer.key("home")
        writer.value(home)
        writer.key("id")
        writer.value(id)
        writer.key("rules")
        writer.value(rules)
        writer.endObject()
    }
}

extension Play: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("at")
        writer.value(at)
        writer.key("move")
        writer.value(move)
        writer.key("player")
        writer.value(player)
        if let retractedBy {
            writer.key("retracted_by")
            writer.value(retractedBy)
        }
        writer.key("side")
        writer.value(side)
        writer.key("version")
        writer.value(version)
        writer.endObject()
    }
}

extension PlayHistory: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginArray()
        for play in self { play.writeJSON(to: &writer) }
        writer.endArray()
    }
}

extension Game: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("clock")
        writer.value(clock)
        writer.key("counts")
        writer.value(counts)
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
        writer.key("plays")
        writer.value(plays)
        writer.key("score")
        writer.value(score)
        writer.key("setup")
        writer.value(setup)
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

extension GameEvent.Kind: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        switch self {
        case .gameCreated(let setup):
            writer.key("setup")
            writer.value(setup)
        case .move(let player, let move):
            writer.key("move")
            writer.value(move)
            writer.key("player")
            writer.value(player)
        case .retraction(let targetVersion, let reason):
            if let reason {
                writer.key("reason")
                writer.value(reason)
            }
            writer.key("target_version")
            writer.value(targetVersion)
        case .timeout(let side):
            writer.key("side")
            writer.value(side)
        case .teamsAssigned(let home, let away):
            writer.key("away")
            writer.value(away)
            writer.key("home")
            writer.value(home)
        case .forfeit(let side, let reason):
            if let reason {
                writer.key("reason")
                writer.value(reason)
            }
            writer.key("side")
            writer.value(side)
        case .ended(let result, let reason):
            writer.key("reason")
            writer.value(reason)
            writer.key("result")
            writer.value(result)
        case .setupChanged(let court, let rules):
            if let court {
                writer.key("court")
                writer.value(court)
            }
            writer.key("rules")
            writer.value(rules)
        case .tournamentChanged(let change, let reason):
            writer.key("change")
            writer.value(change)
            if let reason {
                writer.key("reason")
                writer.value(reason)
            }
        case .clockStarted, .clockPaused, .timeExpired: break
        }
        writer.key("type")
        writer.value(typeName)
        writer.endObject()
    }
}

extension GameEvent: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("at")
        writer.value(at)
        writer.key("game")
        writer.value(gameID)
        writer.key("kind")
        writer.value(kind)
        writer.key("origin")
        writer.value(origin)
        writer.key("sequence")
        writer.value(sequence)
        writer.key("version")
        writer.value(version)
        writer.endObject()
    }
}
