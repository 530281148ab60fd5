// The keeper page's outbox entries (Sources/CourtsideWeb/Resources/static/keeper-outbox.js), their
// transitions played with no browser: `node --test Tests/node` (KeeperPageTests runs it).
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const outbox = require(path.join(__dirname, "../../Sources/CourtsideWeb/Resources/static/keeper-outbox.js"));

const move = () => ({ id: "m1", state: "queued", game: "g1", command: { command_id: "m1", op: "move", game: "g1" } });
const retract = () => ({ id: "r1", state: "queued", game: "g1", command: { command_id: "r1", op: "retract", game: "g1", version: 7 } });

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

test("a move sent and answered ok is confirmed with its version, and offers Undo", () => {
  const { entry, effects } = play(move(), { type: "sending", device: "ann" }, { type: "ok", version: 7 });
  assert.equal(entry.state, "confirmed");
  assert.equal(entry.version, 7);
  assert.equal(entry.device, "ann");
  assert.deepEqual(effects, ["store"]);
  assert.equal(outbox.offer(entry, true), "undo");
  // Its event afterwards changes nothing.
  assert.deepEqual(outbox.next(entry, { type: "seen", version: 7 }), { entry, effects: [] });
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
  assert.equal(out.entry.undo, true);
  assert.equal(outbox.offer(out.entry, true), null, "no second undo while the first waits");
  const ok = outbox.next(out.entry, { type: "ok", version: 9 });
  assert.deepEqual(ok.effects, ["store", "retract"]);
  assert.equal(ok.entry.undo, false);
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

test("an entry an older page stored as sent (the daemon's ok) loads as confirmed", () => {
  const old = Object.assign(move(), { state: "sent", version: 7, tried: true });
  assert.equal(outbox.next(old, { type: "loaded" }).entry.state, "confirmed");
  assert.equal(outbox.next(move(), { type: "loaded" }).entry.state, "queued");
});
