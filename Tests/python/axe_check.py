#!/usr/bin/env python3
"""Every page through axe-core in headless Chromium: zero serious or critical violations.

    axe_check.py --web http://127.0.0.1:PORT --passphrase PASS --csv config/teams.csv \
        --web-bin PATH --state-dir DIR [--only PAGE,...] [--langs en,ja,ko] [--sizes tv,phone]

Expects courtside-web with the desk on, over a daemon waiting for its draw. On a TV (1920x1080)
and then a phone (390x844, touch), in each language (`?lang=` and the `lang` cookie): the join
page and the desk's sign-in page first; then signed in at the desk, the Setup page, its preview
(config/teams.csv cut to 12 teams, reviewed) and its answer (the draw published once, on the TV;
the phone confirms the same draft again, as the same desk); then a keeper joined with Court 1's
PIN (from `courtside-web codes show`) who taps moves on the TV's pass (a dozen fouls, the last
play undone), and every other page: the keeper page, the big screen, a court TV, the overlay,
the box score, results and brackets, the teams, a team's page, the teams' sheet, and the desk,
its schedule, teams, join codes, printed join sheet, audit and a confirmation. The court TV, the
big screen and the overlay are read from across a hall: axe's `color-contrast-enhanced` (7:1)
runs there too.

Prints each serious or critical violation (page, language, size, rule, target, summary), then
a table of their counts per page, language and size. Every page is read with
`prefers-reduced-motion: reduce`: an element animated or in transition counts as one too. Then
the keeper page on the phone at 200% zoom (a 195 px wide layout, as a phone's browser lays out
at 200%) and with the browser's text size at 200%: nothing to scroll sideways, nothing past the
right edge. Ends with "N passed, N failed" (one check per page, language and size, and the
200% checks); exits non-zero if any failed. A page's audit takes a second or less; the whole
run about a minute and a half on a quiet machine.

Needs Debian's chromium, chromium-driver and python3-selenium, and PyPI's axe-selenium-python
with the axe-core 4 file axe-playwright-python ships (scripts/setup.sh installs both).
"""
import argparse
import importlib.util
import json
import os
import subprocess
import time
import urllib.request

from axe_selenium_python import Axe
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from browsing import Checks, wait

