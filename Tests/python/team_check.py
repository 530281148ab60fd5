#!/usr/bin/env python3
"""A team's own page in a real browser (headless Chromium through selenium), as a phone sees it.

    team_check.py --web http://127.0.0.1:PORT --command EP --team lions --game g1 --player ann [--shots DIR]

Opens /teams/TEAM at 390x844 (mobile emulation) and checks: the next game is shown (its opponent,
court and scheduled start); the page does not scroll sideways (document.documentElement.scrollWidth
<= innerWidth) and no name is clipped; every link and button is at least 44 px tall; every text
has a contrast of at least 4.5:1 against its background. Then scores a basket in the next game
over ZeroMQ and checks the open page shows the new score without a reload. Checks /teams,
/results and each opponent's page the same way. Ends with "N passed, N failed".

Needs Debian's chromium, chromium-driver, python3-selenium and python3-zmq.
"""
import argparse
import os
import sys

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Run, command, wait  # noqa: E402
from keeper_check import chromium  # noqa: E402


# What a phone's thumb and eye need: links and buttons under 44 px tall, text under 4.5:1 against
# its background (WCAG's relative luminance, the background the nearest one drawn), names clipped,
# and how wide the page is against the viewport.
LAYOUT = """
const short = [...document.querySelectorAll('a, button')].filter((e) => e.offsetParent !== null)
  .map((e) => [e.textContent.trim().slice(0, 30), e.getBoundingClientRect().height])
  .filter(([, h]) => h < 44).map(([n, h]) => n + " " + Math.round(h) + "px");
const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
const lum = ([r, g, b]) => {
  const c = [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
};
const background = (e) => {
  for (; e; e = e.parentElement) {
    const c = rgb(getComputedStyle(e).backgroundColor);
    if (c.length === 3 || (c.length === 4 && c[3] > 0)) return c.slice(0, 3);
  }
  return [255, 255, 255];
};
const low = [];
for (const e of document.querySelectorAll('main *, main')) {
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own || e.offsetParent === null) continue;
  const [a, b] = [lum(rgb(getComputedStyle(e).color).slice(0, 3)), lum(background(e))];
  const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
  if (ratio < 4.5) low.push(e.textContent.trim().slice(0, 30) + " " + ratio.toFixed(2));
}
const clipped = [...document.querySelectorAll('[dir="auto"]')].filter((e) => e.scrollWidth > e.clientWidth + 1)
  .map((e) => e.textContent.trim().slice(0, 30));
return [short, low, clipped, document.documentElement.scrollWidth, window.innerWidth];
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--team", required=True, help="the team whose page is checked")
    parser.add_argument("--game", required=True, help="its next game, where the check scores a basket")
    parser.add_argument("--player", required=True, help="a player of the team")
    parser.add_argument("--shots", help="folder for the screenshots")
    args = parser.parse_args()
    run = Run()
    browser = chromium()  # headless, a 390x844 phone with touch
    try:
        stale = lambda: "stale" in (browser.find_element(By.TAG_NAME, "body").get_attribute("class") or "")
        text = lambda css: browser.find_element(By.CSS_SELECTOR, css).text

        def phone_check(path):
            browser.get(args.web + path)
            run.check("%s is live" % path, wait(lambda: not stale(), 10))
            short, low, clipped, width, viewport = browser.execute_script(LAYOUT)
            run.check("%s fits a phone's width" % path, width <= viewport, "scrollWidth %d, innerWidth %d" % (width, viewport))
            run.check("%s: every link and button at least 44 px tall" % path, not short, str(short))
            run.check("%s: every text at least 4.5:1" % path, not low, str(low))
            run.check("%s: no name clipped" % path, not clipped, str(clipped))
            if args.shots:
                name = path.strip("/").replace("/", "-") or "index"
                browser.save_screenshot(os.path.join(args.shots, name + ".png"))

        page = "/teams/" + args.team
        phone_check(page)
        run.check("the next game is shown, with its court and start",
                  wait(lambda: browser.find_element(By.CSS_SELECTOR, '.next .next-game[data-game="%s"]' % args.game)
                       and text('[data-field="expected-start"]') and text(".next .court"), 5),
                  text(".next").replace("\n", " | "))
        run.check("the team's own row is marked in its pool",
                  len(browser.find_elements(By.CSS_SELECTOR, 'tr.me[data-team="%s"]' % args.team)) == 1)
        opponents = [a.get_attribute("href") for a in browser.find_elements(By.CSS_SELECTOR, ".team-games a.opponent")]
        run.check("each opponent's name links its page", opponents and all("/teams/" in h for h in opponents), str(opponents))

        # A basket in the next game: the open page follows it, with no reload.
        marker = browser.execute_script("window.__notReloaded = true; return true")
        reply = command(args.command, "move", game=args.game, player=args.player, move="two_points")
        run.check("a basket is recorded", bool(reply and reply.get("ok")), str(reply))
        run.check("the open page shows the new score",
                  wait(lambda: text(".next .score") == "2 - 0", 5),
                  text(".next").replace("\n", " | "))
        run.check("without a reload", marker and browser.execute_script("return window.__notReloaded === true"))

        for path in ["/teams", "/results"] + sorted({h[len(args.web):] for h in opponents if h.startswith(args.web + "/teams/")}):
            phone_check(path)
    finally:
        browser.quit()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    return 0 if run.failed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
