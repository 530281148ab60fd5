// The keeper page's outbox entries (Sources/CourtsideWeb/Resources/static/keeper-outbox.js), their
// transitions played with no browser: `node --test Tests/node` (KeeperPageTests runs it).
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const outbox = require(path.join(__dirname, "../../Sources/CourtsideWeb/Resources/static/keeper-outbox.js"));

const move = () => ({ id: "m1", state: "unsent", game: "g1", command: { command_id: "m1", op: "move", game: "g1" } });
const retract = () => ({ id: "r1", state: "unsent", game: "g1", command: { command_id: "r1", op: "retract", game: "g1", version: 7 } });

// Plays events from `entry`; returns the last entry and every effect, in order.
function play(entry, ...events) {
  const effects = [];
  for (const event of events) {
    const step = outbox.next(entry, event);
    entry = step.entry;
    effects.push(...step.effects);
  }
  return { entry, effects };
}

test("a move waits unsent, goes in flight, and answered ok is confirmed with its version, and offers Undo", () => {
  const sending = outbox.next(move(), { type: "sending", device: "ann" }).entry;
  assert.equal(sending.state, "inFlight");
  assert.equal(outbox.shown(move()), "queued");
  assert.equal(outbox.shown(sending), "queued");
  assert.equal(outbox.due(move()), true);
  assert.equal(outbox.due(sending), false, "not sent twice at once");
  const { entry, effects } = play(move(), { type: "sending", device: "ann" }, { type: "ok", version: 7 });
  assert.equal(entry.state, "confirmed");
  assert.equal(entry.version, 7);
  assert.equal(entry.device, "ann");
  assert.deepEqual(effects, ["store"]);
  assert.equal(outbox.offer(entry, true), "undo");
  assert.equal(outbox.shown(entry), "confirmed");
  assert.equal(outbox.waiting(entry), false);
  // Its event afterwards changes nothing.
  assert.deepEqual(outbox.next(entry, { type: "seen", version: 7 }), { entry, effects: [] });
});

test("no answer: sent, due again under the same id, and an undo now retracts rather than drops", () => {
  const lost = play(move(), { type: "sending", device: "ann" }, { type: "failed" }).entry;
  assert.equal(lost.state, "sent");
  assert.equal(outbox.due(lost), true);
  assert.equal(outbox.waiting(lost), true);
  assert.equal(outbox.offer(lost, true), "undo");
  assert.equal(outbox.next(lost, { type: "sending", device: "ann" }).entry.state, "inFlight");
  assert.equal(outbox.next(move(), { type: "failed" }).entry.state, "unsent", "never out: still unsent");
});

test("a reply lost: its own event confirms it; the retry's ok confirms it again, and nothing more", () => {
  const seen = play(move(), { type: "sending", device: "ann" }, { type: "seen", version: 7 });
  assert.equal(seen.entry.state, "confirmed");
  const again = outbox.next(seen.entry, { type: "ok", version: 7 });
  assert.equal(again.entry.state, "confirmed");
  assert.deepEqual(again.effects, ["store"]);
});

test("refused: the daemon's words, no Undo", () => {
  const { entry } = play(move(), { type: "sending", device: "ann" }, { type: "refused", message: "game g1 is finished" });
  assert.equal(entry.state, "refused");
  assert.equal(entry.message, "game g1 is finished");
  assert.equal(outbox.offer(entry, true), null);
});

test("undo of a move never sent drops it; of one whose request is out, retracts it once the daemon has it", () => {
  assert.equal(outbox.offer(move(), true), "drop");
  assert.deepEqual(outbox.next(move(), { type: "undo", undoable: false }).effects, ["drop"]);
  const out = play(move(), { type: "sending", device: "ann" }, { type: "undo", undoable: false });
  assert.equal(out.entry.state, "retracting");
  assert.deepEqual(out.effects, ["store"]);
  assert.equal(outbox.due(out.entry), true, "sent again after a failure");
  assert.equal(outbox.next(out.entry, { type: "failed" }).entry.state, "retracting");
  assert.equal(outbox.offer(out.entry, true), null, "no second undo while the first waits");
  const ok = outbox.next(out.entry, { type: "ok", version: 9 });
  assert.deepEqual(ok.effects, ["store", "retract"]);
  assert.equal(ok.entry.state, "confirmed");
  // Its event came first: the retraction goes then, and the later ok asks for none.
  const seen = outbox.next(out.entry, { type: "seen", version: 9 });
  assert.deepEqual(seen.effects, ["store", "retract"]);
  assert.deepEqual(outbox.next(seen.entry, { type: "ok", version: 9 }).effects, ["store"]);
});

