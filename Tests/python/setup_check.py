#!/usr/bin/env python3
"""The desk's Setup page in a real browser (headless Chromium through selenium), on a laptop.

    setup_check.py --web http://127.0.0.1:PORT --passphrase PASS --csv config/teams.csv

At 1366x768: signs in at /desk, opens /desk/setup (its form filled with config/event.yaml's
values), reads the CSV file into the teams' box through the page's file input, then pastes it
(as an organiser would), reviews, and finds a knockout drawn as SVG for each division and the
day's court-by-time grid; confirms, and finds the daemon's answer ("Published: 47 games.") with
links to the schedule and the results. On each page: nothing to scroll sideways, and every
button and link at least 44 px high. Expects a daemon waiting for its draw (no teams).

With COURTSIDE_SCREENSHOTS=DIR (or --shots DIR), saves the preview and the answer there
(setup-preview.png, setup-published.png). Ends with "N passed, N failed".

Needs Debian's chromium, chromium-driver and python3-selenium (browsing.py).
"""
import argparse
import os

from selenium.webdriver.common.by import By

from browsing import Checks, chromium, wait


# The page's width against the window's, and every visible button and link lower than 44 px.
WIDEST = "return [document.documentElement.scrollWidth, window.innerWidth]"
SMALL_TARGETS = """
return [...document.querySelectorAll('button, a, input[type=submit], select')]
  .filter(e => e.getClientRects().length > 0)
  .map(e => [e.id || e.textContent.trim().slice(0, 30) || e.tagName, e.getBoundingClientRect().height])
  .filter(([name, height]) => height < 44);
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--passphrase", required=True)
    parser.add_argument("--csv", required=True, help="the registration CSV: config/teams.csv")
    parser.add_argument("--shots", default=os.environ.get("COURTSIDE_SCREENSHOTS"),
                        help="folder for setup-preview.png and setup-published.png")
    args = parser.parse_args()
    check = Checks()

    def laptop_checks(page):
        width, window = browser.execute_script(WIDEST)
        check("%s: nothing to scroll sideways at 1366x768" % page, width <= window, "%s px in %s" % (width, window))
        small = browser.execute_script(SMALL_TARGETS)
        check("%s: every button and link at least 44 px high" % page, not small, repr(small))

    def screenshot(name):
        if not args.shots:
            return
        os.makedirs(args.shots, exist_ok=True)
        height = browser.execute_script("return document.documentElement.scrollHeight")
        browser.set_window_size(1366, min(max(height, 768), 2600))
        browser.save_screenshot(os.path.join(args.shots, name))
        browser.set_window_size(1366, 768)

    with open(args.csv, encoding="utf-8") as file:
        csv = file.read()
    browser = chromium(1366, 768)
    try:
        browser.get(args.web + "/desk")
        browser.find_element(By.ID, "passphrase").send_keys(args.passphrase)
        browser.find_element(By.ID, "sign-in").click()
        check("signed in", wait(lambda: browser.find_element(By.CSS_SELECTOR, 'a[href="/desk/setup"]'), 10))
        browser.find_element(By.CSS_SELECTOR, 'a[href="/desk/setup"]').click()
        check("the Setup page, from the desk's navigation", wait(lambda: browser.find_element(By.ID, "setup-form"), 10))
        check("its form starts with config/event.yaml's divisions",
              browser.find_element(By.ID, "division-0-id").get_attribute("value") == "open" and
              browser.find_element(By.ID, "division-1-name").get_attribute("value") == "Women" and
              browser.find_element(By.ID, "csv").get_attribute("value") == "")
        check("every field has a label",
              browser.execute_script(
                  "return [...document.querySelectorAll('#setup-form input:not([type=hidden]), #setup-form select, "
                  "#setup-form textarea')].every(e => e.labels && e.labels.length > 0)"))
        laptop_checks("the form")

        # A file read into the box by the page's few lines of script, then the same text pasted.
        browser.find_element(By.ID, "csv-file").send_keys(os.path.abspath(args.csv))
        check("a CSV file chosen fills the teams' box",
              wait(lambda: "Harbour Hawks" in browser.find_element(By.ID, "csv").get_attribute("value"), 10))
        browser.execute_script("document.getElementById('csv').value = arguments[0]", csv)
        browser.find_element(By.ID, "review").click()
        check("reviewed: the draw in words",
              wait(lambda: "Publish the draw of Open and Women: 24 teams, 47 games on 4 courts, 09:00 to"
                   in browser.find_element(By.ID, "summary").text, 120),
              browser.find_element(By.TAG_NAME, "body").text[:400])
        brackets = browser.find_elements(By.CSS_SELECTOR, ".division-preview svg.bracket-picture")
        check("a knockout drawn as SVG for each division", len(brackets) == 2, "%d" % len(brackets))
        pools = browser.find_elements(By.CSS_SELECTOR, "table.pool")
        check("each pool a table (4 for Open, 2 for Women)", len(pools) == 6, "%d" % len(pools))
        cells = browser.find_elements(By.CSS_SELECTOR, "#setup-grid td[data-game]")
        check("the day's grid has every game in a court's cell", len(cells) == 47, "%d" % len(cells))
        courts = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#setup-grid thead th")]
        check("its columns are the courts", courts == ["Start", "Court 1", "Court 2", "Court 3", "Court 4"], repr(courts))
        laptop_checks("the preview")
        screenshot("setup-preview.png")

        browser.find_element(By.ID, "reason").send_keys("the draw at 08:30")
        browser.find_element(By.ID, "publish").click()
        check("published: the daemon's answer",
              wait(lambda: "Published: 47 games. The schedule and every screen follow now."
                   in browser.find_element(By.ID, "setup-done").text, 20),
              browser.find_element(By.TAG_NAME, "body").text[:400])
        check("with links to the schedule and the results",
              browser.find_element(By.ID, "to-schedule").get_attribute("href").endswith("/desk/schedule") and
              browser.find_element(By.ID, "to-results").get_attribute("href").endswith("/results"))
        laptop_checks("the answer")
        screenshot("setup-published.png")
        browser.find_element(By.ID, "to-schedule").click()
        check("the desk's schedule lists the draw's games",
              wait(lambda: browser.find_element(By.CSS_SELECTOR, 'tr[data-game="open-A-1"]'), 10))
    finally:
        browser.quit()
    return check.summary()


if __name__ == "__main__":
    raise SystemExit(main())