BEGUN = time.monotonic()
LANGUAGES = ("en", "ja", "ko")
SEVERE = ("serious", "critical")
# Read from across a hall: 7:1, as well as everything else.
FAR = {"big-screen", "court-tv", "overlay"}
# What still animates or has a transition: with prefers-reduced-motion, nothing may.
MOVING = """return [...document.querySelectorAll('*')].filter((e) => {
  const s = getComputedStyle(e);
  return s.animationName !== 'none' || s.transitionDuration.split(',').some((d) => parseFloat(d) > 0);
}).slice(0, 5).map((e) => e.tagName.toLowerCase() + (e.id ? '#' + e.id : ''));"""
PHONE = {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
# A phone's browser at 200%: the same screen, half as many CSS pixels across.
PHONE_200 = {"width": 195, "height": 422, "deviceScaleFactor": 2, "mobile": True}


def axe_core():
    """axe-core 4's own file, as axe-playwright-python ships it (axe-selenium-python's is 3.1)."""
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("axe-playwright-python is not installed: run scripts/setup.sh")
    return os.path.join(list(spec.submodule_search_locations)[0], "axe.min.js")


def browser(size, text_size=None):
    """Headless Chromium (browsing.py's flags) at a TV's or a phone's size, without the back-forward
    cache: a page left for the next keeps its event stream open there, and after a few the
    browser's six connections to the gateway are all taken, the next page waiting a minute."""
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-features=BackForwardCache"):
        options.add_argument(flag)
    if size == "tv":
        options.add_argument("--window-size=1920,1080")
    if text_size:
        # The browser's own text size (Chromium's settings), as a reader who needs larger type sets it.
        options.add_experimental_option("prefs", {"webkit.webprefs.default_font_size": 16 * text_size // 100})
    options.binary_location = "/usr/bin/chromium"
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


class Audit:
    """One browser at one size; every page it audits, with the serious and critical findings."""

    def __init__(self, args, size, found):
        self.args, self.size, self.found = args, size, found
        self.browser = browser(size)
        if size == "phone":
            self.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
            self.browser.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True, "maxTouchPoints": 5})
        # Every page is read as by someone whose system asks for less motion: none may move.
        self.browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                                     {"features": [{"name": "prefers-reduced-motion", "value": "reduce"}]})
        self.axe = Axe(self.browser, script_url=self.args.axe)
        self.language = "en"

    def js(self, script, *arguments):
        return self.browser.execute_script(script, *arguments)

    def speak(self, language):
        """The device's language from now on: the cookie the page's picker sets, and `?lang=`."""
        self.language = language
        self.browser.delete_cookie("lang")
        self.browser.add_cookie({"name": "lang", "value": language, "path": "/"})

    def open(self, path):
        self.browser.get(self.args.web + path + ("&" if "?" in path else "?") + "lang=" + self.language)

    def post(self, action, fields):
        """A form sent from the page, as its own button would send it."""
        self.js("""
            const form = document.createElement('form');
            form.method = 'post'; form.action = arguments[0];
            for (const [name, value] of arguments[1]) {
              const input = document.createElement('input');
              input.type = 'hidden'; input.name = name; input.value = value; form.appendChild(input);
            }
            document.body.appendChild(form); form.submit();""", action, fields)

    def audit(self, page, ready=None):
        """axe over the page shown now, once `ready` (a CSS selector) is there: a page that never
        shows it counts as a failure, since axe would have read some other page."""
        shown = not ready or wait(lambda: self.browser.find_elements(By.CSS_SELECTOR, ready), 15)
        wait(lambda: self.js("return document.readyState") == "complete", 15)
        if self.args.only and page not in self.args.only:
            return
        options = {"resultTypes": ["violations"]}
        if page in FAR:
            options["rules"] = {"color-contrast-enhanced": {"enabled": True}}
        started = time.monotonic()
        self.axe.inject()
        result = self.axe.run(options=json.dumps(options))
        severe = [] if shown else [("page-not-shown", ready, "never showed; at " + self.browser.current_url)]
        for violation in result["violations"]:
            for node in violation["nodes"]:
                if (node.get("impact") or violation.get("impact")) in SEVERE:
                    severe.append((violation["id"], " ".join(map(str, node["target"])),
                                   node.get("failureSummary", violation["help"]).replace("\n", " ")))
        for target in self.js(MOVING):
            severe.append(("prefers-reduced-motion", target, "animated or in transition though the system asks for less motion"))
        self.found[(page, self.language, self.size)] = severe
        if self.args.verbose:
            print("audited %s %s %s in %.1f s (at %.0f s)" % (page, self.language, self.size, time.monotonic() - started,
                                                          time.monotonic() - BEGUN), flush=True)
        for rule, target, summary in severe:
            print("%s %s %s: %s %s -- %s" % (page, self.language, self.size, rule, target, summary[:300]), flush=True)

    def each_language(self, audits):
        for language in self.args.langs:
            self.speak(language)
            audits()

    def quit(self):
        self.browser.quit()


def signed_out_pages(audit):
    """The join page and the desk's sign-in page, before the keeper joins and the desk signs in."""
    def pages():
        audit.open("/keep")
        audit.audit("join", "#pin")
        audit.open("/desk")
        audit.audit("desk-sign-in", "#passphrase")
    audit.browser.get(audit.args.web + "/healthz")
    audit.each_language(pages)


def sign_in(audit, passphrase):
    """Signed in at the desk, as the organiser does."""
    audit.browser.get(audit.args.web + "/desk")
    audit.browser.find_element(By.ID, "passphrase").send_keys(passphrase)
    audit.browser.find_element(By.ID, "name").send_keys("Axe desk")
    audit.browser.find_element(By.ID, "sign-in").click()
    # The passphrase's bcrypt takes its time in a debug build on a busy machine.
    if wait(lambda: audit.browser.find_elements(By.CSS_SELECTOR, 'a[href="/desk/setup"]'), 60):
        return True
    print("not signed in: at %s, %s" % (audit.browser.current_url,
                                        audit.browser.find_element(By.TAG_NAME, "body").text[:300]), flush=True)
    return False


def setup_pages(audit, csv):
    """The Setup page and its preview in each language; the last preview's draft token."""
    token = []

    def pages():
        audit.open("/desk/setup")
        audit.audit("desk-setup", "#setup-form")
        audit.js("document.getElementById('csv').value = arguments[0]", csv)
        audit.browser.find_element(By.ID, "review").click()
        audit.audit("desk-setup-preview", "#summary")
        found = audit.browser.find_elements(By.CSS_SELECTOR, 'input[name="token"]')
        if found:
            token.append(found[0].get_attribute("value"))
    audit.each_language(pages)
    return token[-1] if token else None


def setup_done(audit, token):
    """The draw published (confirmed again: the same command), in each language."""
    def pages():
        audit.open("/desk/setup")
        audit.post("/desk/setup/confirm", [("token", token), ("reason", "the draw")])
        audit.audit("desk-setup-done", "#setup-done")
    audit.each_language(pages)


