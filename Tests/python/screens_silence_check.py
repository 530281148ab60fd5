#!/usr/bin/env python3
"""The court TV when its event stream is held up (issue 39), in real Chromium through selenium,
against the real daemon and gateway.

    screens_silence_check.py --web http://127.0.0.1:PORT --command EP [--shots DIR]

Two court TVs on g1, in English (/games/g1) and in Japanese (/games/g1?lang=ja), each in a window
of its own, reach the gateway through keeper_check.py's TCP proxy. The stream held up, as a
stalled proxy or Wi-Fi holds it with the connection alive: the proxy holds the open streams' data
and CDP blocks new streams (`*/api/events*`). A move then: each TV turns stale, its banner shown
with the catalog's words in the page's language, its score as it was. Let go (unblocked, the
proxy forwarding): each shows the new score and its banner goes, with no reload. Ends with
"N passed, N failed".

Needs Debian's chromium, chromium-driver, python3-selenium and python3-zmq.
"""
import argparse
import os
import sys
import urllib.parse

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Run, move, wait  # noqa: E402
from browsing import chromium  # noqa: E402
from keeper_check import Proxy  # noqa: E402

CATALOGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "CourtsideLocalization",
                        "Resources", "catalogs")

# The banner as the TV shows it: its words when shown, else "".
BANNER = ("const b = document.getElementById('banner');"
          "return getComputedStyle(b).display === 'none' ? '' : b.textContent.trim();")
STALE = "return document.body.classList.contains('stale')"
HOME = "return document.querySelector('[data-field=\"score-home\"]').textContent"


def catalog_word(lang, key):
    """A message's words in a language, read from its catalog (msgid KEY, then its msgstr)."""
    with open(os.path.join(CATALOGS, lang + ".po"), encoding="utf-8") as po:
        lines = po.read().splitlines()
    for i, line in enumerate(lines):
        if line == 'msgid "%s"' % key:
            return lines[i + 1][len('msgstr "'):-1]
    raise KeyError(key)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--shots", help="folder for the stale TV's screenshots")
    args = parser.parse_args()
    run = Run()
    proxy = Proxy(urllib.parse.urlparse(args.web).port)
    proxy.start()
    base = "http://127.0.0.1:%d" % proxy.port
    browser = chromium(1280, 720)
    # Each TV: (language, its window, the banner's words from its catalog).
    tvs = []
    try:
        for lang, path in (("en", "/games/g1"), ("ja", "/games/g1?lang=ja")):
            if tvs:
                browser.switch_to.new_window("window")
            browser.get(base + path)
            browser.execute_script("window.courtsideMarker = 42")
            tvs.append((lang, browser.current_window_handle, catalog_word(lang, "page.reconnecting")))

        def on(tv, script):
            browser.switch_to.window(tv[1])
            return browser.execute_script(script)

        for tv in tvs:
            run.check("%s: the TV comes up live, in its language, its banner hidden" % tv[0], wait(
                lambda: not on(tv, STALE) and on(tv, HOME).isdigit() and on(tv, BANNER) == "" and on(
                    tv, "return document.documentElement.lang") == tv[0], 15), "%s %r" % (on(tv, STALE), on(tv, BANNER)))
        before = on(tvs[0], HOME)

        for tv in tvs:
            on(tv, "return 0")  # its window current: CDP speaks to it
            browser.execute_cdp_cmd("Network.enable", {})
            browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": ["*/api/events*"]})
        proxy.hold_events(True)
        try:
            reply = move(args.command, "g1", "ann", "two_points")
            run.check("the move is applied while the TVs' streams are held", reply and reply.get("ok"), str(reply))
            for tv in tvs:
                run.check("%s: held up, the TV turns stale and its banner says %r" % (tv[0], tv[2]), wait(
                    lambda: on(tv, STALE) and on(tv, BANNER) == tv[2], 20), "%s %r" % (on(tv, STALE), on(tv, BANNER)))
                run.check("%s: held up, the TV shows the score it heard" % tv[0], on(tv, HOME) == before, on(tv, HOME))
                if args.shots:
                    browser.save_screenshot(os.path.join(args.shots, "court-tv-silent-%s.png" % tv[0]))
        finally:
            for tv in tvs:
                on(tv, "return 0")
                browser.execute_cdp_cmd("Network.setBlockedURLs", {"urls": []})
            proxy.hold_events(False)
        after = str(int(before) + 2)
        for tv in tvs:
            run.check("%s: let go, the TV shows the new score and its banner goes, with no reload" % tv[0], wait(
                lambda: on(tv, HOME) == after and not on(tv, STALE) and on(tv, BANNER) == "", 20) and on(
                tv, "return window.courtsideMarker") == 42, "%s %s %r" % (on(tv, HOME), on(tv, STALE), on(tv, BANNER)))
    finally:
        browser.quit()
        proxy.stop()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    return 0 if run.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
