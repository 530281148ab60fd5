#!/usr/bin/env python3
"""courtside-web in a real browser (headless Chromium through selenium), as a court's TV sees it.

    browser_check.py --web http://127.0.0.1:PORT --command EP --sync DIR --shots DIR
    browser_check.py --web http://127.0.0.1:PORT --command EP --latency-samples 200

Plays a history in g1 first (its rules: 2 FT from the 2nd team foul, 2 FT and the ball from the
4th, 2 time-outs a team), then opens /games/g1 and checks the page shows the plays made before it
opened (the last ten, the undone one marked), each team's fouls against the tiers and its
time-outs left; sends moves, a foul, a time-out and a retraction over ZeroMQ and checks the page
follows them (a move timed from the send to the DOM); asks the test (through files in --sync) to
restart the daemon under the open page and checks that the page marks itself stale, then shows
the same again without a reload; checks /overlay/g1 is transparent; saves screenshots of /,
/games/g1 and /results; checks that no page scrolls sideways on a phone (390 px wide). Ends with
"N passed, N failed".

With --latency-samples N it only measures: N one-point moves in g1, each timed from its ok to the
court page's DOM (the game's target score must allow N points: see the README).

Needs Debian's chromium, chromium-driver, python3-selenium and python3-zmq.
"""
import argparse
import json
import os
import time
import uuid

import zmq
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By


class Run:
    def __init__(self):
        self.passed, self.failed = 0, 0

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print("ok", name, detail, flush=True)
        else:
            self.failed += 1
            print("FAIL", name, detail, flush=True)


def command(endpoint, op, **fields):
    """One command over the protocol; its reply, or None after 5 s. The reply's "_received" is when
    it arrived: (time.monotonic(), time.time() in ms)."""
    context = zmq.Context.instance()
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(endpoint)
    dealer.send(json.dumps(dict(op=op, client_id="browser-check", command_id=uuid.uuid4().hex, **fields)).encode())
    reply = None
    if dealer.poll(5000):
        frame = dealer.recv()
        received = (time.monotonic(), time.time() * 1000)
        reply = json.loads(frame)
        reply["_received"] = received
    dealer.close()
    return reply


def move(endpoint, game, player, kind):
    return command(endpoint, "move", game=game, player=player, move=kind)


# g1's history before the page opens: (op, fields), versions 2 to 15. Eleven plays, the 7th (v8)
# undone, so the last ten are v3 to v14; the away team's three fouls reach the first tier.
HISTORY = [
    ("move", dict(player="ann", move="two_points")),   # v2, the one play too old for the page
    ("move", dict(player="bo", move="foul")),          # v3
    ("move", dict(player="di", move="foul")),          # v4
    ("move", dict(player="ed", move="foul")),          # v5
    ("move", dict(player="flo", move="foul")),         # v6
    ("move", dict(player="cy", move="assist")),        # v7
    ("move", dict(player="ann", move="one_point")),    # v8
    ("retract", dict(version=8)),                      # v9
    ("timeout", dict(side="home")),                    # v10
    ("move", dict(player="di", move="rebound")),       # v11
    ("move", dict(player="ed", move="two_points")),    # v12
    ("move", dict(player="cy", move="rebound")),       # v13
    ("move", dict(player="bo", move="rebound")),       # v14
    ("clock", dict(action="start")),                   # v15
]