def join_keeper(browser, base, pin, name):
    """Joined at /keep with Court 1's PIN: the keeper page with its players."""
    browser.get(base + "/keep")
    browser.find_element(By.ID, "pin").send_keys(pin)
    browser.find_element(By.ID, "name").send_keys(name)
    browser.find_element(By.ID, "join").click()
    return wait(lambda: browser.execute_script("return document.body.classList.contains('keeper') && "
                                               "!!document.querySelector('button[data-player]')"), 20)


def play(audit):
    """Moves on the keeper page, the last undone: the TVs, the box score and the audit have plays
    to show, one of them struck out, and a dozen team fouls put the court TV's foul line in its last
    tier (two free throws and possession), the colours a hall reads. The game they were made in."""
    for move in ("two", "rebound") + ("foul",) * 12 + ("one",):
        audit.js("const p = document.querySelector('button[data-player]'); if (p) p.click();"
                 "const m = document.querySelector('button[data-move=\"' + arguments[0] + '\"]'); if (m) m.click();",
                 move)
    confirmed = "return [...document.querySelectorAll('#outbox li')].every((li) => li.dataset.state === 'confirmed')"
    wait(lambda: audit.js(confirmed), 15)
    if wait(lambda: audit.browser.find_elements(By.CSS_SELECTOR, "#plays button.undo"), 15):
        audit.browser.find_element(By.CSS_SELECTOR, "#plays button.undo").click()
        wait(lambda: audit.browser.find_elements(By.CSS_SELECTOR, "#plays li.undone"), 15)
    return audit.js("return document.getElementById('game').value")


def signed_in_pages(audit, game, team):
    def pages():
        audit.open("/keep")
        audit.audit("keeper", "button[data-player]")
        audit.open("/")
        audit.audit("big-screen", "tr[data-game]")
        audit.open("/games/" + game)
        audit.audit("court-tv", '[data-field="status"]')
        audit.open("/overlay/" + game)
        audit.audit("overlay")
        audit.open("/games/%s/box" % game)
        audit.audit("box-score", "#live")
        audit.open("/results")
        audit.audit("results-bracket")
        audit.open("/teams")
        audit.audit("teams")
        audit.open("/teams/" + team)
        audit.audit("team")
        audit.open("/teams/sheet")
        audit.audit("team-sheet")
        audit.open("/desk")
        audit.audit("desk", "tr[data-game]")
        audit.post("/desk/review", [("action", "forfeit"), ("game", game), ("side", "away"), ("reason", "no show")])
        audit.audit("desk-confirm", "#confirm")
        audit.open("/desk/schedule")
        audit.audit("desk-schedule")
        audit.open("/desk/teams")
        audit.audit("desk-teams")
        audit.open("/desk/codes")
        audit.audit("desk-codes")
        audit.open("/desk/codes/sheet")
        audit.audit("join-sheet", ".card")
        audit.open("/desk/audit")
        audit.audit("desk-audit")
    audit.each_language(pages)


def keeper_at_200(audit, check):
    """The keeper page at 200% on the phone: nothing to scroll sideways, and nothing cut off at
    the right edge either (the page's `overflow-x: hidden` would hide a scroll bar, not the loss)."""
    audit.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_200)
    try:
        for language in audit.args.langs:
            audit.speak(language)
            audit.open("/keep")
            wait(lambda: audit.browser.find_elements(By.CSS_SELECTOR, "button[data-player]"), 15)
            wide, inner, client = audit.js("return [document.documentElement.scrollWidth, window.innerWidth,"
                                           " document.documentElement.clientWidth]")
            widest = audit.js("""return [...document.querySelectorAll('body *')].filter(e => e.getClientRects().length)
                .map(e => [e.getBoundingClientRect().right, e.tagName + (e.id ? '#' + e.id : '') + '.' + e.className])
                .filter(([right]) => right > document.documentElement.clientWidth + 0.5)
                .slice(0, 5).map(([right, name]) => name + ' ' + Math.round(right))""")
            check("keeper at 200%% on the phone (%s): nothing to scroll sideways" % language,
                  wide <= client and not widest, "scrollWidth %s, clientWidth %s, innerWidth %s; %s" % (wide, client, inner, widest))
    finally:
        audit.browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)


def smaller(path):
    """The registration CSV cut to 8 Open and 4 Women teams: every kind of page, fewer games to audit."""
    with open(path, encoding="utf-8") as file:
        lines = file.read().splitlines()
    kept, counts = [lines[0]], {"open": 8, "women": 4}
    for line in lines[1:]:
        division = line.split(",", 1)[0]
        if counts.get(division, 0) > 0:
            counts[division] -= 1
            kept.append(line)
    return "\n".join(kept) + "\n"


