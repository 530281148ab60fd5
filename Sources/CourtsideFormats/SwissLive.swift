public import CourtsideModel

extension Schedule {
    /// The pairing of a Swiss group's next round, once every game of the rounds before it is
    /// final; nil while one is still to be played (or the group has no round left to pair).
    ///
    /// Pure: the group's teams in the order drawn (seed order) less the withdrawn, every result
    /// of the group's games paired so far (a withdrawn team's count for its opponents), and the
    /// byes recorded by the pairings before (``Schedule/swissByes``), paired by
    /// ``Formats/Swiss/nextRound(entrants:results:byes:round:prefix:roundName:)``. The round's
    /// games take the pairs in order; games left over (teams withdrew) are listed in none.
    public func nextSwissPairing(of group: String, games: some GamesByID) throws(FormatError) -> SwissRoundPairing? {
        guard let members = groups.first(where: { $0.id == group })?.teams,
            let (round, placeholders) = unpairedSwissRound(of: group)
        else { return nil }
        var results: [SwissResult] = []
        for scheduled in self.games where scheduled.group == group && scheduled.swissRound == nil {
            guard let game = games[scheduled.id], let result = SwissResult(game) else { return nil }
            results.append(result)
        }
        let entrants = members.filter { !withdrawn.contains($0) }.map { Entrant(id: $0) }
        guard entrants.count >= 2 else {
            return SwissRoundPairing(group: group, round: round, games: [], bye: entrants.first?.id)
        }
        let paired = try Formats.Swiss.nextRound(
            entrants: entrants, results: results, byes: swissByes[group] ?? [], round: round, prefix: "swiss")
        guard paired.games.count <= placeholders.count else {
            throw FormatError(
                .tooManyTeams,
                "round \(round) of group \(group) pairs \(paired.games.count) games, and the schedule has \(placeholders.count)")
        }
        let games = zip(placeholders, paired.games).compactMap { scheduled, game -> SwissRoundPairing.PairedGame? in
            guard case .team(let home) = game.home, case .team(let away) = game.away else { return nil }
            return SwissRoundPairing.PairedGame(game: scheduled.id, home: home, away: away)
        }
        return SwissRoundPairing(group: group, round: round, games: games, bye: paired.bye)
    }
}
