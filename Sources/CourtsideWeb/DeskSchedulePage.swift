import CourtsideClient
import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol
import CourtsideViewModels

/// The desk's schedule page: every scheduled game by round, with its court, start, teams (or
/// the slots the results fill) and whether it has started; for each game not started, what its
/// move form offers; and the choices of the form that adds a game. Built from the daemon's
/// `tournament` reply and the games the gateway follows, so it is tested without either.
struct DeskSchedulePage {
    /// A choice of a form's list.
    struct Option: Equatable {
        var value: String
        var label: String
        var selected = false
    }

    /// One side of a game: the team's name, or the slot in words ("winner of g3").
    struct Side {
        var name: String
        /// The team's id when the schedule names a team: only then may the desk change it.
        var team: String?
        /// Every team, the side's selected, when ``team`` is set.
        var teams: [Option]
    }

    struct GameRow {
        var id: String
        var court: String
        var start: String
        var group: String
        var home: Side
        var away: Side
        /// The game's state in the words of every screen (``GameViewModel/statusLabel``: "SCHEDULED",
        /// "IN PLAY", "LIVE", ...), or "not created yet" (its teams are not known).
        var state: String
        /// Whether it may still move: it has not started.
        var movable: Bool
        /// Every court, the game's selected (a blank first when it has none).
        var courts: [Option]
    }

    struct Round {
        var name: String
        var games: [GameRow]
    }

    var lang: String
    var title: String
    var notice: DeskNotice?
    /// Why the tournament could not be read: the page then has no games and no forms.
    var unreadable: String?
    /// The same in a sentence: "The tournament could not be read: ...".
    var unreadableText: String?
    var t: [String: String]
    var picker: LanguagePicker.Picker
    /// The rounds in order, then the games outside any round ("Other games", or "Games" when
    /// there are no rounds).
    var rounds: [Round] = []
    /// The add form's choices.
    var courts: [Option] = []
    var teams: [Option] = []
    var roundNames: [String] = []
    var groups: [Option] = []

    /// The page of the tournament as it stands; `games` are those the gateway follows, which say
    /// whether each game has started (a game not among them has not been created yet). When the
    /// tournament could not be read: why, and nothing to change.
    /// Every word in `words`' language.
    init(
        _ tournament: Result<TournamentSetup, CourtsideError>, games: [GameID: Game], notice: DeskNotice?,
        words: Words = .english
    ) {
        (lang, title, t) = (words.language.code, words(.deskScheduleTitle), DeskWords.table(words))
        picker = LanguagePicker.picker(words, back: "/desk/schedule")
        self.notice = notice
        unreadable = tournament.unreadable(words)
        unreadableText = unreadable.map { words(.deskUnreadable, ["reason": $0]) }
        guard case .success(let setup) = tournament else { return }
        let names = Dictionary(setup.teams.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        let allCourts = (setup.courts + (setup.rounds.flatMap(\.games) + setup.games).compactMap(\.court))
            .reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        func side(_ slot: Slot) -> Side {
            guard case .team(let id) = slot else { return Side(name: slot.words(words), team: nil, teams: []) }
            return Side(
                name: names[id] ?? id.rawValue, team: id.rawValue,
                teams: setup.teams.map { Option(value: $0.id.rawValue, label: $0.name, selected: $0.id == id) })
        }
        func row(_ game: TournamentSetup.SetupGame) -> GameRow {
            let played = games[game.id]
            // The words every other screen shows for the game (GameViewModel's), or why it has none.
            let teamsKnown = [game.home, game.away].allSatisfy { if case .team = $0 { true } else { false } }
            let state = GameViewModel.scheduleText(played, teamsKnown: teamsKnown, words: words)
            let courts =
                (game.court == nil ? [Option(value: "", label: words(.deskNoCourt), selected: true)] : [])
                + allCourts.map { Option(value: $0, label: $0, selected: $0 == game.court) }
            return GameRow(
                id: game.id.rawValue, court: game.court ?? "", start: game.start ?? "", group: game.group ?? "",
                home: side(game.home), away: side(game.away), state: state, movable: played?.hasStarted != true, courts: courts)
        }
        rounds = setup.rounds.map { Round(name: $0.name, games: $0.games.map(row)) }
        if !setup.games.isEmpty {
            rounds.append(
                Round(name: words(rounds.isEmpty ? .deskScheduleGames : .deskScheduleOther), games: setup.games.map(row)))
        }
        courts = [Option(value: "", label: words(.deskNoCourt))] + allCourts.map { Option(value: $0, label: $0) }
        teams = setup.teams.map { Option(value: $0.id.rawValue, label: $0.name) }
        roundNames = setup.rounds.map(\.name)
        groups = [Option(value: "", label: words(.deskNoGroup))] + setup.groups.map { Option(value: $0.id, label: $0.name) }
    }
}
