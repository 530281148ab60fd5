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

    /// A compact score bug on a transparent background, for a stream's browser source.
    static func overlay(_ view: LiveTournament.View, game id: GameID) -> String {
        let summary = view.games[id].map(GameSummary.init)
        return page(
            title: "Courtside overlay: \(escape(id.rawValue))", kind: "overlay", game: id, inSync: view.inSync,
            body: """
                <main class="bug">
                  <span class="name" data-field="home">\(escape(summary?.home.name ?? "…"))</span>
                  <span class="score" data-field="score-home">\(summary.map { String($0.state.score.home) } ?? "–")</span>
                  <span class="clock" data-field="clock">\(summary.map { clock($0.state.clock.accumulated) } ?? "")</span>
                  <span class="score" data-field="score-away">\(summary.map { String($0.state.score.away) } ?? "–")</span>
                  <span class="name" data-field="away">\(escape(summary?.away.name ?? "…"))</span>
                </main>
                """)
    }

    /// The box score: every player's counts, refreshed whenever the game changes.
    static func box(_ view: LiveTournament.View, game id: GameID) -> String {
        guard let game = view.games[id] else {
            return page(
                title: "Courtside: \(escape(id.rawValue))", kind: "box", game: id, inSync: view.inSync,
                body: "<main><h1>\(escape(id.rawValue))</h1><p>No such game yet.</p></main>")
        }
        func team(_ team: Team, _ side: Side) -> String {
            let rows = team.players.map { player -> String in
                let c = game.counts[player.id] ?? MoveCounts()
                let points = c.onePoint + 2 * c.twoPoints + c.freeThrow
                return "<tr><td>\(escape(player.name))</td><td>\(c.onePoint)</td><td>\(c.twoPoints)</td><td>\(c.freeThrow)</td>"
                    + "<td>\(c.assist)</td><td>\(c.rebound)</td><td>\(c.foul)</td><td class=\"score\">\(points)</td></tr>"
            }
            return """
                <h2>\(escape(team.name)) \(side == .home ? game.score.home : game.score.away)</h2>
                <table><thead><tr><th>Player</th><th>1PT</th><th>2PT</th><th>FT</th><th>AST</th><th>REB</th><th>PF</th><th>PTS</th></tr></thead>
                <tbody>\(rows.joined())</tbody></table>
                """
        }
        return page(
            title: "Courtside: box score \(escape(id.rawValue))", kind: "box", game: id, inSync: view.inSync,
            body:
                "<main id=\"live\"><h1>\(escape(id.rawValue)) box score</h1>\(team(game.setup.home, .home))\(team(game.setup.away, .away))</main>"
        )
    }

    /// Schedule, standings and bracket, refreshed whenever they change.
    static func results(_ view: LiveTournament.View) -> String {
        let groups = view.standings.map { group -> String in
            let rows = group.rows.map {
                "<tr><td>\($0.rank)</td><td>\(escape($0.name))</td><td>\($0.played)</td><td>\($0.won)</td><td>\($0.lost)</td>"
                    + "<td>\($0.pointsFor)</td><td>\($0.pointsAgainst)</td><td>\($0.difference)</td></tr>"
            }
            return """
                <h2>\(escape(group.name))\(group.complete ? " (final)" : "")</h2>
                <table><thead><tr><th>#</th><th>Team</th><th>P</th><th>W</th><th>L</th><th>PF</th><th>PA</th><th>+/-</th></tr></thead>
                <tbody>\(rows.joined())</tbody></table>
                """
        }
        let name = { (id: TeamID?) in
            id.flatMap { team in view.games.values.lazy.flatMap { [$0.setup.home, $0.setup.away] }.first { $0.id == team }?.name }
        }
        let games = view.bracket.map { entry -> String in
            let home = name(entry.homeTeam) ?? "\(entry.home)"
            let away = name(entry.awayTeam) ?? "\(entry.away)"
            let score = entry.score.map { "\($0.home) - \($0.away)" } ?? ""
            return "<tr><td>\(escape(entry.round ?? entry.group ?? ""))</td><td>\(escape(entry.game.rawValue))</td>"
                + "<td>\(escape(entry.court ?? ""))</td><td>\(escape(entry.start ?? ""))</td><td>\(escape(home))</td>"
                + "<td class=\"score\">\(score)</td><td>\(escape(away))</td><td>\(entry.state.rawValue)</td></tr>"
        }
        return page(
            title: "Courtside: results", kind: "results", game: nil, inSync: view.inSync,
            body: """
                <main id="live"><h1>Schedule</h1>
                <table><thead><tr><th>Round</th><th>Game</th><th>Court</th><th>Start</th><th>Home</th><th>Score</th><th>Away</th><th>State</th></tr></thead>
                <tbody>\(games.joined())</tbody></table>
                \(groups.joined())</main>
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
        body.overlay { background: transparent; margin: 0; }
        .bug { display: inline-flex; gap: 0.8rem; align-items: center; background: rgba(10, 10, 10, 0.85); padding: 0.3rem 0.9rem;
               border-radius: 0.4rem; font-size: 1.6rem; font-weight: bold; font-variant-numeric: tabular-nums; }
        .bug .clock { color: #fc6; }
        h2 { margin-top: 1.5rem; }
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
            if (plays && f("plays")) {
              const list = f("plays"); list.textContent = "";
              for (const p of plays.slice().reverse()) {
                const li = document.createElement("li"); li.textContent = p; list.appendChild(li);
              }
            }
          }
          // Box score and results are rendered by the server: fetch the page again and swap it in.
          let refreshing = false;
          async function refresh() {
            if (refreshing) return; refreshing = true;
            try {
              const html = await (await fetch(location.href, { cache: "no-store" })).text();
              const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
              const live = document.getElementById("live");
              if (fresh && live) live.replaceWith(fresh);
            } finally { refreshing = false; }
          }
          const draw = (plays) => kind === "court" || kind === "overlay" ? drawCourt(plays) : kind === "all" ? drawAll() : refresh();
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
              if (kind === "all" || m.game === only) draw(plays.slice(-8));
            });
            source.addEventListener("sync", (e) => stale(!JSON.parse(e.data).in_sync));
            source.addEventListener("tables", () => { if (kind === "results") refresh(); });
            // A lost connection shows nothing it cannot vouch for until the next full state.
            source.onerror = () => stale(true);
          }
          connect();
          // The running clock is redrawn from state.clock; server-rendered pages need no ticking.
          setInterval(() => { if (!body.classList.contains("stale") && (kind === "all" || kind === "court" || kind === "overlay")) draw(); }, 100);
        })();
        """
}
