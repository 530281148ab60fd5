#!/usr/bin/env python3
"""The keeper page over HTTPS in real Chromium, as a phone at a venue that serves TLS uses it.

    tls_keeper_check.py --web https://127.0.0.1:PORT --pin K7M-4PX --cert web.crt

Chromium trusts the gateway's self-signed certificate by its public key alone
(--ignore-certificate-errors-spki-list), so the page is a secure context as behind a real
certificate: the join by PIN, the service worker, the keeper's socket opened as wss://, a tap
sent on it and confirmed with no POST. Prints "ok NAME" or "FAIL NAME DETAIL" for each check,
then "N passed, N failed".

Needs Debian's chromium, chromium-driver, python3-selenium and openssl.
"""
import argparse
import base64
import hashlib
import subprocess
import sys

from selenium.webdriver.common.by import By

import browsing
from browsing import Checks, wait

# Every WebSocket the page makes, by its URL: a class of the browser's own, so nothing else changes.
RECORD_SOCKETS = """
window.keeperSocketURLs = [];
window.WebSocket = class extends WebSocket {
  constructor(url, protocols) { super(url, protocols); window.keeperSocketURLs.push(this.url); }
};
"""
SOCKET_OPEN = "return !!(window.courtsideKeeperSocket && window.courtsideKeeperSocket.open)"
POSTS = "return performance.getEntriesByType('resource').filter((e) => e.name.endsWith('/api/keep/commands')).length"


def spki_hash(cert):
    """The base64 SHA-256 of the certificate's public key (SubjectPublicKeyInfo), as Chromium takes it."""
    key = subprocess.run(["openssl", "x509", "-in", cert, "-pubkey", "-noout"], capture_output=True, check=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, capture_output=True,
                         check=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def chromium(cert):
    """A phone's Chromium (390x844, touch) that trusts `cert` by its key and records its sockets."""
    browser = browsing.chromium(mobile={"width": 390, "height": 844, "pixelRatio": 1.0, "touch": True},
                                flags=["--ignore-certificate-errors-spki-list=" + spki_hash(cert)])
    browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": RECORD_SOCKETS})
    return browser


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web", required=True, help="the gateway's https:// address")
    parser.add_argument("--pin", required=True, help="Court 1's PIN")
    parser.add_argument("--cert", required=True, help="the gateway's certificate (PEM)")
    parser.add_argument("--player", default="ann", help="the player the tap scores for (default: %(default)s)")
    args = parser.parse_args()
    check = Checks()
    browser = chromium(args.cert)
    js = browser.execute_script
    try:
        browser.get(args.web + "/keep")
        check("the join page over https is a secure context", js("return window.isSecureContext") is True,
              browser.current_url)
        browser.find_element(By.ID, "pin").send_keys(args.pin)
        browser.find_element(By.ID, "name").send_keys("TLS phone")
        browser.find_element(By.ID, "join").click()
        check("join by PIN", wait(lambda: js("return document.body.classList.contains('keeper') && "
                                              "!!document.querySelector('button[data-player]')"), 15),
              browser.current_url)
        check("the service worker controls the page", wait(lambda: js("return !!navigator.serviceWorker.controller"), 15))
        check("the keeper's socket opens", wait(lambda: js(SOCKET_OPEN), 10))
        urls = js("return window.keeperSocketURLs")
        check("it is wss://, to this host", bool(urls) and all(u.startswith("wss://") for u in urls) and
              all(args.web.replace("https://", "wss://") in u for u in urls), urls)
        js("document.querySelector('button[data-player=\"' + arguments[0] + '\"]').click();"
           "document.querySelector('button[data-move=\"two_points\"]').click();", args.player)
        taps = lambda: js("return [...document.querySelectorAll('#outbox li')].map((li) => li.dataset.state)")
        check("a tap is confirmed", wait(lambda: taps() == ["confirmed"], 10), taps())
        check("it went on the socket: no POST", js(POSTS) == 0, js(POSTS))
    finally:
        browser.quit()
    check.summary()
    return 0 if check.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
