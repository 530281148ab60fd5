#!/usr/bin/env python3
"""The keeper page (/keep) in real Chromium through selenium, against the real daemon and gateway.

    keeper_check.py --web http://127.0.0.1:PORT --command EP --pin K7M-4PX --web-bin PATH
                    --state-dir DIR [--offline-seconds 60] [--shots DIR] [--daemon-pid PID]
    keeper_check.py --web http://127.0.0.1:PORT --command EP --pin K7M-4PX --figures 200

The browsers reach the gateway through a TCP proxy of this script, which it stops (every open
connection cut, the event stream too: CDP's offline mode leaves open streams flowing) and
restarts to play a Wi-Fi drop, and which can drop the gateway's answer to one POST, refuse the
keeper's socket, cut it when an answer comes, or drop its answers and keep it open. On a phone
(390x844, touch): joins by PIN and opens its socket; every control at least 44x44 and no sideways
scrolling; plays g1 to 15-13 from the page on the socket (no POST) and compares it with the
daemon's snapshot; in g6 a socket cut with a tap in flight (the tap goes by POST, counted once)
and a socket refused (taps by POST); a lost reply in g3 counts once; the socket back; in g6 a silent socket (its answers dropped, the
connection kept) with a tap in flight: dropped after 3 s, the tap by POST, counted once, a new
socket opened; then in g3 the event stream cut while POSTs pass (CDP blocks new streams, the proxy holds
the open one): a tap confirmed by its ok, the page saying it hears no live updates and showing
the score it fetched, an undo offered once, the banner gone when the stream is back; the daemon
stopped (--daemon-pid, SIGSTOP): the server's words, not offline; g5 offline for --offline-seconds with 30 taps, the undo of a queued one and a reload served
by the service worker, then exactly 29 applied, once each, in tap order, all confirmed; two
keepers in g4 at once, and an undo on one page of the other's play; a revoked device (a new code
for the court) keeps its unsent move. Ends with "N passed, N failed".

With --figures N it only measures, in the court's current game: N taps, each timed in the page
from the tap to its line turning "confirmed", and cut into steps by its POST's resource timing
(the page's work before the fetch, the browser's before the request, the gateway and the daemon
to the first byte, the body, the page's work after it), or on the keeper's socket by its sends and
answers (the page's work before the send, the way to the answer, the page's work after it); N moves over ZeroMQ, the daemon's own
round trip, in the same run; and the page's weight in bytes.

Needs Debian's chromium, chromium-driver, python3-selenium and python3-zmq.
"""
import argparse
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Run, command, wait  # noqa: E402


class Proxy:
    """A TCP proxy on a fixed loopback port: stop() closes the port and cuts every connection."""

    def __init__(self, target_port):
        self.target = ("127.0.0.1", target_port)
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        self.port = probe.getsockname()[1]
        probe.close()
        self.lock = threading.Lock()
        self.sockets, self.listener = set(), None
        # The next answers to this many POSTs of a command never reach the browser; Chrome itself
        # resends a request once when a reused connection closes before any answer, so two
        # lost answers make the page's own retry happen.
        self.drop_replies, self.dropped, self.posts = 0, 0, 0
        # While held, the event streams' data waits here, so the page cannot learn of a move
        # from its event and must retry the POST whose answer was lost.
        self.holding, self.held = False, []
        # The keeper's socket: refused (its upgrade request's connection closed) while blocked;
        # cut when the gateway's next answers on it come, this many times.
        self.block_sockets, self.cut_socket_answers, self.socket_cuts = False, 0, 0
        # While silent, the gateway's answers on an open socket are dropped here and the connection
        # kept, as for a phone out of the Wi-Fi's reach, which hears no close; the sockets asked for.
        self.silent_sockets, self.socket_opens = False, 0

    def start(self):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(("127.0.0.1", self.port))
        listener.listen(64)
        self.listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def stop(self):
        with self.lock:
            listener, self.listener = self.listener, None
            doomed, self.sockets = self.sockets, set()
        if listener:
            # shutdown() wakes the thread blocked in accept(); close() alone would leave it accepting.
            try:
                listener.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            listener.close()
        for s in doomed:
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
            s.close()

    def hold_events(self, yes):
        with self.lock:
            self.holding = yes
            if not yes:
                for sink, data in self.held:
                    try:
                        sink.sendall(data)
                    except OSError:
                        pass
                self.held = []

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            with self.lock:
                if self.listener is not listener:  # stopped meanwhile
                    client.close()
                    server.close()
                    return
                self.sockets.update((client, server))
            state = {"drop": False, "events": False, "socket": False, "upgraded": False}
            threading.Thread(target=self._pipe, args=(client, server, state, True), daemon=True).start()
            threading.Thread(target=self._pipe, args=(server, client, state, False), daemon=True).start()

    def _pipe(self, source, sink, state, upstream):
        try:
            while True:
                data = source.recv(65536)
                if not data:
                    break
                if upstream:
                    if data.startswith(b"GET /api/keep/socket"):
                        state["socket"] = True
                        self.socket_opens += 1
                        if self.block_sockets:
                            break
                    state["events"] = state["events"] or b"GET /api/events" in data
                    if b"POST /api/keep/commands" in data:
                        self.posts += 1
                        if self.drop_replies:
                            self.drop_replies, state["drop"] = self.drop_replies - 1, True
                elif state["socket"]:
                    if not state["upgraded"]:
                        state["upgraded"] = data.startswith(b"HTTP/1.1 101")
                    elif self.silent_sockets:
                        continue
                    elif self.cut_socket_answers:
                        # The answer is lost with its socket: the page must send the command again.
                        self.cut_socket_answers -= 1
                        self.socket_cuts += 1
                        break
                elif state["drop"]:
                    # The gateway answered; the browser never hears it.
                    self.dropped += 1
                    break
                elif state["events"]:
                    with self.lock:
                        if self.holding:
                            self.held.append((sink, data))
                            continue
                sink.sendall(data)
        except OSError:
            pass
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def chromium():
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--hide-scrollbars"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    phone(browser)
    browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
    return browser


