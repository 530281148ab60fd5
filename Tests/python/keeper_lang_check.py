#!/usr/bin/env python3
"""The keeper page (/keep) in Japanese or Korean, in real Chromium through selenium, against the
real daemon and gateway.

    keeper_lang_check.py --web http://127.0.0.1:PORT --command EP --pin K7M-4PX --lang ja|ko
                         --web-bin PATH --state-dir DIR [--shots DIR]

On a phone (390x844): asks for the language the way a device does (ja: the browser's
Accept-Language; ko: the device's `lang` cookie), joins by PIN, and checks that the page and the
views it binds speak it: the frame's words, the players' and moves' spoken names, a few taps
confirmed (their state and the live region's line), the game's state fetched as a page that
hears no events fetches it, the Undo button naming whose play it undoes;
then the game ended over the protocol, a tap refused with the catalog's words for
`game_finished` (never the daemon's English); then a new code for the court, and the page halted
with the words for `revoked`. Every expected word is read from the language's catalog
(Sources/CourtsideLocalization/Resources/catalogs). Ends with "N passed, N failed".

Needs Debian's chromium, chromium-driver, python3-selenium and python3-zmq.
"""
import argparse
import os
import re
import subprocess
import sys

from selenium.webdriver.common.by import By

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from browser_check import Run, command, move, wait  # noqa: E402
from keeper_check import Keeper, LAYOUT  # noqa: E402

CATALOGS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Sources", "CourtsideLocalization",
                        "Resources", "catalogs")


def catalog(language):
    """A .po file's keys and their first form (one string each, as ours are written)."""
    entries, key = {}, None
    with open(os.path.join(CATALOGS, language + ".po"), encoding="utf-8") as f:
        for line in f:
            found = re.match(r'msgid "(.*)"$', line)
            if found:
                key = found.group(1)
                continue
            found = re.match(r'msgstr(?:\[0\])? "(.*)"$', line)
            if found and key and key not in entries:
                entries[key] = found.group(1).replace('\\"', '"').replace("\\\\", "\\")
    return entries


def fill(text, **values):
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), text)


