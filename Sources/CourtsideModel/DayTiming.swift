/// How the day is paced: a game's length on the day's clock, the changeover between two games
/// on a court, and the least rest a team has between its games. The planner fits the schedule
/// to these, and the estimates of a day that slips follow them.
public struct DayTiming: Hashable, Codable, Sendable {
    public var gameMinutes: Int
    public var changeoverMinutes: Int
    public var restMinutes: Int

    public init(gameMinutes: Int, changeoverMinutes: Int = 0, restMinutes: Int = 0) {
        (self.gameMinutes, self.changeoverMinutes, self.restMinutes) = (gameMinutes, changeoverMinutes, restMinutes)
    }

    enum CodingKeys: String, CodingKey {
        case gameMinutes = "game_minutes"
        case changeoverMinutes = "changeover_minutes"
        case restMinutes = "rest_minutes"
    }

    /// A game and its changeover: how far apart two games on one court start.
    public var slotMinutes: Int { gameMinutes + changeoverMinutes }

    /// Why the timing cannot pace a day, or nil: a game of 1 to 600 minutes, a changeover and a
    /// rest of 0 to 600.
    public var problem: String? {
        if !(1...600).contains(gameMinutes) { return "game_minutes must be between 1 and 600" }
        if !(0...600).contains(changeoverMinutes) { return "changeover_minutes must be between 0 and 600" }
        if !(0...600).contains(restMinutes) { return "rest_minutes must be between 0 and 600" }
        return nil
    }
}

extension DayTiming: JSONWritable {
    public func writeJSON(to writer: inout JSONWriter) {
        writer.beginObject()
        writer.key("changeover_minutes")
        writer.value(changeoverMinutes)
        writer.key("game_minutes")
        writer.value(gameMinutes)
        writer.key("rest_minutes")
        writer.value(restMinutes)
        writer.endObject()
    }
}
