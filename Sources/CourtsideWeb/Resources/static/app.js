// Follows /api/events: a full state first, then each game that changed. The clock runs from
// state.clock and the daemon's time, never from ticks. A court's last plays come with the state
// and follow the events as CourtGame (CourtBoard.swift) says; its fouls and time-outs are drawn
// as CourtSideBoard draws them.
(function () {
  const body = document.body, kind = body.dataset.kind, only = body.dataset.game;
  // The plays a court's TV keeps: the last ones of the game's play-by-play (CourtGame.recentPlays,
  // which the page names in data-keep).
  const playList = document.querySelector('[data-field="plays"]');
  const recent = playList ? Number(playList.dataset.keep) : 0;
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
  // As templates/play.mustache renders it on the server.
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
