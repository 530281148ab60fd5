#!/usr/bin/env python3
"""A Courtside display in Python, written from docs/PROTOCOL.md alone.

It follows the sync contract: subscribe first, then ask for a snapshot, apply only newer
events, and resync from a new snapshot on a gap, a heartbeat or game beat ahead of what it has,
or a new epoch (protocol version 3). Seeing every game, it keeps the standings and the bracket
too, and fetches one again when a heartbeat names a newer one than it has (a message was lost).
It prints one line per game whenever a score changes.

    /usr/bin/python3 examples/display.py                     # every game, on the default endpoints
    /usr/bin/python3 examples/display.py --game g1           # one game
    echo 1234 | examples/display.py --until-stdin --json     # stop once sequence 1234 is shown; print state as JSON

On a secured daemon (docs/PROTOCOL.md, "Security") both sockets use CURVE: pass the display's
secret certificate and the daemon's public key (its certificate file or the 40 Z85 characters
of `courtside keys show`), or set COURTSIDE_KEY and COURTSIDE_SERVER_KEY:

    /usr/bin/python3 examples/display.py --key keys/big-screen.key_secret --server-key keys/server.key
    /usr/bin/python3 examples/display.py --server-key keys/server.key    # a throwaway key: for `anonymous: display`

Needs pyzmq (Debian: python3-zmq).
"""
import argparse
import json
import os
import sys
import time
import threading
import uuid

import zmq
import zmq.auth

Z85_CHARACTERS = set("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#")


def server_public_key(value):
    """The daemon's public key from its certificate file (NAME.key) or from its 40 Z85 characters."""
    if os.path.exists(value):
        try:
            public, _ = zmq.auth.load_certificate(value)
        except (OSError, ValueError) as error:
            raise ValueError("--server-key %s: %s" % (value, error))
        return public
    if len(value) == 40 and set(value) <= Z85_CHARACTERS:
        return value.encode()
    raise ValueError("--server-key %s: neither a certificate file nor a 40-character Z85 key" % value)


def client_keys(path):
    """This display's (public, secret) key pair from its secret certificate (NAME.key_secret)."""
    try:
        public, secret = zmq.auth.load_certificate(path)
    except (OSError, ValueError) as error:
        raise ValueError("--key %s: %s" % (path, error))
    if secret is None:
        raise ValueError("--key %s holds no secret key: pass the NAME.key_secret file" % path)
    return public, secret


