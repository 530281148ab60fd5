#!/usr/bin/env python3
"""Holds a secured courtsided to docs/PROTOCOL.md, "Security", from outside, with pyzmq alone.

    /usr/bin/python3 Tests/python/secure_clients.py --command EP --events EP --keys DIR [--anonymous]

DIR holds certificate pairs (NAME.key, NAME.key_secret) for `server` (the daemon's), `organiser`
(role organiser), `court-1` (keeper, courts: [Court 1]), `big-screen` (display) and `stranger`
(not listed). The daemon has g1 (lions v tigers, Court 1) and g2 (bears v wolves, Court 2).
`--anonymous` says the config has `anonymous: display`, which admits every unlisted key (the
stranger's and a fresh one) as a display; without it, `anonymous: none`: they get nothing.

Prints `ok NAME` or `FAIL NAME: why` for each check, then `N passed, N failed`, and exits 0 only if
none failed. Every wait is bounded: a check that gets nothing fails instead of hanging.
"""
import argparse
import json
import os
import sys
import time
import uuid

import zmq
import zmq.auth

REPLY_MS = 5000    # for a reply the daemon owes (the first request on a socket includes the handshake)
SILENCE_MS = 1500  # how long a refused client listens to be sure nothing comes back
EVENT_MS = 5000    # for an event or a heartbeat (the daemon sends one at least every second)


class Failure(Exception):
    pass


def expect(condition, why):
    if not condition:
        raise Failure(why)


def describe(reply):
    if reply is None:
        return "no reply"
    if reply.get("ok"):
        return "ok"
    error = reply.get("error") or {}
    return "%s (%s)" % (error.get("code"), error.get("message"))


class Run:
    """One context, every socket in it (closed with linger 0 at the end), and the tally."""

    def __init__(self, command, events):
        self.context = zmq.Context()
        self.command = command
        self.events = events
        self.sockets = []
        self.passed = 0
        self.failed = 0
        self.run_id = uuid.uuid4().hex[:8]

    def socket(self, kind, keys, server_key):
        socket = self.context.socket(kind)
        socket.linger = 0
        if keys is not None:
            socket.curve_publickey, socket.curve_secretkey = keys
            socket.curve_serverkey = server_key
        self.sockets.append(socket)
        return socket

    def check(self, name, function, *arguments, **keywords):
        """Runs one named check: it passes unless it raises. Returns what the function returned."""
        try:
            result = function(*arguments, **keywords)
        except Failure as failure:
            self.failed += 1
            print("FAIL %s: %s" % (name, failure), flush=True)
            return None
        except Exception as error:  # a crash in one check must not hide the others
            self.failed += 1
            print("FAIL %s: %s: %s" % (name, type(error).__name__, error), flush=True)
            return None
        self.passed += 1
        print("ok %s" % name, flush=True)
        return result

    def close(self):
        for socket in self.sockets:
            socket.close(linger=0)
        self.context.term()


class Client:
    """A client of both endpoints: CURVE with `keys` (public, secret), plaintext without."""

    def __init__(self, run, label, keys, server_key):
        self.run = run
        self.label = label
        self.keys = keys
        self.server_key = server_key
        self.client_id = "%s-%s" % (label, run.run_id)
        self.counter = 0
        self.dealer = None

    def body(self, op, **fields):
        """A request with this client's id and a new command id."""
        self.counter += 1
        return dict(fields, op=op, client_id=self.client_id, command_id=str(self.counter))

    def send(self, body, timeout_ms=REPLY_MS):
        """Sends one request and waits at most `timeout_ms` for its reply; None if none came."""
        if self.dealer is None:
            self.dealer = self.run.socket(zmq.DEALER, self.keys, self.server_key)
            self.dealer.connect(self.run.command)
        self.dealer.send(json.dumps(body).encode())
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            left = int((deadline - time.monotonic()) * 1000)
            if left <= 0 or not self.dealer.poll(left, zmq.POLLIN):
                # Nothing came: drop this socket, so that a late reply cannot answer the next request.
                self.dealer.close(linger=0)
                self.dealer = None
                return None
            frames = self.dealer.recv_multipart()
            if len(frames) != 1:
                raise Failure("a reply of %d frames" % len(frames))
            reply = json.loads(frames[0])
            if reply.get("command_id") in (body["command_id"], None):
                return reply

    def request(self, op, **fields):
        return self.send(self.body(op, **fields))

    def subscribe(self, *topics):
        sub = self.run.socket(zmq.SUB, self.keys, self.server_key)
        sub.connect(self.run.events)
        for topic in topics:
            sub.subscribe(topic)
        return sub


