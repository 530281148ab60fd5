import CourtsideModel
import CourtsideProtocol

/// The pages screens show: server-rendered HTML that the page's own script keeps live from
/// `/api/events`. Everything is served from the executable: a venue's network may have no
/// internet, so there is no CDN and no build step.
enum Pages {
    /// Every game at once, for a big screen.
    static func allGames(_ view: LiveTournament.View) -> String {
        let rows = view.summaries.map(row).joined(separator: "\n")
        return page(
            title: "Courtside: every game", kind: "all", game: nil, inSync: view.inSync,
            body: """
                <h1>Every game</h1>
                <table id="games">
                <thead><tr><th>Game</th><th>Court</th><th>Home</th><th>Score</th><th>Away</th><th>Clock</th><th>Status</th></tr></thead>
                <tbody>
                \(rows)
                </tbody>
                </table>
                """)
    }

    /// One court's TV: huge digits, readable from across a gym.
    static func court(_ view: LiveTournament.View, game id: GameID) -> String {
        let summary = view.games[id].map(GameSummary.init)
        let score = summary?.state.score
        return page(
            title: "Courtside: \(escape(id.rawValue))", kind: "court", game: id, inSync: view.inSync,
            body: """
                <main class="court">
                  <div class="team home"><span class="name" data-field="home">\(escape(summary?.home.name ?? "…"))</span>
                    <span class="score" data-field="score-home">\(score.map { String($0.home) } ?? "–")</span>
                    <span class="fouls" data-field="fouls-home"></span><span class="timeouts" data-field="timeouts-home"></span></div>
                  <div class="middle"><span class="clock" data-field="clock">\(summary.map { Self.clock($0.state.clock.accumulated) } ?? "")</span>
                    <span class="status" data-field="status">\(summary.map { $0.state.status.rawValue } ?? "waiting for its teams")</span></div>
                  <div class="team away"><span class="name" data-field="away">\(escape(summary?.away.name ?? "…"))</span>
                    <span class="score" data-field="score-away">\(score.map { String($0.away) } ?? "–")</span>
                    <span class="fouls" data-field="fouls-away"></span><span class="timeouts" data-field="timeouts-away"></span></div>
                  <ol class="plays" data-field="plays"></ol>
                </main>
                """)
    }

    static func row(_ game: GameSummary) -> String {
        let winner = game.state.winner.map { $0 == .home ? game.home.name : game.away.name }
        return """
            <tr data-game="\(escape(game.game.rawValue))"><td><a href="/games/\(escape(game.game.rawValue))">\(escape(game.game.rawValue))</a></td>\
            <td>\(escape(game.court ?? ""))</td><td>\(escape(game.home.name))</td>\
            <td class="score">\(game.state.score.home) - \(game.state.score.away)</td><td>\(escape(game.away.name))</td>\
            <td class="clock">\(clock(game.state.clock.accumulated))</td>\
            <td class="status">\(winner.map { "final: \(escape($0)) wins" } ?? game.state.status.rawValue)</td></tr>
            """
    }

