// The keeper page's socket (GET /api/keep/socket as a WebSocket): commands sent on it are
// answered in about a tenth of a fetch's time. Opened once the page (a joined device's) loads,
// opened again with a growing wait when it drops, never while the phone is offline.
// courtsideKeeperSocket.send(command) resolves to {status, reply} (the POST's status and body),
// or to null when the socket is not open or closes before the answer: the POST then carries it.
window.courtsideKeeperSocket = (function () {
  "use strict";
  let socket = null, open = false, wait = 1000, timer = null;
  // Commands sent and not answered yet, by command id: each its promise's resolve.
  const waiting = new Map();
  // A socket whose command waits this long is dropped: a phone gone out of the Wi-Fi's reach hears
  // no close until TCP gives up, minutes later. What it held goes by POST, and a new one is opened.
  const stale = 3000;

  function connect() {
    clearTimeout(timer);
    timer = null;
    if (socket || !navigator.onLine) return;
    const url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/api/keep/socket";
    try { socket = new WebSocket(url); } catch (e) { socket = null; return later(); }
    socket.onopen = () => { open = true; wait = 1000; };
    socket.onmessage = (event) => {
      let answer = null;
      try { answer = JSON.parse(event.data); } catch (e) { return; }
      const resolve = answer && waiting.get(answer.command_id);
      if (!resolve) return;
      waiting.delete(answer.command_id);
      resolve({ status: answer.status, reply: answer.reply });
    };
    socket.onclose = closed;
  }
  function closed() {
    socket = null;
    open = false;
    // What was in flight goes by POST (its ids the same: the daemon answers a retry once).
    for (const resolve of waiting.values()) resolve(null);
    waiting.clear();
    later();
  }
  // Leaves a socket at once, without waiting for its closing handshake, which a dead one never ends.
  function drop() {
    const old = socket;
    if (!old) return;
    old.onopen = old.onmessage = old.onclose = null;
    try { old.close(); } catch (e) { /* closing already */ }
    closed();
  }
  function later() {
    if (timer || !navigator.onLine) return;
    timer = setTimeout(connect, wait);
    wait = Math.min(wait * 2, 30000);
  }
  addEventListener("online", () => { wait = 1000; connect(); });
  addEventListener("offline", drop);
  connect();

  return {
    get open() { return open; },
    send(command) {
      const id = command && command.command_id;
      if (!open || typeof id !== "string" || waiting.has(id)) return Promise.resolve(null);
      return new Promise((resolve) => {
        const answered = (answer) => { clearTimeout(late); resolve(answer); };
        const late = setTimeout(() => { if (waiting.get(id) === answered) drop(); }, stale);
        waiting.set(id, answered);
        try { socket.send(JSON.stringify(command)); } catch (e) { waiting.delete(id); answered(null); }
      });
    },
    // A command given up on (its time-out): a late answer finds no one waiting.
    forget(command) { waiting.delete(command && command.command_id); },
  };
})();
