#!/usr/bin/env python3
"""The organiser's desk in a real browser (headless Chromium through selenium).

    desk_check.py --web http://127.0.0.1:PORT --passphrase PASS

Opens g2's court TV and the big screen first, then in another window: a wrong passphrase is
refused with a message; signs in; records that the Wolves forfeit g2 (reviewed, then confirmed);
and checks that the desk, the court TV and the big screen, never reloaded, show g2 final by
forfeit. Saves nothing. Ends with "N passed, N failed".

Needs Debian's chromium, chromium-driver and python3-selenium.
"""
import argparse
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select


def wait(condition, seconds, step=0.05):
    deadline = time.monotonic() + seconds
    while True:
        try:
            if condition():
                return True
        except WebDriverException:  # an element redrawn or not there yet
            pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(step)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--passphrase", required=True)
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

    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800"):
        options.add_argument(flag)
    options.binary_location = "/usr/bin/chromium"
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
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
        browser.switch_to.window(tv)
        browser.execute_script("window.marker = 'never reloaded'")

        browser.switch_to.new_window("tab")
        browser.get(args.web + "/desk")
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
    finally:
        browser.quit()
    print("%d passed, %d failed" % (passed, failed), flush=True)
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