test("a move already undone, or whose undo is on its way, offers no Undo and retracts nothing", () => {
  const confirmed = play(move(), { type: "sending", device: "ann" }, { type: "ok", version: 7 }).entry;
  assert.equal(outbox.offer(confirmed, false), null, "an undo on its way, or the view shows it undone");
  assert.deepEqual(outbox.next(confirmed, { type: "undo", undoable: false }).effects, []);
  assert.deepEqual(outbox.next(confirmed, { type: "undo", undoable: true }).effects, ["retract"]);
  const undone = outbox.next(confirmed, { type: "undone" });
  assert.deepEqual(undone.effects, ["store"]);
  assert.equal(outbox.offer(undone.entry, true), null);
  assert.deepEqual(outbox.next(undone.entry, { type: "undo", undoable: true }).effects, []);
  assert.deepEqual(outbox.next(undone.entry, { type: "undone" }).effects, [], "once");
});

test("a retraction confirmed says its move is undone; it offers no Undo itself", () => {
  const { entry, effects } = play(retract(), { type: "sending", device: "ann" }, { type: "ok", version: 8 });
  assert.deepEqual(effects, ["store", "undid"]);
  assert.equal(outbox.offer(entry, true), null);
});

test("refused while an undo waits: refused, and nothing to retract", () => {
  const out = play(move(), { type: "sending", device: "ann" }, { type: "undo", undoable: false }, { type: "refused", message: "no" });
  assert.equal(out.entry.state, "refused");
  assert.deepEqual(out.effects, ["store", "store"]);
  assert.deepEqual(outbox.next(out.entry, { type: "seen", version: 3 }).effects, []);
});

test("loaded: an entry stored while its request was out is sent again; older pages' entries take their states", () => {
  const load = (fields) => outbox.next(Object.assign(move(), fields), { type: "loaded" }).entry;
  assert.equal(load({}).state, "unsent");
  assert.equal(load({ state: "inFlight" }).state, "sent");
  assert.equal(load({ state: "sent" }).state, "sent");
  assert.equal(load({ state: "confirmed", version: 7 }).state, "confirmed");
  // An older page's: "sent" was the daemon's ok; "queued" with `tried` and `undo` flags.
  assert.equal(load({ state: "sent", version: 7, tried: true }).state, "confirmed");
  assert.deepEqual(load({ state: "queued" }), move());
  assert.deepEqual(load({ state: "queued", tried: true }), Object.assign(move(), { state: "sent" }));
  assert.deepEqual(load({ state: "queued", tried: true, undo: true }), Object.assign(move(), { state: "retracting" }));
});

test("a play may be undone once: not while its retraction is out or done, again once it is refused, not when the view shows it undone", () => {
  const games = { g1: { view: { plays: [{ version: 7, isUndone: false }, { version: 5, isUndone: true }] } } };
  assert.equal(outbox.undoables([], games)("g1", 7), true);
  assert.equal(outbox.undoables([], games)("g1", 5), false, "the view shows it undone");
  assert.equal(outbox.undoables([retract()], games)("g1", 7), false, "its retraction is queued");
  assert.equal(outbox.undoables([Object.assign(retract(), { state: "confirmed" })], games)("g1", 7), false);
  assert.equal(outbox.undoables([Object.assign(retract(), { state: "refused" })], games)("g1", 7), true);
  assert.equal(outbox.undoables([retract()], games)("g2", 7), true, "another game's play of that version");
});
