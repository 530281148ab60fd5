import Hummingbird

/// The desk's teams, behind its sign-in: every team with its players as the tournament stands,
/// and a player added or renamed or a team registered, each confirmed first (review, then
/// confirm) and refused from another site, as `courtside team add` and `courtside player` do
/// from a shell.
extension DeskGateway {
    /// Adds `/desk/teams`, `POST /desk/teams/review` and `POST /desk/teams/confirm`.
    func addTeamRoutes(to router: RouteCollection<GatewayRequestContext>) {
        addChangePage(.teams, to: router) { tournament, notice, words in
            Pages.render("desk-teams", DeskTeamsPage(tournament, notice: notice, words: words))
        }
    }
}
