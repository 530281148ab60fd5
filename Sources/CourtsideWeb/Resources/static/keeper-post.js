// The keeper page's request for one command (keeper.js sends its outbox and the clock and
// time-outs with it): POST /api/keep/commands, and its answer sorted into what the page does
// next. `refusal` gives a refusal's words in the page's language by its code.
//   {kind: "ok", reply}: the daemon applied it (a retry's answer is the original's);
//   {kind: "refused", message}: the daemon or the gateway refused it: never sent again;
//   {kind: "halt", message, code}: the device must join again;
//   {kind: "retry", why}: no answer, sent again later: "unavailable" (the gateway's 503, the phone
//   is online) or "unreachable" (the fetch failed, or what answered was not the gateway).
window.courtsideKeeperPost = async function post(command, refusal) {
  "use strict";
  const abort = new AbortController(), timer = setTimeout(() => abort.abort(), 10000);
  try {
    const response = await fetch("/api/keep/commands", {
      method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(command),
      credentials: "same-origin", cache: "no-store", signal: abort.signal });
    // The daemon's ok names its version in the answer's head too: confirmed without waiting for
    // the body, which the page took 1.6 ms p50 to read (it is read after, not waited for).
    const version = response.status === 200 ? response.headers.get("X-Courtside-Version") : null;
    if (version !== null && /^\d+$/.test(version)) {
      response.text().catch(() => {});
      return { kind: "ok", reply: { ok: true, version: Number(version) } };
    }
    let reply = null;
    try { reply = await response.json(); } catch (e) { /* a proxy's page, say: not the gateway's answer */ }
    const error = reply && reply.error;
    if (response.status === 200 && reply && reply.ok) return { kind: "ok", reply };
    if (response.status === 200 && error) return { kind: "refused", message: refusal(error.code) };
    if (response.status === 401 && error) return { kind: "halt", message: refusal(error.code), code: error.code };
    if ([400, 403, 413].includes(response.status) && error) return { kind: "refused", message: refusal(error.code) };
    if (response.status === 503 && error) return { kind: "retry", why: "unavailable" };
    return { kind: "retry", why: "unreachable" };
  } catch (e) {
    return { kind: "retry", why: "unreachable" };
  } finally {
    clearTimeout(timer);
  }
};