    static func clock(_ milliseconds: Int64) -> String {
        let seconds = milliseconds / 1000
        return String(format: "%02d:%02d", seconds / 60, seconds % 60)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func page(title: String, kind: String, game: GameID?, inSync: Bool, body: String) -> String {
        """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(title)</title><link rel="stylesheet" href="/static/style.css"></head>
        <body class="\(kind)\(inSync ? "" : " stale")" data-kind="\(kind)" data-game="\(escape(game?.rawValue ?? ""))">
        <div id="banner">reconnecting…</div>
        \(body)
        <script src="/static/app.js"></script>
        </body></html>
        """
    }

    static let style = """
        body { font-family: system-ui, sans-serif; background: #111; color: #eee; margin: 1rem; }
        body.stale main, body.stale table { opacity: 0.35; filter: grayscale(1); }
        #banner { display: none; background: #a60; color: #fff; padding: 0.5rem 1rem; font-weight: bold; }
        body.stale #banner { display: block; }
        table { border-collapse: collapse; width: 100%; font-size: 1.6rem; }
        th, td { padding: 0.4rem 0.8rem; border-bottom: 1px solid #333; text-align: left; }
        td.score { font-variant-numeric: tabular-nums; font-weight: bold; }
        a { color: #8cf; }
        main.court { display: grid; grid-template-columns: 1fr auto 1fr; align-items: center; text-align: center; }
        .court .name { display: block; font-size: 5vw; }
        .court .score { display: block; font-size: 22vw; font-weight: bold; font-variant-numeric: tabular-nums; line-height: 1; }
        .court .clock { display: block; font-size: 9vw; font-variant-numeric: tabular-nums; }
        .court .status, .court .fouls, .court .timeouts { display: block; font-size: 2.5vw; color: #bbb; }
        .court .plays { grid-column: 1 / 4; font-size: 2vw; color: #ccc; list-style: none; padding: 0; }
        """

    /// Follows `/api/events`: a full state first, then each game that changed. The clock runs
    /// from `state.clock` and the daemon's time, never from ticks.
    static let script = """
        (function () {
          const body = document.body, kind = body.dataset.kind, only = body.dataset.game;
          let games = {}, offset = 0, source = null, plays = [];
          const clock = (g) => {
            const c = g.state.clock;
            let ms = c.accumulated_ms + (c.running_since == null ? 0 : Math.max(0, Date.now() + offset - c.running_since));
            const s = Math.floor(ms / 1000);
            return String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
          };
          const status = (g) => g.state.winner ? "final: " + g[g.state.winner].name + " wins" : g.state.status;
          const text = (el, value) => { if (el && el.textContent !== value) el.textContent = value; };
          function drawAll() {
            const tbody = document.querySelector("#games tbody");
            if (!tbody) return;
            const ids = Object.keys(games).sort();
            tbody.textContent = "";
            for (const id of ids) {
              const g = games[id], tr = document.createElement("tr");
              tr.dataset.game = id;
              const cells = [id, g.court || "", g.home.name, g.state.score.home + " - " + g.state.score.away, g.away.name, clock(g), status(g)];
              cells.forEach((value, i) => {
                const td = document.createElement("td");
                if (i === 0) { const a = document.createElement("a"); a.href = "/games/" + encodeURIComponent(id); a.textContent = id; td.appendChild(a); }
                else td.textContent = value;
                td.className = ["", "", "", "score", "", "clock", "status"][i];
                tr.appendChild(td);
              });
              tbody.appendChild(tr);
            }
          }
          function drawCourt(plays) {
            const g = games[only];
            if (!g) return;
            const f = (name) => document.querySelector('[data-field="' + name + '"]');
            text(f("home"), g.home.name); text(f("away"), g.away.name);
            text(f("score-home"), String(g.state.score.home)); text(f("score-away"), String(g.state.score.away));
            text(f("clock"), clock(g)); text(f("status"), status(g));
            text(f("fouls-home"), "fouls " + g.state.team_fouls.home); text(f("fouls-away"), "fouls " + g.state.team_fouls.away);
            text(f("timeouts-home"), "time-outs used " + g.state.timeouts_used.home); text(f("timeouts-away"), "time-outs used " + g.state.timeouts_used.away);
            if (plays) {
              const list = f("plays"); list.textContent = "";
              for (const p of plays.slice().reverse()) {
                const li = document.createElement("li"); li.textContent = p; list.appendChild(li);
              }
            }
          }
          const draw = (plays) => kind === "court" ? drawCourt(plays) : drawAll();
          const stale = (yes) => body.classList.toggle("stale", yes);
          function connect() {
            source = new EventSource("/api/events");
            source.addEventListener("state", (e) => {
              const s = JSON.parse(e.data);
              games = {}; for (const g of s.games) games[g.game] = g;
              offset = s.daemon_now - Date.now();
              stale(!s.in_sync); draw();
            });
            source.addEventListener("event", (e) => {
              const m = JSON.parse(e.data), ev = m.event;
              let g = games[m.game];
              if (ev.type === "game_created") g = { game: m.game, court: ev.setup.court, home: ev.setup.home, away: ev.setup.away };
              if (ev.type === "teams_assigned") { g.home = ev.home; g.away = ev.away; }
              if (!g) return;
              g.state = m.state; games[m.game] = g;
              if (m.game === only && ev.type === "move") plays.push(ev.player + " " + ev.move.replace(/_/g, " "));
              if (m.game === only && ev.type === "retraction") plays.push("v" + ev.target_version + " retracted");
              if (kind !== "court" || m.game === only) draw(plays.slice(-8));
            });
            source.addEventListener("sync", (e) => stale(!JSON.parse(e.data).in_sync));
            // A lost connection shows nothing it cannot vouch for until the next full state.
            source.onerror = () => stale(true);
          }
          connect();
          setInterval(() => { if (!body.classList.contains("stale")) draw(); }, 100);
        })();
        """
}
