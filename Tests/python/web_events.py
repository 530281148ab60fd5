#!/usr/bin/env python3
"""Reads courtside-web's /api/events (Server-Sent Events) as any program would.

    web_events.py URL COUNT TIMEOUT_S [RESUME_FILE]

Prints one JSON line per message ({"event": NAME, "data": ...}) and stops once COUNT messages
of kind "event" have arrived, or after TIMEOUT_S seconds. With RESUME_FILE it reads nothing
after the first message until that file exists: a screen that stopped reading for a while.
Standard library only.
"""
import http.client
import json
import os
import sys
import time
import urllib.parse


def main():
    url, count, timeout = urllib.parse.urlparse(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
    resume = sys.argv[4] if len(sys.argv) > 4 else None
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    # The query too: a page asks for its language (?lang=ja).
    path = url.path + ("?" + url.query if url.query else "")
    connection.request("GET", path, headers={"Accept": "text/event-stream"})
    response = connection.getresponse()
    if response.status != 200 or not response.getheader("Content-Type", "").startswith("text/event-stream"):
        print(json.dumps({"error": "status %d, type %s" % (response.status, response.getheader("Content-Type"))}))
        return 1
    deadline = time.monotonic() + timeout
    name, data, seen = None, [], 0
    while seen < count and time.monotonic() < deadline:
        line = response.readline()
        if not line:
            break
        line = line.decode().rstrip("\n")
        if line.startswith("event:"):
            name = line[6:].strip()
        elif line.startswith("data:"):
            data.append(line[5:].strip())
        elif line == "" and data:
            print(json.dumps({"event": name, "data": json.loads("\n".join(data))}), flush=True)
            seen += name == "event"
            name, data = None, []
            while resume and not os.path.exists(resume) and time.monotonic() < deadline:
                time.sleep(0.05)
            resume = None
    return 0


if __name__ == "__main__":
    sys.exit(main())