def main():
    parser = argparse.ArgumentParser()
    for name in ("--web", "--command", "--pin", "--web-bin", "--state-dir"):
        parser.add_argument(name, required=True)
    parser.add_argument("--lang", required=True, choices=["ja", "ko"])
    parser.add_argument("--shots")
    args = parser.parse_args()
    words, english = catalog(args.lang), catalog("en")
    run = Run()
    keeper = Keeper(args.web)
    k = keeper
    try:
        if args.lang == "ja":
            # The browser's own language: every request says Accept-Language: ja.
            agent = k.js("return navigator.userAgent")
            k.browser.execute_cdp_cmd("Emulation.setUserAgentOverride", {"userAgent": agent, "acceptLanguage": "ja-JP,ja"})
        else:
            # The device's own choice, kept in the lang cookie (the picker's).
            k.browser.get(args.web + "/keep")
            k.browser.add_cookie({"name": "lang", "value": "ko", "path": "/"})
        k.browser.get(args.web + "/keep")
        run.check("the join page speaks the language", k.js("return document.documentElement.lang") == args.lang
                  and words["join.heading"] in k.js("return document.body.textContent"),
                  k.js("return document.documentElement.lang"))
        run.check("join by PIN", k.join(args.pin, "keeper-" + args.lang))
        run.check("the keeper page's <html lang>", k.js("return document.documentElement.lang") == args.lang)
        game = k.js("return document.getElementById('game').value")
        run.check("the view arrives in the language: the clock button and the status",
                  wait(lambda: k.field("clock-button") == words["keeper.clock.start"]
                       and k.field("status") == words["status.scheduled"], 10),
                  "%s %s" % (k.field("clock-button"), k.field("status")))
        fetched = k.browser.execute_async_script(
            "const done = arguments[arguments.length - 1];"
            "fetch('/api/keep/games/' + encodeURIComponent(arguments[0]) + '?lang=' + document.documentElement.lang,"
            " { credentials: 'same-origin' }).then((r) => r.json()).then((r) => done(r.game.view.clockActionText), (e) => done(String(e)));",
            game)
        run.check("the state a silent page fetches comes in the language too", fetched == words["keeper.clock.start"], fetched)
        run.check("the frame's words", k.field("hint") == words["keeper.hint.tap"]
                  and k.js("return document.querySelector('.taps h2').textContent") == words["keeper.taps"]
                  and k.js("return document.getElementById('leave').textContent") == words["keeper.leave"])
        players = k.js("return [...document.querySelectorAll('button[data-player]')]"
                       ".map((b) => [b.dataset.player, b.querySelector('.who').textContent, b.getAttribute('aria-label')])")
        home = k.js("return document.querySelector('[data-field=\"home-name\"]').textContent")
        pid, name, label = players[0]
        zero = fill(words["keeper.spoken.points"], count=0)
        run.check("a player's button says who, for which team, and their counts",
                  label == fill(words["keeper.player.label"], player=name, team=home, counts=zero), label)
        # Its accessible name as the browser computes it: what it shows, then the move's words
        # (hidden but for a screen reader) where they differ, so a voice command naming the label finds it.
        buttons = k.browser.find_elements(By.CSS_SELECTOR, "button[data-move]")
        spoken = [" ".join(b.accessible_name.split()) for b in buttons]
        expected = []
        for b, m in zip(buttons, ("one.point", "two.points", "free.throw", "assist", "rebound", "foul")):
            # What it shows: its own text, not the hidden words after it.
            shown = k.browser.execute_script("return arguments[0].firstChild.textContent", b).strip()
            said = words["keeper.move." + m]
            expected.append(shown if shown.lower() == said.lower() else shown + " " + said)
        run.check("each move's button shows its label and says the move", spoken == expected, "%s %s" % (spoken, expected))

        for kind in ("two_points", "two_points", "rebound"):
            k.tap(pid, kind, real=True)
        run.check("three taps confirmed, in the language's word",
                  wait(lambda: k.all_confirmed(3) and k.js(
                      "return [...document.querySelectorAll('#outbox .state')].every((s) => s.textContent === arguments[0])",
                      words["keeper.state.confirmed"]), 15), k.taps())
        run.check("the live region says how the last tap went",
                  wait(lambda: words["keeper.state.confirmed"] in k.js(
                      "return document.getElementById('announce').textContent"), 5)
                  and k.js("return document.getElementById('announce').getAttribute('aria-live')") == "polite",
                  k.js("return document.getElementById('announce').textContent"))
        counts = words["list.separator"].join([fill(words["keeper.spoken.points"], count=4),
                                               fill(words["keeper.spoken.rebounds"], count=1)])
        expected = fill(words["keeper.player.label"], player=name, team=home, counts=counts)
        run.check("the player's button says the new counts", wait(lambda: k.js(
            "return document.querySelector('button[data-player=\"' + arguments[0] + '\"]').getAttribute('aria-label')",
            pid) == expected, 5), expected)
        undo = k.js("const b = document.querySelector('#plays li .undo'); return b ? b.getAttribute('aria-label') : ''")
        run.check("a play's Undo names whose play it undoes", undo == fill(
            words["keeper.undo.label"], player=name, move=words["keeper.move.rebound"]), undo)
        taps_undo = k.js("const b = document.querySelector('#outbox li .undo'); return b ? b.getAttribute('aria-label') : ''")
        run.check("a tap's Undo names it too", taps_undo == fill(
            words["keeper.undo.label"], player=name, move=words["keeper.move.rebound"]), taps_undo)
        small, width, inner = k.js(LAYOUT)
        run.check("phone: every control at least 44x44, no sideways scroll", not small and width <= inner,
                  "%s %s/%s" % (small, width, inner))

        # The game ended over the protocol: the away side to 16, then a tap refused.
        away = k.js("return document.querySelector('[data-field=\"players-away\"] button[data-player]').dataset.player")
        for _ in range(8):
            move(args.command, game, away, "two_points")
        run.check("the page sees the game over", wait(lambda: k.field("clock-button") == words["keeper.clock.over"], 10),
                  k.field("clock-button"))
        k.tap(pid, "one_point", real=True)
        why = lambda: k.js("const li = document.querySelector('#outbox li[data-state=\"refused\"]');"
                           "return li ? li.querySelector('.why').textContent : ''")
        run.check("a refusal in the catalog's words, not the daemon's English",
                  wait(lambda: why() == words["keeper.refusal.game_finished"], 10), why())
        run.check("the refused line says so in words", k.js(
            "return document.querySelector('#outbox li[data-state=\"refused\"] .state').textContent")
            == words["keeper.state.refused"])
        run.check("the live region reads the refusal back", wait(lambda: words["keeper.refusal.game_finished"] in k.js(
            "return document.getElementById('announce').textContent"), 5))
        if args.shots:
            k.browser.save_screenshot(os.path.join(args.shots, "keeper-%s.png" % args.lang))

        # A new code for the court: the next tap is refused with 401 revoked, and the page halts.
        new = subprocess.run([args.web_bin, "codes", "new", "--state-dir", args.state_dir, "--court",
                              k.js("return document.body.dataset.court")], capture_output=True, text=True, timeout=30)
        k.tap(pid, "rebound")
        halted = fill(words["keeper.halted"], message=words["keeper.refusal.revoked"])
        banner = lambda: k.js("const b = document.getElementById('banner'); return b.hidden ? '' : b.textContent")
        run.check("revoked: the banner in the language, with its link", new.returncode == 0 and wait(
            lambda: banner() == halted + " " + words["keeper.join.again"], 10), "%s | %s" % (banner(), halted))
        page = k.js("return document.body.innerText")
        left = [english[key] for key in ("keeper.hint.tap", "keeper.taps", "keeper.plays", "keeper.leave",
                                         "keeper.state.confirmed", "keeper.state.refused") if english[key] in page]
        run.check("no English left of the keeper's words", not left, left)
    finally:
        keeper.quit()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    return 1 if run.failed else 0


if __name__ == "__main__":
    sys.exit(main())