def phone(browser):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})


def tablet(browser):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                            {"width": 1180, "height": 820, "deviceScaleFactor": 1, "mobile": True})


# Every control's size and whether the page scrolls sideways.
LAYOUT = """
const small = [...document.querySelectorAll('button, select, input, a')]
  .filter((e) => e.offsetParent !== null)
  .map((e) => [e.id || e.dataset.player || e.dataset.move || e.textContent.trim().slice(0, 20), e.getBoundingClientRect()])
  .filter(([, r]) => r.width < 44 || r.height < 44).map(([n, r]) => n + " " + Math.round(r.width) + "x" + Math.round(r.height));
return [small, document.documentElement.scrollWidth, window.innerWidth];
"""


class Keeper:
    """One browser on the keeper page."""

    def __init__(self, base):
        self.base, self.browser = base, chromium()

    def js(self, script, *args):
        return self.browser.execute_script(script, *args)

    def join(self, pin, name):
        self.browser.get(self.base + "/keep")
        self.browser.find_element(By.ID, "pin").send_keys(pin)
        self.browser.find_element(By.ID, "name").send_keys(name)
        self.browser.find_element(By.ID, "join").click()
        return wait(lambda: self.js("return document.body.classList.contains('keeper') && "
                                    "!!document.querySelector('button[data-player]')"), 15)

    @property
    def device(self):
        return self.js("return document.body.dataset.device")

    def pick(self, game):
        self.js("const s = document.getElementById('game'); s.value = arguments[0];"
                "s.dispatchEvent(new Event('change'));", game)
        return wait(lambda: self.js("return !!document.querySelector('button[data-player]')"), 5)

    def tap(self, player, move, real=False):
        """A player, then a move; real: through selenium's click, which fails if anything covers the button."""
        if real:
            self.browser.find_element(By.CSS_SELECTOR, 'button[data-player="%s"]' % player).click()
            self.browser.find_element(By.CSS_SELECTOR, 'button[data-move="%s"]' % move).click()
        else:
            self.js("document.querySelector('button[data-player=\"' + arguments[0] + '\"]').click();"
                    "document.querySelector('button[data-move=\"' + arguments[1] + '\"]').click();", player, move)

    def taps(self):
        """The outbox as shown, oldest first: (command id, state)."""
        return [tuple(t) for t in self.js(
            "return [...document.querySelectorAll('#outbox li')].reverse().map((li) => [li.dataset.id, li.dataset.state]);")]

    def field(self, name):
        return self.js("const e = document.querySelector('[data-field=\"' + arguments[0] + '\"]');"
                       "return e ? e.textContent : null;", name)

    def all_confirmed(self, count=None):
        t = self.taps()
        return (count is None or len(t) == count) and all(s == "confirmed" for _, s in t)

    def quit(self):
        self.browser.quit()


def snapshot(endpoint, game):
    reply = command(endpoint, "snapshot", game=game)
    return reply["snapshot"][0] if reply and reply.get("ok") else None


def applied(endpoint, game, device):
    """The command ids of the device's moves in the game's log, in order."""
    reply = command(endpoint, "log", game=game)
    return [e["origin"]["command_id"] for e in (reply or {}).get("events", [])
            if e["origin"]["client_id"].endswith(device) and e["kind"]["type"] == "move"]


