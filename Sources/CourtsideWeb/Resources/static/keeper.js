// The keeper page: binds each game's view (GameViewModel, from /api/events, followed by
// bind.js), ticks the running clock, and keeps the outbox. Every text about a game is the
// view's, and every other word the page's own (`#words`, with placeholders it fills;
// `#refusals`, a refusal's words by its code, in place of the daemon's English); this script
// composes none. The views are asked for in the page's language (`?lang=`, from its <html lang>).
//
// The outbox: a move gets its command_id when tapped and goes into IndexedDB at once
// (keeper-store.js), then is sent in tap order, one at a time, by POST /api/keep/commands; a
// retry reuses the id, so the daemon's retry memory applies it once. An entry is queued, then
// confirmed by the daemon's ok (the reply names its version), or by its event when the reply was
// lost; or refused. Its transitions are keeper-outbox.js's, the connection's keeper-link.js's:
// the handlers here feed those machines events and perform the effects they return. The
// connection is judged by whether requests succeed, never by navigator.onLine, and by whether the
// event stream is heard: silent, the page fetches the game's state itself. Clock and time-outs
// are never queued. The lists are drawn by keeper-draw.js.
(function () {
  "use strict";
  const body = document.body, court = body.dataset.court;
  let device = body.dataset.device;
  const bind = window.courtsideBind, text = bind.text, el = bind.el;  // bind.js
  // The page's `[data-field]` elements, each looked up once (they stay): a draw writes twenty,
  // and a query of the whole page for each cost more than the rest of the draw.
  const found = new Map();
  const field = (name) => { if (!found.has(name)) found.set(name, bind.field(name)); return found.get(name); };
  const fields = (values) => { for (const name of Object.keys(values)) text(field(name), values[name]); };
  const lists = window.courtsideKeeperDraw, stored = window.courtsideKeeperStore;
  // The page is drawn once a frame, for all that changed meanwhile (keeper-draw.js `frame`): a
  // tap, its event on the stream, its answer. A tap's line and its answer's are drawn at once.
  const draw = lists.frame(() => drawNow());
  const newID = () => (crypto.randomUUID ? crypto.randomUUID() : Date.now().toString(36) + Math.random().toString(36).slice(2));

  // The outbox's IndexedDB, and what the page last knew, kept for a reload while offline.
  const { put, drop, saved, save } = stored;  // keeper-store.js
  // Each game: {clock, view, version}, from the stream; the offset turns our time into the daemon's.
  const live = { games: saved("games:" + court, {}), offset: 0 };
  const picker = document.getElementById("game");
  let current = sessionStorage.getItem("courtside.game") || picker.value;
  if (![...picker.options].some((o) => o.value === current)) current = picker.value;
  picker.value = current;
  let selected = null;       // the player tapped, waiting for a move
  const machine = window.courtsideLink;  // keeper-link.js
  const outbox = window.courtsideOutbox;  // keeper-outbox.js
  let link = machine.initial(Date.now());
  let entries = [];          // the outbox, in tap order (a mirror of IndexedDB)
  let notice = "";           // the last refusal of a clock or time-out command
  // The page's words with placeholders ("undo {what}"): the script fills them, it composes none.
  const words = document.getElementById("words").dataset;
  // A word by its attribute's name ("state-queued": data-state-queued, read as stateQueued),
  // looked up once: a draw asks for three a line of the outbox.
  const looked = new Map();
  const word = (name) => looked.get(name) ?? looked.set(name, words[name.replace(/-(\w)/g, (all, letter) => letter.toUpperCase())]).get(name);
  const say = (phrase, values) => phrase.replace(/\{(\w+)\}/g, (all, name) => (name in values ? String(values[name]) : all));
  // A refusal's words by its stable code, in the page's language (#refusals); never the code itself.
  const refusals = document.getElementById("refusals").content;
  const refusal = (code) => {
    const known = code && [...refusals.querySelectorAll("[data-code]")].find((s) => s.dataset.code === code);
    return known ? known.textContent : words.refusalOther;
  };
  // A tap's outcome, said by the live region.
  function announce(entry) {
    const state = outbox.shown(entry), values = { what: entry.label, state: word("state-" + state) || "", why: entry.message || "" };
    text(document.getElementById("announce"), say(state === "refused" ? words.announceRefused : words.announce, values));
  }

  // Finished entries are kept a while to be seen, then forgotten; unsent ones never are. Their
  // deletes are made soon (keeper-store.js): the sending goes on (one a tap, once 80 are kept).
  function prune() {
    const done = entries.filter((e) => e.state === "confirmed" || e.state === "refused");
    for (const e of done.slice(0, Math.max(0, done.length - 80))) {
      entries.splice(entries.indexOf(e), 1);
      stored.dropSoon(e);
    }
  }

  // ---- Sending (keeper-post.js: one command's request, its answer sorted).
  const post = (command) => window.courtsideKeeperPost(command, refusal);

  let pumping = false;

  // The connection's events (keeper-link.js): the page draws what follows from them, and keeps
  // the try the machine asks for.
  function feel(type, extra) {
    const before = link;
    link = machine.next(link, Object.assign({ type, now: Date.now() }, extra));
    if (link.link !== before.link || link.halted !== before.halted || link.hearing.silent !== before.hearing.silent || link.inSync !== before.inSync) draw();
    schedule();
  }
  // Off the link, a try at the time the machine says: the queued moves sent again, and a look at
  // whether the gateway answers.
  let retryTimer = null, retryFor = null;
  function schedule() {
    const at = machine.derive(link, Date.now()).retryAt;
    if (at === retryFor) return;
    clearTimeout(retryTimer);
    retryFor = at;
    retryTimer = at === null ? null : setTimeout(() => { retryFor = null; feel("retrying"); pump(); probe(); }, Math.max(0, at - Date.now()));
  }
  const online = () => link.link === "ok" && !link.halted;

  async function pump() {
    if (pumping || link.halted) return;
    pumping = true;
    try {
      for (;;) {
        const next = entries.find(outbox.due);
        if (!next) break;
        // "sending" has no effect to wait for: the fetch starts in the tap's own task, before
        // the page draws the tap or IndexedDB is asked to write it.
        adopt(next, outbox.next(next, { type: "sending", device }).entry);
        const result = await post(next.command);
        if (result.kind === "retry" || result.kind === "halt") await apply(next, { type: "failed" });
        if (result.kind === "retry") { feel(result.why); break; }
        if (result.kind === "halt") { halt(result.message); break; }
        feel("answered");
        // The daemon's ok is the confirmation (its event, when it comes, changes nothing more),
        // its line drawn at once: the write of the confirmed entry is made soon, not waited for (a
        // reload before it lands sends the entry again under its id, and the daemon's answer is its ok).
        const applied = result.kind === "ok"
          ? apply(next, { type: "ok", version: result.reply.version }) : apply(next, { type: "refused", message: result.message });
        drawLine(next, false);
        draw();
        await applied;
        // Not hearing the stream: the score comes from a fetch, at once.
        if (result.kind === "ok" && link.hearing.silent) pollSoon();
      }
      prune();
    } finally {
      pumping = false;
      draw();
      // A tap made while this pass was ending found it busy: it goes now, not with the next tap.
      if (online() && entries.some(outbox.due)) setTimeout(pump, 0);
    }
  }

  // While requests fail, a light request tells when the gateway answers again.
  let probing = false;
  // Offline, it tells when the gateway answers again; with the server down, the queued moves'
  // own tries tell when the daemon does.
  async function probe() {
    if (probing || online() || link.halted) return;
    probing = true;
    try {
      const response = await fetch("/api/keep/session?" + bind.pageLang(), { credentials: "same-origin", cache: "no-store" });
      const reply = await response.json();
      if (response.status === 401) { halt(refusal(reply.error.code)); return; }
      if (response.ok) { feel("reached"); session(reply); }
    } catch (e) {
      feel("unreachable");
    } finally { probing = false; }
  }

  function halt(message) { feel("halt", { message }); }

  // The court's games as the gateway lists them now: a bracket game appears once its teams are known.
  function session(s) {
    device = s.device;
    body.dataset.device = device;
    save("session:" + court, s);
    const lines = s.lineup.entries.map((entry) => {
      const option = el("option", null, entry.label);
      option.value = entry.game;
      option.disabled = !entry.exists;
      return option;
    });
    if (!lines.length) return;
    picker.replaceChildren(...lines);
    // A page that had no game yet opens on the court's current one once there is one.
    if (!lines.some((o) => o.value === current)) current = s.lineup.current || lines[0].value;
    picker.value = current;
    const none = document.getElementById("no-games");
    if (none) none.remove();
    draw();
  }
  function refreshSession() {
    return fetch("/api/keep/session?" + bind.pageLang(), { credentials: "same-origin", cache: "no-store" }).then(async (response) => {
      const reply = await response.json();
      if (response.status === 401) halt(refusal(reply.error.code));
      else if (response.ok) session(reply);
    });
  }

  // ---- Not hearing the stream: the shown game's state, fetched every 2.5 s.
  let polling = false, polledAt = 0;
  async function poll() {
    if (polling || !current) return;
    polling = true;
    polledAt = Date.now();
    try {
      const response = await fetch("/api/keep/games/" + encodeURIComponent(current) + "?" + bind.pageLang(), { credentials: "same-origin", cache: "no-store" });
      const reply = await response.json();
      if (response.status === 401) halt(refusal(reply.error.code));
      else if (response.ok) {
        bind.take(live.games, reply.game.game, reply.game.state, reply.game.view);
        live.offset = reply.daemon_now - Date.now();
        feel("fetched", { inSync: reply.in_sync });
        draw();
      }
    } catch (e) {
      feel("unreachable");
    } finally { polling = false; }
  }
  function pollSoon() { setTimeout(poll, 0); }

  // ---- Taps.
  // The tap is sent first (the pump is idle between taps), then written to IndexedDB and drawn,
  // not sent after the write: a page that dies before the write has landed loses a move the
  // daemon has (its plays list shows it, with its undo) or one never confirmed; either way
  // nothing shown as confirmed is lost. The writes of one entry still land in order (keeper-store.js).
  async function queue(entry) {
    entries.push(entry);
    pump();
    if (entry.command.op === "move") announce(entry);
    const written = keep(entry);
    drawLine(entry, true);
    draw();
    await written;
  }
  // A write of the outbox, not waited for by the sending: a reload finds each entry as of its
  // last write, and a sent entry found unconfirmed is sent again under its command id, which
  // the daemon answers once. So only an entry still waiting for the daemon is written at once.
  const keep = (entry) => (outbox.waiting(entry) ? put(entry).catch((e) => console.warn("the outbox could not be saved on this device", e)) : stored.putSoon(entry));
  // `label`: what the outbox lists, the undo's own words ("undo Ann +2").
  function retraction(game, version, label) {
    const id = newID();
    return { id, state: "unsent", court, game, label, tapped: Date.now(),
      command: { command_id: id, op: "retract", game, version } };
  }

  function tapMove(kind, button) {
    const g = live.games[current];
    if (!selected || !g) { text(field("hint"), words.hintPick); return; }
    const player = [...g.view.home.players, ...g.view.away.players].find((p) => p.id === selected);
    const id = newID(), name = player ? player.name : selected;
    queue({ id, state: "unsent", court, game: current, tapped: Date.now(),
      label: say(words.tap, { player: name, move: button.dataset.text }),
      // Its buttons' spoken names: "Undo Ann Avery's 2 points".
      spoken: { player: name, move: button.dataset.spoken },
      command: { command_id: id, op: "move", game: current, player: selected, move: kind } });
    selected = null;
  }

  // An outbox entry's event (keeper-outbox.js), and its effects performed. Never sent, an undone
  // move just leaves; one that may have reached the daemon (its answer lost) is sent, then
  // retracted; one the daemon has is retracted by version.
  async function apply(entry, event) {
    const { entry: after, effects } = outbox.next(entry, event);
    const was = outbox.shown(entry);
    adopt(entry, after);
    if (outbox.shown(entry) !== was && entry.command.op === "move") announce(entry);
    for (const effect of effects) {
      if (effect === "store") keep(entry);
      else if (effect === "drop") { entries.splice(entries.indexOf(entry), 1); await drop(entry); }
      else if (effect === "retract") await queue(retraction(entry.command.game, entry.version, say(words.undo, { what: entry.label })));
      else if (effect === "undid") {
        const move = entries.find((e) => e.command.op === "move" && e.game === entry.game && e.version === entry.command.version);
        if (move) await apply(move, { type: "undone" });
      }
    }
  }
  // The machine's next entry, into the same object (the store and the pump hold it): its fields
  // as they are now, none it dropped.
  function adopt(entry, after) {
    for (const key of Object.keys(entry)) if (!(key in after)) delete entry[key];
    Object.assign(entry, after);
  }
  async function undo(entry) {
    await apply(entry, { type: "undo", undoable: !!entry.version && undoable(entry.command.game, entry.version) });
    draw();
  }

  // Whether a play may be undone (keeper-outbox.js), for every line of a draw from one look.
  const undoables = () => outbox.undoables(entries, live.games), undoable = (game, version) => undoables()(game, version);

  // Clock and time-outs are sent now or not at all: late, they would be wrong.
  async function direct(command) {
    if (!online()) return;
    notice = "";
    const result = await post(Object.assign({ command_id: newID(), game: current }, command));
    if (result.kind === "retry") {
      feel(result.why);
      const words = field("controls-why").dataset;
      notice = result.why === "unavailable" ? words.notSentServer : words.notSentOffline;
    } else if (result.kind === "halt") halt(result.message);
    else {
      feel("answered");
      if (result.kind === "refused") notice = say(words.refused, { message: result.message });
      else if (link.hearing.silent) pollSoon();
    }
    draw();
  }

  // ---- Drawing: the view's words as they are.
  const clock = (g) => window.courtsideClock(g, live.offset);  // clock.js

  // An outbox entry's line, with the button the outbox machine offers (keeper-outbox.js), as
  // keeper-draw.js's `keyed` takes it.
  function tapItem(e, may) {
    const offered = outbox.offer(e, !!e.version && may(e.game, e.version));
    const state = outbox.shown(e), stateWord = word("state-" + state) || state;
    const button = offered && { text: word("button-" + offered), label: e.spoken && say(word(offered + "-label"), e.spoken), click: () => undo(e) };
    return { key: e.id, drawn: JSON.stringify([state, stateWord, e.label, e.message, button]), make: () => lists.tapItem(e, state, stateWord, button) };
  }

  // A play of the shown game, with its undo while it may be undone.
  function playItem(p, may) {
    const game = current, offered = !p.isUndone && may(game, p.version);
    const button = offered && { text: word("button-undo"), label: p.undoLabel, click: () => queue(retraction(game, p.version, p.undoText)) };
    return { key: game + "/" + p.version, drawn: JSON.stringify([p.side, p.isUndone, p.listText, p.teamName, button]), make: () => lists.playItem(p, button) };
  }

  // The players' buttons: all that a tap on a player changes.
  function drawPlayers() {
    const g = live.games[current];
    if (g) for (const side of ["home", "away"]) lists.players(field("players-" + side), g.view[side].players, selected);
  }

  // An outbox entry's line alone, at once: a tap's new line goes first (`first`), an answered
  // one is redrawn in its place; the rest of the page waits for the frame (`draw`).
  function drawLine(entry, first) {
    if (entry.game === current) lists.line(document.getElementById("outbox"), tapItem(entry, undoables()), first);
  }

  function drawNow() {
    const g = live.games[current], v = g && g.view, may = undoables();
    if (v) {
      fields({ home: v.home.name, away: v.away.name, score: v.score, clock: clock(g), status: v.statusText });
      for (const side of ["home", "away"]) {
        const team = v[side], board = team.board;
        fields({ [side + "-name"]: team.name, ["fouls-" + side]: board.foulsText,
          ["timeouts-" + side]: board.timeoutsText, ["timeout-" + side]: team.timeoutButtonText });
      }
      drawPlayers();
      text(field("clock-button"), v.clockActionText);
      lists.keyed(document.getElementById("plays"), v.plays.map((p) => playItem(p, may)));
    }
    const waiting = entries.filter(outbox.waiting).length;
    const banner = document.getElementById("banner"), now = machine.derive(link, Date.now()), halted = link.halted;
    shown = JSON.stringify([now.banner, now.controls]);
    let message = "";
    if (now.banner === "halted") message = say(words.halted, { message: halted });
    else if (now.banner === "offline") message = waiting === 1 ? words.offlineOne : say(words.offlineMany, { count: waiting });
    else if (now.banner === "server") message = banner.dataset.server;
    else if (now.banner === "silent") message = banner.dataset.silent;
    banner.hidden = !message;
    banner.dataset.says = now.banner || "";
    banner.classList.toggle("halted", !!halted);
    if (halted && !banner.querySelector("a")) {
      banner.replaceChildren(el("span", null, message + " "));
      const a = el("a", null, words.joinAgain);
      a.href = "/keep";
      banner.append(a);
    } else if (!halted) text(banner, message);
    body.dataset.online = String(online());
    body.dataset.queued = String(waiting);
    const blocked = now.controls !== "ok", why = field("controls-why");
    const clockButton = field("clock-button");
    clockButton.disabled = blocked || !v || !v.clockAction;
    for (const b of document.querySelectorAll(".timeout")) b.disabled = blocked || !v || v.isFinished;
    why.hidden = !blocked && !notice;
    if (!blocked && notice) text(why, notice);
    else if (now.controls === "silent") text(why, why.dataset.silent);
    else if (blocked) text(why, why.dataset.offline);
    const mine = entries.filter((e) => e.game === current).slice().reverse();
    lists.keyed(document.getElementById("outbox"), mine.map((e) => tapItem(e, may)));
  }

  // ---- The stream (bind.js): a full state, then each event with the game's view right after it.
  // The court's games, for a reload while offline: written soon, once for a burst of events.
  function keepGames() {
    stored.saveSoon("games:" + court, () => {
      const mine = {};
      for (const id of Object.keys(live.games)) if (live.games[id].view.court === court) mine[id] = live.games[id];
      return mine;
    });
  }
  // `?ping=2`: a `sync` every 2 s, so that silence means the stream is down, not a quiet game.
  function follow() {
    return bind.follow(live, {
      opened: () => feel("opened"),
      heard: (inSync, full) => feel("heard", { inSync, full }),
      state: () => { keepGames(); draw(); },
      event: (m) => {
        const origin = m.origin || {};
        const entry = entries.find((x) => x.id === origin.command_id);
        const who = origin.client_id || "";
        // Our move whose reply was lost: its event is the confirmation.
        if (entry && outbox.waiting(entry) && (who === (entry.device || device) || who.endsWith("/" + (entry.device || device)))) {
          apply(entry, { type: "seen", version: m.version }).then(draw);
        }
        if (m.view.court === court) keepGames();
        // A game of this court created, or a bracket game given its teams: the lineup changed.
        const kind = m.event && m.event.type;
        if (m.view.court === court && (kind === "game_created" || kind === "teams_assigned")) refreshSession().catch(() => {});
        draw();
      },
      error: () => feel("failed"),
    }, 2);
  }

  // Every second: is the stream still heard? Silent, the shown game's state is fetched; silent
  // long, the stream is opened again (one held up on its way never recovers by itself).
  // Drawn again only when what the connection shows changed.
  let shown = "";
  setInterval(() => {
    feel("tick");
    const now = machine.derive(link, Date.now());
    if (now.reopen) reopen();
    if (now.poll && Date.now() - polledAt >= 2500) poll();
    if (JSON.stringify([now.banner, now.controls]) !== shown) draw();
  }, 1000);

  // ---- Wiring.
  document.querySelector(".teams").addEventListener("click", (e) => {
    const b = e.target.closest("button[data-player]");
    if (!b) return;
    selected = selected === b.dataset.player ? null : b.dataset.player;
    text(field("hint"), selected ? words.hintMove : words.hintTap);
    drawPlayers();
  });
  for (const b of document.querySelectorAll("[data-move]")) b.addEventListener("click", () => { tapMove(b.dataset.move, b); text(field("hint"), words.hintTap); });
  field("clock-button").addEventListener("click", () => {
    const g = live.games[current];
    if (g && g.view.clockAction) direct({ op: "clock", action: g.view.clockAction });
  });
  for (const b of document.querySelectorAll(".timeout")) b.addEventListener("click", () => direct({ op: "timeout", side: b.dataset.side }));
  // Another game is the whole page's change, drawn at once: no answer waits behind it, and
  // until the next frame the page would still show the last game's players.
  picker.addEventListener("change", () => { current = picker.value; sessionStorage.setItem("courtside.game", current); selected = null; drawNow(); });
  document.getElementById("leave").addEventListener("click", async () => {
    try { await fetch("/keep/leave", { method: "POST", credentials: "same-origin" }); } finally { location.href = "/keep"; }
  });
  setInterval(() => { const g = live.games[current]; if (g) text(field("clock"), clock(g)); }, 100);

  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/keep/sw.js", { scope: "/keep" }).catch(() => { /* plain HTTP on a LAN: no worker, the outbox still lives in IndexedDB */ });

  stored.all().then((all) => {
    // Taps made while this read was under way are in the list already (and may be out): they
    // stay as they are, after the ones stored before.
    const now = new Set(entries.map((e) => e.id));
    const kept = (all || []).filter((e) => e.court === court && !now.has(e.id));
    for (const e of kept) adopt(e, outbox.next(e, { type: "loaded" }).entry);
    entries = kept.concat(entries);
    draw();
    pump();
  });
  refreshSession()
    .catch(() => { const s = saved("session:" + court, null); if (s) device = s.device; feel("unreachable"); });
  draw();
  const reopen = follow();
})();