def keeper_text_200(args, pin, check):
    """The keeper page on a phone whose browser's text size is 200%: nothing to scroll sideways."""
    phone = browser("phone", text_size=200)
    try:
        phone.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE)
        joined = join_keeper(phone, args.web, pin, "Axe large text")
        wide, client, font = phone.execute_script("return [document.documentElement.scrollWidth, "
                                                  "document.documentElement.clientWidth, "
                                                  "getComputedStyle(document.documentElement).fontSize]")
        check("keeper with the browser's text at 200% on the phone: nothing to scroll sideways",
              joined and font == "32px" and wide <= client, "joined %s, text %s, scrollWidth %s, clientWidth %s"
              % (joined, font, wide, client))
    finally:
        phone.quit()


def pin_of(args):
    line = subprocess.run([args.web_bin, "codes", "show", "--state-dir", args.state_dir, "--court", "Court 1"],
                          capture_output=True, text=True, timeout=60).stdout
    return line.split("PIN ", 1)[1].split()[0] if "PIN " in line else None


def first_game_and_team(args):
    """Court 1's first game in the schedule and its home team."""
    with urllib.request.urlopen(args.web + "/api/schedule", timeout=10) as answer:
        body = json.loads(answer.read())
    entries = body.get("bracket") or []
    on_court = [e for e in entries if e.get("court") == "Court 1"] or entries
    first = on_court[0]
    return first["game"], first["home_team"]


def table(found, sizes, languages):
    pages = []
    for page, _, _ in found:
        if page not in pages:
            pages.append(page)
    columns = ["%s/%s" % (size, language) for size in sizes for language in languages]
    print("\nserious+critical per page (" + ", ".join(columns) + ")")
    print("%-20s %s" % ("page", " ".join("%9s" % c for c in columns)))
    for page in pages:
        cells = []
        for size in sizes:
            for language in languages:
                cell = found.get((page, language, size))
                cells.append("%9s" % ("-" if cell is None else len(cell)))
        print("%-20s %s" % (page, " ".join(cells)))
    print(flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--csv", required=True, help="the registration CSV: config/teams.csv")
    parser.add_argument("--web-bin", required=True, help="courtside-web, for `codes show`")
    parser.add_argument("--state-dir", required=True, help="courtside-web's --state-dir")
    parser.add_argument("--only", default="", help="audit only these pages (comma-separated names)")
    parser.add_argument("--langs", default=",".join(LANGUAGES))
    parser.add_argument("--sizes", default="tv,phone")
    parser.add_argument("--verbose", action="store_true", help="say how long each page's audit took")
    args = parser.parse_args()
    args.only = set(filter(None, args.only.split(",")))
    args.langs = args.langs.split(",")
    args.axe = axe_core()
    sizes = args.sizes.split(",")
    csv = smaller(args.csv)
    check = Checks()
    found = {}
    desk_cookie, token, game, team = None, None, None, None
    for size in sizes:
        audit = Audit(args, size, found)
        try:
            signed_out_pages(audit)
            if desk_cookie is None:
                check("signed in at the desk (%s)" % size, sign_in(audit, args.passphrase))
                desk_cookie = audit.browser.get_cookie("courtside_desk")
            else:
                # The same desk as the first size's: its draft confirmed again is the same command.
                audit.browser.add_cookie({"name": "courtside_desk", "value": desk_cookie["value"], "path": "/"})
            reviewed = setup_pages(audit, csv)
            if token is None:
                token = reviewed
                check("a draw reviewed", token is not None)
                audit.open("/desk/setup")
                # In English, whichever language the audit left the desk in: the answer is read for its word.
                audit.post("/desk/setup/confirm?lang=en", [("token", token), ("reason", "the draw")])
                check("the draw published",
                      wait(lambda: "Published" in audit.browser.find_element(By.ID, "setup-done").text, 60))
                game, team = first_game_and_team(args)
            setup_done(audit, token)
            pin = pin_of(args)
            check("joined Court 1's keeper page with its PIN (%s)" % size, pin is not None and
                  join_keeper(audit.browser, args.web, pin, "Axe " + size))
            if size == sizes[0]:
                game = play(audit) or game
            signed_in_pages(audit, game, team)
            if size == "phone":
                keeper_at_200(audit, check)
                keeper_text_200(args, pin, check)
        finally:
            audit.quit()
    table(found, sizes, args.langs)
    for (page, language, size), severe in found.items():
        check("%s %s %s: no serious or critical violation" % (page, language, size), not severe,
              ", ".join(sorted({rule for rule, _, _ in severe})))
    return check.summary()


if __name__ == "__main__":
    raise SystemExit(main())
