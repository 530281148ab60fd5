#!/usr/bin/env python3
"""The organiser's desk in a real browser (headless Chromium through selenium).

    desk_check.py --web http://127.0.0.1:PORT --passphrase PASS

Opens g2's and g1's court TVs and the big screen first, then in another window: a wrong
passphrase is refused with a message; signs in; records that the Wolves forfeit g2 (reviewed,
then confirmed); and checks that the desk, the court TV and the big screen, never reloaded, show
g2 final by forfeit. Then the join codes: the desk makes Court 1's first code (confirmed first), a
phone joins with its PIN through /keep/join and starts g3, and g1's TV and the big screen, never
reloaded, follow Court 1's next game; the desk lists the phone, revokes it (confirmed first), and
the phone's next request is refused as `revoked`. Then the teams and the schedule: the desk adds
a late player to the Lions and moves g1 (not started) to Court 2, each confirmed first; g1's box
score lists the player, and g1's TV and the big screen show it on Court 2, none of them reloaded.
Expects the schedule of DeskTests: g1 then g3 (Wolves v Lions) on Court 1, g2 on Court 2. With
--shots DIR, saves the teams and schedule pages there (desk-teams.png, desk-schedule.png). Ends with "N passed, N failed".

Needs Debian's chromium, chromium-driver and python3-selenium.
"""
import argparse
import http.cookiejar
import json
import os
import time
import urllib.error
import urllib.request
import uuid

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from browsing import chromium, wait


