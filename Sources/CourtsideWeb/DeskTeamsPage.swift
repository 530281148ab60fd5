import CourtsideLocalization
import CourtsideModel
import CourtsideProtocol

/// The desk's teams page: every team with its players and its group, as the tournament stands
/// (its setup, every change laid over the config), and what the forms to register a team or
/// add a player offer. Built from the daemon's `tournament` reply, so it is tested without one.
struct DeskTeamsPage {
    struct PlayerLine {
        /// The player's team: its rename form names it.
        var team: String
        var id: String
        var name: String
        /// Marked inactive by the organiser: their moves stay, new ones are refused.
        var inactive: Bool
        /// What the player's toggle sets `active` to (stored: templates read stored fields only).
        var setsActive: String
        /// How a screen reader names the rename field: "new name of ann".
        var renameLabel: String

        init(team: String, id: String, name: String, inactive: Bool, words: Words = .english) {
            (self.team, self.id, self.name, self.inactive) = (team, id, name, inactive)
            setsActive = inactive ? "true" : "false"
            renameLabel = words(.deskTeamsRenameLabel, ["player": id])
        }
    }

    struct TeamCard {
        var id: String
        var name: String
        /// The group's name, when the team is in one.
        var group: String?
        var players: [PlayerLine]
        /// How a screen reader names the new player's fields: "new player's id for Lions".
        var newIDLabel: String
        var newNameLabel: String
    }

    /// A choice of a form's list.
    struct Option: Equatable {
        var value: String
        var label: String
    }

    var lang: String
    var title: String
    var notice: DeskNotice?
    /// Why the tournament could not be read: the page then has no teams and no forms.
    var unreadable: String?
    /// The same in a sentence: "The tournament could not be read: ...".
    var unreadableText: String?
    var t: [String: String]
    var picker: LanguagePicker.Picker
    var teams: [TeamCard] = []
    /// The groups a new team may join (the first choice: none).
    var groups: [Option] = []
    /// The divisions a new team may enter (the first choice: its group's); empty without divisions.
    var divisions: [Option] = []
    /// Whether the form asks for a division (the template reads stored values only).
    var hasDivisions = false

    /// The page of the tournament as it stands, in the order of its teams; or, when it could not
    /// be read, why, and nothing to change.
    /// Every word in `words`' language.
    init(_ tournament: Result<TournamentSetup, CourtsideError>, notice: DeskNotice?, words: Words = .english) {
        (lang, title, t) = (words.language.code, words(.deskTeamsTitle), DeskWords.table(words))
        picker = LanguagePicker.picker(words, back: "/desk/teams")
        self.notice = notice
        unreadable = tournament.unreadable(words)
        unreadableText = unreadable.map { words(.deskUnreadable, ["reason": $0]) }
        guard case .success(let setup) = tournament else { return }
        teams = setup.teams.map { team in
            TeamCard(
                id: team.id.rawValue, name: team.name,
                group: setup.groups.first { $0.teams.contains(team.id) }?.name,
                players: team.players.map { player in
                    PlayerLine(
                        team: team.id.rawValue, id: player.id.rawValue, name: player.name,
                        inactive: setup.inactivePlayers?.contains(player.id) == true, words: words)
                },
                newIDLabel: words(.deskTeamsNewIDLabel, ["team": team.name]),
                newNameLabel: words(.deskTeamsNewNameLabel, ["team": team.name]))
        }
        groups = [Option(value: "", label: words(.deskNoGroup))] + setup.groups.map { Option(value: $0.id, label: $0.name) }
        if let divisions = setup.divisions, !divisions.isEmpty {
            self.divisions =
                [Option(value: "", label: words(.deskTeamsGroupDefault))] + divisions.map { Option(value: $0.id, label: $0.name) }
            hasDivisions = true
        }
    }
}
