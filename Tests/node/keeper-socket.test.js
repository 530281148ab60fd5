// The keeper page's socket (Sources/CourtsideWeb/Resources/static/keeper-socket.js) with a fake
// WebSocket and Node's mock timers, no browser: `node --test Tests/node` (KeeperPageTests runs it).
const { test, mock } = require("node:test");
const assert = require("node:assert/strict");
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");

const source = fs.readFileSync(
  path.join(__dirname, "../../Sources/CourtsideWeb/Resources/static/keeper-socket.js"), "utf8");

// An answer made in the page's own realm, as a plain object of this one (deepEqual compares prototypes).
const plain = (value) => JSON.parse(JSON.stringify(value));

// A page with one fake socket class: each socket made is kept, to open, answer or close by hand.
function page() {
  const sockets = [];
  class FakeSocket {
    constructor(url) { this.url = url; this.sent = []; this.closed = false; sockets.push(this); }
    send(text) { this.sent.push(JSON.parse(text)); }
    close() { this.closed = true; }
  }
  const listeners = {};
  const window = {};
  const context = {
    window, WebSocket: FakeSocket, navigator: { onLine: true }, location: { protocol: "http:", host: "gym:8080" },
    addEventListener: (type, listener) => { listeners[type] = listener; }, setTimeout, clearTimeout, Promise, Map, JSON,
  };
  vm.runInNewContext(source, context);
  return { socket: window.courtsideKeeperSocket, sockets, listeners };
}

test("a command on the open socket is answered by its id, in any order", async () => {
  const { socket, sockets } = page();
  assert.equal(sockets.length, 1);
  assert.equal(sockets[0].url, "ws://gym:8080/api/keep/socket");
  assert.equal(await socket.send({ command_id: "a" }), null, "not open yet: the POST carries it");
  sockets[0].onopen();
  const first = socket.send({ command_id: "a", op: "move" }), second = socket.send({ command_id: "b", op: "move" });
  assert.deepEqual(sockets[0].sent.map((c) => c.command_id), ["a", "b"]);
  sockets[0].onmessage({ data: JSON.stringify({ status: 200, command_id: "b", reply: { ok: true, version: 2 } }) });
  sockets[0].onmessage({ data: JSON.stringify({ status: 503, command_id: "a", reply: { ok: false } }) });
  assert.deepEqual(plain(await second), { status: 200, reply: { ok: true, version: 2 } });
  assert.deepEqual(plain(await first), { status: 503, reply: { ok: false } });
});

test("a socket that closes hands what it held to the POST and is opened again later", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { socket, sockets } = page();
    sockets[0].onopen();
    const pending = socket.send({ command_id: "a" });
    sockets[0].onclose();
    assert.equal(await pending, null);
    assert.equal(socket.open, false);
    mock.timers.tick(1000);
    assert.equal(sockets.length, 2, "a new socket after a second");
  } finally {
    mock.timers.reset();
  }
});

test("a socket that stops answering is dropped after 3 s: the command goes by POST, a new socket opens", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { socket, sockets } = page();
    sockets[0].onopen();
    const pending = socket.send({ command_id: "a" });
    mock.timers.tick(2999);
    assert.equal(socket.open, true, "still waiting");
    mock.timers.tick(1);
    assert.equal(await pending, null);
    assert.equal(sockets[0].closed, true);
    assert.equal(socket.open, false);
    mock.timers.tick(1000);
    assert.equal(sockets.length, 2);
    sockets[1].onopen();
    const again = socket.send({ command_id: "a" });
    sockets[1].onmessage({ data: JSON.stringify({ status: 200, command_id: "a", reply: { ok: true, version: 1 } }) });
    assert.deepEqual(plain(await again), { status: 200, reply: { ok: true, version: 1 } });
    // An answer in time leaves the socket be.
    mock.timers.tick(5000);
    assert.equal(sockets[1].closed, false);
  } finally {
    mock.timers.reset();
  }
});

test("a command given up on leaves the socket be; going offline drops it at once", async () => {
  mock.timers.enable({ apis: ["setTimeout"] });
  try {
    const { socket, sockets, listeners } = page();
    sockets[0].onopen();
    const forgotten = { command_id: "a" };
    socket.send(forgotten);
    socket.forget(forgotten);
    mock.timers.tick(3000);
    assert.equal(sockets[0].closed, false);
    const pending = socket.send({ command_id: "b" });
    listeners.offline();
    assert.equal(await pending, null);
    assert.equal(sockets[0].closed, true);
  } finally {
    mock.timers.reset();
  }
});