class Display:
    def __init__(self, command_endpoint, event_endpoint, game=None, timeout_ms=3000, curve=None):
        """`curve`, when given, is (public key, secret key, server public key), all Z85: then every
        socket is a CURVE client of the daemon."""
        self.context = zmq.Context.instance()
        # Several daemons may be listed, comma-separated: requests fail over in turn, and the
        # subscription hears them all (only the one that serves publishes).
        self.command_endpoints = [e.strip() for e in command_endpoint.split(",") if e.strip()]
        self.command_endpoint = self.command_endpoints[0]
        self.curve = curve
        self.game = game
        self.timeout_ms = timeout_ms
        self.client_id = "display-" + uuid.uuid4().hex[:8]
        self.counter = 0
        self.epoch = None
        self.heard_epoch = 0.0     # when the epoch followed was last heard from (time.monotonic())
        self.sequence = 0          # the last global sequence applied (all-games display)
        self.games = {}            # game id -> state (score, counts, clock, status, version, ...)
        self.standings, self.standings_sequence = [], 0   # the group tables, and the sequence they reflect
        self.bracket, self.bracket_sequence = [], 0       # the bracket, likewise
        self.tournament_changes = 0  # organiser's changes heard (type tournament_event)
        self.tables_fetched = 0    # standings or brackets fetched because a heartbeat showed one lost
        self.resyncs = 0
        self.stale = None          # why the last resync failed, while one is owed
        # 1. Subscribe first, so nothing published after the snapshot is missed.
        self.sub = self.socket(zmq.SUB)
        for endpoint in (e.strip() for e in event_endpoint.split(",")):
            if endpoint:
                self.sub.connect(endpoint)
        if game:
            self.sub.setsockopt(zmq.SUBSCRIBE, (game + "/").encode())
        else:
            self.sub.setsockopt(zmq.SUBSCRIBE, b"")
        self.sub.setsockopt(zmq.SUBSCRIBE, b"_heartbeat")
        self.dealer = None

    def socket(self, kind):
        """A socket with linger 0; with keys, a CURVE client (the keys are set before connecting)."""
        socket = self.context.socket(kind)
        socket.setsockopt(zmq.LINGER, 0)
        if self.curve:
            socket.curve_publickey, socket.curve_secretkey, socket.curve_serverkey = self.curve
        return socket

    def request(self, body):
        """Lazy Pirate: one DEALER per try, the same command id on every retry."""
        self.counter += 1
        body = dict(body, client_id=self.client_id, command_id=str(self.counter))
        attempts = max(3, len(self.command_endpoints))
        patience = time.monotonic() + attempts * self.timeout_ms / 1000
        not_active, tries = None, 0
        while tries < attempts:
            tries += 1
            if self.dealer is None:
                self.dealer = self.socket(zmq.DEALER)
                self.dealer.connect(self.command_endpoint)
            self.dealer.send(json.dumps(body).encode())
            if self.dealer.poll(self.timeout_ms, zmq.POLLIN):
                reply = json.loads(self.dealer.recv())
                # A standby (or a daemon that stepped down) decided nothing: ask the next one at
                # once, without counting a try, until the time the tries would take is spent.
                if reply.get("ok") or reply["error"]["code"] != "not_active" or time.monotonic() >= patience:
                    return reply
                not_active, tries = reply, tries - 1
                time.sleep(0.1 / len(self.command_endpoints))
            self.dealer.close()
            self.dealer = None
            # Binary Star's client: after a timeout, the next daemon listed, with the same ids.
            endpoints = self.command_endpoints
            self.command_endpoint = endpoints[(endpoints.index(self.command_endpoint) + 1) % len(endpoints)]
            if not_active and time.monotonic() >= patience:
                break
        if not_active:
            return not_active
        if self.curve:
            # A secured daemon answers a key it does not know with silence.
            raise RuntimeError("no reply from %s: check your keys (is this key listed in the daemon's security "
                               "section, and is --server-key the daemon's public key?)" % self.command_endpoint)
        raise RuntimeError("no reply from %s (if the daemon is secured, pass --key and --server-key)"
                           % self.command_endpoint)

    def resync(self, initial=False):
        # 2. Then the snapshot, which says which sequence it reflects.
        try:
            reply = self.request({"op": "snapshot", "game": self.game} if self.game else {"op": "snapshot"})
            if not reply["ok"]:
                raise RuntimeError(reply["error"]["code"] + ": " + reply["error"]["message"])
        except RuntimeError as error:
            if initial:
                raise
            # Never exit over a missed resync: show nothing we cannot vouch for, and try again.
            if not self.stale:
                print("display.py: stale, retrying: %s" % error, file=sys.stderr, flush=True)
            self.stale = str(error)
            return
        self.stale = None
        self.epoch, self.heard_epoch = reply["epoch"], time.monotonic()
        self.sequence = reply["sequence"]
        self.games = {}
        for game in reply["snapshot"]:
            state = {k: v for k, v in game.items() if k not in ("setup", "plays")}
            state["names"] = (game["setup"]["home"]["name"], game["setup"]["away"]["name"])
            self.games[game["setup"]["id"]] = state
        # A snapshot of every game carries both tables, as of its own sequence.
        self.standings, self.bracket = reply.get("standings", []), reply.get("bracket", [])
        self.standings_sequence = self.bracket_sequence = self.sequence
        if not initial:
            self.resyncs += 1

    def is_older(self, epoch):
        """Whether `epoch` is of an earlier daemon than the one followed: epochs begin with a number
        that grows with each new epoch (the lease's term, or the start time)."""
        def number(text):
            digits = text.split("-", 1)[0]
            return int(digits) if digits.isdigit() else None
        mine, theirs = number(epoch), number(self.epoch or "")
        return mine is not None and theirs is not None and mine < theirs

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
        if event["event"]["type"] == "teams_assigned":  # the bracket filled it, or a roster changed
            game["names"] = (event["event"]["home"]["name"], event["event"]["away"]["name"])
        game.update(event["state"])
        self.sequence = event["sequence"]
        return True

    def on_tournament_event(self, message):
        """An organiser's change to teams or schedule: it only advances the sequence here, since
        the tables it changes and the games it touches come as their own messages."""
        if message["epoch"] != self.epoch:
            return self.resync()
        if self.game or message["sequence"] <= self.sequence:
            return
        if message["sequence"] != self.sequence + 1:
            return self.resync()
        self.sequence = message["sequence"]
        self.tournament_changes += 1

    def on_heartbeat(self, heartbeat):
        if heartbeat["epoch"] != self.epoch:
            return self.resync()
        # One game's display checks its game's beats instead: the sequence counts every game.
        if self.game:
            return
        if heartbeat["sequence"] > self.sequence:
            return self.resync()
        # Protocol 3: the sequences of the last tables sent. A newer one than ours was lost: fetch it.
        if heartbeat.get("standings_sequence", 0) > self.standings_sequence:
            self.fetch_table("standings", "standings")
        if heartbeat.get("bracket_sequence", 0) > self.bracket_sequence:
            self.fetch_table("schedule", "bracket")

    def fetch_table(self, op, kind):
        """Fetches the standings (op "standings") or the bracket (op "schedule") again."""
        try:
            reply = self.request({"op": op})
            if not reply["ok"]:
                raise RuntimeError(reply["error"]["code"] + ": " + reply["error"]["message"])
        except RuntimeError as error:
            self.stale = str(error)  # the next step resyncs from a whole snapshot
            return
        self.on_table(kind, reply["sequence"], reply[kind])
        self.tables_fetched += 1

    def on_table(self, kind, sequence, table):
        """Keeps a standings or bracket table unless it is older than ours (queued behind a snapshot)."""
        if sequence >= getattr(self, kind + "_sequence"):
            setattr(self, kind, table)
            setattr(self, kind + "_sequence", sequence)

    def on_beat(self, beat):
        if beat["epoch"] != self.epoch:
            return self.resync()
        if self.game and beat["game"] != self.game:
            return
        # A game we do not have counts as version 0: its creation was missed.
        if beat["version"] > self.games.get(beat["game"], {}).get("version", 0):
            self.resync()

    def step(self, timeout_ms):
        if self.stale:
            self.resync()
            if self.stale:
                return False
        if not self.sub.poll(timeout_ms, zmq.POLLIN):
            return False
        topic, body = self.sub.recv_multipart()
        message = json.loads(body)
        if "epoch" in message:
            if message["epoch"] == self.epoch:
                self.heard_epoch = time.monotonic()
            elif self.is_older(message["epoch"]) and time.monotonic() - self.heard_epoch < self.timeout_ms / 1000:
                # Several daemons listed: one that stepped down is ignored while the newer one is heard.
                return False
        if message["type"] == "heartbeat":
            self.on_heartbeat(message)
        elif message["type"] == "beat":
            self.on_beat(message)
        elif message["type"] == "event":
            self.on_event(message)
        elif message["type"] == "tournament_event":
            self.on_tournament_event(message)
        elif message["type"] in ("standings", "bracket"):
            if message["epoch"] != self.epoch:
                self.resync()
            else:
                self.on_table(message["type"], message["sequence"],
                              message["groups"] if message["type"] == "standings" else message["games"])
        else:
            return False  # a later version's message: ignore it
        return True

    def line(self, game_id):
        game = self.games[game_id]
        home, away = game["names"]
        score = game.get("score", {"home": 0, "away": 0})
        return "%-6s %s %d - %d %s  [%s]" % (game_id, home, score["home"], score["away"], away, game.get("status"))