# In the page: n taps of one player's rebound (no points, so no game ever ends), each timed from
# the tap to its line in the outbox turning "confirmed" (a MutationObserver, no polling).
TIMED_TAPS = """
const [n, done] = [arguments[0], arguments[arguments.length - 1]];
const outbox = document.getElementById("outbox"), times = (window.keeperTimes = []), starts = (window.keeperStarts = []);
const player = document.querySelector("button[data-player]").dataset.player;
(async () => {
  for (let i = 0; i < n; i++) {
    const before = new Set([...outbox.querySelectorAll("li")].map((li) => li.dataset.id));
    const confirmed = () => [...outbox.querySelectorAll('li[data-state="confirmed"]')].some((li) => !before.has(li.dataset.id));
    const start = performance.now();
    starts.push(start);
    await new Promise((resolve) => {
      const observer = new MutationObserver(() => { if (confirmed()) { observer.disconnect(); resolve(); } });
      observer.observe(outbox, { childList: true, subtree: true, attributes: true });
      document.querySelector('button[data-player="' + player + '"]').click();
      document.querySelector('[data-move="rebound"]').click();
    });
    times.push(performance.now() - start);
  }
  return times;
})().then(done, (e) => done(String(e)));
"""


# Each timed tap cut into steps by its POST's resource timing and the tap's own start and end:
# the page's work before the fetch starts, the browser's before the request goes out, the
# gateway's and the daemon's to the answer's first byte, the answer's body, and the page's work
# after the answer until the line shows "confirmed".
STEPS = ("page before fetch", "browser before request", "to first byte", "body", "page after answer")
BREAKDOWN = """
const posts = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/api/keep/commands"));
const starts = window.keeperStarts || [], times = window.keeperTimes || [];
return starts.map((start, i) => {
  const end = start + times[i], p = posts.find((e) => e.startTime >= start && e.startTime <= end);
  if (!p) return null;
  const request = p.requestStart || p.fetchStart, first = p.responseStart || request;
  return [p.startTime - start, request - p.startTime, first - request, p.responseEnd - first, end - p.responseEnd];
}).filter((t) => t);
"""


# The same for taps sent on the keeper's socket, which resource timing does not see: each send's
# time (WebSocket's send wrapped) and each answer's arrival (its message event's timeStamp, when
# the browser queued it for the page), matched to the taps by order.
SOCKET_STEPS = ("page before send", "gateway, daemon and browser to the answer", "page after answer")
SOCKET_TIMING = """
const sends = (window.keeperSocketSends = []), answers = (window.keeperSocketAnswers = []);
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (data) {
  if (!this.keeperTimed) {
    this.keeperTimed = true;
    this.addEventListener("message", (event) => answers.push(event.timeStamp));
  }
  sends.push(performance.now());
  return send.call(this, data);
};
"""
SOCKET_BREAKDOWN = """
const starts = window.keeperStarts || [], times = window.keeperTimes || [];
const sends = window.keeperSocketSends || [], answers = window.keeperSocketAnswers || [];
return starts.map((start, i) => {
  const end = start + times[i], sent = sends.find((t) => t >= start && t <= end);
  const answered = answers.find((t) => t >= sent && t <= end);
  if (sent === undefined || answered === undefined) return null;
  return [sent - start, answered - sent, end - answered];
}).filter((t) => t);
"""


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def figures(args):
    """Prints the figures: tap to confirmed in the page, the daemon's own round trip, the page's weight."""
    import zmq
    keeper = Keeper(args.web)
    try:
        if not keeper.join(args.pin, "figures"):
            print("could not join with PIN %s" % args.pin)
            return 1
        game = keeper.js("return document.getElementById('game').value")
        # A page with the keeper's socket sends on it once it is open; an older one POSTs.
        socket = keeper.js("return !!window.courtsideKeeperSocket") and wait(lambda: keeper.js(SOCKET_OPEN), 10)
        keeper.browser.set_script_timeout(max(60, args.figures))
        keeper.js("performance.clearResourceTimings(); performance.setResourceTimingBufferSize(100000)")
        if socket:
            keeper.js(SOCKET_TIMING)
        page = keeper.browser.execute_async_script(TIMED_TAPS, args.figures)
        # The POSTs alone, as the browser timed them: what of a tap is the gateway's and the daemon's.
        posts = keeper.js("""
            return performance.getEntriesByType("resource")
              .filter((e) => e.name.endsWith("/api/keep/commands")).map((e) => e.duration);""")
        steps = keeper.js(BREAKDOWN)
        socket_steps = keeper.js(SOCKET_BREAKDOWN) if socket else []
        player = keeper.js("return document.querySelector('button[data-player]').dataset.player")
        dealer = zmq.Context.instance().socket(zmq.DEALER)
        dealer.setsockopt(zmq.LINGER, 0)
        dealer.connect(args.command)
        daemon = []
        for i in range(args.figures):
            start = time.perf_counter()
            dealer.send_json(dict(op="move", client_id="keeper-figures", command_id="f%d-%f" % (i, start),
                                  game=game, player=player, move="rebound"))
            if not dealer.poll(5000):
                break
            dealer.recv()
            daemon.append((time.perf_counter() - start) * 1000)
        dealer.close()
        weight = keeper.js("""
            const entries = [...performance.getEntriesByType("navigation"), ...performance.getEntriesByType("resource")]
              .filter((e) => !e.name.includes("/api/"));
            return entries.map((e) => [new URL(e.name).pathname, e.encodedBodySize]);""")
        print("tap to confirmed on the page, %d taps in %s: p50 %.1f ms, p99 %.1f ms" % (
            len(page), game, percentile(page, 50), percentile(page, 99)))
        print("the commands went %s, %d POSTs" % ("on the keeper's socket" if socket else "by POST", len(posts)))
        if posts:
            print("their POSTs through the gateway, as the browser timed them, %d: p50 %.1f ms, p99 %.1f ms" % (
                len(posts), percentile(posts, 50), percentile(posts, 99)))
        if steps:
            print("where a tap's time goes (p50 of each step, ms; %d taps): %s" % (len(steps), ", ".join(
                "%s %.1f" % (name, percentile([t[i] for t in steps], 50)) for i, name in enumerate(STEPS))))
        if socket_steps:
            print("where a tap's time goes on the socket (p50 of each step, ms; %d taps): %s" % (
                len(socket_steps), ", ".join("%s %.1f" % (name, percentile([t[i] for t in socket_steps], 50))
                                             for i, name in enumerate(SOCKET_STEPS))))
        print("the daemon's own round trip (ZeroMQ, same run), %d moves: p50 %.2f ms, p99 %.2f ms" % (
            len(daemon), percentile(daemon, 50), percentile(daemon, 99)))
        print("page weight: %d bytes (%s), uncompressed" % (
            sum(size for _, size in weight), ", ".join("%s %d" % (path, size) for path, size in weight)))
        return 0
    finally:
        keeper.quit()


