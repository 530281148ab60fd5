import CourtsideModel
import CourtsideViewModels
import Testing

@testable import CourtsideWeb

@Suite("The keeper's pages as the server renders them")
struct KeeperPagesTests {
    @Test("the join page: a PIN field, and what the last try came to")
    func join() {
        let plain = Pages.render("join", KeeperGateway.JoinPage(link: nil, pin: nil, seconds: nil))
        #expect(plain.contains(#"<form method="post" action="/keep/join">"#) && plain.contains(#"id="pin" name="pin""#))
        #expect(!plain.contains("join-message"))
        let wait = Pages.render("join", KeeperGateway.JoinPage(link: nil, pin: "wait", seconds: "8"))
        #expect(wait.contains("Too many wrong PINs from this device: try again in 8 s."))
        // A right PIN over the join rate is not called wrong.
        let slow = Pages.render("join", KeeperGateway.JoinPage(link: nil, pin: "slow", seconds: "3"))
        #expect(slow.contains("Too many joins at once: try again in 3 s.") && !slow.contains("wrong PINs"))
        #expect(Pages.render("join", KeeperGateway.JoinPage(link: nil, pin: "wrong", seconds: nil)).contains("check the sheet"))
        #expect(
            Pages.render("join", KeeperGateway.JoinPage(link: "expired", pin: nil, seconds: nil)).contains("no longer valid"))
    }

    @Test("the keeper page: its court, its device, and the court's games, opening on the current one")
    func keeper() {
        let lions = Team(id: "lions", name: "Lions & Co", players: [Player(id: "ann", name: "Ann")])
        let tigers = Team(id: "tigers", name: "Tigers", players: [Player(id: "di", name: "Di")])
        let games: [GameID: Game] = [
            "g1": Game(setup: GameSetup(id: "g1", home: lions, away: tigers, court: "Court 1")),
            "g3": Game(setup: GameSetup(id: "g3", home: tigers, away: lions, court: "Court 1")),
        ]
        let lineup = CourtLineup(court: "Court 1", bracket: [], games: games)
        let page = Pages.render("keeper", KeeperGateway.KeeperPage(device: "ann-s-phone-3f9a", lineup: lineup))
        #expect(page.contains(#"data-court="Court 1" data-device="ann-s-phone-3f9a""#))
        #expect(page.contains(#"<option value="g1" selected>g1: Lions &amp; Co v Tigers</option>"#), "\(page)")
        #expect(page.contains(#"<option value="g3">g3: Tigers v Lions &amp; Co</option>"#))
        #expect(
            page.contains(
                #"<button type="button" data-move="free_throw" data-text="free throw" data-spoken="free throw">FT<span class="spoken"> free throw</span></button>"#
            ), "\(page)")
        #expect(
            page.contains(
                #"<script src="/static/clock.js"></script><script src="/static/bind.js"></script><script src="/static/keeper-link.js"></script><script src="/static/keeper-outbox.js"></script><script src="/static/keeper-store.js"></script><script src="/static/keeper-draw.js"></script><script src="/static/keeper-socket.js"></script><script src="/static/keeper-post.js"></script><script src="/static/keeper.js"></script>"#
            ))
        // The connection's words are the page's; the script only picks them.
        #expect(page.contains(#"data-silent="Not hearing live updates: the score shown may be behind. Your taps still count.""#))
        #expect(
            page.contains(#"data-server="The scoring server is not answering; your taps are kept and sent when it is back.""#))
        #expect(page.contains(#"data-not-sent-server="Not sent: the scoring server is not answering.""#))
        #expect(!page.contains("no-games"))
        let empty = CourtLineup(court: "Court 9", bracket: [], games: games)
        let waiting = Pages.render("keeper", KeeperGateway.KeeperPage(device: "d", lineup: empty))
        #expect(waiting.contains("No game is on Court 9 yet"))
    }
}
