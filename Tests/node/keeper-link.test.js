// The keeper page's connection (Sources/CourtsideWeb/Resources/static/keeper-link.js), its
// transitions played with no browser: `node --test Tests/node` (KeeperPageTests runs it).
const { test } = require("node:test");
const assert = require("node:assert/strict");
const path = require("node:path");
const link = require(path.join(__dirname, "../../Sources/CourtsideWeb/Resources/static/keeper-link.js"));

// Plays events from `initial(0)`, each `[type, now, extra]`; returns the last state.
function play(...events) {
  return events.reduce((s, [type, now, extra]) => link.next(s, Object.assign({ type, now }, extra)), link.initial(0));
}

test("a page that hears its stream and whose requests are answered shows no banner", () => {
  const s = play(["heard", 1000, { inSync: true }], ["answered", 1500], ["tick", 3000]);
  assert.deepEqual(link.derive(s, 3000), { banner: null, controls: "ok", poll: false, reopen: false, retryAt: null, retry: false });
});

test("silence over 5 s, requests still answered: the silent banner, a fetch of the state, then a new stream", () => {
  let s = play(["heard", 1000], ["tick", 5900]);
  assert.equal(link.derive(s, 5900).banner, null, "under 5 s is a quiet game");
  s = link.next(s, { type: "tick", now: 6100 });
  assert.deepEqual(link.derive(s, 6100), { banner: "silent", controls: "silent", poll: true, reopen: false, retryAt: null, retry: false });
  // A fetched state lets clock and time-outs go for a while.
  s = link.next(s, { type: "fetched", now: 7000, inSync: true });
  assert.equal(link.derive(s, 7000).controls, "ok");
  assert.equal(link.derive(s, 11500).controls, "silent");
  assert.equal(link.derive(s, 11500).reopen, true, "silent 10 s: open the stream again");
  s = link.next(s, { type: "opened", now: 11500 });
  assert.equal(link.derive(s, 12000).reopen, false, "not again at once");
  // The new stream's state is heard: the banner goes, the fetching stops.
  s = link.next(s, { type: "heard", now: 13000, inSync: true, full: true });
  assert.deepEqual(link.derive(s, 13000), { banner: null, controls: "ok", poll: false, reopen: false, retryAt: null, retry: false });
});

test("an EventSource error is silence at once", () => {
  const s = play(["heard", 1000], ["failed", 1200]);
  assert.equal(link.derive(s, 1200).banner, "silent");
  assert.equal(link.derive(s, 1200).poll, true);
});

test("a failed fetch is offline; the gateway's 503 is the server, not offline", () => {
  assert.equal(link.derive(play(["unreachable", 100]), 100).banner, "offline");
  const server = play(["unavailable", 100]);
  assert.equal(link.derive(server, 100).banner, "server");
  assert.equal(link.derive(server, 100).controls, "offline", "clock and time-outs wait");
  // The gateway reached (its session answered) does not say the daemon is back.
  assert.equal(link.derive(link.next(server, { type: "reached", now: 200 }), 200).banner, "server");
  // A command answered does.
  assert.equal(link.derive(link.next(server, { type: "answered", now: 300 }), 300).banner, null);
  // Offline, the gateway reached is online again.
  assert.equal(link.derive(play(["unreachable", 100], ["reached", 200]), 200).banner, null);
});

test("the gateway out of sync with the daemon shows the server's words, and in sync again clears them", () => {
  let s = play(["heard", 100, { inSync: false }]);
  assert.equal(link.derive(s, 100).banner, "server");
  s = link.next(s, { type: "heard", now: 2100, inSync: true });
  assert.equal(link.derive(s, 2100).banner, null);
  // A 503 gives way to the gateway in sync only after a while: the queued moves' retries tell first.
  s = play(["unavailable", 100], ["heard", 2100, { inSync: true }]);
  assert.equal(link.derive(s, 2100).banner, "server");
  s = link.next(s, { type: "heard", now: 10200, inSync: true });
  assert.equal(link.derive(s, 10200).banner, null);
});

test("halted outranks everything and stops the fetching", () => {
  const s = play(["unreachable", 100], ["failed", 200], ["halt", 300, { message: "join again" }]);
  assert.deepEqual(link.derive(s, 300), { banner: "halted", controls: "offline", poll: false, reopen: false, retryAt: null, retry: false });
});

test("offline: a try 1.5 s after the failure, then twice as long after each try, at most 5 s", () => {
  let s = play(["unreachable", 1000]);
  assert.deepEqual([link.derive(s, 2499).retry, link.derive(s, 2500).retry], [false, true]);
  const waits = [];
  let now = 2500;
  for (let i = 0; i < 6; i++) {
    // The try: its move and its look at the gateway both fail; the next try is scheduled once.
    s = link.next(s, { type: "retrying", now });
    s = link.next(s, { type: "unreachable", now: now + 100 });
    s = link.next(s, { type: "unreachable", now: now + 200 });
    waits.push(link.derive(s, now + 200).retryAt - now);
    now = link.derive(s, now).retryAt;
  }
  assert.deepEqual(waits, [3000, 5000, 5000, 5000, 5000, 5000]);
  assert.equal(link.derive(s, now).banner, "offline");
});

test("a try that meets no answer still gets the next; the daemon's answer ends the tries and starts the schedule again", () => {
  let s = play(["unavailable", 0], ["unavailable", 700]);
  assert.equal(link.derive(s, 700).retryAt, 1500, "one try for both");
  // The server down, the gateway reached: no word from the daemon yet, the next try all the same.
  s = link.next(s, { type: "retrying", now: 1500 });
  s = link.next(s, { type: "reached", now: 1600 });
  assert.equal(link.derive(s, 1600).retryAt, 4500);
  assert.equal(link.derive(s, 1600).banner, "server");
  s = link.next(s, { type: "answered", now: 4600 });
  assert.deepEqual([link.derive(s, 4600).retryAt, link.derive(s, 99999).retry], [null, false]);
  s = link.next(s, { type: "unreachable", now: 8000 });
  assert.equal(link.derive(s, 8000).retryAt, 9500, "from the start again");
});

test("offline, the gateway heard from (a request of its own, the stream): a try at once, and none after it on the link", () => {
  for (const [type, extra] of [["reached"], ["heard", { full: true }], ["fetched"]]) {
    let s = play(["unreachable", 0], ["retrying", 1500], ["unreachable", 1600], [type, 2000, extra]);
    assert.equal(link.derive(s, 2000).banner, null, type);
    assert.deepEqual([link.derive(s, 2000).retryAt, link.derive(s, 2000).retry], [2000, true], type);
    s = link.next(s, { type: "retrying", now: 2000 });
    assert.deepEqual([link.derive(s, 2000).retryAt, link.derive(s, 99999).retry], [null, false], type);
  }
  // The server down, the gateway's stream heard: the daemon is not back for that.
  assert.equal(link.derive(play(["unavailable", 0], ["heard", 500]), 500).retryAt, 1500);
});

test("halted, no try is due", () => {
  const s = play(["unreachable", 0], ["halt", 100, { message: "join again" }]);
  assert.deepEqual([link.derive(s, 5000).retryAt, link.derive(s, 5000).retry], [null, false]);
});

test("next leaves the state it was given as it was", () => {
  const s = link.initial(0);
  const copy = Object.assign({}, s);
  link.next(s, { type: "unreachable", now: 1 });
  assert.deepEqual(s, copy);
});
