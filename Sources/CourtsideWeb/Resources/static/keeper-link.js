// The keeper page's connection, as one state and pure transitions (keeper.js performs what
// `derive` asks; Tests/node/keeper-link.test.js plays them with Node's runner).
//
// Two things are judged apart. The requests (`link`): "ok", "offline" when a fetch failed (the
// phone reaches nothing), "server" when the gateway answered 503 (the daemon is down or being
// caught up with: the phone is online), and `halted` with the refusal's words when the device
// must join again. The event stream (`silent`): a page that asked /api/events for a `sync` every
// 2 s and heard nothing for `silentAfter` ms, or whose EventSource failed, hears no live updates.
(function (exports) {
  "use strict";
  const silentAfter = 5000;      // heard nothing this long: silent (the gateway pings every 2 s)
  const reopenAfter = 10000;     // silent this long: a new EventSource (a stalled one never recovers)
  const freshFor = 4000;         // a fetched state this recent still lets clock and time-outs go
  const serverFor = 10000;       // a 503 this old gives way to a gateway that says it is in sync

  function initial(now) {
    return { link: "ok", halted: null, inSync: true, silent: false, heardAt: now, openedAt: now, freshAt: now, serverAt: 0 };
  }

  // One event: {type, now, ...}. Returns the next state; the state given is left as it was.
  function next(state, event) {
    const s = Object.assign({}, state), now = event.now;
    switch (event.type) {
      case "answered":     // a request answered by the daemon (ok or refused): the whole way works
        s.link = "ok"; s.serverAt = 0; break;
      case "reached":      // the gateway answered a request of its own (the session, a game's state)
        if (s.link === "offline") s.link = "ok";
        break;
      case "unreachable":  // a fetch failed, or what answered was not the gateway
        s.link = "offline"; break;
      case "unavailable":  // the gateway's 503: the daemon did not answer
        s.link = "server"; s.serverAt = now; break;
      case "halt":
        s.halted = event.message; break;
      case "opened":       // a new EventSource
        s.openedAt = now; break;
      case "heard":        // any message on the stream; `sync` and the state carry in_sync
        s.silent = false; s.heardAt = now; s.freshAt = now;
        if (typeof event.inSync === "boolean") s.inSync = event.inSync;
        break;
      case "fetched":      // a game's state fetched while silent
        s.freshAt = now;
        if (s.link === "offline") s.link = "ok";
        if (typeof event.inSync === "boolean") s.inSync = event.inSync;
        break;
      case "streamError":
        s.silent = true; break;
      case "tick":
        if (now - s.heardAt > silentAfter) s.silent = true;
        break;
    }
    // A 503 long past, with the gateway in sync since: the next request will tell.
    if (s.link === "server" && s.inSync && (event.type === "heard" || event.type === "fetched") && now - s.serverAt > serverFor) s.link = "ok";
    return s;
  }

  // What the page shows and does now: `banner` names its words (halted, offline, server, silent
  // or null), `controls` whether clock and time-outs may go ("ok") or why not ("offline",
  // "silent"), `poll` whether to fetch the game's state, `reopen` whether to open a new stream.
  function derive(s, now) {
    const server = s.link === "server" || !s.inSync;
    const banner = s.halted ? "halted" : s.link === "offline" ? "offline" : server ? "server" : s.silent ? "silent" : null;
    let controls = "ok";
    if (s.halted || s.link !== "ok" || !s.inSync) controls = "offline";
    else if (s.silent && now - s.freshAt > freshFor) controls = "silent";
    return {
      banner, controls,
      poll: s.silent && !s.halted,
      reopen: s.silent && !s.halted && now - s.heardAt > reopenAfter && now - s.openedAt > reopenAfter,
    };
  }

  exports.initial = initial;
  exports.next = next;
  exports.derive = derive;
})(typeof module === "object" && module.exports ? module.exports : (window.courtsideLink = {}));
