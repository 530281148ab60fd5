#!/usr/bin/env python3
"""Names in any script on the screens read from across a hall, in a real browser (headless
Chromium through selenium).

    names_check.py --web http://127.0.0.1:PORT --game g1 --lang ko [--names NAME...] [--shots DIR]

Opens the court TV (/games/GAME), the overlay (/overlay/GAME) and the big screen (/) in LANG at a
TV's 1920x1080, the first two at a phone's 390x844 too, and checks on each: the page is in LANG (<html lang>); it
does not scroll sideways; every name element (dir="auto") is shown whole, inside the viewport and
inside its own box (not cut by its column), and each of NAMES is shown whole; on the court TV the two teams' names and the clock in
the middle do not overlap, and neither name runs below the screen. Ends with "N passed, N failed".

Needs Debian's chromium, chromium-driver and python3-selenium.
"""
import argparse
import os
import sys

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Run, wait  # noqa: E402
from keeper_check import chromium  # noqa: E402

# Each name element's text and whether it is cut: outside the viewport, wider than its box (a
# block's scrollWidth), or past its parent's right or left edge; the court TV's overlaps.
LAYOUT = """
const names = [...document.querySelectorAll('[dir="auto"]')].filter((e) => e.offsetParent !== null && e.textContent.trim());
const cut = [];
for (const e of names) {
  const r = e.getBoundingClientRect(), p = e.parentElement.getBoundingClientRect();
  const block = getComputedStyle(e).display !== 'inline';
  if (r.left < -1 || r.right > innerWidth + 1 || (block && e.scrollWidth > e.clientWidth + 1)
      || r.right > p.right + 1 || r.left < p.left - 1) cut.push(e.textContent.trim().slice(0, 40));
}
const parts = [...document.querySelectorAll('.court .team .name, .court .middle')].map((e) => e.getBoundingClientRect());
const meet = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
const overlaps = [];
for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) if (meet(parts[i], parts[j])) overlaps.push(i + "/" + j);
const below = [...document.querySelectorAll('.court .team .name')].filter((e) => e.getBoundingClientRect().bottom > innerHeight + 1).length;
return [names.map((e) => e.textContent.trim()), cut, overlaps, below, document.documentElement.scrollWidth, innerWidth,
        document.documentElement.lang];
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--game", required=True)
    parser.add_argument("--lang", required=True)
    parser.add_argument("--names", nargs="*", default=[], help="names each page must show whole")
    parser.add_argument("--shots", help="folder for the screenshots")
    args = parser.parse_args()
    run = Run()
    browser = chromium()
    try:
        stale = lambda: "stale" in (browser.find_element(By.TAG_NAME, "body").get_attribute("class") or "")
        # The big screen is a TV's page: on a phone its table scrolls in its own box, by design.
        for size, (width, height, mobile), pages in [
            ("tv", (1920, 1080, False), ["/games/" + args.game, "/overlay/" + args.game, "/"]),
            ("phone", (390, 844, True), ["/games/" + args.game, "/overlay/" + args.game]),
        ]:
            browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                                    {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
            for page in pages:
                where = "%s at %s" % (page, size)
                browser.get(args.web + page + "?lang=" + args.lang)
                run.check("%s is live" % where, wait(lambda: not stale(), 10))
                shown, cut, overlaps, below, scroll, viewport, lang = browser.execute_script(LAYOUT)
                run.check("%s is in %s" % (where, args.lang), lang == args.lang, lang)
                run.check("%s does not scroll sideways" % where, scroll <= viewport, "%d > %d" % (scroll, viewport))
                run.check("%s: no name cut" % where, not cut, str(cut))
                missing = [n for n in args.names if not any(n in s for s in shown)]
                run.check("%s: every name shown whole" % where, not missing, "%s not in %s" % (missing, shown))
                run.check("%s: names and clock do not overlap" % where, not overlaps, str(overlaps))
                run.check("%s: no name below the screen" % where, below == 0, str(below))
                if args.shots:
                    name = "%s-%s-%s" % (page.strip("/").replace("/", "-") or "all", size, args.lang)
                    browser.save_screenshot(os.path.join(args.shots, name + ".png"))
    finally:
        browser.quit()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    return 0 if run.failed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
