#!/usr/bin/env python3
"""courtside-web in a real browser (headless Chromium through selenium), as a court's TV sees it.

    browser_check.py --web http://127.0.0.1:PORT --command EP --sync DIR --shots DIR

Opens /games/g1, sends a move over ZeroMQ and times it to the page's DOM; asks the test (through
files in --sync) to restart the daemon under the open page and checks that the page marks itself
stale, then shows the right score again without a reload; checks /overlay/g1 is transparent; saves
screenshots of /, /games/g1 and /results. Ends with "N passed, N failed".

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


def move(endpoint, game, player, kind):
    context = zmq.Context.instance()
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(endpoint)
    dealer.send(json.dumps({"op": "move", "client_id": "browser-check", "command_id": uuid.uuid4().hex,
                            "game": game, "player": player, "move": kind}).encode())
    reply = json.loads(dealer.recv()) if dealer.poll(5000) else None
    dealer.close()
    return reply


def wait(condition, seconds, step=0.02):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--sync", required=True)
    parser.add_argument("--shots", required=True)
    parser.add_argument("--latency-samples", type=int, default=0,
                        help="only measure: this many moves, each timed from its ok to the DOM; prints p50 and p99")
    args = parser.parse_args()
    run = Run()
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,720",
                 "--hide-scrollbars"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        home = lambda: browser.find_element(By.CSS_SELECTOR, '[data-field="score-home"]').text
        stale = lambda: "stale" in (browser.find_element(By.TAG_NAME, "body").get_attribute("class") or "")
        browser.get(args.web + "/games/g1")
        run.check("the court page comes up in sync", wait(lambda: not stale() and home().isdigit(), 10))
        before = int(home())
        browser.execute_script("window.courtsideMarker = 42")

        if args.latency_samples:
            # The score is what a TV shows: one-point moves in g1, each read off the home score.
            latencies = []
            for _ in range(args.latency_samples):
                current = int(home())
                reply = move(args.command, "g1", "ann", "one_point")
                acknowledged = time.monotonic()
                if not (reply and reply.get("ok")):
                    break
                wait(lambda: home() == str(current + 1), 5, step=0.002)
                latencies.append((time.monotonic() - acknowledged) * 1000)
            latencies.sort()
            print("dom latency after ok, ms: p50 %.1f  p99 %.1f  (%d moves)" % (
                latencies[len(latencies) // 2], latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))],
                len(latencies)), flush=True)
            return 0
        sent = time.monotonic()
        reply = move(args.command, "g1", "ann", "two_points")
        shown = wait(lambda: home() == str(before + 2), 2)
        latency = (time.monotonic() - sent) * 1000
        run.check("a move reaches the page's DOM within 2 s", reply and reply.get("ok") and shown, "%.0f ms" % latency)

        open(os.path.join(args.sync, "restart-now"), "w").close()
        run.check("the page marks itself stale while the daemon is down", wait(stale, 20))
        run.check("the test restarted the daemon", wait(lambda: os.path.exists(os.path.join(args.sync, "restarted")), 60))
        run.check("the page is live again after the restart", wait(lambda: not stale(), 20))
        run.check("it shows the right score after the restart", home() == str(before + 2), home())
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
        browser.get(args.web + "/")
        run.check("/ shows every game", wait(lambda: len(browser.find_elements(By.CSS_SELECTOR, "#games tbody tr")) == 2, 5))
    finally:
        browser.quit()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    return 0 if run.failed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