BANNER = "const b = document.getElementById('banner'); return b.hidden ? '' : b.textContent;"
SILENT = "Not hearing live updates: the score shown may be behind. Your taps still count."
SERVER = "The scoring server is not answering; your taps are kept and sent when it is back."
# Where the buttons are, to check that a banner moves none from under a finger.
TOPS = ("return ['button[data-player]', 'button[data-move=\"one_point\"]', '#clock']"
        ".map((s) => Math.round(document.querySelector(s).getBoundingClientRect().top));")


def retractions(endpoint, game):
    return [e for e in (command(endpoint, "log", game=game) or {}).get("events", []) if e["kind"]["type"] == "retraction"]


def silence(run, a, proxy, args):
    """Issue 39: the event stream down (new streams blocked, the open one held up) while POSTs pass."""
    a.pick("g3")
    tops = a.js(TOPS)
    a.browser.execute_cdp_cmd("Network.enable", {})
    a.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
    proxy.hold_events(True)
    try:
        a.tap("gus", "two_points")
        tapped = time.monotonic()
        run.check("stream down: a tap is confirmed from its POST's ok within 2 s", wait(lambda: a.all_confirmed(2), 2),
                  str(a.taps()))
        run.check("stream down: the page says it hears no live updates within 8 s",
                  wait(lambda: a.js(BANNER) == SILENT, 8), "%r after %.1f s" % (a.js(BANNER), time.monotonic() - tapped))
        run.check("stream down: the score and the player's counts come from the page's own fetch", wait(lambda: a.field(
            "score") == "4 - 0" and a.js("return document.querySelector('button[data-player=\"gus\"] .counts').textContent")
            .startswith("4 pts"), 6), a.field("score"))
        banner = a.js("const r = (s) => document.querySelector(s).getBoundingClientRect();"
                      "return [r('#banner').bottom, r('.game-pick').top, r('.team .board').top];")
        run.check("stream down: the banner covers neither the game picker nor the teams' lines, and moves no button",
                  banner[0] <= banner[1] <= banner[2] and a.js(TOPS) == tops, "%s %s %s" % (banner, tops, a.js(TOPS)))
        if args.shots:
            a.browser.save_screenshot(os.path.join(args.shots, "keeper-phone-silent.png"))
        # Undo, once: the move's line offers it no more, and the fetched score goes back.
        move = a.taps()[-1][0]
        a.js("document.querySelector('#outbox li[data-id=\"' + arguments[0] + '\"] button.undo').click()", move)
        run.check("stream down: an undo is confirmed, the score follows, and the undone move offers no Undo", wait(
            lambda: a.all_confirmed(3) and a.field("score") == "2 - 0" and not a.js(
                "return !!document.querySelector('#outbox li[data-id=\"' + arguments[0] + '\"] button.undo')", move), 8)
            and not a.js("return [...document.querySelectorAll('#plays li.undone button.undo')].length"),
            "%s %s" % (a.field("score"), a.taps()))
    finally:
        a.browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
        proxy.hold_events(False)
    run.check("stream back: the banner goes", wait(lambda: a.js(BANNER) == "", 20), a.js(BANNER))
    ids = applied(args.command, "g3", a.device)
    run.check("stream down: one move per tap, one retraction per undo", len(ids) == 2 and len(retractions(
        args.command, "g3")) == 1 and snapshot(args.command, "g3")["score"]["home"] == 2, str(ids))


