#!/usr/bin/env python3
"""What the browser alone takes for a POST: a blank page's fetch in a loop, timed to its head.

    scripts/browser-floor.py --page http://127.0.0.1:8080/healthz --path /keep/leave --posts 200
    scripts/browser-floor.py --plain 8090 --posts 200
    scripts/browser-floor.py --page http://127.0.0.1:8080/healthz --path /api/keep/commands --pin PIN

The same headless Chromium as Tests/python/keeper_check.py opens --page and POSTs a keeper's JSON
body to --path --posts times, one at a time, timing each fetch until it resolves (the answer's
head, where the keeper page confirms a tap), with each POST's resource timing. --plain PORT serves
the blank page and answers every POST with {"ok":true} from a minimal HTTP/1.1 server of Python's
own, to tell Chromium's share from the gateway's. With --pin it first joins that court's PIN from
the page, so that /api/keep/commands takes its moves (of `ann` in g1 of the sample tournament).
"""
import argparse
import os
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "python"))
from keeper_check import chromium, percentile  # noqa: E402

POSTS = """
const [path, n, done] = arguments, times = [];
(async () => {
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ op: "move", command_id: "floor-" + i + "-" + Date.now(), game: "g1", player: "ann", move: "rebound" }),
      credentials: "same-origin", cache: "no-store" });
    times.push(performance.now() - start);
    await response.text();
  }
  return times;
})().then(done, (e) => done(String(e)));
"""
SPLIT = """
return performance.getEntriesByType("resource").filter((e) => e.name.endsWith(arguments[0])).map((p) => {
  const request = p.requestStart || p.fetchStart, first = p.responseStart || request;
  return [request - p.startTime, first - request, p.responseEnd - first];
});
"""
JOIN = """
const [pin, done] = arguments;
fetch("/keep/join", { method: "POST", headers: { "Content-Type": "application/json" }, credentials: "same-origin",
  body: JSON.stringify({ pin, name: "floor" }) }).then((r) => done(r.status), (e) => done(String(e)));
"""


class Plain(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # the head and the body are two writes

    def log_message(self, *args):
        pass

    def answer(self, body, kind):
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        self.answer(b"<!doctype html><title>floor</title>", "text/html")

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.answer(b'{"ok":true}', "application/json")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", help="a page of the server to POST to")
    parser.add_argument("--path", default="/post")
    parser.add_argument("--plain", type=int, help="serve the page and the POSTs on this port instead")
    parser.add_argument("--pin", help="join this PIN first (for /api/keep/commands)")
    parser.add_argument("--posts", type=int, default=200)
    args = parser.parse_args()
    if args.plain:
        server = ThreadingHTTPServer(("127.0.0.1", args.plain), Plain)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        args.page = "http://127.0.0.1:%d/" % args.plain
    if not args.page:
        parser.error("--page or --plain")
    browser = chromium()
    try:
        browser.get(args.page)
        browser.set_script_timeout(max(60, args.posts))
        if args.pin and browser.execute_async_script(JOIN, args.pin) != 200:
            print("could not join with PIN %s" % args.pin)
            return 1
        browser.execute_script("performance.clearResourceTimings(); performance.setResourceTimingBufferSize(100000)")
        times = browser.execute_async_script(POSTS, args.path, args.posts)
        if isinstance(times, str):
            print("the loop failed: %s" % times)
            return 1
        steps = browser.execute_script(SPLIT, args.path)
        print("a blank page's POST to %s, %d: to its head p50 %.2f ms, p99 %.2f ms; p50 of its steps: "
              "browser before request %.2f, to first byte %.2f, body %.2f" % (
                  args.path, len(times), percentile(times, 50), percentile(times, 99),
                  *[percentile([s[i] for s in steps], 50) for i in range(3)]))
        return 0
    finally:
        browser.quit()


if __name__ == "__main__":
    raise SystemExit(main())