class Phone:
    """A keeper's phone without a browser: its own cookies, JSON in and out."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def send(self, path, body=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, headers={"Content-Type": "application/json"})
        try:
            with self.opener.open(request, timeout=10) as answer:
                return answer.status, json.loads(answer.read() or b"{}")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--shots", help="folder for the screenshot of the teams page")
    args = parser.parse_args()
    passed, failed = 0, 0

    def check(name, ok, detail=""):
        nonlocal passed, failed
        if ok:
            passed += 1
            print("ok", name, flush=True)
        else:
            failed += 1
            print("FAIL", name, detail, flush=True)

    browser = chromium(1280, 800)
    try:
        # The screens first, as they hang in the hall: they must follow without a reload.
        browser.get(args.web + "/games/g2")
        tv = browser.current_window_handle
        check("g2's TV is open", wait(lambda: browser.find_element(By.CSS_SELECTOR, '[data-field="status"]').text != "", 10))
        browser.switch_to.new_window("tab")
        browser.get(args.web + "/")
        big = browser.current_window_handle
        check("the big screen is open", wait(lambda: browser.find_element(By.CSS_SELECTOR, 'tr[data-game="g2"]'), 10))
        browser.execute_script("window.marker = 'never reloaded'")
        court1 = lambda: browser.find_element(By.CSS_SELECTOR, '#courts li[data-court="Court 1"] .upcoming').text
        check("the big screen shows Court 1's next game", wait(lambda: "next on Court 1: Wolves v Lions" in court1(), 10),
              court1())
        browser.switch_to.new_window("tab")
        browser.get(args.web + "/games/g1")
        tv1 = browser.current_window_handle
        next_on = lambda: browser.find_element(By.CSS_SELECTOR, '[data-field="next-on"]').text
        delay = lambda: browser.find_element(By.CSS_SELECTOR, '[data-field="delay"]').text
        check("g1's TV shows its court's next game and delay",
              wait(lambda: "next on Court 1: Wolves v Lions, about " in next_on(), 10) and
              ("min behind" in delay() or delay() == "on time"), next_on() + " / " + delay())
        browser.execute_script("window.marker = 'never reloaded'")
        browser.switch_to.new_window("tab")
        browser.get(args.web + "/games/g1/box")
        box = browser.current_window_handle
        check("g1's box score is open", wait(lambda: "Ann" in browser.find_element(By.ID, "live").text, 10))
        browser.execute_script("window.marker = 'never reloaded'")
        browser.switch_to.window(tv)
        browser.execute_script("window.marker = 'never reloaded'")

        browser.switch_to.new_window("tab")
        browser.get(args.web + "/desk")
        desk = browser.current_window_handle
        browser.find_element(By.ID, "passphrase").send_keys("not the passphrase")
        browser.find_element(By.ID, "sign-in").click()
        check("a wrong passphrase is refused, in words",
              wait(lambda: "not the organiser's passphrase" in browser.find_element(By.ID, "login-message").text, 10))
        browser.find_element(By.ID, "passphrase").send_keys(args.passphrase)
        browser.find_element(By.ID, "name").send_keys("Main desk")
        browser.find_element(By.ID, "sign-in").click()
        check("signed in: every court's games", wait(lambda: browser.find_element(By.CSS_SELECTOR, 'tr[data-game="g2"]'), 10))

        row = browser.find_element(By.CSS_SELECTOR, 'tr[data-game="g2"]')
        Select(row.find_element(By.NAME, "action")).select_by_value("forfeit")
        Select(row.find_element(By.NAME, "side")).select_by_value("away")
        row.find_element(By.NAME, "reason").send_keys("Wolves did not show up")
        row.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        summary = lambda: browser.find_element(By.ID, "summary").text
        check("the forfeit is shown for confirmation first", wait(lambda: "Wolves forfeit g2" in summary(), 10), summary())
        browser.find_element(By.ID, "confirm").click()
        check("confirmed: the desk says so",
              wait(lambda: "g2 is final" in browser.find_element(By.ID, "desk-message").text, 10))
        status = lambda: browser.find_element(By.CSS_SELECTOR, 'tr[data-game="g2"] .status').text
        check("the desk shows g2 final by forfeit", "won by forfeit" in status(), status())

        browser.switch_to.window(tv)
        tv_status = lambda: browser.find_element(By.CSS_SELECTOR, '[data-field="status"]').text
        check("g2's TV follows without a reload", wait(lambda: "Bears won by forfeit" in tv_status(), 10) and
              browser.execute_script("return window.marker") == "never reloaded", tv_status())
        browser.switch_to.window(big)
        big_status = lambda: browser.find_element(By.CSS_SELECTOR, 'tr[data-game="g2"] .status').text
        check("the big screen follows without a reload", wait(lambda: "won by forfeit" in big_status(), 10) and
              browser.execute_script("return window.marker") == "never reloaded", big_status())

        # The join codes: Court 1's first code, made at the desk after a confirmation.
        browser.switch_to.window(desk)
        browser.get(args.web + "/desk/codes")
        section = lambda: browser.find_element(By.CSS_SELECTOR, 'section[data-court="Court 1"]')
        section().find_element(By.CSS_SELECTOR, "button.new-code").click()
        check("a new code is shown for confirmation first", wait(lambda: "Give Court 1 its first code" in summary(), 10),
              summary())
        browser.find_element(By.ID, "confirm").click()
        message = lambda: browser.find_element(By.ID, "codes-message").text
        check("confirmed: Court 1 has a PIN", wait(lambda: "Court 1: new PIN" in message(), 10), message())
        pin = section().find_element(By.CSS_SELECTOR, ".pin").text
        phone = Phone(args.web)
        status, joined = phone.send("/keep/join", {"pin": pin, "name": "Court 1 tablet"})
        device = joined.get("device", "")
        check("a phone joins Court 1 with the PIN the desk shows", status == 200 and device.startswith("court-1-tablet-"),
              "%s %s" % (status, joined))

        # The phone starts g3 ahead of g1: the screens follow Court 1's next game without a reload.
        status, started = phone.send("/api/keep/commands", {"command_id": str(uuid.uuid4()), "op": "clock", "game": "g3",
                                                            "action": "start"})
        check("the phone starts g3", status == 200 and started.get("ok") is True, "%s %s" % (status, started))
        browser.switch_to.window(tv1)
        check("g1's TV follows Court 1's next game without a reload",
              wait(lambda: "next on Court 1: Lions v Tigers" in next_on(), 10) and
              browser.execute_script("return window.marker") == "never reloaded", next_on())
        browser.switch_to.window(big)
        check("the big screen follows Court 1's next game without a reload",
              wait(lambda: "next on Court 1: Lions v Tigers" in court1(), 10) and
              browser.execute_script("return window.marker") == "never reloaded", court1())

        # The desk lists the phone, and revokes it after a confirmation.
        browser.switch_to.window(desk)
        browser.get(args.web + "/desk/codes")
        row = lambda: browser.find_element(By.CSS_SELECTOR, 'section[data-court="Court 1"] tr[data-device="%s"]' % device)
        check("the desk lists the phone, and when it was last seen",
              wait(lambda: "(" in row().find_element(By.CSS_SELECTOR, ".last-seen").text, 10))
        row().find_element(By.CSS_SELECTOR, "button.revoke").click()
        check("a revoke is shown for confirmation first", wait(lambda: ("Revoke " + device) in summary(), 10), summary())
        browser.find_element(By.ID, "confirm").click()
        check("confirmed: the phone is revoked", wait(lambda: (device + " revoked") in message(), 10), message())
        check("the desk shows it revoked", "revoked" in row().text and not row().find_elements(By.CSS_SELECTOR, "button"))
        status, refused = phone.send("/api/keep/session")
        check("the phone's next request is refused: revoked",
              status == 401 and refused.get("error", {}).get("code") == "device_revoked", "%s %s" % (status, refused))
        browser.get(args.web + "/desk/codes/sheet")
        check("the printable sheet holds Court 1's PIN",
              pin in [e.text for e in browser.find_elements(By.CSS_SELECTOR, '.card[data-court="Court 1"] .pin')])

        # The teams: a late player joins the Lions, confirmed first; g1's box score lists him unreloaded.
        never_reloaded = lambda: browser.execute_script("return window.marker") == "never reloaded"
        browser.get(args.web + "/desk/teams")
        lions = lambda: browser.find_element(By.CSS_SELECTOR, 'section[data-team="lions"]')
        check("the teams page lists the Lions' players", wait(lambda: "Ann" in lions().text, 10))
        form = lions().find_element(By.CSS_SELECTOR, "form.add-player")
        form.find_element(By.NAME, "player").send_keys("dee")
        form.find_element(By.NAME, "name").send_keys("Dee Dunn")
        form.find_element(By.NAME, "reason").send_keys("arrived at 10:20")
        form.find_element(By.CSS_SELECTOR, "button.add").click()
        check("a late player is shown for confirmation first",
              wait(lambda: "Add Dee Dunn (dee) to team lions" in summary(), 10), summary())
        browser.find_element(By.ID, "confirm").click()
        teams_message = lambda: browser.find_element(By.ID, "teams-message").text
        check("confirmed: the teams page lists Dee with the Lions",
              wait(lambda: "Done: Add Dee Dunn" in teams_message(), 10) and
              wait(lambda: lions().find_element(By.CSS_SELECTOR, 'tr[data-player="dee"]'), 5), teams_message())
        if args.shots:
            os.makedirs(args.shots, exist_ok=True)
            # Tall enough for the message, the Bears and the Lions with Dee.
            browser.set_window_size(1280, 1100)
            browser.save_screenshot(os.path.join(args.shots, "desk-teams.png"))
            browser.set_window_size(1280, 800)
        browser.switch_to.window(box)
        check("g1's box score lists Dee without a reload",
              wait(lambda: "Dee Dunn" in browser.find_element(By.ID, "live").text, 10) and never_reloaded(),
              browser.find_element(By.ID, "live").text)

        # The schedule: g3 has started and cannot move; g1 moves to Court 2, confirmed first.
        browser.switch_to.window(desk)
        browser.get(args.web + "/desk/schedule")
        game = lambda g: browser.find_element(By.CSS_SELECTOR, 'tr[data-game="%s"]' % g)
        check("the schedule shows g3 under way (LIVE, as every screen says), without a move form",
              wait(lambda: "LIVE" in game("g3").text, 10) and not game("g3").find_elements(By.CSS_SELECTOR, "form"),
              game("g3").text)
        Select(game("g1").find_element(By.NAME, "court")).select_by_value("Court 2")
        game("g1").find_element(By.NAME, "reason").send_keys("Court 1 runs behind")
        game("g1").find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        check("the move is shown for confirmation first", wait(lambda: "Move g1 to Court 2" in summary(), 10), summary())
        browser.find_element(By.ID, "confirm").click()
        schedule_message = lambda: browser.find_element(By.ID, "schedule-message").text
        check("confirmed: the schedule shows g1 on Court 2",
              wait(lambda: "Done: Move g1 to Court 2" in schedule_message(), 10) and
              game("g1").find_element(By.CSS_SELECTOR, ".court").text == "Court 2", schedule_message())
        if args.shots:
            browser.set_window_size(1280, 1100)
            browser.save_screenshot(os.path.join(args.shots, "desk-schedule.png"))
            browser.set_window_size(1280, 800)
        browser.switch_to.window(tv1)
        court_name = lambda: browser.find_element(By.CSS_SELECTOR, '[data-field="court"]').text
        # g1 is Court 2's game now (g2 is over there): nothing follows it there, and nothing follows g3 on Court 1.
        check("g1's TV shows Court 2, and that court's line, without a reload",
              wait(lambda: court_name() == "Court 2" and "Court 1" not in next_on(), 10) and never_reloaded(),
              court_name() + " / " + next_on())
        browser.switch_to.window(big)
        big_court = lambda: browser.find_element(By.CSS_SELECTOR, 'tr[data-game="g1"] td:nth-child(2)').text
        check("the big screen shows g1 on Court 2, and nothing next on Court 1, without a reload",
              wait(lambda: big_court() == "Court 2" and court1() == "", 10) and never_reloaded(),
              big_court() + " / " + court1())

        # On a phone (390 wide, touch) every desk page reads down, nothing to scroll sideways:
        # neither the page nor any table in it (a table may overflow inside a page that does not).
        phone = chromium(mobile={"width": 390, "height": 844, "pixelRatio": 3.0, "touch": True})
        try:
            phone.get(args.web + "/desk")
            phone.find_element(By.ID, "passphrase").send_keys(args.passphrase)
            phone.find_element(By.ID, "sign-in").click()
            wait(lambda: phone.find_element(By.CSS_SELECTOR, "tr[data-game]"), 10)
            widest = ("return Math.max(document.documentElement.scrollWidth, window.innerWidth, "
                      "...[...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().right))")
            for page in ("/desk", "/desk/teams", "/desk/schedule", "/desk/codes", "/desk/audit?game=g1",
                         "/desk/audit?game=_tournament"):
                phone.get(args.web + page)
                wait(lambda: phone.find_element(By.TAG_NAME, "header"), 10)
                width = phone.execute_script(widest)
                check("on a phone, %s has nothing to scroll sideways" % page, width <= 391, "%.0f px wide" % width)
        finally:
            phone.quit()
    finally:
        browser.quit()
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