SOCKET_OPEN = "return !!(window.courtsideKeeperSocket && window.courtsideKeeperSocket.open)"


def socket_lost(run, a, proxy, args):
    """The keeper's socket cut with a tap in flight, then refused: the taps go by POST, once each.
    Leaves the socket refused, for the lost POST reply that follows."""
    a.pick("g6")
    # Refused from now on, so the page's tries to open it again after the cut are refused too.
    proxy.posts, proxy.cut_socket_answers, proxy.block_sockets = 0, 1, True
    a.tap("ann", "two_points")
    run.check("socket cut with a tap in flight: the tap is sent again by POST (same id) and confirmed",
              wait(lambda: a.all_confirmed(1), 10) and proxy.socket_cuts == 1 and proxy.posts == 1,
              "%s %d cut, %d POSTs" % (a.taps(), proxy.socket_cuts, proxy.posts))
    time.sleep(1.5)  # the page's first try to open it again is refused
    a.tap("ann", "two_points")
    run.check("socket refused: the next tap is confirmed by POST", wait(lambda: a.all_confirmed(2), 10) and proxy.posts == 2
              and not a.js(SOCKET_OPEN), "%s %d POSTs" % (a.taps(), proxy.posts))
    ids = applied(args.command, "g6", a.device)
    run.check("socket cut, then refused: each tap applied once", len(ids) == 2 and
              snapshot(args.command, "g6")["score"]["home"] == 4, str(ids))


def socket_silent(run, a, proxy, args):
    """The keeper's socket open but silent (a phone out of the Wi-Fi's reach hears no close): a tap
    on it goes again by POST after 3 s (same id) and is confirmed, applied once, and the page opens
    a new socket."""
    a.pick("g6")
    before = {i for i, _ in a.taps()}
    # The move's event held too, so the page cannot learn of the move from the stream instead.
    proxy.hold_events(True)
    proxy.posts, opens, proxy.silent_sockets = 0, proxy.socket_opens, True
    a.tap("ann", "two_points")
    tap = lambda: [state for i, state in a.taps() if i not in before]
    confirmed = wait(lambda: tap() == ["confirmed"], 15)
    proxy.silent_sockets = False
    proxy.hold_events(False)
    run.check("socket silent with a tap in flight: the page drops it and the tap goes by POST (same id), confirmed",
              confirmed and proxy.posts == 1, "%s %d POSTs" % (tap(), proxy.posts))
    run.check("socket silent: the page opens a new socket", wait(lambda: proxy.socket_opens > opens and a.js(SOCKET_OPEN), 15),
              "%d sockets asked for" % (proxy.socket_opens - opens))
    ids = applied(args.command, "g6", a.device)
    run.check("socket silent: the tap applied once", len(ids) == 3 and snapshot(args.command, "g6")["score"]["home"] == 6,
              str(ids))