def main():
    parser = argparse.ArgumentParser(description="A Courtside display written from docs/PROTOCOL.md.")
    parser.add_argument("--command", default="tcp://127.0.0.1:5555", help="the daemon's command endpoint; several, comma-separated, fail over in turn")
    parser.add_argument("--events", default="tcp://127.0.0.1:5556", help="the daemon's event endpoint; several, comma-separated, are all subscribed to")
    parser.add_argument("--game", help="show one game only")
    parser.add_argument("--until-stdin", action="store_true",
                        help="read a sequence number from stdin; exit once the display has reached it")
    parser.add_argument("--json", action="store_true", help="on exit, print the final state as JSON")
    parser.add_argument("--key", metavar="FILE", default=os.environ.get("COURTSIDE_KEY") or None,
                        help="this display's secret certificate (NAME.key_secret) for a secured daemon "
                             "(default: $COURTSIDE_KEY)")
    parser.add_argument("--server-key", metavar="FILE|Z85", default=os.environ.get("COURTSIDE_SERVER_KEY") or None,
                        help="the daemon's public certificate (server.key) or its 40-character Z85 key; "
                             "without --key, a throwaway key is used (default: $COURTSIDE_SERVER_KEY)")
    args = parser.parse_args()

    curve = None
    if args.key and not args.server_key:
        parser.error("--key needs --server-key (or COURTSIDE_SERVER_KEY)")
    if args.server_key:
        try:
            public, secret = client_keys(args.key) if args.key else zmq.curve_keypair()
            curve = (public, secret, server_public_key(args.server_key))
        except (OSError, ValueError) as error:
            parser.error(str(error))

    display = Display(args.command, args.events, args.game, curve=curve)
    # Every daemon listed a standby for now is a takeover under way (docs/PROTOCOL.md, not_active):
    # wait for it rather than exit. Anything else, or a takeover that never ends, is an error.
    patience = time.monotonic() + 30
    while True:
        try:
            display.resync(initial=True)
            break
        except RuntimeError as error:
            if not str(error).startswith("not_active:") or time.monotonic() >= patience:
                sys.exit("display.py: %s" % error)
            time.sleep(0.5)
    print("display.py: following %s from sequence %d" % (args.events, display.sequence), file=sys.stderr, flush=True)
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
            game_id: {"version": g["version"], "score": g.get("score")} for game_id, g in display.games.items()},
            "standings": display.standings, "standings_sequence": display.standings_sequence,
            "bracket": display.bracket, "bracket_sequence": display.bracket_sequence,
            "tables_fetched": display.tables_fetched, "tournament_changes": display.tournament_changes}))


if __name__ == "__main__":
    main()