def receive(sub, accept, timeout_ms):
    """The first message (topic, body) that `accept` takes within `timeout_ms`, else None."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        left = int((deadline - time.monotonic()) * 1000)
        if left <= 0 or not sub.poll(left, zmq.POLLIN):
            return None
        frames = sub.recv_multipart()
        if len(frames) != 2:
            raise Failure("an event message of %d frames" % len(frames))
        topic, body = frames[0].decode(), json.loads(frames[1])
        if accept(topic, body):
            return topic, body


def heard_anything(sub, timeout_ms=100):
    """Whether anything at all arrived on `sub` (it has been connected since the start)."""
    return sub.poll(timeout_ms, zmq.POLLIN) != 0


def game_state(client, game):
    """(version, score) of one game, by a snapshot that must succeed."""
    reply = client.request("snapshot", game=game)
    expect(reply is not None and reply.get("ok"), "%s's snapshot of %s: %s" % (client.label, game, describe(reply)))
    snapshot = reply["snapshot"]
    expect(len(snapshot) == 1 and snapshot[0]["setup"]["id"] == game, "the snapshot is not of %s alone" % game)
    return snapshot[0]["version"], snapshot[0]["score"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--command", required=True, help="the daemon's command endpoint")
    parser.add_argument("--events", required=True, help="the daemon's event endpoint")
    parser.add_argument("--keys", required=True, metavar="DIR", help="the folder of certificates")
    parser.add_argument("--anonymous", action="store_true", help="the daemon has `anonymous: display`")
    args = parser.parse_args()

    run = Run(args.command, args.events)
    try:
        checks(run, args)
    except Exception as error:  # outside any check: still one line for it, and the summary
        run.failed += 1
        print("FAIL the checks stopped: %s: %s" % (type(error).__name__, error), flush=True)
    finally:
        run.close()
    print("%d passed, %d failed" % (run.passed, run.failed), flush=True)
    sys.exit(0 if run.failed == 0 else 1)


def checks(run, args):
    def load():
        server_key, _ = zmq.auth.load_certificate(os.path.join(args.keys, "server.key"))
        keys = {}
        for name in ("organiser", "court-1", "big-screen", "stranger"):
            public, secret = zmq.auth.load_certificate(os.path.join(args.keys, name + ".key_secret"))
            expect(secret is not None, "%s.key_secret holds no secret key" % name)
            keys[name] = (public, secret)
        return server_key, keys

    loaded = run.check("load the certificates in " + args.keys, load)
    if loaded is None:
        return
    server_key, keys = loaded
    organiser = Client(run, "organiser", keys["organiser"], server_key)
    keeper = Client(run, "court-1", keys["court-1"], server_key)
    screen = Client(run, "big-screen", keys["big-screen"], server_key)
    stranger = Client(run, "stranger", keys["stranger"], server_key)
    plaintext = Client(run, "plaintext", None, None)
    fresh = Client(run, "fresh", zmq.curve_keypair(), server_key)

    # Listening from the start: by the end, several heartbeats would have reached them if let in.
    plaintext_sub = plaintext.subscribe("")
    stranger_sub = stranger.subscribe("")
    fresh_sub = fresh.subscribe("g1/", "_heartbeat")
    screen_sub = screen.subscribe("g1/", "_heartbeat")

    baseline = run.check("organiser snapshots g1", game_state, organiser, "g1")

    def no_reply(client, game, player):
        reply = client.send(client.body("move", game=game, player=player, move="two_points"), SILENCE_MS)
        expect(reply is None, "expected silence, got a reply: %s" % describe(reply))

    def unchanged(game, before):
        after = game_state(organiser, game)
        expect(after == before, "%s changed from %r to %r" % (game, before, after))

    run.check("plaintext DEALER gets no reply", no_reply, plaintext, "g1", "ann")

    def stranger_refused():
        if args.anonymous:
            # `anonymous: display` admits every unlisted key, the stranger's too, as a display.
            reply = stranger.send(stranger.body("move", game="g1", player="ann", move="two_points"))
            expect(reply is not None and (reply.get("error") or {}).get("code") == "forbidden",
                   "expected forbidden, got %s" % describe(reply))
        else:
            no_reply(stranger, "g1", "ann")
        expect(baseline is not None, "no baseline snapshot of g1 to compare with")
        unchanged("g1", baseline)

    if args.anonymous:
        run.check("stranger key, admitted only as an anonymous display, gets forbidden and g1 is unchanged",
                  stranger_refused)
    else:
        run.check("stranger key gets no reply and g1 is unchanged", stranger_refused)

    def screen_reads():
        reply = screen.request("snapshot")
        expect(reply is not None and reply.get("ok"), "snapshot: %s" % describe(reply))
        ids = {game["setup"]["id"] for game in reply["snapshot"]}
        expect({"g1", "g2"} <= ids, "the snapshot has games %s" % sorted(ids))

    run.check("big-screen can snapshot", screen_reads)

    def screen_lists():
        reply = screen.request("list_games")
        expect(reply is not None and reply.get("ok"), "list_games: %s" % describe(reply))
        ids = {game["game"] for game in reply["games"]}
        expect({"g1", "g2"} <= ids, "list_games has games %s" % sorted(ids))

    run.check("big-screen can list_games", screen_lists)

    # A heartbeat on a subscriber proves its subscriptions are in place before anything is scored.
    is_heartbeat = lambda topic, body: topic == "_heartbeat"
    screen_listening = receive(screen_sub, is_heartbeat, EVENT_MS) is not None
    fresh_listening = args.anonymous and receive(fresh_sub, is_heartbeat, EVENT_MS) is not None

    move = keeper.body("move", game="g1", player="ann", move="two_points")

    def keeper_scores():
        reply = keeper.send(move)
        expect(reply is not None and reply.get("ok"), "move in g1: %s" % describe(reply))
        expect(reply.get("game") == "g1", "the reply is for game %r" % reply.get("game"))
        if baseline is not None:
            version, score = baseline
            expect(reply["version"] == version + 1, "version %r after %r" % (reply["version"], version))
        return reply

    scored = run.check("court-1 scores in g1", keeper_scores)

    def keeper_retries():
        expect(scored is not None, "nothing to retry: the move failed")
        reply = keeper.send(move)
        expect(reply is not None and reply.get("ok"), "the retry: %s" % describe(reply))
        expect((reply.get("version"), reply.get("sequence")) == (scored["version"], scored["sequence"]),
               "the retry got version %r, sequence %r; the move had %r, %r"
               % (reply.get("version"), reply.get("sequence"), scored["version"], scored["sequence"]))

    run.check("court-1's retry gets the original reply", keeper_retries)

    def hears_move(sub, listening, who):
        expect(listening, "%s heard no heartbeat within %d ms" % (who, EVENT_MS))
        expect(scored is not None, "no move to hear: court-1's move failed")
        message = receive(sub, lambda topic, body: topic == "g1/event" and body.get("version") == scored["version"],
                          EVENT_MS)
        expect(message is not None, "no g1/event at version %d within %d ms" % (scored["version"], EVENT_MS))
        origin = message[1].get("origin") or {}
        expect(str(origin.get("client_id", "")).startswith("court-1/"),
               "origin.client_id is %r, not court-1/..." % origin.get("client_id"))
        expected = "court-1/" + keeper.client_id
        expect(origin.get("client_id") == expected, "origin.client_id is %r, not %r" % (origin.get("client_id"), expected))

    run.check("big-screen receives court-1's event in g1, origin court-1/...", hears_move, screen_sub, screen_listening,
              "big-screen")

    def forbidden(client, key_name, op, **fields):
        reply = client.request(op, **fields)
        expect(reply is not None, "no reply")
        expect(not reply.get("ok") and (reply.get("error") or {}).get("code") == "forbidden",
               "expected forbidden, got %s" % describe(reply))
        message = reply["error"].get("message", "")
        expect(key_name in message, "the message %r does not name the key %s" % (message, key_name))

    run.check("big-screen gets forbidden on a move", forbidden, screen, "big-screen", "move", game="g1", player="ann",
              move="two_points")
    run.check("court-1 gets forbidden on a move in g2", forbidden, keeper, "court-1", "move", game="g2", player="gus",
              move="two_points")
    run.check("court-1 gets forbidden on create_game", forbidden, keeper, "court-1", "create_game",
              game="k" + run.run_id, home="tigers", away="wolves")

    def keeper_reads_g2():
        game_state(keeper, "g2")

    run.check("court-1 can snapshot g2", keeper_reads_g2)

    def organiser_creates():
        game = "t" + run.run_id
        reply = organiser.request("create_game", game=game, home="lions", away="bears")
        expect(reply is not None and reply.get("ok"), "create_game %s: %s" % (game, describe(reply)))
        expect(reply.get("game") == game, "the reply is for game %r" % reply.get("game"))

    run.check("organiser creates a game", organiser_creates)

    def log_names_keeper():
        reply = organiser.request("log", game="g1")
        expect(reply is not None and reply.get("ok"), "log g1: %s" % describe(reply))
        origins = [str((event.get("origin") or {}).get("client_id")) for event in reply["events"]]
        expect(any(origin.startswith("court-1/") for origin in origins),
               "no event of g1 has an origin court-1/...: %s" % origins)
        if scored is not None:
            mine = [event for event in reply["events"] if event.get("version") == scored["version"]]
            expect(len(mine) == 1, "the log has %d events at version %d" % (len(mine), scored["version"]))
            expected = {"client_id": "court-1/" + keeper.client_id, "command_id": move["command_id"]}
            origin = mine[0].get("origin") or {}
            expect({key: origin.get(key) for key in expected} == expected,
                   "the move's origin is %r, not %r" % (origin, expected))

    run.check("organiser's log of g1 shows court-1's move as court-1/...", log_names_keeper)

    if args.anonymous:
        def fresh_reads():
            game_state(fresh, "g1")

        run.check("a fresh key can snapshot (anonymous: display)", fresh_reads)
        run.check("a fresh key receives the event stream (anonymous: display)", hears_move, fresh_sub, fresh_listening,
                  "the fresh key")
        run.check("a fresh key gets forbidden on a move (anonymous: display)", forbidden, fresh, "anonymous", "move",
                  game="g1", player="ann", move="two_points")
    else:
        run.check("a fresh key gets no reply (anonymous: none)", no_reply, fresh, "g1", "ann")

        def fresh_deaf():
            expect(not heard_anything(fresh_sub), "it received a message")

        run.check("a fresh key hears no events (anonymous: none)", fresh_deaf)

    def nothing_changed():
        expect(scored is not None, "no move to compare with: court-1's move failed")
        version, _ = game_state(organiser, "g1")
        expect(version == scored["version"], "g1 is at version %d, not %d" % (version, scored["version"]))

    run.check("refused and forbidden requests left g1 as court-1's move did", nothing_changed)

    def deaf(sub):
        expect(not heard_anything(sub), "it received a message")

    run.check("plaintext SUB hears nothing", deaf, plaintext_sub)
    if args.anonymous:
        def hears(sub):
            expect(heard_anything(sub), "nothing arrived, not even a heartbeat")

        run.check("stranger SUB hears the stream as an anonymous display", hears, stranger_sub)
    else:
        run.check("stranger SUB hears nothing", deaf, stranger_sub)


if __name__ == "__main__":
    main()
