// The live binding every page shares (the keeper page, keeper.js, and the screens, app.js): the
// games' views followed on /api/events, asked for in the page's language (its <html lang>), kept
// in one table, and their words written into the page's `[data-field]` elements. The views are
// the server's (GameViewModel, CourtNow), words included: this script composes none. Its pure
// parts (`take`, `fromState`, `eventsPath`, `hearing`) are played by Tests/node/bind.test.js.
(function (exports) {
  "use strict";

  // A game's entry in `games`: its clock (the protocol's state.clock), view and version. An
  // older state than the table holds (a stream held up and let go, say) changes nothing, unless
  // `force` (a full state replaces the table). Returns whether it was taken.
  function take(games, game, state, view, force) {
    if (!force && games[game] && games[game].version > state.version) return false;
    games[game] = { clock: state.clock, view, version: state.version };
    return true;
  }

  // A full `state` message as a new table, with `offset`, the daemon's time minus ours (`now`).
  function fromState(s, now) {
    const games = {};
    for (const g of s.games) take(games, g.game, g.state, g.view, true);
    return { games, offset: s.daemon_now - now };
  }

  // The query naming the page's language, for the stream and any fetch of a view.
  const langQuery = (lang) => "lang=" + encodeURIComponent(lang || "en");
  // The stream's address; `ping` asks for a `sync` every that many seconds, so that silence
  // means the stream is down, not a quiet game.
  const eventsPath = (lang, ping) => "/api/events?" + (ping ? "ping=" + ping + "&" : "") + langQuery(lang);

  // ---- Hearing the stream: one state and pure transitions, fed by both pages (keeper-link.js
  // for the keeper's, app.js for the screens'), which do what `derive` says. A page asks for a
  // `sync` every 2 s; one that heard nothing for `silentAfter` ms, or whose EventSource failed, is
  // silent: moves may be passing it by. Silent, only a full `state` (a new stream's first message)
  // says it hears everything again, and a new stream is due once it has heard nothing whole for
  // `reopenAfter` ms and opened none for as long (a stream held up on its way never recovers).
  // Events: {type: "opened" | "heard" (with `full` for a state) | "failed" | "tick", now}.
  const hearing = {
    initial: (now, limits) => ({ silent: false, liveAt: now, openedAt: now, limits }),
    // The next state; the state given is left as it was.
    next(h, event) {
      const s = Object.assign({}, h), now = event.now;
      if (event.type === "opened") s.openedAt = now;
      else if (event.type === "heard" && (event.full || !s.silent)) { s.silent = false; s.liveAt = now; }
      else if (event.type === "failed") s.silent = true;
      else if (event.type === "tick" && now - s.liveAt > s.limits.silentAfter) s.silent = true;
      return s;
    },
    // Whether the page hears nothing now, and whether to open a new stream now.
    derive: (h, now) => ({
      silent: h.silent,
      reopen: h.silent && now - h.liveAt > h.limits.reopenAfter && now - h.openedAt > h.limits.reopenAfter,
    }),
  };

  // ---- In the page.
  const pageLang = () => langQuery(document.documentElement.lang);
  const field = (name) => document.querySelector('[data-field="' + name + '"]');
  const text = (el, value) => { if (el && el.textContent !== value) el.textContent = value; };
  // Each `[data-field=name]` gets its value's text: {clock: "09:12.3", status: "2nd half"}.
  const fields = (values) => { for (const name of Object.keys(values)) text(field(name), values[name]); };
  const el = (tag, cls, value) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (value != null) e.textContent = value;
    return e;
  };

  // Follows the stream into `live` ({games, offset}): a `state` replaces the table, an `event`
  // takes its game; each also marks the body with its sequence. Then `on.heard(inSync, full)`
  // (any message; in_sync from a `state` or `sync`, else undefined; `full` for a `state`), and
  // `on.state(s)`, `on.event(m)`, `on.courts(courts)`, `on.tables()` or `on.error()` as they
  // come; `on.opened()` each time a stream opens. Returns `open()`, which opens the stream again
  // (the one before closed: a stalled one never recovers by itself).
  function follow(live, on, ping) {
    let source = null;
    const heard = (inSync, full) => { if (on.heard) on.heard(inSync, full === true); };
    function open() {
      if (source) source.close();
      source = new EventSource(eventsPath(document.documentElement.lang, ping));
      if (on.opened) on.opened();
      source.addEventListener("state", (e) => {
        const s = JSON.parse(e.data);
        Object.assign(live, fromState(s, Date.now()));
        document.body.dataset.sequence = s.sequence;
        heard(s.in_sync, true);
        if (on.state) on.state(s);
      });
      source.addEventListener("event", (e) => {
        const m = JSON.parse(e.data);
        take(live.games, m.game, m.state, m.view);
        document.body.dataset.sequence = m.sequence;
        heard(undefined);
        if (on.event) on.event(m);
      });
      source.addEventListener("sync", (e) => heard(JSON.parse(e.data).in_sync));
      source.addEventListener("courts", (e) => {
        heard(undefined);
        if (on.courts) on.courts(JSON.parse(e.data).courts);
      });
      source.addEventListener("tables", () => {
        heard(undefined);
        if (on.tables) on.tables();
      });
      source.onerror = () => { if (on.error) on.error(); };
    }
    open();
    return open;
  }

  exports.take = take;
  exports.fromState = fromState;
  exports.eventsPath = eventsPath;
  exports.langQuery = langQuery;
  exports.pageLang = pageLang;
  exports.field = field;
  exports.text = text;
  exports.fields = fields;
  exports.el = el;
  exports.follow = follow;
  exports.hearing = hearing;
})(typeof module === "object" && module.exports ? module.exports : (window.courtsideBind = {}));
