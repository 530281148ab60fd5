"""What the browser checks share: headless Chromium, waiting for a page, counting checks.

Needs Debian's chromium, chromium-driver and python3-selenium.
"""
import time

from selenium import webdriver
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.chrome.service import Service


def wait(condition, seconds, step=0.05):
    """True as soon as `condition()` is, False after `seconds`; an element redrawn or not
    there yet counts as not yet."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            if condition():
                return True
        except WebDriverException:
            pass
        if time.monotonic() >= deadline:
            return False
        time.sleep(step)


def chromium(width=None, height=None, mobile=None, flags=()):
    """Debian's Chromium, headless: a window of `width` x `height`, or a phone's screen
    (`mobile`: Chromium's deviceMetrics); `flags`, more of its command-line flags."""
    options = webdriver.ChromeOptions()
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", *flags):
        options.add_argument(flag)
    if width and height:
        options.add_argument("--window-size=%d,%d" % (width, height))
    if mobile:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": mobile})
    options.binary_location = "/usr/bin/chromium"
    browser = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if width and height:
        browser.set_window_size(width, height)
    return browser


class Checks:
    """Each check printed as it is made ("ok NAME" or "FAIL NAME DETAIL"), then "N passed, N failed"."""

    def __init__(self):
        self.passed, self.failed = 0, 0

    def __call__(self, name, ok, detail=""):
        if ok:
            self.passed += 1
            print("ok", name, flush=True)
        else:
            self.failed += 1
            print("FAIL", name, detail, flush=True)
        return ok

    def summary(self):
        print("%d passed, %d failed" % (self.passed, self.failed), flush=True)
        return 0 if self.failed == 0 else 1
