#!/usr/bin/env python3
"""A Courtside display in Python, written from docs/PROTOCOL.md alone.

It follows the sync contract: subscribe first, then ask for a snapshot, apply only newer
events, and resync from a new snapshot on a gap, a heartbeat ahead of what it has, or a new
epoch. It prints one line per game whenever a score changes.

    /usr/bin/python3 examples/display.py                     # every game, on the default endpoints
    /usr/bin/python3 examples/display.py --game g1           # one game
    echo 1234 | examples/display.py --until-stdin --json     # stop once sequence 1234 is shown; print state as JSON

Needs pyzmq (Debian: python3-zmq).
"""
import argparse
import json
import sys
import threading
import uuid

import zmq


class Display:
    def __init__(self, command_endpoint, event_endpoint, game=None, timeout_ms=3000):
        self.context = zmq.Context.instance()
        self.command_endpoint = command_endpoint
        self.game = game
        self.timeout_ms = timeout_ms
        self.client_id = "display-" + uuid.uuid4().hex[:8]
        self.counter = 0
        self.epoch = None
        self.sequence = 0          # the last global sequence applied (all-games display)
        self.games = {}            # game id -> state (score, counts, clock, status, version, ...)
        self.resyncs = 0
        # 1. Subscribe first, so nothing published after the snapshot is missed.
        self.sub = self.context.socket(zmq.SUB)
        self.sub.setsockopt(zmq.LINGER, 0)
        self.sub.connect(event_endpoint)
        if game:
            self.sub.setsockopt(zmq.SUBSCRIBE, (game + "/").encode())
        else:
            self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.setsockopt(zmq.SUBSCRIBE, b"_heartbeat")
        self.dealer = None

    def request(self, body):
        """Lazy Pirate: one DEALER per try, the same command id on every retry."""
        self.counter += 1
        body = dict(body, client_id=self.client_id, command_id=str(self.counter))
        for _ in range(3):
            if self.dealer is None:
                self.dealer = self.context.socket(zmq.DEALER)
                self.dealer.setsockopt(zmq.LINGER, 0)
                self.dealer.connect(self.command_endpoint)
            self.dealer.send(json.dumps(body).encode())
            if self.dealer.poll(self.timeout_ms, zmq.POLLIN):
                return json.loads(self.dealer.recv())
            self.dealer.close()
            self.dealer = None
        raise RuntimeError("no reply from " + self.command_endpoint)

    def resync(self, initial=False):
        # 2. Then the snapshot, which says which sequence it reflects.
        reply = self.request({"op": "snapshot", "game": self.game} if self.game else {"op": "snapshot"})
        if not reply["ok"]:
            raise RuntimeError(reply["error"]["code"] + ": " + reply["error"]["message"])
        self.epoch = reply["epoch"]
        self.sequence = reply["sequence"]
        self.games = {}
        for game in reply["snapshot"]:
            state = {k: v for k, v in game.items() if k not in ("setup", "plays")}
            state["names"] = (game["setup"]["home"]["name"], game["setup"]["away"]["name"])
            self.games[game["setup"]["id"]] = state
        if not initial:
            self.resyncs += 1

    def on_event(self, event):
        if event["epoch"] != self.epoch:
            return self.resync()
        game = self.games.get(event["game"])
        # 3. Apply only what is newer than what we have.
        if event["sequence"] <= self.sequence:
            return
        if game is None:
            if event["event"]["type"] != "game_created":
                return self.resync()
            setup = event["event"]["setup"]
            game = {"version": 0, "names": (setup["home"]["name"], setup["away"]["name"])}
            self.games[event["game"]] = game
        # 4. A gap: a version that is not last+1, or (seeing every game) a sequence that is not last+1.
        if event["version"] != game["version"] + 1 or (not self.game and event["sequence"] != self.sequence + 1):
            return self.resync()
        game.update(event["state"])
        self.sequence = event["sequence"]
        return True

    def on_heartbeat(self, heartbeat):
        if heartbeat["epoch"] != self.epoch:
            return self.resync()
        if self.game:
            behind = heartbeat["games"].get(self.game, 0) > self.games.get(self.game, {}).get("version", 0)
        else:
            behind = heartbeat["sequence"] > self.sequence
        if behind:
            self.resync()

    def step(self, timeout_ms):
        if not self.sub.poll(timeout_ms, zmq.POLLIN):
            return False
        topic, body = self.sub.recv_multipart()
        message = json.loads(body)
        if message["type"] == "heartbeat":
            self.on_heartbeat(message)
        elif message["type"] == "event":
            self.on_event(message)
        else:
            return False  # standings and bracket updates: this display shows scores only
        return True

    def line(self, game_id):
        game = self.games[game_id]
        home, away = game["names"]
        score = game.get("score", {"home": 0, "away": 0})
        return "%-6s %s %d - %d %s  [%s]" % (game_id, home, score["home"], score["away"], away, game.get("status"))


def main():
    parser = argparse.ArgumentParser(description="A Courtside display written from docs/PROTOCOL.md.")
    parser.add_argument("--command", default="tcp://127.0.0.1:5555", help="the daemon's command endpoint")
    parser.add_argument("--events", default="tcp://127.0.0.1:5556", help="the daemon's event endpoint")
    parser.add_argument("--game", help="show one game only")
    parser.add_argument("--until-stdin", action="store_true",
                        help="read a sequence number from stdin; exit once the display has reached it")
    parser.add_argument("--json", action="store_true", help="on exit, print the final state as JSON")
    args = parser.parse_args()

    display = Display(args.command, args.events, args.game)
    display.resync(initial=True)
    target = []
    if args.until_stdin:
        threading.Thread(target=lambda: target.append(int(sys.stdin.readline())), daemon=True).start()
    try:
        while True:
            if display.step(100) and not args.json:
                for game_id in sorted(display.games):
                    print(display.line(game_id), flush=True)
            if target:
                reached = (display.games.get(args.game, {}).get("version", 0) >= target[0]) if args.game \
                    else display.sequence >= target[0]
                if reached:
                    break
    except KeyboardInterrupt:
        pass
    if args.json:
        print(json.dumps({"sequence": display.sequence, "resyncs": display.resyncs, "games": {
            game_id: {"version": g["version"], "score": g.get("score")} for game_id, g in display.games.items()}}))


if __name__ == "__main__":
    main()
