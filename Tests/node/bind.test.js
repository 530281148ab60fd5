// The binding the keeper page and the screens share (Sources/CourtsideWeb/Resources/static/bind.js):
// its game table and its following of the stream, played with no browser: `node --test
// Tests/node` (KeeperPageTests runs it).
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const bind = require(path.join(__dirname, "../../Sources/CourtsideWeb/Resources/static/bind.js"));

const state = (version, ms) => ({ version, clock: { accumulated_ms: ms, running_since: null } });
const view = (score) => ({ score, court: "Court 1" });

test("a game's newer or equal state is taken; an older one changes nothing, unless forced", () => {
  const games = {};
  assert.equal(bind.take(games, "g1", state(3, 100), view("2 - 0")), true);
  assert.deepEqual(games.g1, { clock: state(3, 100).clock, view: view("2 - 0"), version: 3 });
  assert.equal(bind.take(games, "g1", state(2, 50), view("0 - 0")), false, "a stream held up and let go");
  assert.equal(games.g1.view.score, "2 - 0");
  assert.equal(bind.take(games, "g1", state(3, 120), view("2 - 0")), true, "the same version again");
  assert.equal(bind.take(games, "g1", state(1, 0), view("0 - 0"), true), true, "a full state replaces it");
  assert.equal(games.g1.version, 1);
});

test("a full state is a new table, with the daemon's time minus ours", () => {
  const s = { daemon_now: 10500, games: [{ game: "g1", state: state(4, 0), view: view("4 - 0") }, { game: "g2", state: state(1, 0), view: view("0 - 1") }] };
  const live = bind.fromState(s, 10000);
  assert.deepEqual(Object.keys(live.games), ["g1", "g2"]);
  assert.equal(live.games.g1.view.score, "4 - 0");
  assert.equal(live.offset, 500);
});

test("the stream and a view's fetch ask in the page's language, the stream for pings when asked", () => {
  assert.equal(bind.eventsPath("fr", 2), "/api/events?ping=2&lang=fr");
  assert.equal(bind.eventsPath("ja"), "/api/events?lang=ja");
  assert.equal(bind.eventsPath(""), "/api/events?lang=en");
  assert.equal(bind.langQuery("pt-BR"), "lang=pt-BR");
  assert.equal(bind.langQuery("a&b"), "lang=a%26b");
});

// The hearing machine, played from `initial(0)` with the screens' limits: each `[type, now, extra]`.
const limits = { silentAfter: 6000, reopenAfter: 6000 };
function hear(...events) {
  return events.reduce((h, [type, now, extra]) => bind.hearing.next(h, Object.assign({ type, now }, extra)), bind.hearing.initial(0, limits));
}

test("hearing: a stream heard (pings every 2 s) is not silent; 6 s of nothing is, and a new stream is due", () => {
  let h = hear(["heard", 1000, { full: true }], ["heard", 3000], ["tick", 9000]);
  assert.deepEqual(bind.hearing.derive(h, 9000), { silent: false, reopen: false }, "6 s since the last ping, not more");
  h = bind.hearing.next(h, { type: "tick", now: 9100 });
  assert.deepEqual(bind.hearing.derive(h, 9100), { silent: true, reopen: true });
  h = bind.hearing.next(h, { type: "opened", now: 9100 });
  assert.deepEqual(bind.hearing.derive(h, 9100), { silent: true, reopen: false }, "not again at once");
  assert.equal(bind.hearing.derive(h, 15000).reopen, false);
  assert.equal(bind.hearing.derive(h, 15200).reopen, true, "the new one heard nothing either: another");
  // The new stream's first message, a full state: heard again.
  h = bind.hearing.next(h, { type: "heard", now: 16000, full: true });
  assert.deepEqual(bind.hearing.derive(h, 16000), { silent: false, reopen: false });
  h = bind.hearing.next(h, { type: "tick", now: 21000 });
  assert.equal(bind.hearing.derive(h, 21000).silent, false, "silence counts from the state");
});

