// The keeper page's request for one command (keeper.js sends its outbox and the clock and
// time-outs with it): on the keeper's socket when it is open (keeper-socket.js), else POST
// /api/keep/commands, and its answer sorted into what the page does next. `refusal` gives a
// refusal's words in the page's language by its code.
//   {kind: "ok", reply}: the daemon applied it (a retry's answer is the original's);
//   {kind: "refused", message}: the daemon or the gateway refused it: never sent again;
//   {kind: "halt", message, code}: the device must join again;
//   {kind: "retry", why}: no answer, sent again later: "unavailable" (the gateway's 503, the phone
//   is online) or "unreachable" (the fetch failed, or what answered was not the gateway).
window.courtsideKeeperPost = async function post(command, refusal) {
  "use strict";
  // The socket's answer carries the POST's status and body: one sorting for both.
  function sorted(status, reply) {
    const error = reply && reply.error;
    if (status === 200 && reply && reply.ok) return { kind: "ok", reply };
    if (status === 200 && error) return { kind: "refused", message: refusal(error.code) };
    if (status === 401 && error) return { kind: "halt", message: refusal(error.code), code: error.code };
    if ([400, 403, 413].includes(status) && error) return { kind: "refused", message: refusal(error.code) };
    if (status === 503 && error) return { kind: "retry", why: "unavailable" };
    return { kind: "retry", why: "unreachable" };
  }
  const abort = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => { timedOut = true; abort.abort(); window.courtsideKeeperSocket.forget(command); }, 10000);
  try {
    const answer = await Promise.race([
      window.courtsideKeeperSocket.send(command), new Promise((resolve) => abort.signal.addEventListener("abort", () => resolve(null)))]);
    if (answer) return sorted(answer.status, answer.reply);
    if (timedOut) return { kind: "retry", why: "unreachable" };
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
    return sorted(response.status, reply);
  } catch (e) {
    return { kind: "retry", why: "unreachable" };
  } finally {
    clearTimeout(timer);
  }
};
