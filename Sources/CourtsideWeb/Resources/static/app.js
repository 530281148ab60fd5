// The screens' script (court TV, big screen, overlay, box score, results, teams): follows
// /api/events through bind.js, a full state first, then each game that changed. Every text it
// shows is the game's view (GameViewModel, sent in each game of the state and in each event as
// `view`), bound as it is, and so is each court's delay and next game (CourtNow, in the state and
// in each `courts`); the script only ticks a running clock (clock.js), from state.clock and the
// daemon's time.
(function () {
  const body = document.body, kind = body.dataset.kind, only = body.dataset.game;
  const bind = window.courtsideBind, field = bind.field, text = bind.text;  // bind.js
  // Each game: its clock (the protocol's state.clock) and its view; the offset turns our time
  // into the daemon's. The courts' lines last sent: a court's TV shows its game's court's, which
  // a move changes.
  const live = { games: {}, offset: 0 };
  let courtsNow = [];
  const clock = (g) => window.courtsideClock(g, live.offset);  // clock.js
  const span = (name, value) => bind.el("span", name, value);
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
    for (const id of Object.keys(live.games).sort()) {
      const v = live.games[id].view, tr = document.createElement("tr");
      tr.dataset.game = id;
      const cells = [id, v.court || "", v.home.name, v.score, v.away.name, clock(live.games[id]), v.statusText];
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
    const g = live.games[only];
    if (!g) return;
    const v = g.view;
    bind.fields({ clock: clock(g), status: v.statusText, court: v.court || "" });
    for (const side of ["home", "away"]) {
      const team = v[side], board = team.board, fouls = field("fouls-" + side);
      bind.fields({ [side]: team.name, ["score-" + side]: String(team.score) });
      if (!fouls) continue;  // the overlay shows the score only
      if (fouls.dataset.tier !== board.tier) fouls.dataset.tier = board.tier;
      bind.fields({
        ["fouls-" + side + "-count"]: String(board.fouls), ["fouls-" + side + "-tier"]: board.tierText,
        ["fouls-" + side + "-next"]: board.nextText, ["timeouts-" + side + "-label"]: board.timeoutsLabel,
        ["timeouts-" + side + "-count"]: String(board.timeouts), ["timeouts-" + side + "-pips"]: board.timeoutPips,
      });
    }
    const list = field("plays");
    if (list) list.replaceChildren(...v.plays.map(playItem));
  }
  // Each court's delay and next game: its CourtNow, computed by the server, bound as it is.
  function drawCourts(courts) {
    courtsNow = courts;
    if (kind === "court") {
      const line = field("court-now"), g = live.games[only];
      if (!line) return;
      // The game's court as it stands (the organiser may move it); the schedule's before it exists.
      const name = (g && g.view.court) || line.dataset.court || "", c = courts.find((c) => c.court === name);
      if (line.dataset.court !== name) line.dataset.court = name;
      bind.fields({ delay: (c && c.delayText) || "", "next-on": (c && c.nextLine) || "" });
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
      if (live.games[only]) text(field("clock"), clock(live.games[only]));
    } else if (kind === "all") {
      for (const tr of document.querySelectorAll("#games tbody tr")) {
        const g = live.games[tr.dataset.game];
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
  // Whether the page can vouch for what it shows: the gateway in sync with the daemon (the
  // stream's in_sync), and the stream heard (bind.js's hearing: a `sync` asked for every 2 s;
  // silent 6 s, or its EventSource failed, a new stream is opened, and only its full state clears
  // the mark). Stale, the page is greyed and the banner says it is reconnecting.
  let inSync = !body.classList.contains("stale");
  let hearing = bind.hearing.initial(Date.now(), { silentAfter: 6000, reopenAfter: 6000 });
  function hear(type, extra) {
    hearing = bind.hearing.next(hearing, Object.assign({ type, now: Date.now() }, extra));
    body.classList.toggle("stale", !inSync || hearing.silent);
  }
  // The views in the page's own language (<html lang>), which the server chose for it.
  const reopen = bind.follow(live, {
    opened: () => hear("opened"),
    heard: (sync, full) => {
      if (sync !== undefined) inSync = sync;
      hear("heard", { full });
    },
    state: (s) => { draw(); drawCourts(s.courts); },
    event: (m) => {
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
    },
    courts: drawCourts,
    // The tables moved: the results, the team pages and the big screen's knockout (its #live) are
    // drawn again.
    tables: () => { if (kind === "results" || kind === "team" || kind === "teams" || kind === "all") refresh(); },
    // A lost connection shows nothing it cannot vouch for until the next full state.
    error: () => hear("failed"),
  }, 2);
  setInterval(() => {
    hear("tick");
    if (bind.hearing.derive(hearing, Date.now()).reopen) reopen();
  }, 1000);
  setInterval(() => { if (!body.classList.contains("stale")) tick(); }, 100);
})();
