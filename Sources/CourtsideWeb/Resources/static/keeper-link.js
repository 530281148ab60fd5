// The keeper page's connection, as one state and pure transitions (keeper.js performs what
// `derive` asks; Tests/node/keeper-link.test.js plays them with Node's runner).
//
// Two things are judged apart. The requests (`link`): "ok", "offline" when a fetch failed (the
// phone reaches nothing), "server" when the gateway answered 503 (the daemon is down or being
// caught up with: the phone is online), and `halted` with the refusal's words when the device
// must join again. Off the link (offline or the server down), `retryAt` says when to try again:
// 1.5 s after a failure, then twice as long after each try up to 5 s, from the start again once
// the daemon answers (failures while a try is pending count once); offline, at once when the
// gateway is heard from. The event stream (`hearing`, bind.js's machine the screens share): a
// page that asked /api/events for a `sync` every 2 s and heard nothing for 5 s, or whose
// EventSource failed, hears no live updates.
(function (exports) {
  "use strict";
  const hearing = (typeof module === "object" && module.exports ? require("./bind.js") : window.courtsideBind).hearing;
  // Heard nothing 5 s: silent (the gateway pings every 2 s); 10 s: a new EventSource.
  const limits = { silentAfter: 5000, reopenAfter: 10000 };
  const freshFor = 4000;         // a fetched state this recent still lets clock and time-outs go
  const serverFor = 10000;       // a 503 this old gives way to a gateway that says it is in sync
  const retryFirst = 1500, retryMost = 5000;
  // The wait before the next try after `failures` failed tries in a row.
  const backoff = (failures) => Math.min(retryMost, retryFirst * 2 ** Math.max(0, failures - 1));

  function initial(now) {
    return {
      link: "ok", halted: null, inSync: true, failures: 0, retryAt: null,
      hearing: hearing.initial(now, limits), freshAt: now, serverAt: 0,
    };
  }

  // A failure schedules a try, unless one is due already.
  function failed(s, now) {
    if (s.retryAt !== null) return;
    s.failures += 1;
    s.retryAt = now + backoff(s.failures);
  }

  // The gateway heard from: offline, the phone is online again, and the queued moves go at once.
  function reached(s, now) {
    if (s.link !== "offline") return;
    s.link = "ok";
    s.retryAt = now;
  }

  // One event: {type, now, ...}. Returns the next state; the state given is left as it was.
  function next(state, event) {
    const s = Object.assign({}, state), now = event.now;
    switch (event.type) {
      case "answered":     // a request answered by the daemon (ok or refused): the whole way works
        s.link = "ok"; s.serverAt = 0; s.failures = 0; s.retryAt = null; break;
      case "reached":      // the gateway answered a request of its own (the session, a game's state)
        reached(s, now); break;
      case "unreachable":  // a fetch failed, or what answered was not the gateway
        s.link = "offline"; failed(s, now); break;
      case "unavailable":  // the gateway's 503: the daemon did not answer
        s.link = "server"; s.serverAt = now; failed(s, now); break;
      case "retrying":     // the page tries again now (its queued moves, a look at the gateway)
        // Off the link, the next try is due unless this one is answered.
        if (s.link === "ok") s.retryAt = null;
        else { s.failures += 1; s.retryAt = now + backoff(s.failures); }
        break;
      case "halt":
        s.halted = event.message; break;
      case "heard":        // any message on the stream (`full`: a state); `sync` and the state carry in_sync
        s.freshAt = now; reached(s, now);
        if (typeof event.inSync === "boolean") s.inSync = event.inSync;
        break;
      case "fetched":      // a game's state fetched while silent
        s.freshAt = now; reached(s, now);
        if (typeof event.inSync === "boolean") s.inSync = event.inSync;
        break;
    }
    // The stream's own events ("opened", "heard", "failed", "tick") are the hearing machine's.
    s.hearing = hearing.next(s.hearing, event);
    // A 503 long past, with the gateway in sync since: the next request will tell.
    const heardInSync = s.inSync && (event.type === "heard" || event.type === "fetched");
    if (s.link === "server" && heardInSync && now - s.serverAt > serverFor) s.link = "ok";
    return s;
  }

  // What the page shows and does now: `banner` names its words (halted, offline, server, silent
  // or null), `controls` whether clock and time-outs may go ("ok") or why not ("offline",
  // "silent"), `poll` whether to fetch the game's state, `reopen` whether to open a new stream,
  // `retryAt` when to try again (null: no try due), `retry` whether that time has come.
  function derive(s, now) {
    const stream = hearing.derive(s.hearing, now);
    const server = s.link === "server" || !s.inSync;
    const banner = s.halted ? "halted" : s.link === "offline" ? "offline" : server ? "server" : stream.silent ? "silent" : null;
    let controls = "ok";
    if (s.halted || s.link !== "ok" || !s.inSync) controls = "offline";
    else if (stream.silent && now - s.freshAt > freshFor) controls = "silent";
    const retryAt = s.halted ? null : s.retryAt;
    return {
      banner, controls, poll: stream.silent && !s.halted, reopen: stream.reopen && !s.halted,
      retryAt, retry: retryAt !== null && now >= retryAt,
    };
  }

  exports.initial = initial;
  exports.next = next;
  exports.derive = derive;
})(typeof module === "object" && module.exports ? module.exports : (window.courtsideLink = {}));
