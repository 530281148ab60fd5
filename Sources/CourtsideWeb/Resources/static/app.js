// Follows /api/events: a full state first, then each game that changed. Every text it shows is
// the game's view (GameViewModel, sent in each game of the state and in each event as `view`),
// bound as it is, and so is each court's delay and next game (CourtNow, in the state and in each
// `courts`); the script only ticks a running clock (clock.js), from state.clock and the daemon's time.
(function () {
  const body = document.body, kind = body.dataset.kind, only = body.dataset.game;
  // Each game: its clock (the protocol's state.clock) and its view.
  // The courts' lines last sent: a court's TV shows its game's court's, which a move changes.
  let games = {}, offset = 0, courtsNow = [];
  const clock = (g) => window.courtsideClock(g, offset);  // clock.js
  const text = (el, value) => { if (el && el.textContent !== value) el.textContent = value; };
  const field = (name) => document.querySelector('[data-field="' + name + '"]');
  const span = (name, value) => { const s = document.createElement("span"); s.className = name; s.textContent = value; return s; };
  // As templates/play.mustache renders a PlayLine on the server.
  function playItem(p) {
    const li = document.createElement("li");
    li.className = p.side + (p.isUndone ? " undone" : "");
    li.dataset.version = p.version;
    li.append(span("who", p.playerName), " ", span("team", p.teamName), " ", span("what", p.moveText));
    // The page's word for it, as the server rendered the list (templates/court.mustache).
    if (p.isUndone) li.append(" ", span("tag", (field("plays") && field("plays").dataset.undone) || ""));
    return li;
  }
  function drawAll() {
    const tbody = document.querySelector("#games tbody");
    if (!tbody) return;
    tbody.textContent = "";
    for (const id of Object.keys(games).sort()) {
      const v = games[id].view, tr = document.createElement("tr");
      tr.dataset.game = id;
      const cells = [id, v.court || "", v.home.name, v.score, v.away.name, clock(games[id]), v.statusText];
      cells.forEach((value, i) => {
        const td = document.createElement("td");
        if (i === 0) { const a = document.createElement("a"); a.href = "/games/" + encodeURIComponent(id); a.textContent = id; td.appendChild(a); }
        else td.textContent = value;
        td.className = ["", "", "name", "score", "name", "clock", "status"][i];
        if (i === 1 || i === 2 || i === 4) td.dir = "auto";
        tr.appendChild(td);
      });
      tbody.appendChild(tr);
    }
  }
  function drawCourt() {
    const g = games[only];
    if (!g) return;
    const v = g.view;
    text(field("clock"), clock(g)); text(field("status"), v.statusText); text(field("court"), v.court || "");
    for (const side of ["home", "away"]) {
      const team = v[side], board = team.board, fouls = field("fouls-" + side);
      text(field(side), team.name); text(field("score-" + side), String(team.score));
      if (!fouls) continue;  // the overlay shows the score only
      if (fouls.dataset.tier !== board.tier) fouls.dataset.tier = board.tier;
      text(field("fouls-" + side + "-count"), String(board.fouls));
      text(field("fouls-" + side + "-tier"), board.tierText); text(field("fouls-" + side + "-next"), board.nextText);
      text(field("timeouts-" + side + "-label"), board.timeoutsLabel);
      text(field("timeouts-" + side + "-count"), String(board.timeouts)); text(field("timeouts-" + side + "-pips"), board.timeoutPips);
    }
    const list = field("plays");
    if (list) list.replaceChildren(...v.plays.map(playItem));
  }
  // Each court's delay and next game: its CourtNow, computed by the server, bound as it is.
  function drawCourts(courts) {
    courtsNow = courts;
    if (kind === "court") {
      const line = field("court-now"), g = games[only];
      if (!line) return;
      // The game's court as it stands (the organiser may move it); the schedule's before it exists.
      const name = (g && g.view.court) || line.dataset.court || "", c = courts.find((c) => c.court === name);
      if (line.dataset.court !== name) line.dataset.court = name;
      text(field("delay"), (c && c.delayText) || ""); text(field("next-on"), (c && c.nextLine) || "");
    } else if (kind === "all") {
      const list = document.querySelector("#courts ul");
      if (!list) return;
      list.replaceChildren(...courts.map((c) => {
        const li = document.createElement("li");
        li.dataset.court = c.court;
        li.append(span("name", c.court), " ", span("delay", c.delayText || ""), " ", span("upcoming", c.nextLine || ""));
        return li;
      }));
    }
  }
  // Only the running clocks move between events.
  function tick() {
    if (kind === "court" || kind === "overlay") {
      if (games[only]) text(field("clock"), clock(games[only]));
    } else if (kind === "all") {
      for (const tr of document.querySelectorAll("#games tbody tr")) {
        const g = games[tr.dataset.game];
        if (g) text(tr.querySelector("td.clock"), clock(g));
      }
    }
  }
  // Box score, results, the team pages and the big screen's knockout are rendered by the server:
  // fetch the page again and swap its #live in. A change while a fetch is under way fetches once
  // more after it, so none is missed.
  let refreshing = false, again = false;
  async function refresh() {
    if (refreshing) { again = true; return; }
    refreshing = true;
    try {
      do {
        again = false;
        const html = await (await fetch(location.href, { cache: "no-store" })).text();
        const fresh = new DOMParser().parseFromString(html, "text/html").getElementById("live");
        const live = document.getElementById("live");
        if (fresh && live) live.replaceWith(fresh);
      } while (again);
    } finally { refreshing = false; }
  }
  const draw = () => kind === "court" || kind === "overlay" ? drawCourt() : kind === "all" ? drawAll() : refresh();
  const stale = (yes) => body.classList.toggle("stale", yes);
  // The views in the page's own language (<html lang>), which the server chose for it.
  const source = new EventSource("/api/events?lang=" + encodeURIComponent(document.documentElement.lang || "en"));
  source.addEventListener("state", (e) => {
    const s = JSON.parse(e.data);
    games = {}; for (const g of s.games) games[g.game] = { clock: g.state.clock, view: g.view };
    offset = s.daemon_now - Date.now();
    body.dataset.sequence = s.sequence;
    stale(!s.in_sync); draw(); drawCourts(s.courts);
  });
  source.addEventListener("event", (e) => {
    const m = JSON.parse(e.data);
    games[m.game] = { clock: m.state.clock, view: m.view };
    body.dataset.sequence = m.sequence;
    if (kind === "all" || m.game === only) draw();
    if (kind === "court" && m.game === only) drawCourts(courtsNow);
    // The schedule's and the knockout's scores follow each basket; the rest changes with the tables.
    if ((kind === "results" || kind === "all") && m.event.type !== "game_created" && m.event.type !== "teams_assigned") {
      const game = CSS.escape(m.game);
      text(document.querySelector('#live tr[data-game="' + game + '"] td.score'), m.view.score);
      for (const side of ["home", "away"]) {
        text(document.querySelector('#live g[data-game="' + game + '"] text.score.' + side), String(m.view[side].score));
      }
    }
    // A team's page: one of its games changed, or a game that may be its own was created.
    const created = m.event.type === "game_created" || m.event.type === "teams_assigned";
    if (kind === "team" && (created || document.querySelector('#live [data-game="' + CSS.escape(m.game) + '"]'))) refresh();
  });
  source.addEventListener("courts", (e) => drawCourts(JSON.parse(e.data).courts));
  source.addEventListener("sync", (e) => stale(!JSON.parse(e.data).in_sync));
  // The tables moved: the results, the team pages and the big screen's knockout (its #live) are
  // drawn again.
  source.addEventListener("tables", () => {
    if (kind === "results" || kind === "team" || kind === "teams" || kind === "all") refresh();
  });
  // A lost connection shows nothing it cannot vouch for until the next full state.
  source.onerror = () => stale(true);
  setInterval(() => { if (!body.classList.contains("stale")) tick(); }, 100);
})();
