public import CourtsideLocalization
public import CourtsideModel

extension Slot {
    /// The slot in `words`' language, as ``Slot/description`` says it in English: "winner of g1",
    /// "g1の勝者", "A조 1위". A known team's slot is its id: the caller names the team.
    public func words(_ words: Words) -> String {
        switch self {
        case .team(let team):
            return team.rawValue
        case .winner(let game):
            return words(.slotWinner, ["game": game.rawValue])
        case .loser(let game):
            return words(.slotLoser, ["game": game.rawValue])
        case .groupRank(let group, let rank):
            // English writes the rank as an ordinal ("1st"); a catalog picks {ordinal} or {rank}.
            return words(.slotGroupRank, ["group": group, "rank": words.number(rank), "ordinal": Self.english(rank)])
        case .bestOfRank(let rank, let place, let groups):
            let values = [
                "rank": words.number(rank), "ordinal": Self.english(rank), "place": words.number(place),
                "placeOrdinal": Self.english(place), "groups": groups.joined(separator: ", "),
            ]
            return words(place == 1 ? .slotBestOfRank : .slotBestOfRankPlace, values)
        case .swissPairing(let group, let round, let pairing, let side):
            return words(
                .slotSwiss,
                [
                    "side": words(side == .home ? .sideHome : .sideAway), "round": words.number(round),
                    "pairing": words.number(pairing), "group": group,
                ])
        }
    }

    private static func english(_ number: Int) -> String { "\(number)\(ordinal(number))" }
}
