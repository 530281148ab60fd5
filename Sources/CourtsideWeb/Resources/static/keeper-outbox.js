// One entry of the keeper page's outbox, as one state and pure transitions (keeper.js feeds the
// events and performs the effects; Tests/node/keeper-outbox.test.js plays them with Node's runner).
//
// An entry is "unsent" (in IndexedDB, waiting its turn in tap order), "inFlight" (its request is
// out), "sent" (a request went out and its answer was lost: it is sent again, under the same id),
// "retracting" (undone by the keeper while its request may have reached the daemon: once the
// daemon has it, it is retracted), then "confirmed" by the daemon's ok or by its own event (its
// reply lost), or "refused" with its refusal's words (the page's, by the code). A confirmed move
// is `undone` once its retraction is confirmed. Effects: "store" (write it to IndexedDB), "drop"
// (leave the outbox: never sent), "retract" (queue a retraction of its version), "undid" (a
// retraction confirmed: its move is undone).
(function (exports) {
  "use strict";
  // The states whose request the daemon may have (its answer is awaited, or was lost).
  const out = ["inFlight", "sent", "retracting"];

  function next(entry, event) {
    const e = Object.assign({}, entry), effects = [];
    const confirmed = (version) => {
      const undo = e.state === "retracting";
      e.state = "confirmed";
      e.version = version;
      effects.push("store");
      if (e.command.op === "retract") effects.push("undid");
      if (undo) effects.push("retract");
    };
    switch (event.type) {
      case "sending":     // its request goes out, under the device's name
        if (e.state === "unsent" || e.state === "sent") e.state = "inFlight";
        if (waiting(e)) e.device = event.device;
        break;
      case "failed":      // no answer (offline, the daemon down, the device halted): sent again later
        if (e.state === "inFlight") e.state = "sent";
        break;
      case "ok":          // the daemon's reply: the confirmation (a retry's is the original reply)
        if (e.state !== "refused") confirmed(event.version);
        break;
      case "seen":        // its own event, its reply lost on the way
        if (out.includes(e.state)) confirmed(event.version);
        break;
      case "refused":
        if (waiting(e)) { e.state = "refused"; e.message = event.message; effects.push("store"); }
        break;
      case "undo":        // `undoable`: no undo of its play is done or on its way
        if (e.command.op !== "move") break;
        if (e.state === "unsent") effects.push("drop");
        else if (e.state === "inFlight" || e.state === "sent") { e.state = "retracting"; effects.push("store"); }
        else if (e.state === "confirmed" && e.version && !e.undone && event.undoable) effects.push("retract");
        break;
      case "undone":
        if (!e.undone) { e.undone = true; effects.push("store"); }
        break;
      case "loaded":      // as an older page stored it, or this one while its request was out
        if (e.state === "queued") e.state = e.undo ? "retracting" : e.tried ? "sent" : "unsent";
        else if (e.state === "sent" && e.version) e.state = "confirmed";  // an older page's "sent": the daemon's ok
        else if (e.state === "inFlight") e.state = "sent";
        delete e.tried;
        delete e.undo;
        break;
    }
    return { entry: e, effects };
  }

  // Whether it is still to be answered by the daemon (the page says "queued" of it).
  function waiting(e) {
    return e.state === "unsent" || out.includes(e.state);
  }

  // Whether its request is to go now: waiting, and not out already.
  const due = (e) => e.state === "unsent" || e.state === "sent" || e.state === "retracting";

  // The word its line shows: "queued", "confirmed" or "refused" (the page has them).
  const shown = (e) => (waiting(e) ? "queued" : e.state);

  // The button its line offers: "drop" (never sent), "undo", or null; the page has their words.
  function offer(e, undoable) {
    if (e.command.op !== "move") return null;
    if (e.state === "unsent") return "drop";
    if (e.state === "inFlight" || e.state === "sent") return "undo";
    if (e.state === "confirmed" && e.version && !e.undone && undoable) return "undo";
    return null;
  }

  // Whether a play (`game`, `version`) may be undone, as a function, from one look at the outbox's
  // `entries` and the `games` ({view}) for every line of a draw: once; not when the view shows it
  // undone, nor while an undo of it is on its way or done (one refused leaves it undoable).
  function undoables(entries, games) {
    const taken = new Set();
    for (const e of entries) if (e.command.op === "retract" && e.state !== "refused") taken.add(e.game + "/" + e.command.version);
    return (game, version) => {
      const g = games[game];
      return !taken.has(game + "/" + version) && !(g && g.view.plays.some((p) => p.version === version && p.isUndone));
    };
  }

  exports.next = next;
  exports.waiting = waiting;
  exports.due = due;
  exports.shown = shown;
  exports.offer = offer;
  exports.undoables = undoables;
})(typeof module === "object" && module.exports ? module.exports : (window.courtsideOutbox = {}));
