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

    /// One court's TV: huge digits, readable from across a gym; each team's fouls against the
    /// rules' tiers and its time-outs left; the last plays, those before the page opened too.
    static func court(_ view: LiveTournament.View, game id: GameID) -> String {
        let game = view.games[id]
        let summary = game.map(GameSummary.init)
        func side(_ side: Side) -> String {
            let name = side.rawValue
            // Without its game yet (a bracket slot), the fields wait empty for its game_created.
            let board = game.map { CourtSideBoard($0, side) }
            return """
                <div class="team \(name)"><span class="name" data-field="\(name)">\(escape(game?.setup.team(side).name ?? "…"))</span>
                  <span class="score" data-field="score-\(name)">\(game.map { String($0.score[side]) } ?? "–")</span>
                  <div class="fouls" data-field="fouls-\(name)" data-tier="\(board?.tier?.rawValue ?? "")">\
                <span class="label">fouls</span> <span class="count" data-field="fouls-\(name)-count">\(board.map { String($0.fouls) } ?? "")</span> \
                <span class="tier" data-field="fouls-\(name)-tier">\(board?.tierText ?? "")</span>\
                <span class="next" data-field="fouls-\(name)-next">\(board?.nextText ?? "")</span></div>
                  <div class="timeouts" data-field="timeouts-\(name)">\
                <span class="label" data-field="timeouts-\(name)-label">\(board?.timeoutsLabel ?? "time-outs")</span> \
                <span class="count" data-field="timeouts-\(name)-count">\(board.map { String($0.timeouts) } ?? "")</span> \
                <span class="pips" data-field="timeouts-\(name)-pips">\(board?.timeoutPips ?? "")</span></div></div>
                """
        }
        let plays =
            game.map { game in
                game.plays.suffix(CourtGame.recentPlays).reversed().map { play(game, $0) }.joined(separator: "\n")
            } ?? ""
        let now = Timestamp(milliseconds: view.daemonNow)
        return page(
            title: "Courtside: \(escape(id.rawValue))", kind: "court", game: id, inSync: view.inSync,
            body: """
                <main class="court">
                \(side(.home))
                  <div class="middle"><span class="clock" data-field="clock">\(game.map { clock($0.clock.elapsed(at: now)) } ?? "")</span>
                    <span class="status" data-field="status">\(summary.map(status) ?? "waiting for its teams")</span></div>
                \(side(.away))
                  <section class="last"><h2>last plays</h2><ol class="plays" data-field="plays">
                \(plays)
                  </ol></section>
                </main>
                """)
    }

    /// One line of the last plays, newest first; the script draws the same (`playItem`).
    static func play(_ game: Game, _ play: Play) -> String {
        let team = game.setup.team(play.side)
        let name = team.players.first { $0.id == play.player }?.name ?? play.player.rawValue
        let undone = play.retractedBy != nil
        return "<li class=\"\(play.side.rawValue)\(undone ? " undone" : "")\" data-version=\"\(play.version)\">"
            + "<span class=\"who\">\(escape(name))</span> <span class=\"team\">\(escape(team.name))</span> "
            + "<span class=\"what\">\(play.moveText)</span>\(undone ? " <span class=\"tag\">undone</span>" : "")</li>"
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
        let games = view.schedule.map { entry -> String in
            let home = name(entry.homeTeam) ?? "\(entry.home)"
            let away = name(entry.awayTeam) ?? "\(entry.away)"
            let score = entry.score.map { "\($0.home) - \($0.away)" } ?? ""
            return "<tr data-game=\"\(escape(entry.game.rawValue))\"><td>\(escape(entry.round ?? entry.group ?? ""))</td>"
                + "<td>\(escape(entry.game.rawValue))</td>"
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

    /// "final: Lions wins" once decided, else the status ("running").
    static func status(_ game: GameSummary) -> String {
        let winner = game.state.winner.map { $0 == .home ? game.home.name : game.away.name }
        return winner.map { "final: \(escape($0)) wins" } ?? game.state.status.rawValue
    }

    static func row(_ game: GameSummary) -> String {
        """
        <tr data-game="\(escape(game.game.rawValue))"><td><a href="/games/\(escape(game.game.rawValue))">\(escape(game.game.rawValue))</a></td>\
        <td>\(escape(game.court ?? ""))</td><td>\(escape(game.home.name))</td>\
        <td class="score">\(game.state.score.home) - \(game.state.score.away)</td><td>\(escape(game.away.name))</td>\
        <td class="clock">\(clock(game.state.clock.accumulated))</td>\
        <td class="status">\(status(game))</td></tr>
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
        main.court { --u: min(1vw, 1.78vh); display: grid; grid-template-columns: 1fr auto 1fr; grid-template-rows: auto 1fr;
               align-items: start; text-align: center; column-gap: calc(2 * var(--u)); height: calc(100vh - 2rem); overflow: hidden; }
        .court .name { display: block; font-size: calc(5 * var(--u)); font-weight: bold; }
        .court .home .name { color: #7cf; }
        .court .away .name { color: #fa7; }
        .court .score { display: block; font-size: calc(16 * var(--u)); font-weight: bold; font-variant-numeric: tabular-nums; line-height: 1; }
        .court .middle { align-self: center; }
        .court .clock { display: block; font-size: calc(9 * var(--u)); font-variant-numeric: tabular-nums; }
        .court .status { display: block; font-size: calc(2.5 * var(--u)); color: #bbb; }
        .court .fouls, .court .timeouts { display: flex; flex-wrap: wrap; justify-content: center; align-items: baseline;
               gap: 0 var(--u); margin-top: calc(0.5 * var(--u)); }
        .court .label { font-size: calc(2.2 * var(--u)); color: #aaa; text-transform: uppercase; letter-spacing: 0.05em; }
        .court .fouls .count, .court .timeouts .count { font-size: calc(4.5 * var(--u)); font-weight: bold; font-variant-numeric: tabular-nums; }
        .court .tier { font-size: calc(2.4 * var(--u)); font-weight: bold; text-transform: uppercase; padding: 0 0.5em; border-radius: 0.3em;
               background: #333; color: #bbb; }
        .court .tier:empty, .court .next:empty, .court .pips:empty { display: none; }
        .court .fouls[data-tier="two_free_throws"] .tier { background: #e9a400; color: #111; }
        .court .fouls[data-tier="two_free_throws"] .count { color: #fc3; }
        .court .fouls[data-tier="two_free_throws_and_possession"] .tier { background: #d4321e; color: #fff; }
        .court .fouls[data-tier="two_free_throws_and_possession"] .count { color: #f64; }
        .court .next { flex-basis: 100%; font-size: calc(1.8 * var(--u)); color: #999; }
        .court .pips { font-size: calc(3 * var(--u)); color: #fc6; letter-spacing: 0.1em; }
        .court .last { grid-column: 1 / 4; text-align: left; }
        .court .last h2 { font-size: calc(1.6 * var(--u)); color: #888; text-transform: uppercase; letter-spacing: 0.05em; margin: calc(0.8 * var(--u)) 0 calc(0.2 * var(--u)); }
        .court .plays { columns: 2; column-gap: calc(4 * var(--u)); font-size: calc(2.1 * var(--u)); list-style: none; padding: 0; margin: 0; }
        .court .plays li { break-inside: avoid; padding: 0.05em 0; border-bottom: 1px solid #2a2a2a; }
        .court .plays li::before { content: ""; display: inline-block; width: 0.5em; height: 0.5em; border-radius: 50%;
               margin-right: 0.5em; background: #7cf; }
        .court .plays li.away::before { background: #fa7; }
        .court .plays .who { font-weight: bold; }
        .court .plays .team { color: #999; }
        .court .plays .what { font-weight: bold; color: #fc6; }
        .court .plays li.undone { color: #777; }
        .court .plays li.undone .who, .court .plays li.undone .what { text-decoration: line-through; color: #777; }
        .court .plays .tag { font-size: 0.7em; text-transform: uppercase; border: 1px solid #777; border-radius: 0.2em; padding: 0 0.3em; }
        body.overlay { background: transparent; margin: 0; }
        .bug { display: inline-flex; gap: 0.8rem; align-items: center; background: rgba(10, 10, 10, 0.85); padding: 0.3rem 0.9rem;
               border-radius: 0.4rem; font-size: 1.6rem; font-weight: bold; font-variant-numeric: tabular-nums; }
        .bug .clock { color: #fc6; }
        h2 { margin-top: 1.5rem; }
        """

    /// Follows `/api/events`: a full state first, then each game that changed. The clock runs
    /// from `state.clock` and the daemon's time, never from ticks. A court's last plays come with
    /// the state and follow the events as ``CourtGame`` says; its fouls and time-outs are drawn
    /// as ``CourtSideBoard`` draws them.
    static let script = """
        (function () {
          const body = document.body, kind = body.dataset.kind, only = body.dataset.game;
          // The plays a court's TV keeps: the last ones of the game's play-by-play (CourtGame.recentPlays).
          const recent = \(CourtGame.recentPlays);
          let games = {}, offset = 0, source = null;
          const clock = (g) => {
            const c = g.state.clock;
            let ms = c.accumulated_ms + (c.running_since == null ? 0 : Math.max(0, Date.now() + offset - c.running_since));
            const s = Math.floor(ms / 1000);
            return String(Math.floor(s / 60)).padStart(2, "0") + ":" + String(s % 60).padStart(2, "0");
          };
          const status = (g) => g.state.winner ? "final: " + g[g.state.winner].name + " wins" : g.state.status;
          const text = (el, value) => { if (el && el.textContent !== value) el.textContent = value; };
          const moveText = { one_point: "+1", two_points: "+2", assist: "assist", rebound: "rebound", foul: "foul", free_throw: "free throw" };
          // As CourtSideBoard (CourtBoard.swift) has it: team fouls against the rules' tiers, time-outs left.
          function sideBoard(g, side) {
            const fouls = g.state.team_fouls[side], used = g.state.timeouts_used[side];
            const tiers = (g.rules || {}).team_fouls, allowed = (g.rules || {}).timeouts_per_team;
            const b = { fouls: fouls, tier: "", tierText: "", nextText: "" };
            if (tiers && fouls >= tiers.possession_from) {
              Object.assign(b, { tier: "two_free_throws_and_possession", tierText: "bonus: 2 FT + ball" });
            } else if (tiers && fouls >= tiers.free_throws_from) {
              Object.assign(b, { tier: "two_free_throws", tierText: "bonus: 2 FT", nextText: "2 FT + ball from foul " + tiers.possession_from });
            } else if (tiers) {
              Object.assign(b, { tier: "none", tierText: "no bonus", nextText: "2 FT from foul " + tiers.free_throws_from });
            }
            if (allowed != null) {
              const left = Math.max(0, allowed - used);
              Object.assign(b, { timeoutsLabel: "time-outs left", timeouts: left, pips: "●".repeat(left) + "○".repeat(allowed - left) });
            } else {
              Object.assign(b, { timeoutsLabel: "time-outs used", timeouts: used, pips: "" });
            }
            return b;
          }
          const span = (name, value) => { const s = document.createElement("span"); s.className = name; s.textContent = value; return s; };
          // As Pages.play renders it on the server.
          function playItem(g, p) {
            const team = g[p.side], player = (team.players || []).find((q) => q.id === p.player);
            const undone = p.retracted_by != null, li = document.createElement("li");
            li.className = p.side + (undone ? " undone" : "");
            li.dataset.version = p.version;
            li.append(span("who", player ? player.name : p.player), " ", span("team", team.name), " ", span("what", moveText[p.move] || p.move));
            if (undone) li.append(" ", span("tag", "undone"));
            return li;
          }
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
          function drawCourt(withPlays) {
            const g = games[only];
            if (!g) return;
            const f = (name) => document.querySelector('[data-field="' + name + '"]');
            text(f("home"), g.home.name); text(f("away"), g.away.name);
            text(f("score-home"), String(g.state.score.home)); text(f("score-away"), String(g.state.score.away));
            text(f("clock"), clock(g)); text(f("status"), status(g));
            for (const side of ["home", "away"]) {
              const fouls = f("fouls-" + side);
              if (!fouls) continue;  // the overlay shows the score only
              const b = sideBoard(g, side);
              if (fouls.dataset.tier !== b.tier) fouls.dataset.tier = b.tier;
              text(f("fouls-" + side + "-count"), String(b.fouls));
              text(f("fouls-" + side + "-tier"), b.tierText); text(f("fouls-" + side + "-next"), b.nextText);
              text(f("timeouts-" + side + "-label"), b.timeoutsLabel);
              text(f("timeouts-" + side + "-count"), String(b.timeouts)); text(f("timeouts-" + side + "-pips"), b.pips);
            }
            const list = f("plays");
            if (withPlays && list) list.replaceChildren(...g.plays.slice().reverse().map((p) => playItem(g, p)));
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
          const draw = (withPlays) => kind === "court" || kind === "overlay" ? drawCourt(withPlays) : kind === "all" ? drawAll() : refresh();
          const stale = (yes) => body.classList.toggle("stale", yes);
          function connect() {
            source = new EventSource("/api/events");
            source.addEventListener("state", (e) => {
              const s = JSON.parse(e.data);
              games = {}; for (const g of s.games) games[g.game] = g;
              offset = s.daemon_now - Date.now();
              body.dataset.sequence = s.sequence;
              stale(!s.in_sync); draw(true);
            });
            source.addEventListener("event", (e) => {
              const m = JSON.parse(e.data), ev = m.event;
              let g = games[m.game];
              if (ev.type === "game_created") {
                g = { game: m.game, court: ev.setup.court, home: ev.setup.home, away: ev.setup.away, rules: ev.setup.rules, plays: [] };
              }
              if (!g) return;
              if (ev.type === "teams_assigned") { g.home = ev.home; g.away = ev.away; g.plays = []; }
              // The state's window kept as Game.apply keeps the play-by-play: a move adds a play
              // (the oldest beyond the window goes), a retraction marks the play it undoes.
              if (ev.type === "move") {
                const side = (g.home.players || []).some((p) => p.id === ev.player) ? "home" : "away";
                g.plays.push({ version: m.version, at: m.at, player: ev.player, side: side, move: ev.move });
                if (g.plays.length > recent) g.plays.splice(0, g.plays.length - recent);
              }
              if (ev.type === "retraction") {
                const undone = g.plays.find((p) => p.version === ev.target_version);
                if (undone) undone.retracted_by = m.version;
              }
              g.state = m.state; games[m.game] = g;
              body.dataset.sequence = m.sequence;
              if (kind === "all" || m.game === only) draw(true);
              // The schedule's score follows each basket; the rest of it changes with the tables.
              if (kind === "results" && ev.type !== "game_created" && ev.type !== "teams_assigned") {
                text(document.querySelector('#live tr[data-game="' + CSS.escape(m.game) + '"] td.score'),
                     m.state.score.home + " - " + m.state.score.away);
              }
            });
            source.addEventListener("sync", (e) => stale(!JSON.parse(e.data).in_sync));
            source.addEventListener("tables", () => { if (kind === "results") refresh(); });
            // A lost connection shows nothing it cannot vouch for until the next full state.
            source.onerror = () => stale(true);
          }
          connect();
          // The running clock is redrawn from state.clock; server-rendered pages need no ticking.
          setInterval(() => { if (!body.classList.contains("stale") && (kind === "all" || kind === "court" || kind === "overlay")) draw(false); }, 100);
        })();
        """
}
