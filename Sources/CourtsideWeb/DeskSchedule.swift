import Hummingbird

/// The desk's schedule, behind its sign-in: every scheduled game by round, whether it has
/// started, and a game not started moved (court, start, teams the schedule names) or a game
/// added, each confirmed first (review, then confirm) and refused from another site, as
/// `courtside game move` and `courtside game add` do from a shell.
extension DeskGateway {
    /// Adds `/desk/schedule`, `POST /desk/schedule/review` and `POST /desk/schedule/confirm`.
    func addScheduleRoutes(to router: RouteCollection<GatewayRequestContext>) {
        addChangePage(.schedule, to: router) { tournament, notice, words in
            // Whether a game has started is the gateway's view of it, as every screen shows it.
            Pages.render(
                "desk-schedule", DeskSchedulePage(tournament, games: self.live.current.games, notice: notice, words: words))
        }
    }
}
