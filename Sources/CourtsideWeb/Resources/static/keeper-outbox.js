// One entry of the keeper page's outbox, as pure transitions (keeper.js performs the effects;
// Tests/node/keeper-outbox.test.js plays them with Node's runner).
//
// An entry is "queued" (in IndexedDB, sent in tap order; `tried` once a request went out, whose
// answer may have been lost), then "confirmed" by the daemon's ok or by its own event (its reply
// lost), or "refused" with its refusal's words (the page's, by the code). `undo` marks a queued
// entry undone while its request was out: once the daemon has it, it is retracted. `undone`
// marks a move whose retraction the daemon confirmed. Effects: "store" (write it to IndexedDB),
// "drop" (leave the outbox: never sent), "retract" (queue a retraction of its version), "undid"
// (a retraction confirmed: its move is undone).
(function (exports) {
  "use strict";

  function next(entry, event) {
    const e = Object.assign({}, entry), effects = [];
    const confirmed = (version) => {
      e.state = "confirmed";
      e.version = version;
      effects.push("store");
      if (e.command.op === "retract") effects.push("undid");
      if (e.undo) { e.undo = false; effects.push("retract"); }
    };
    switch (event.type) {
      case "sending":     // its request goes out, under the device's name
        if (e.state === "queued") { e.tried = true; e.device = event.device; }
        break;
      case "ok":          // the daemon's reply: the confirmation (a retry's is the original reply)
        if (e.state !== "refused") confirmed(event.version);
        break;
      case "seen":        // its own event, its reply lost on the way
        if (e.state === "queued") confirmed(event.version);
        break;
      case "refused":
        if (e.state === "queued") { e.state = "refused"; e.message = event.message; effects.push("store"); }
        break;
      case "undo":        // `undoable`: no undo of its play is done or on its way
        if (e.command.op !== "move") break;
        if (e.state === "queued" && !e.tried) effects.push("drop");
        else if (e.state === "queued") { e.undo = true; effects.push("store"); }
        else if (e.state === "confirmed" && e.version && !e.undone && event.undoable) effects.push("retract");
        break;
      case "undone":
        if (!e.undone) { e.undone = true; effects.push("store"); }
        break;
      case "loaded":      // stored by an older page, "sent" meant the daemon's ok
        if (e.state === "sent") e.state = "confirmed";
        break;
    }
    return { entry: e, effects };
  }

  // The button its line offers: "drop" (never sent), "undo", or null; the page has their words.
  function offer(e, undoable) {
    if (e.command.op !== "move" || e.undo) return null;
    if (e.state === "queued") return e.tried ? "undo" : "drop";
    if (e.state === "confirmed" && e.version && !e.undone && undoable) return "undo";
    return null;
  }

  exports.next = next;
  exports.offer = offer;
})(typeof module === "object" && module.exports ? module.exports : (window.courtsideOutbox = {}));