def wait(condition, seconds, step=0.02):
    def holds():
        try:
            return condition()
        except WebDriverException:  # an element redrawn or not there yet
            return False
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if holds():
            return True
        time.sleep(step)
    return holds()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--sync", help="folder of the files through which it asks the test to restart the daemon")
    parser.add_argument("--shots", help="folder for the screenshots")
    parser.add_argument("--latency-samples", type=int, default=0,
                        help="only measure: this many moves, each timed from its ok to the DOM; prints p50 and p99")
    args = parser.parse_args()
    if not args.latency_samples and not (args.sync and args.shots):
        parser.error("--sync and --shots are needed unless --latency-samples is given")
    run = Run()
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,720",
                 "--hide-scrollbars"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    if not args.latency_samples:
        replies = [command(args.command, op, game="g1", **fields) for op, fields in HISTORY]
        run.check("g1's history before the page opens", all(r and r.get("ok") for r in replies) and
                  replies[-1].get("version") == 15, str([r for r in replies if not (r and r.get("ok"))]))
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        # A TV's 16:9 viewport, whatever the headless window's frame takes (the screenshots are this size).
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 1280, "height": 720, "deviceScaleFactor": 1, "mobile": False})
        field = lambda name: browser.find_element(By.CSS_SELECTOR, '[data-field="%s"]' % name)
        home = lambda: field("score-home").text
        stale = lambda: "stale" in (browser.find_element(By.TAG_NAME, "body").get_attribute("class") or "")
        # The sequence the script last drew from: set by the state message, then by each event.
        drawn = lambda: browser.execute_script("return document.body.dataset.sequence || ''")

        # Each read is one script, so a list the page redraws meanwhile is never read half old.
        def plays():
            """The last plays as shown, newest first: (version, text, undone)."""
            return [tuple(p) for p in browser.execute_script("""
                return [...document.querySelectorAll('[data-field="plays"] li')]
                    .map((li) => [Number(li.dataset.version), li.textContent, li.classList.contains("undone")]);""")]

        def board(side):
            """What the page shows of a side's fouls and time-outs."""
            return browser.execute_script("""
                const f = (name) => document.querySelector('[data-field="' + name + '"]'), side = arguments[0];
                return { fouls: f("fouls-" + side + "-count").textContent, tier: f("fouls-" + side).dataset.tier,
                         tier_text: f("fouls-" + side + "-tier").textContent, next: f("fouls-" + side + "-next").textContent,
                         timeouts_label: f("timeouts-" + side + "-label").textContent,
                         timeouts: f("timeouts-" + side + "-count").textContent, pips: f("timeouts-" + side + "-pips").textContent };""",
                side)

        browser.get(args.web + "/games/g1")
        run.check("the court page comes up in sync", wait(lambda: not stale() and home().isdigit() and drawn(), 10))
        before = int(home())
        browser.execute_script("window.courtsideMarker = 42")

        if args.latency_samples:
            # The score is what a TV shows: one-point moves in g1, each read off the home score, two ways:
            # polled through WebDriver (each poll a round trip of a few ms, as earlier figures were taken),
            # and stamped in the page by a MutationObserver on the wall clock this script stamps each ok with.
            browser.execute_script("""
                const el = document.querySelector('[data-field="score-home"]');
                window.courtsideShown = {};
                new MutationObserver(() => { window.courtsideShown[el.textContent] ??= performance.timeOrigin + performance.now(); })
                    .observe(el, { childList: true, characterData: true, subtree: true });""")
            polled, acknowledged, missed = [], {}, 0
            for _ in range(args.latency_samples):
                current = int(home())
                reply = move(args.command, "g1", "ann", "one_point")
                if not (reply and reply.get("ok")):
                    print("move refused, stopping:", reply, flush=True)
                    break
                ok_at, ok_wall = reply["_received"]
                acknowledged[str(current + 1)] = ok_wall
                if wait(lambda: home() == str(current + 1), 5, step=0.002):
                    polled.append((time.monotonic() - ok_at) * 1000)
                else:
                    missed += 1
            # The page's clock against this script's, to within half a round trip: the figures below are
            # only as good as this. (An "observed" figure below zero is real: the event can reach the
            # page before the ok reaches this script, which both race from the daemon.)
            skews = []
            for _ in range(20):
                before_call = time.time() * 1000
                page_now = browser.execute_script("return performance.timeOrigin + performance.now()")
                after_call = time.time() * 1000
                skews.append((after_call - before_call, page_now - (before_call + after_call) / 2))
            trip, skew = min(skews)
            print("page clock minus ours: %.1f ms, +/- %.1f ms" % (skew, trip / 2), flush=True)
            shown = browser.execute_script("return window.courtsideShown")
            observed = sorted(shown[score] - at for score, at in acknowledged.items() if score in shown)
            polled.sort()
            percentile = lambda values, q: values[min(len(values) - 1, int(len(values) * q))]
            for name, values in (("polled", polled), ("observed", observed)):
                if values:
                    print("dom latency after ok, %s, ms: min %.1f  p50 %.1f  p99 %.1f  max %.1f  (%d moves, %d not shown within 5 s)"
                          % (name, values[0], percentile(values, 0.5), percentile(values, 0.99), values[-1], len(values), missed),
                          flush=True)
            return 0 if polled and not missed else 1

        # Drawn by the script from the state message: the plays made before the page opened.
        expected = [14, 13, 12, 11, 8, 7, 6, 5, 4, 3]
        shown = plays()
        run.check("the last ten plays, those before the page opened too, newest first",
                  [v for v, _, _ in shown] == expected, str(shown))
        run.check("a play reads as player, team, move", shown and shown[0][1] == "Bo Lions rebound", str(shown[:1]))
        run.check("the undone play is marked, and only it", [(v, t) for v, t, u in shown if u] == [(8, "Ann Lions +1 undone")],
                  str(shown))
        away, home_board = board("away"), board("home")
        run.check("the away team's 3 fouls reach the first tier",
                  away["fouls"] == "3" and away["tier"] == "two_free_throws" and away["tier_text"] == "bonus: 2 FT" and
                  away["next"] == "2 FT + ball from foul 4", str(away))
        run.check("the home team's 1 foul is below the tiers",
                  home_board["fouls"] == "1" and home_board["tier"] == "none" and home_board["tier_text"] == "no bonus" and
                  home_board["next"] == "2 FT from foul 2", str(home_board))
        run.check("time-outs left: home 1 of 2, away 2 of 2",
                  (home_board["timeouts_label"], home_board["timeouts"], home_board["pips"]) == ("time-outs left", "1", "●○")
                  and (away["timeouts"], away["pips"]) == ("2", "●●"), "%s / %s" % (home_board, away))

        sent = time.monotonic()
        reply = move(args.command, "g1", "ann", "two_points")
        shown = wait(lambda: home() == str(before + 2), 2)
        latency = (time.monotonic() - sent) * 1000
        run.check("a move reaches the page's DOM within 2 s", reply and reply.get("ok") and shown, "%.0f ms" % latency)
        run.check("the new move heads the last plays, the oldest goes", wait(
            lambda: [v for v, _, _ in plays()] == [reply["version"]] + expected[:-1], 2), str(plays()[:2]))

        # Live: a foul takes the home team into the first tier, its retraction back; a time-out counts down.
        foul = move(args.command, "g1", "bo", "foul")
        run.check("a live foul reaches the first tier", foul and foul.get("ok") and wait(
            lambda: board("home")["fouls"] == "2" and board("home")["tier"] == "two_free_throws", 2), str(board("home")))
        timeout = command(args.command, "timeout", game="g1", side="away")
        run.check("a live time-out: away has 1 left", timeout and timeout.get("ok") and wait(
            lambda: (board("away")["timeouts"], board("away")["pips"]) == ("1", "●○"), 2), str(board("away")))
        run.check("the time-out stopped the clock", wait(lambda: field("status").text == "PAUSED", 2), field("status").text)
        start = command(args.command, "clock", game="g1", action="start")
        clock = field("clock").text
        run.check("the clock runs again, from state.clock", start and start.get("ok") and
                  wait(lambda: field("status").text == "LIVE" and field("clock").text != clock, 3),
                  "%s then %s" % (clock, field("clock").text))
        undo = command(args.command, "retract", game="g1", version=foul["version"])
        run.check("a live retraction marks its play and takes the foul back", undo and undo.get("ok") and wait(
            lambda: board("home")["fouls"] == "1" and board("home")["tier"] == "none" and
            [(v, u) for v, _, u in plays()[:1]] == [(foul["version"], True)], 2), "%s %s" % (board("home"), plays()[:2]))
        live = plays()
        # Emptied, so that only the state the page gets after the restart can draw them again.
        browser.execute_script("document.querySelector('[data-field=\"plays\"]').textContent = ''")

        open(os.path.join(args.sync, "restart-now"), "w").close()
        run.check("the page marks itself stale while the daemon is down", wait(stale, 20))
        run.check("the test restarted the daemon", wait(lambda: os.path.exists(os.path.join(args.sync, "restarted")), 60))
        run.check("the page is live again after the restart", wait(lambda: not stale(), 20))
        run.check("it shows the right score after the restart", home() == str(before + 2), home())
        run.check("the same plays, drawn from the new state, after the restart", wait(lambda: plays() == live, 2),
                  "%s, before: %s" % (plays(), live))
        run.check("the same fouls and time-outs after the restart", board("home")["fouls"] == "1" and
                  board("away")["timeouts"] == "1" and board("away")["fouls"] == "3", "%s %s" % (board("home"), board("away")))
        reply = move(args.command, "g1", "ann", "two_points")
        run.check("a move after the restart reaches the page", reply and reply.get("ok") and
                  wait(lambda: home() == str(before + 4), 2), home())
        run.check("all without a reload", browser.execute_script("return window.courtsideMarker") == 42)
        browser.save_screenshot(os.path.join(args.shots, "games-g1.png"))

        browser.get(args.web + "/overlay/g1")
        wait(lambda: browser.find_element(By.CSS_SELECTOR, '[data-field="score-home"]').text == str(before + 4), 5)
        background = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
        run.check("/overlay/g1 has a transparent background", background == "rgba(0, 0, 0, 0)", background)

        for path, name in (("/", "all.png"), ("/results", "results.png")):
            browser.get(args.web + path)
            wait(lambda: not stale(), 10)
            browser.save_screenshot(os.path.join(args.shots, name))
        # The bracket is sent when a game's state changes, not for each basket: the schedule joins it with the live game.
        schedule_score = lambda: browser.find_element(By.CSS_SELECTOR, '#live tr[data-game="g1"] td.score').text
        run.check("/results shows g1's score now", schedule_score() == "%d - 2" % (before + 4), schedule_score())
        reply = move(args.command, "g1", "cy", "one_point")
        run.check("and follows a basket", reply and reply.get("ok") and
                  wait(lambda: schedule_score() == "%d - 2" % (before + 5), 2), schedule_score())
        browser.get(args.web + "/")
        run.check("/ shows every game", wait(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")) == 2, 5))

        # A phone: no page scrolls sideways (a table too wide scrolls on its own).
        browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
        for path in ("/", "/games/g1", "/results", "/games/g1/box"):
            browser.get(args.web + path)
            wait(lambda: not stale(), 10)
            width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            run.check("%s fits a phone's width" % path, width[0] <= width[1], str(width))
    finally:
        browser.quit()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    return 0 if run.failed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