test("hearing: silent, the held stream let go is not enough; only a full state is", () => {
  let h = hear(["heard", 1000, { full: true }], ["tick", 7100]);
  assert.equal(h.silent, true);
  h = hear(["heard", 1000, { full: true }], ["tick", 7100], ["heard", 7500], ["heard", 8000, { full: false }]);
  assert.equal(bind.hearing.derive(h, 8000).silent, true, "an event or a ping of the stream held up");
  assert.equal(bind.hearing.derive(h, 8000).reopen, true, "still due a new stream: the pings of the old one do not put it off");
  h = bind.hearing.next(h, { type: "heard", now: 8200, full: true });
  assert.equal(bind.hearing.derive(h, 8200).silent, false);
});

test("hearing: an EventSource that failed is silent at once, until a state", () => {
  let h = hear(["heard", 1000, { full: true }], ["failed", 1200]);
  assert.deepEqual(bind.hearing.derive(h, 1200), { silent: true, reopen: false }, "EventSource retries by itself first");
  assert.equal(bind.hearing.derive(h, 7100).reopen, true);
  h = bind.hearing.next(h, { type: "heard", now: 4200, full: true });
  assert.equal(bind.hearing.derive(h, 4200).silent, false);
});

test("hearing: next leaves the state it was given as it was", () => {
  const h = bind.hearing.initial(0, limits), copy = Object.assign({}, h);
  bind.hearing.next(h, { type: "failed", now: 1 });
  bind.hearing.next(h, { type: "tick", now: 99999 });
  assert.deepEqual(h, copy);
});

// A page with no browser: an EventSource that the test speaks for, and a body to mark.
function page() {
  const sources = [];
  global.document = { documentElement: { lang: "ko" }, body: { dataset: {} } };
  global.EventSource = class {
    constructor(url) { this.url = url; this.listeners = {}; this.closed = false; sources.push(this); }
    addEventListener(kind, handler) { this.listeners[kind] = handler; }
    close() { this.closed = true; }
    say(kind, data) { this.listeners[kind]({ data: JSON.stringify(data) }); }
  };
  return sources;
}

test("following: a state and an event fill the table and mark the sequence; each message is heard", () => {
  const sources = page(), live = { games: { old: {} }, offset: 0 }, calls = [];
  const on = {
    opened: () => calls.push(["opened"]), heard: (inSync, full) => calls.push(["heard", inSync, full]),
    state: (s) => calls.push(["state", s.sequence]), event: (m) => calls.push(["event", m.game]),
    courts: (c) => calls.push(["courts", c.length]), tables: () => calls.push(["tables"]), error: () => calls.push(["error"]),
  };
  bind.follow(live, on, 2);
  assert.equal(sources.length, 1);
  assert.equal(sources[0].url, "/api/events?ping=2&lang=ko");
  const s = sources[0];
  s.say("state", { sequence: 5, in_sync: true, daemon_now: Date.now(), games: [{ game: "g1", state: state(2, 0), view: view("2 - 0") }] });
  assert.deepEqual(Object.keys(live.games), ["g1"], "the table the page had is replaced");
  assert.equal(document.body.dataset.sequence, 5);
  s.say("event", { sequence: 6, game: "g1", state: state(3, 0), view: view("3 - 0"), event: { type: "scored" } });
  assert.equal(live.games.g1.view.score, "3 - 0");
  assert.equal(document.body.dataset.sequence, 6);
  s.say("sync", { in_sync: false });
  s.say("courts", { courts: [{ court: "Court 1" }] });
  s.listeners.tables({});
  s.onerror();
  assert.deepEqual(calls, [
    ["opened"], ["heard", true, true], ["state", 5], ["heard", undefined, false], ["event", "g1"], ["heard", false, false],
    ["heard", undefined, false], ["courts", 1], ["heard", undefined, false], ["tables"], ["error"],
  ]);
});

test("opening again closes the stream before; a stream asked for without pings", () => {
  const sources = page();
  const open = bind.follow({ games: {}, offset: 0 }, {});
  assert.equal(sources[0].url, "/api/events?lang=ko");
  open();
  assert.equal(sources.length, 2);
  assert.equal(sources[0].closed, true);
  assert.equal(sources[1].closed, false);
  // Handlers a page does not give are skipped.
  sources[1].say("sync", { in_sync: true });
  sources[1].listeners.tables({});
  sources[1].onerror();
});
