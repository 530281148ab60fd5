import CourtsideFormats
public import CourtsideModel

extension GameLibrary {
    /// Pairs the next round of each Swiss group whose earlier rounds are all final, each
    /// pairing one durable tournament change (``TournamentChange/swissRoundPaired(_:)``) whose
    /// games the bracket then creates. The origin names the group and the round, so a round is
    /// paired once, even when two advances race or a crash comes between. Whether one was paired.
    func pairSwissRounds(_ schedule: Schedule) async -> Bool {
        let groups = schedule.swissGroups
        guard !groups.isEmpty else { return false }
        let games = view.snapshot().value.byID
        var paired = false
        for group in groups {
            do {
                guard let pairing = try schedule.nextSwissPairing(of: group, games: games) else { continue }
                let origin = CommandOrigin(clientID: Self.bracketClientID, commandID: "swiss:\(group):\(pairing.round)")
                try await change(.swissRoundPaired(pairing), origin: origin)
                logger.notice(
                    "paired round \(pairing.round) of Swiss group \(group)",
                    metadata: ["games": "\(pairing.games.count)", "bye": "\(pairing.bye?.rawValue ?? "none")"])
                paired = true
            } catch {
                logger.error(
                    "could not pair the next round of Swiss group \(group)",
                    metadata: ["error": "\(error)", "group": "\(group)"])
            }
        }
        return paired
    }
}