def server_down(run, a, args):
    """Issue 39: the daemon stopped (SIGSTOP), the gateway answering 503: the server's words, not offline."""
    if not args.daemon_pid:
        return
    os.kill(args.daemon_pid, signal.SIGSTOP)
    try:
        a.tap("hal", "rebound")
        run.check("daemon stopped: the page says the scoring server is not answering, not offline",
                  wait(lambda: a.js(BANNER) == SERVER, 15), a.js(BANNER))
        run.check("daemon stopped: the tap stays queued, clock and time-outs wait", a.taps()[-1][1] == "queued" and a.js(
            "return document.getElementById('clock').disabled && [...document.querySelectorAll('.timeout')]"
            ".every((b) => b.disabled)"), str(a.taps()[-1:]))
    finally:
        os.kill(args.daemon_pid, signal.SIGCONT)
    run.check("daemon back: the tap is confirmed and the banner goes",
              wait(lambda: a.all_confirmed(4) and a.js(BANNER) == "", 30), "%r %s" % (a.js(BANNER), a.taps()[-1:]))
    rebounds = [e for e in command(args.command, "log", game="g3")["events"]
                if e["kind"]["type"] == "move" and e["kind"].get("move") == "rebound"]
    run.check("daemon back: the rebound applied once", len(rebounds) == 1, str(len(rebounds)))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--pin", required=True)
    parser.add_argument("--web-bin", help="courtside-web, to give the court a new code (needed unless --figures)")
    parser.add_argument("--state-dir", help="the gateway's --state-dir (needed unless --figures)")
    parser.add_argument("--offline-seconds", type=float, default=60)
    parser.add_argument("--shots", help="folder for keeper-phone.png and keeper-tablet.png")
    parser.add_argument("--daemon-pid", type=int, help="courtsided's process id: stopped (SIGSTOP) a while, then continued")
    parser.add_argument("--figures", type=int, default=0,
                        help="only measure: this many taps, each timed to confirmed; prints p50 and p99, the "
                             "daemon's own round trip and the page's weight")
    args = parser.parse_args()
    if args.figures:
        return figures(args)
    if not (args.web_bin and args.state_dir):
        parser.error("--web-bin and --state-dir are needed unless --figures is given")
    run = Run()
    proxy = Proxy(urllib.parse.urlparse(args.web).port)
    proxy.start()
    base = "http://127.0.0.1:%d" % proxy.port
    keepers = []
    try:
        a = Keeper(base)
        keepers.append(a)
        # The join page: a wrong PIN says so; the right one opens the court's current game.
        a.browser.get(base + "/keep")
        small, width, inner = a.js(LAYOUT)
        run.check("join page: every control at least 44x44, no sideways scroll", not small and width <= inner,
                  "%s %s/%s" % (small, width, inner))
        a.browser.find_element(By.ID, "pin").send_keys("AAA-AAA")
        a.browser.find_element(By.ID, "join").click()
        run.check("a wrong PIN says so", wait(lambda: "PIN" in (a.js(
            "const m = document.getElementById('join-message'); return m ? m.textContent : ''") or ""), 5))
        run.check("join by PIN", a.join(args.pin, "Ann's phone"), a.browser.current_url)
        run.check("the page opens on the court's current game", a.js("return document.getElementById('game').value") == "g1")
        run.check("the page opens its socket once joined", wait(lambda: a.js(SOCKET_OPEN), 10))
        run.check("the service worker controls the page and keeps it", wait(lambda: a.js(
            "return !!navigator.serviceWorker.controller") and a.js(
            "return window.caches.match('/keep').then((r) => !!r)"), 15))
        small, width, inner = a.js(LAYOUT)
        run.check("phone 390x844 with touch: every control at least 44x44, no sideways scroll",
                  not small and width <= inner, "%s %s/%s" % (small, width, inner))

        # g1 to 15-13 from the page, then one more move: the daemon's own refusal.
        a.js("document.getElementById('clock').click()")
        run.check("the clock starts from the page", wait(lambda: a.field("clock-button") == "Pause clock", 5))
        plan = [("ann", "two_points"), ("di", "two_points")] * 6 + [("ann", "one_point"), ("di", "one_point"),
                                                                     ("ann", "two_points")]
        proxy.posts = 0
        for player, move in plan:
            a.tap(player, move, real=True)
        run.check("15-13 shown and every tap confirmed", wait(lambda: a.field("score") == "15 - 13" and
                                                              a.all_confirmed(len(plan)), 20),
                  "%s %s" % (a.field("score"), a.taps()[-3:]))
        run.check("the socket open, the taps go on it: no POST", proxy.posts == 0, "%d POSTs" % proxy.posts)
        run.check("the page says who won", wait(lambda: "Lions won" in (a.field("status") or ""), 5), a.field("status"))
        a.tap("bo", "one_point", real=True)
        refused = lambda: a.js("const li = document.querySelector('#outbox li[data-state=\"refused\"]');"
                               "return li ? li.querySelector('.why').textContent : ''")
        run.check("a move after the end is refused with the daemon's words", wait(lambda: refused() != "", 5), refused())
        small, width, inner = a.js(LAYOUT)
        run.check("phone, with taps, plays and their undo buttons: every control at least 44x44, no sideways scroll",
                  not small and width <= inner and a.js("return document.querySelectorAll('button.undo').length") > 10,
                  "%s %s/%s" % (small, width, inner))
        g1 = snapshot(args.command, "g1")
        shown = a.js("return [...document.querySelectorAll('button[data-player]')].map((b) => "
                     "[b.dataset.player, b.querySelector('.counts').textContent]);")
        points = {p: c.get("one_point", 0) + 2 * c.get("two_points", 0) + c.get("free_throw", 0)
                  for p, c in g1["counts"].items()}
        run.check("the daemon's snapshot equals the page", g1["score"] == {"home": 15, "away": 13} and
                  g1["status"] == "finished" and all(c.startswith("%d pts" % points.get(p, 0)) for p, c in shown),
                  "%s %s" % (g1["score"], shown))
        socket_lost(run, a, proxy, args)
        # A lost reply: the gateway applies the move, the proxy drops its answer, the page retries.
        a.pick("g3")
        proxy.hold_events(True)
        proxy.posts, proxy.drop_replies = 0, 2
        a.tap("gus", "two_points")
        # The answers lost, the page sends the same id again: the third POST's ok confirms it, its event held.
        retried = wait(lambda: proxy.posts >= 3 and a.all_confirmed(1), 15)
        proxy.hold_events(False)
        run.check("a lost reply: the page retries with the same id and the move is confirmed by the daemon's ok",
                  retried and proxy.dropped == 2, "%s %d answers dropped, %d POSTs" % (a.taps(), proxy.dropped, proxy.posts))
        ids = applied(args.command, "g3", a.device)
        run.check("a lost reply: the move counts once", len(ids) == 1 and snapshot(args.command, "g3")["score"]["home"] == 2,
                  str(ids))
        proxy.block_sockets = False
        run.check("the gateway takes the socket again: the page opens it again (its wait grown to 8 s at most)",
                  wait(lambda: a.js(SOCKET_OPEN), 20))
        socket_silent(run, a, proxy, args)
        silence(run, a, proxy, args)
        server_down(run, a, args)

        # 60 s offline in g5: 30 taps, one queued undone, a reload; then exactly 29, in order, once each.
        a.pick("g5")
        # Where the buttons are, to check that going offline moves none from under a finger.
        tops = ("return ['button[data-player=\"di\"]', 'button[data-move=\"one_point\"]', '#clock']"
                ".map((s) => Math.round(document.querySelector(s).getBoundingClientRect().top));")
        online_tops = a.js(tops)
        proxy.stop()
        cut = time.monotonic()
        players = ["di", "jo", "ed", "kai", "flo", "lu"]
        moves = ["rebound", "assist", "foul", "one_point", "rebound"]
        for i in range(30):
            a.tap(players[i % 6], moves[i % 5])
        tapped = [i for i, _ in a.taps()]
        dropped = tapped[9]
        a.js("document.querySelector('#outbox li[data-id=\"' + arguments[0] + '\"] button.undo').click()", dropped)
        wanted = [i for i in tapped if i != dropped]
        run.check("offline: 29 moves queued and a calm banner says so", wait(lambda: a.js(
            "return document.getElementById('banner').textContent") == "offline: 29 moves saved on this device", 10),
            a.js("return document.getElementById('banner').textContent"))
        run.check("offline: the banner and the controls' note move no button (a tap on its way lands where it was aimed)",
                  a.js(tops) == online_tops, "%s online, %s offline" % (online_tops, a.js(tops)))
        run.check("offline: clock and time-outs are disabled and say why", a.js(
            "return document.getElementById('clock').disabled && [...document.querySelectorAll('.timeout')]"
            ".every((b) => b.disabled) && !document.querySelector('[data-field=\"controls-why\"]').hidden"))
        small, width, inner = a.js(LAYOUT)
        run.check("phone, offline: every control at least 44x44, no sideways scroll", not small and width <= inner,
                  "%s %s/%s" % (small, width, inner))
        a.browser.refresh()
        run.check("reload while offline: the service worker serves the page, with its queue", wait(lambda: a.js(
            "return document.body.classList.contains('keeper')") and [i for i, s in a.taps() if s == "queued"] == wanted,
            15), str(len(a.taps())))
        time.sleep(max(0, args.offline_seconds - (time.monotonic() - cut)))
        proxy.start()
        back = time.monotonic()
        run.check("back online: all 29 confirmed on the page", wait(lambda: a.all_confirmed(29), 60), str(a.taps()[:3]))
        restored = time.monotonic() - back
        ids = applied(args.command, "g5", a.device)
        run.check("exactly 29 applied, once each, in tap order", ids == wanted,
                  "%d applied, in order %s" % (len(ids), ids == wanted))
        print("figure: %.0f s offline; network back to the last of 29 queued moves confirmed: %.2f s"
              % (back - cut, restored), flush=True)

        # Two keepers on g4 at once; an undo on one page of the other's play.
        b = Keeper(base)
        keepers.append(b)
        run.check("a second keeper joins", b.join(args.pin, "Bo's tablet"))
        a.pick("g4")
        b.pick("g4")
        a_moves = [("ann", "two_points"), ("bo", "rebound"), ("cy", "one_point"), ("ann", "assist"), ("bo", "foul")]
        b_moves = [("gus", "two_points"), ("hal", "rebound"), ("ida", "one_point"), ("gus", "assist"), ("hal", "foul")]
        threads = [threading.Thread(target=lambda k=k, ms=ms: [k.tap(p, m) for p, m in ms])
                   for k, ms in ((a, a_moves), (b, b_moves))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        g4 = lambda: snapshot(args.command, "g4")
        both = wait(lambda: a.all_confirmed(5) and b.all_confirmed(5), 15)
        daemon = g4()
        score = "%d - %d" % (daemon["score"]["home"], daemon["score"]["away"])
        run.check("two keepers: both pages and the daemon agree", both and daemon["score"] == {"home": 3, "away": 3} and
                  wait(lambda: a.field("score") == score and b.field("score") == score, 5),
                  "%s %s %s" % (score, a.field("score"), b.field("score")))
        theirs = [e for e in command(args.command, "log", game="g4")["events"]
                  if e["kind"]["type"] == "move" and e["origin"]["client_id"].endswith(b.device)]
        target = theirs[0]["version"]
        a.js("document.querySelector('#plays li[data-version=\"' + arguments[0] + '\"] button.undo').click()", target)
        undone = lambda: [p["version"] for p in g4()["plays"] if p.get("retracted_by")]
        run.check("an undo on one page of the other's play retracts exactly that play",
                  wait(lambda: undone() == [target], 10) and wait(lambda: all(k.js(
                      "return !!document.querySelector('#plays li.undone[data-version=\"' + arguments[0] + '\"]')", target)
                      for k in (a, b)), 10), "%s %s" % (undone(), target))

        # Clock and time-outs go at once, never through the outbox.
        b.js("document.querySelector('.timeout[data-side=\"home\"]').click()")
        timeout = wait(lambda: all(k.field("timeouts-home") == "time-outs used 1" for k in (a, b)), 5)
        a.js("document.getElementById('clock').click()")
        run.check("a time-out, then the clock, from the pages", timeout and wait(lambda: all(
            k.field("clock-button") == "Pause clock" and k.field("status") == "LIVE" for k in (a, b)), 5),
            "%s %s" % (a.field("clock-button"), b.field("timeouts-home")))
        if args.shots:
            time.sleep(1.5)  # the clock shows it runs
            a.js("document.querySelector('button[data-player=\"ann\"]').click()")  # a player picked, waiting for the move
            a.browser.save_screenshot(os.path.join(args.shots, "keeper-phone.png"))
            tablet(a.browser)
            time.sleep(0.3)
            small, width, inner = a.js(LAYOUT)
            run.check("tablet 1180x820: every control at least 44x44, no sideways scroll",
                      not small and width <= inner, "%s %s/%s" % (small, width, inner))
            a.browser.save_screenshot(os.path.join(args.shots, "keeper-tablet.png"))
            phone(a.browser)
            a.js("document.querySelector('button[data-player=\"ann\"]').click()")

        # A game made for the court while the pages are open: both lineups list it.
        made = command(args.command, "create_game", game="g9", home="wolves", away="tigers", court="Court 1")
        run.check("a game created on the court appears in the pages' lineups", made and made.get("ok") and wait(lambda: all(
            k.js("return [...document.getElementById('game').options].some((o) => o.value === 'g9')") for k in (a, b)), 10),
            str(made))

        # A new code for the court: the next tap gets 401, the page says so and keeps the move.
        new = subprocess.run([args.web_bin, "codes", "new", "--state-dir", args.state_dir, "--court", "Court 1"],
                             capture_output=True, text=True, timeout=30)
        b.tap("gus", "rebound")
        run.check("a revoked device: the page says so and keeps its unsent move", new.returncode == 0 and wait(lambda: b.js(
            "const banner = document.getElementById('banner');"
            "return !banner.hidden && banner.classList.contains('halted') && banner.textContent.includes('new code')"
            " && banner.textContent.includes('. Your unsent moves')"), 10)
            and [s for _, s in b.taps()][-1] == "queued", "%s %s" % (new.stdout, b.taps()[-1:]))
    finally:
        for k in keepers:
            k.quit()
        proxy.stop()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
