#!/usr/bin/env python3
"""A keeper's command round trip through courtside-web while the venue's Wi-Fi floods it (issue 37).

    scripts/web-floods.py                                   # every flood, the issue's sizes, release build
    scripts/web-floods.py --build-dir .build/debug --flood half-open --flood joins --joins 500

Starts its own courtsided (the sample tournament, config/tournament.yaml; the SQLite log in a
temporary directory; plaintext; free loopback ports) and its own courtside-web (a temporary
--state-dir, the desk on with a passphrase made by `courtside-web desk passphrase`, the open-file
limit systemd gives the unit by default), joins one keeper device to Court 1 with the court's PIN
(`POST /keep/join`), then for each flood:

  at rest   the keeper's round trip (`POST /api/keep/commands` with its session cookie and
            same-origin headers: g1's clock, started and paused in turn, so each one succeeds)
            and GET /healthz, for --rest-seconds;
  during    the same, while the flood runs;

and the gateway's RSS (/proc/PID/status VmRSS), open descriptors (/proc/PID/fd) and the store's
size (courtside-web.sqlite and its -wal) before the flood, at its end (its connections still
open) and after it (closed, --settle seconds later). The floods:

  half-open   --half-open connections, each with a partial request head that never ends; how
              many the gateway still holds open after --half-open-seconds.
  passphrase  --passphrase-addresses client addresses posting wrong passphrases to POST
              /desk/login as fast as the gateway answers, for --seconds.
  joins       --joins POST /keep/join with Court 1's right PIN and no cookie, --join-concurrency
              at a time; the statuses, then the devices and sessions in the store.
  sse         --sse-clients GET /api/events streams that never read (SO_RCVBUF --sse-rcvbuf), while
              a second keeper (Court 2) posts rebounds in g2 at --sse-rate a second, for --seconds.
  malformed   a round of bad requests: a 10,000,000-byte body (sent, closed after the answer),
              Expect: 100-continue with a 1 GB Content-Length, Transfer-Encoding: xchunked, a 10 MB
              join and a 10 MB desk login; their answers, then the gateway's FIN-WAIT-2 and
              CLOSE-WAIT sockets (ss -tan).
  sockets     --sockets keeper sockets (GET /api/keep/socket upgraded, the second keeper's session)
              opened from one address and left idle for --seconds; their answers (101, or the
              gateway's 503 past its cap per address), and how many the gateway still holds.

Addresses: every connection goes to 127.0.0.1; the clients bind sources in 127.0.0.0/8 (Linux's
loopback accepts them), so a flood never shares the keeper's address, as at a venue: the keeper
and /healthz 127.0.0.254, the sse flood's second keeper 127.0.0.253, setup and /metrics
127.0.0.252, the half-open, joins and malformed floods 127.0.0.1, the passphrase flood 127.0.0.2
and up, the sse streams 127.0.1.1 and up.

Goals, each PASS or FAIL in the last table: for every flood, the keeper's p99 during it below
--goal-ratio times its p99 at rest, and no keeper round trip failed or timed out; half-open: none
still open after --half-open-seconds; joins: no 5xx; malformed: no 5xx, and no FIN-WAIT-2 or
CLOSE-WAIT socket left. Percentiles are over every round trip whatever its outcome (a timeout
counts as --timeout). The clients run on the machine of the gateway and the daemon (the keeper's
probe in a process of its own): the figures include that contention.

Exit status: 0 when the floods ran, whatever the goals; 1 when the setup failed; 130 on Ctrl-C.
Every process and temporary directory this script made is gone on exit.
"""
import argparse
import collections
import errno
import http.client
import json
import math
import multiprocessing
import os
import re
import resource
import select
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import uuid

HOST = "127.0.0.1"  # every connection goes here: loopback only
# Where each client comes from (all of 127.0.0.0/8, which Linux's loopback accepts as sources): the
# floods' addresses are never the keeper's, as at a venue, where the attacker is another device.
FLOOD_ADDRESS = "127.0.0.1"  # half-open, joins, malformed
PASSPHRASE_ADDRESSES = "127.0.0.%d"  # 2 to N+1
SSE_ADDRESSES = "127.0.1.%d"  # 1 to N
OBSERVER_ADDRESS = "127.0.0.252"  # setup, /metrics
SECOND_KEEPER_ADDRESS = "127.0.0.253"  # the sse flood's events
KEEPER_ADDRESS = "127.0.0.254"  # the keeper and /healthz being measured
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLOODS = ["half-open", "passphrase", "joins", "sse", "malformed", "sockets"]
PASSPHRASE = "floods-desk-passphrase"


class SetupError(Exception):
    pass


# ---------------------------------------------------------------- small helpers

def percentile(values, p):
    """Nearest rank; None for no values."""
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, min(len(ordered) - 1, math.ceil(p * len(ordered)) - 1))]


def ms(value):
    return "-" if value is None else ("%.2f" % (value * 1000) if value < 0.1 else "%.0f" % (value * 1000))


def free_port():
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


def machine():
    """The machine's load, which the figures share: load averages, and CPU and memory pressure."""
    text = "load %s on %d cores" % (" ".join("%.1f" % x for x in os.getloadavg()), os.cpu_count() or 0)
    for kind in ("cpu", "memory"):
        try:
            with open("/proc/pressure/" + kind) as f:
                some = dict(item.split("=") for item in f.readline().split()[1:])
            text += ", %s pressure %s%% (avg60)" % (kind, some["avg60"])
        except (OSError, KeyError, ValueError):
            pass
    return text


def same_origin(port):
    return {"Origin": "http://%s:%d" % (HOST, port), "Sec-Fetch-Site": "same-origin"}


class Http:
    """One client's HTTP/1.1 to the gateway: keep-alive, or a new connection per request."""

    def __init__(self, port, timeout, source=None, keep_alive=True):
        self.port, self.timeout, self.source, self.keep_alive = port, timeout, source, keep_alive
        self.connection = None

    def request(self, method, path, body=None, headers=None):
        """(status, {lower-case name: [values]}, body bytes); raises on a network error or timeout."""
        if self.connection is None:
            self.connection = http.client.HTTPConnection(
                HOST, self.port, timeout=self.timeout, source_address=(self.source, 0) if self.source else None)
        headers = dict(headers or {})
        if not self.keep_alive:
            headers["Connection"] = "close"
        try:
            self.connection.request(method, path, body=body, headers=headers)
            response = self.connection.getresponse()
            data = response.read()
            fields = collections.defaultdict(list)
            for name, value in response.getheaders():
                fields[name.lower()].append(value)
            if not self.keep_alive or response.will_close:
                self.close()
            return response.status, fields, data
        except BaseException:
            self.close()
            raise

    def close(self):
        if self.connection is not None:
            self.connection.close()
            self.connection = None


http_client_errors = http.client.HTTPException


def failure_name(error):
    if isinstance(error, (socket.timeout, TimeoutError)):
        return "timeout"
    return type(error).__name__


def cookie(fields, name):
    for line in fields.get("set-cookie", []):
        first = line.split(";", 1)[0].strip()
        if first.startswith(name + "="):
            return first[len(name) + 1:]
    return None


# ---------------------------------------------------------------- the keeper's probe (a process of its own)

class Keeper:
    """A joined device keeping score on `game`: its clock, started and paused in turn."""

    def __init__(self, port, session, game, timeout, keep_alive, source):
        self.port, self.session, self.game = port, session, game
        self.http = Http(port, timeout, source=source, keep_alive=keep_alive)
        self.running = False

    def clock(self):
        """One round trip; returns its outcome: ok, refused:CODE, status NNN, timeout or an error's name."""
        action = "pause" if self.running else "start"
        body = json.dumps({"command_id": uuid.uuid4().hex, "op": "clock", "game": self.game, "action": action})
        headers = dict(same_origin(self.port), **{"Content-Type": "application/json",
                                                   "Cookie": "courtside_keeper=" + self.session})
        try:
            status, _, data = self.http.request("POST", "/api/keep/commands", body, headers)
        except Exception as error:  # noqa: BLE001 - every failure is a figure
            return failure_name(error)
        if status != 200:
            return "status %d" % status
        try:
            reply = json.loads(data)
        except ValueError:
            return "not json"
        if reply.get("ok"):
            self.running = not self.running
            return "ok"
        code = (reply.get("error") or {}).get("code", "?")
        if code in ("clock_running", "clock_not_running"):  # a lost answer: follow the daemon
            self.running = code == "clock_running"
        return "refused:" + code


def probe_loop(stop, interval, attempt, out):
    """Calls `attempt` every `interval` s until `stop`; records (seconds, outcome)."""
    while not stop.is_set():
        started = time.perf_counter()
        outcome = attempt()
        out.append((time.perf_counter() - started, outcome))
        stop.wait(max(0.0, started + interval - time.perf_counter()))


def probe_main(connection, port, session, game, interval, timeout, keep_alive):
    """The probe process: on "run" measures the keeper and /healthz until "stop", then sends them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the main process ends this one
    keeper = Keeper(port, session, game, timeout, keep_alive, KEEPER_ADDRESS)
    health = Http(port, timeout, source=KEEPER_ADDRESS, keep_alive=keep_alive)

    def healthz():
        try:
            status, _, _ = health.request("GET", "/healthz")
            return "ok" if status == 200 else "status %d" % status
        except Exception as error:  # noqa: BLE001
            return failure_name(error)

    while True:
        message = connection.recv()
        if message != "run":
            return
        stop, keeper_out, health_out = threading.Event(), [], []
        threads = [threading.Thread(target=probe_loop, args=(stop, interval, keeper.clock, keeper_out)),
                   threading.Thread(target=probe_loop, args=(stop, interval, healthz, health_out))]
        for thread in threads:
            thread.start()
        connection.recv()  # "stop"
        stop.set()
        for thread in threads:
            thread.join(timeout + 5)
        connection.send({"keeper": keeper_out, "health": health_out})


class Probe:
    def __init__(self, args, port, session):
        context = multiprocessing.get_context("spawn")
        self.connection, child = context.Pipe()
        self.process = context.Process(
            target=probe_main, args=(child, port, session, "g1", args.interval, args.timeout,
                                     args.keeper_connection == "keep-alive"), daemon=True)
        self.process.start()
        self.started = None

    def start(self):
        self.connection.send("run")
        self.started = time.monotonic()

    def stop(self, patience):
        self.connection.send("stop")
        if not self.connection.poll(patience):
            raise SetupError("the keeper's probe did not answer within %g s" % patience)
        result = self.connection.recv()
        result["seconds"] = time.monotonic() - self.started
        return result

    def close(self):
        try:
            self.connection.send("quit")
        except OSError:
            pass
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(5)


def summarize(samples, timeout):
    """p50, p99, max over every attempt (a timeout counts as `timeout`), and the outcomes."""
    times = [max(t, timeout) if outcome == "timeout" else t for t, outcome in samples]
    outcomes = collections.Counter(outcome for _, outcome in samples)
    failures = sum(n for o, n in outcomes.items() if o != "ok" and not o.startswith("refused:") and o != "timeout")
    return {"n": len(samples), "p50": percentile(times, 0.50), "p99": percentile(times, 0.99),
            "max": max(times) if times else None, "timeouts": outcomes.get("timeout", 0), "failures": failures,
            "refused": sum(n for o, n in outcomes.items() if o.startswith("refused:")), "outcomes": outcomes}


def describe(name, s):
    others = ", ".join("%s %d" % (o, n) for o, n in sorted(s["outcomes"].items()) if o != "ok")
    return "%s n=%d p50 %s ms, p99 %s ms, max %s ms; failures %d, timeouts %d%s" % (
        name, s["n"], ms(s["p50"]), ms(s["p99"]), ms(s["max"]), s["failures"], s["timeouts"],
        " (%s)" % others if others else "")


# ---------------------------------------------------------------- the processes under test

class Venue:
    """courtsided and courtside-web, each on free loopback ports, in a temporary directory."""

    def __init__(self, args):
        self.args = args
        self.build = os.path.join(REPO, args.build_dir)  # an absolute --build-dir stays as it is
        for name in ("courtsided", "courtside-web"):
            if not os.access(os.path.join(self.build, name), os.X_OK):
                raise SetupError("no %s in %s: build it first (swift build [-c release] --product %s)" % (
                    name, self.build, name))
        self.processes = []
        self.directory = tempfile.mkdtemp(prefix="courtside-floods.")
        self.state_dir = os.path.join(self.directory, "web-data")

    def binary(self, name):
        return os.path.join(self.build, name)

    def log(self, name):
        return os.path.join(self.directory, name + ".log")

    def tail(self, name, lines=30):
        try:
            with open(self.log(name), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    def spawn(self, name, argv, environment=None, nofile=None):
        def limit():
            if nofile:
                _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
                resource.setrlimit(resource.RLIMIT_NOFILE, (min(nofile, hard), hard))
        with open(self.log(name), "ab") as log:
            process = subprocess.Popen(argv, cwd=self.directory, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                       env=environment, start_new_session=True, preexec_fn=limit)
        self.processes.append(process)
        return process

    def start_daemon(self):
        notify_path = os.path.join(self.directory, "notify.sock")
        for _ in range(3):
            self.command_endpoint = "tcp://%s:%d" % (HOST, free_port())
            self.event_endpoint = "tcp://%s:%d" % (HOST, free_port())
            if os.path.exists(notify_path):
                os.unlink(notify_path)
            notify = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            notify.bind(notify_path)
            environment = dict(os.environ, NOTIFY_SOCKET=notify_path)
            self.daemon = self.spawn("courtsided", [
                self.binary("courtsided"), "--config", os.path.join(REPO, self.args.config),
                "--data-dir", os.path.join(self.directory, "data"), "--command-endpoint", self.command_endpoint,
                "--event-endpoint", self.event_endpoint, "--log-level", self.args.log_level], environment)
            deadline, ready = time.monotonic() + 60, False
            notify.settimeout(0.5)
            while time.monotonic() < deadline and self.daemon.poll() is None and not ready:
                try:
                    ready = b"READY=1" in notify.recv(4096)
                except socket.timeout:
                    pass
            notify.close()
            if ready:
                return
            self.stop(self.daemon)
            if "Address already in use" not in self.tail("courtsided"):
                break
        raise SetupError("courtsided sent no READY=1 within 60 s; its log:\n" + self.tail("courtsided"))

    def run_tool(self, argv, stdin=None):
        result = subprocess.run(argv, cwd=self.directory, input=stdin, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            raise SetupError("%s failed (%d): %s" % (" ".join(argv[1:3]), result.returncode, result.stderr.strip()))
        return result.stdout

    def pin(self, court):
        out = self.run_tool(
            [self.binary("courtside-web"), "codes", "show", "--court", court, "--state-dir", self.state_dir])
        found = re.search(r"PIN (\S+)", out)
        if not found:
            raise SetupError("courtside-web codes show printed no PIN: " + out)
        return found.group(1)

    def start_gateway(self):
        hash_file = os.path.join(self.directory, "desk.hash")
        with open(hash_file, "w") as f:
            f.write(self.run_tool([self.binary("courtside-web"), "desk", "passphrase"], PASSPHRASE + "\n"))
        self.pins = {court: self.pin(court) for court in ("Court 1", "Court 2")}
        for _ in range(3):
            self.port = free_port()
            self.gateway = self.spawn("courtside-web", [
                self.binary("courtside-web"), "--listen", "%s:%d" % (HOST, self.port), "--state-dir", self.state_dir,
                "--desk-passphrase-file", hash_file, "--command-endpoint", self.command_endpoint,
                "--event-endpoint", self.event_endpoint, "--log-level", self.args.log_level],
                nofile=self.args.gateway_nofile)
            deadline, http = time.monotonic() + 60, Http(self.port, 2, source=OBSERVER_ADDRESS)
            while time.monotonic() < deadline and self.gateway.poll() is None:
                try:
                    if http.request("GET", "/healthz")[0] == 200:
                        return
                except (OSError, http_client_errors):
                    pass
                time.sleep(0.2)
            self.stop(self.gateway)
            if "Address already in use" not in self.tail("courtside-web"):
                break
        raise SetupError("courtside-web was not in sync within 60 s; its log:\n" + self.tail("courtside-web"))

    def join(self, court, name, source):
        """A device joined to `court` from `source`: its session cookie."""
        status, fields, data = Http(self.port, 10, source=source).request(
            "POST", "/keep/join", json.dumps({"pin": self.pins[court], "name": name}),
            dict(same_origin(self.port), **{"Content-Type": "application/json"}))
        session = cookie(fields, "courtside_keeper")
        if status != 200 or not session:
            raise SetupError("POST /keep/join for %s: %d %s" % (court, status, data[:200]))
        return session

    def limit_of_gateway(self):
        try:
            with open("/proc/%d/limits" % self.gateway.pid) as f:
                for line in f:
                    if line.startswith("Max open files"):
                        return line.split()[3]
        except OSError:
            pass
        return "?"

    def snapshot(self):
        """The gateway's RSS (kB), threads, open descriptors, and the store's bytes."""
        pid, rss, threads, fds = self.gateway.pid, None, None, None
        try:
            with open("/proc/%d/status" % pid) as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        rss = int(line.split()[1])
                    elif line.startswith("Threads:"):
                        threads = int(line.split()[1])
            fds = len(os.listdir("/proc/%d/fd" % pid))
        except OSError:
            pass
        store = 0
        for suffix in ("", "-wal"):
            try:
                store += os.path.getsize(os.path.join(self.state_dir, "courtside-web.sqlite" + suffix))
            except OSError:
                pass
        return {"rss": rss, "threads": threads, "fds": fds, "store": store}

    def alive(self):
        return self.gateway.poll() is None and self.daemon.poll() is None

    @staticmethod
    def stop(process):
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(5)

    def close(self, keep):
        for process in reversed(self.processes):
            self.stop(process)
        if keep:
            print("kept %s" % self.directory)
        else:
            shutil.rmtree(self.directory, ignore_errors=True)


def dash(value):
    return "-" if value is None else str(value)


def snapshot_line(label, s):
    return "%s: RSS %s MB, %s fds, %s threads; store %s bytes" % (
        label, "-" if s["rss"] is None else "%.1f" % (s["rss"] / 1024), dash(s["fds"]), dash(s["threads"]),
        format(s["store"], ","))


class Guard:
    """Stops a flood early when the gateway's RSS passes --rss-limit-mb or a process dies."""

    def __init__(self, venue, limit_mb):
        self.venue, self.limit = venue, limit_mb * 1024
        self.abort, self.reason, self.peak = threading.Event(), None, 0
        self.done = threading.Event()
        self.thread = threading.Thread(target=self.watch, daemon=True)
        self.thread.start()

    def watch(self):
        while not self.done.wait(0.25):
            if not self.venue.alive():
                self.reason = "a process under test exited"
            rss = self.venue.snapshot()["rss"] or 0
            self.peak = max(self.peak, rss)
            if rss > self.limit:
                self.reason = "the gateway's RSS passed %d MB" % (self.limit // 1024)
            if self.reason:
                self.abort.set()
                return

    def close(self):
        self.done.set()
        self.thread.join(2)


# ---------------------------------------------------------------- the floods

def connect_many(count, port, payload, deadline, guard, sources, rcvbuf=None):
    """`count` connections to the gateway opened at once (non-blocking), from `sources` in turn, each
    sent `payload` once connected; those not connected by `deadline` are given up. Returns (sockets,
    error counts)."""
    pending, errors, sockets = {}, collections.Counter(), []
    poller = select.poll()
    for index in range(count):
        s = socket.socket()
        if rcvbuf:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
        s.bind((sources[index % len(sources)], 0))
        s.setblocking(False)
        code = s.connect_ex((HOST, port))
        if code not in (0, errno.EINPROGRESS):
            errors[errno_name(code)] += 1
            s.close()
            continue
        pending[s.fileno()] = s
        poller.register(s, select.POLLOUT)
    while pending and time.monotonic() < deadline and not guard.abort.is_set():
        for fd, _ in poller.poll(100):
            s = pending.pop(fd)
            poller.unregister(fd)
            code = s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)
            if code:
                errors[errno_name(code)] += 1
                s.close()
                continue
            try:
                s.send(payload)  # a few hundred bytes: the socket's buffer takes them whole
                sockets.append(s)
            except OSError as error:
                errors[oserror_name(error)] += 1
                s.close()
    if pending:
        errors["not connected in time"] += len(pending)
        for s in pending.values():
            s.close()
    return sockets, errors


def half_open(ctx):
    """Partial request heads that never end; how many the gateway still holds after N s."""
    args, port, guard = ctx.args, ctx.venue.port, ctx.guard
    head = ("GET /keep HTTP/1.1\r\nHost: %s:%d\r\nUser-Agent: web-floods\r\nAccept: text/html\r\nX-Slow: " % (
        HOST, port)).encode()
    started = time.monotonic()
    sockets, errors = connect_many(args.half_open, port, head, started + args.connect_seconds, guard, [FLOOD_ADDRESS])
    opened_in = time.monotonic() - started
    ctx.say("opened %d of %d in %.1f s%s" % (len(sockets), args.half_open, opened_in,
                                              "; connect errors: " + ", ".join("%s %d" % e for e in errors.items())
                                              if errors else ""))
    poller, by_fd = select.poll(), {}
    for s in sockets:
        poller.register(s, select.POLLIN | select.POLLRDHUP | select.POLLHUP | select.POLLERR)
        by_fd[s.fileno()] = s
    open_fds, answers, closed_at, closes = set(by_fd), collections.Counter(), [], collections.Counter()
    checkpoints = sorted(set([1, 5, 10, 20, 30, 60, 120] + [args.half_open_seconds]))
    checkpoints = [c for c in checkpoints if c <= args.half_open_seconds]
    watched = time.monotonic()  # the heads are all sent: the gateway's clock runs from about here
    seen, deadline = [], watched + args.half_open_seconds
    while time.monotonic() < deadline and open_fds and not guard.abort.is_set():
        for fd, _ in poller.poll(200):
            s = by_fd[fd]
            try:
                data, how = s.recv(4096), "FIN"
            except BlockingIOError:
                continue
            except OSError as error:
                data, how = b"", oserror_name(error)
            if data:
                if data.startswith(b"HTTP/"):
                    answers[data.split(b"\r\n", 1)[0].decode(errors="replace")] += 1
                continue
            poller.unregister(fd)
            open_fds.discard(fd)
            closed_at.append(time.monotonic() - watched)
            closes[how] += 1
        elapsed = time.monotonic() - watched
        while checkpoints and elapsed >= checkpoints[0]:
            seen.append((checkpoints.pop(0), len(open_fds)))
    for c in checkpoints:  # the end came early: all closed, or aborted
        seen.append((c, len(open_fds)))
    ctx.say("still open as the client sees them (of %d; seconds from the last head sent): %s" % (
        len(sockets), ", ".join("after %d s %d" % c for c in seen)))
    if answers:
        ctx.say("the gateway answered: " + ", ".join("%s x%d" % a for a in answers.items()))
    if closed_at:
        ctx.say("closed from the gateway's end (FIN: the gateway; ECONNRESET: the gateway, or its kernel for one it "
                "never accepted): %d (%s), the first %.1f s, the last %.1f s after the last head" % (
            len(closed_at), ", ".join("%s %d" % c for c in sorted(closes.items())), min(closed_at), max(closed_at)))
    ctx.end_of_flood()
    for s in sockets:
        s.close()
    left = len(open_fds)
    ctx.goal("all half-open closed within %d s" % args.half_open_seconds,
             "%d of %d still open" % (left, len(sockets)), left == 0 and len(sockets) > 0)


LOGIN_ANSWERS = {"wrong": "wrong (checked)", "wait": "wait (throttled)"}


def passphrase(ctx):
    """Wrong desk passphrases from many addresses, as fast as the gateway answers."""
    args, port, guard = ctx.args, ctx.venue.port, ctx.guard
    outcomes = [collections.Counter() for _ in range(args.passphrase_addresses)]
    deadline = time.monotonic() + args.seconds

    def attacker(index):
        source = PASSPHRASE_ADDRESSES % (2 + index)
        http = Http(port, args.timeout, source=source)
        headers = dict(same_origin(port), **{"Content-Type": "application/x-www-form-urlencoded"})
        n = 0
        while time.monotonic() < deadline and not guard.abort.is_set() and n < 10_000_000:
            n += 1
            try:
                status, fields, _ = http.request("POST", "/desk/login", "passphrase=wrong-%d-%d" % (index, n), headers)
            except Exception as error:  # noqa: BLE001
                outcomes[index][failure_name(error)] += 1
                time.sleep(0.05)
                continue
            location = (fields.get("location") or [""])[0]
            answer = re.search(r"[?&]login=(\w+)", location)
            if status == 303 and answer:  # the desk's answer to a sign-in: wrong, wait, ...
                outcomes[index][LOGIN_ANSWERS.get(answer.group(1), "login=" + answer.group(1))] += 1
            else:
                outcomes[index]["status %d %s" % (status, location)] += 1
        http.close()

    threads = [threading.Thread(target=attacker, args=(i,)) for i in range(args.passphrase_addresses)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(args.seconds + args.timeout + 10)
    total = sum(outcomes, collections.Counter())
    ctx.say("%d tries from %d addresses (%s to %s) in %g s: %s" % (
        sum(total.values()), args.passphrase_addresses, PASSPHRASE_ADDRESSES % 2,
        PASSPHRASE_ADDRESSES % (1 + args.passphrase_addresses), args.seconds,
        ", ".join("%s %d" % o for o in sorted(total.items()))))
    checked = [o["wrong (checked)"] for o in outcomes]
    ctx.say("passphrases checked (bcrypt) per address: min %d, max %d" % (min(checked), max(checked)))
    ctx.end_of_flood()


def joins(ctx):
    """Many joins with the right PIN and no cookie, a few at a time; statuses, then the store."""
    args, port, guard = ctx.args, ctx.venue.port, ctx.guard
    statuses, lock, next_index, first_errors = collections.Counter(), threading.Lock(), [0], []
    deadline, started = time.monotonic() + args.joins_max_seconds, time.monotonic()
    body = json.dumps({"pin": ctx.venue.pins["Court 1"]})
    headers = dict(same_origin(port), **{"Content-Type": "application/json"})

    def joiner():
        http = Http(port, args.timeout, source=FLOOD_ADDRESS)
        while time.monotonic() < deadline and not guard.abort.is_set():
            with lock:
                if next_index[0] >= args.joins:
                    break
                next_index[0] += 1
            try:
                status, _, data = http.request("POST", "/keep/join", body, headers)
                outcome = "%d" % status
            except Exception as error:  # noqa: BLE001
                outcome, status, data = failure_name(error), 0, b""
            with lock:
                statuses[outcome] += 1
                if status >= 500 and len(first_errors) < 3:
                    first_errors.append("%d %r" % (status, data[:200]))
        http.close()

    threads = [threading.Thread(target=joiner) for _ in range(args.join_concurrency)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(args.joins_max_seconds + args.timeout + 10)
    seconds = time.monotonic() - started
    sent = sum(statuses.values())
    ctx.say("%d of %d joins in %.1f s (%.0f/s), %d at a time: %s" % (
        sent, args.joins, seconds, sent / seconds if seconds else 0, args.join_concurrency,
        ", ".join("%s x%d" % s for s in sorted(statuses.items()))))
    if first_errors:
        ctx.say("the first 5xx answers: %s" % "; ".join(first_errors))
    ctx.end_of_flood()
    try:
        with sqlite3.connect(os.path.join(ctx.venue.state_dir, "courtside-web.sqlite"), timeout=10) as db:
            devices = db.execute("SELECT count(*) FROM devices").fetchone()[0]
            sessions = db.execute("SELECT count(*) FROM sessions").fetchone()[0]
        ctx.say("in the store: %d devices, %d sessions" % (devices, sessions))
    except sqlite3.Error as error:
        ctx.say("the store could not be read: %s" % error)
    fives = sum(n for s, n in statuses.items() if s.startswith("5"))
    ctx.goal("no 5xx answer to a join", "%d x 5xx of %d" % (fives, sent), fives == 0 and sent > 0)


def first_lines(sockets):
    """The first line of each socket's answer, counted (a peek leaves it unread), and how many the
    gateway closed."""
    answers, poller = collections.Counter(), select.poll()
    for s in sockets:
        poller.register(s, select.POLLRDHUP | select.POLLHUP | select.POLLERR)
        try:
            first = s.recv(64, socket.MSG_PEEK | socket.MSG_DONTWAIT)
            answers[first.split(b"\r\n", 1)[0].decode(errors="replace") if first else "closed, no answer"] += 1
        except BlockingIOError:
            answers["no answer yet"] += 1
        except OSError as error:
            answers[oserror_name(error)] += 1
    return answers, len(poller.poll(0))


def sse(ctx):
    """Event streams that never read, while a second keeper makes events."""
    args, venue, port, guard = ctx.args, ctx.venue, ctx.venue.port, ctx.guard
    request = ("GET /api/events HTTP/1.1\r\nHost: %s:%d\r\nAccept: text/event-stream\r\n\r\n" % (HOST, port)).encode()
    started = time.monotonic()
    sources = [SSE_ADDRESSES % (1 + i) for i in range(args.sse_addresses)]
    sockets, errors = connect_many(args.sse_clients, port, request, started + args.connect_seconds, guard, sources,
                                   rcvbuf=args.sse_rcvbuf)
    ctx.say("opened %d of %d streams from %d addresses (%s to %s) in %.1f s (SO_RCVBUF asked %d, got %d)%s" % (
        len(sockets), args.sse_clients, len(sources), sources[0], sources[-1], time.monotonic() - started,
        args.sse_rcvbuf,
        sockets[0].getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) if sockets else 0,
        "; connect errors: " + ", ".join("%s %d" % e for e in errors.items()) if errors else ""))
    keeper = Keeper(port, ctx.second_session, "g2", args.timeout, True, SECOND_KEEPER_ADDRESS)
    moves, deadline, n, first_errors = collections.Counter(), time.monotonic() + args.seconds, 0, []
    moves_started = time.monotonic()
    while time.monotonic() < deadline and not guard.abort.is_set():
        time.sleep(max(0.0, moves_started + n / args.sse_rate - time.monotonic()))
        n += 1
        body = json.dumps({"command_id": uuid.uuid4().hex, "op": "move", "game": "g2", "player": "gus",
                           "move": "rebound"})
        try:
            status, _, data = keeper.http.request("POST", "/api/keep/commands", body, dict(
                same_origin(port), **{"Content-Type": "application/json",
                                      "Cookie": "courtside_keeper=" + ctx.second_session}))
            if status == 200 and json.loads(data).get("ok"):
                moves["ok"] += 1
            else:
                moves["status %d" % status] += 1
                if status >= 500 and len(first_errors) < 3:
                    first_errors.append("%d %r" % (status, data[:200]))
        except Exception as error:  # noqa: BLE001
            moves[failure_name(error)] += 1
    keeper.http.close()
    poller = select.poll()
    answers, closed = first_lines(sockets)
    ctx.say("second keeper (Court 2, g2 rebounds at %g/s): %s" % (
        args.sse_rate, ", ".join("%s %d" % m for m in sorted(moves.items()))))
    if first_errors:
        ctx.say("its first 5xx answers: %s" % "; ".join(first_errors))
    ctx.say("the streams' answers: %s; closed by the gateway: %d of %d" % (
        ", ".join("%s x%d" % a for a in sorted(answers.items())), closed, len(sockets)))
    try:
        status, _, data = Http(port, args.timeout, source=OBSERVER_ADDRESS).request("GET", "/metrics")
        found = re.search(rb"^courtside_web_browsers(?:\{[^}]*\})? (\S+)", data, re.M)
        ctx.say("/metrics courtside_web_browsers: %s" % (found.group(1).decode() if found else "not found"))
    except Exception as error:  # noqa: BLE001
        ctx.say("/metrics: %s" % failure_name(error))
    ctx.end_of_flood()
    for s in sockets:
        s.close()


def send_all_then(s, data, result):
    """Sends `data` in pieces, counting in `result["sent"]`; records how it ended."""
    view = memoryview(data)
    try:
        while result["sent"] < len(data):
            result["sent"] += s.send(view[result["sent"]:result["sent"] + 65536])
        result["ended"] = "all sent"
    except OSError as error:
        result["ended"] = oserror_name(error)


def errno_name(number):
    return errno.errorcode.get(number, str(number))


def oserror_name(error):
    return errno_name(error.errno) if error.errno else failure_name(error)


def read_answer(s, deadline, want_final=True):
    """Status lines read until a final (non-1xx) one, the peer's close, or `deadline`."""
    buffer, lines = b"", []
    while time.monotonic() < deadline:
        s.settimeout(max(0.01, deadline - time.monotonic()))
        try:
            data = s.recv(65536)
        except socket.timeout:
            break
        except OSError as error:
            lines.append(oserror_name(error))
            return lines, True
        if not data:
            return lines, True
        buffer += data
        while b"\r\n\r\n" in buffer:
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            status = head.split(b"\r\n", 1)[0].decode(errors="replace")
            lines.append(status)
            length = re.search(rb"(?im)^content-length:\s*(\d+)", head)
            buffer = buffer[int(length.group(1)):] if length else buffer
            if not status.startswith("HTTP/1.1 1") or not want_final:
                return lines, False
    return lines, False


def malformed_case(ctx, name, head, body=None, send_body=False):
    """One bad request on a connection of its own; prints what came back."""
    args = ctx.args
    s = socket.create_connection((HOST, ctx.venue.port), timeout=args.timeout, source_address=(FLOOD_ADDRESS, 0))
    started = time.monotonic()
    result, sender, sender_socket = {"sent": 0, "ended": "not sent"}, None, None
    try:
        s.sendall(head)
        if send_body:
            sender_socket = s.dup()
            sender = threading.Thread(target=send_all_then, args=(sender_socket, body, result))
            sender.start()
        lines, closed = read_answer(s, started + args.malformed_timeout)
        answered, sent_by_answer = time.monotonic() - started, result["sent"]
        if sender:
            sender.join(args.malformed_timeout)
            if sender.is_alive():  # the gateway stopped reading: stop sending
                sender_socket.shutdown(socket.SHUT_RDWR)
                sender.join(5)
            sender_socket.close()
        if not closed:  # did the gateway close after its answer?
            _, closed = read_answer(s, time.monotonic() + 2, want_final=False)
    finally:
        s.close()
    ctx.say("%-12s %s after %s ms%s; %s" % (
        name, " then ".join(lines) if lines else "no answer", ms(answered),
        "; body bytes sent: %s by the answer, %s of %s in all (%s)" % (
            format(sent_by_answer, ","), format(result["sent"], ","), format(len(body), ","), result["ended"])
        if send_body else "",
        "the gateway closed the connection" if closed else "the connection stayed open"))
    return lines


def gateway_sockets(port):
    """Counts of the gateway's TCP states on its port (ss -tan)."""
    result = subprocess.run(["ss", "-tanH", "sport = :%d" % port], capture_output=True, text=True, timeout=10)
    return collections.Counter(line.split()[0] for line in result.stdout.splitlines() if line.strip())


def malformed(ctx):
    """A round of bad requests; their answers, then the gateway's half-closed sockets."""
    args, port = ctx.args, ctx.venue.port
    origin = "Origin: http://%s:%d\r\nSec-Fetch-Site: same-origin\r\n" % (HOST, port)
    host = "Host: %s:%d\r\n" % (HOST, port)
    keeper_cookie = "Cookie: courtside_keeper=%s\r\n" % ctx.second_session
    statuses = []
    for _ in range(args.malformed_rounds):
        big = b"x" * 10_000_000
        statuses += malformed_case(ctx, "10 MB body", (
            "POST /api/keep/commands HTTP/1.1\r\n%s%s%sContent-Type: application/json\r\n"
            "Content-Length: %d\r\n\r\n" % (host, origin, keeper_cookie, len(big))).encode(), big, send_body=True)
        statuses += malformed_case(ctx, "expect 1 GB", (
            "POST /api/keep/commands HTTP/1.1\r\n%s%s%sContent-Type: application/json\r\nExpect: 100-continue\r\n"
            "Content-Length: 1073741824\r\n\r\n" % (host, origin, keeper_cookie)).encode())
        chunk = b'{"pin": "AAA-AAA"}'
        statuses += malformed_case(ctx, "xchunked", (
            "POST /keep/join HTTP/1.1\r\n%s%sContent-Type: application/json\r\nTransfer-Encoding: xchunked\r\n\r\n"
            % (host, origin)).encode() + b"%x\r\n%s\r\n0\r\n\r\n" % (len(chunk), chunk))
        join = b'{"pin": "' + b"A" * (10 * 1024 * 1024 - 11) + b'"}'
        statuses += malformed_case(ctx, "10 MB join", (
            "POST /keep/join HTTP/1.1\r\n%s%sContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
            % (host, origin, len(join))).encode(), join, send_body=True)
        login = b"passphrase=" + b"A" * (10 * 1024 * 1024 - 11)
        statuses += malformed_case(ctx, "10 MB login", (
            "POST /desk/login HTTP/1.1\r\n%s%sContent-Type: application/x-www-form-urlencoded\r\n"
            "Content-Length: %d\r\n\r\n" % (host, origin, len(login))).encode(), login, send_body=True)
    time.sleep(1)
    now = gateway_sockets(port)
    ctx.say("the gateway's sockets 1 s after the round: %s" % ", ".join("%s %d" % s for s in sorted(now.items())))
    ctx.end_of_flood()
    time.sleep(args.settle)
    later = gateway_sockets(port)
    ctx.say("and %g s later: %s" % (args.settle + 1, ", ".join("%s %d" % s for s in sorted(later.items()))))
    half = later.get("FIN-WAIT-2", 0) + later.get("CLOSE-WAIT", 0)
    ctx.goal("no FIN-WAIT-2/CLOSE-WAIT left", "%d FIN-WAIT-2, %d CLOSE-WAIT" % (
        later.get("FIN-WAIT-2", 0), later.get("CLOSE-WAIT", 0)), half == 0)
    fives = [s for s in statuses if s.startswith("HTTP/1.1 5")]
    ctx.goal("no 5xx answer to a malformed request", "%d x 5xx" % len(fives), not fives)


def sockets_flood(ctx):
    """Keeper sockets opened by one joined guest and left idle: the keepers must not notice."""
    args, port, guard = ctx.args, ctx.venue.port, ctx.guard
    request = ("GET /api/keep/socket HTTP/1.1\r\nHost: %s:%d\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nOrigin: http://%s:%d\r\n"
               "Cookie: courtside_keeper=%s\r\n\r\n" % (HOST, port, HOST, port, ctx.second_session)).encode()
    started = time.monotonic()
    sockets, errors = connect_many(args.sockets, port, request, started + args.connect_seconds, guard, [FLOOD_ADDRESS])
    ctx.say("opened %d of %d from %s in %.1f s%s" % (
        len(sockets), args.sockets, FLOOD_ADDRESS, time.monotonic() - started,
        "; connect errors: " + ", ".join("%s %d" % e for e in errors.items()) if errors else ""))
    deadline = time.monotonic() + args.seconds
    while time.monotonic() < deadline and not guard.abort.is_set():
        time.sleep(0.2)
    answers, closed = first_lines(sockets)
    ctx.say("their answers: %s; closed by the gateway after %g s idle: %d of %d" % (
        ", ".join("%s x%d" % a for a in sorted(answers.items())), args.seconds, closed, len(sockets)))
    ctx.end_of_flood()
    for s in sockets:
        s.close()
    upgraded = answers.get("HTTP/1.1 101 Switching Protocols", 0)
    ctx.goal("sockets past the address's cap refused", "%d upgraded of %d" % (upgraded, len(sockets)),
             0 < upgraded <= 64)


FLOOD_FUNCTIONS = {"half-open": half_open, "passphrase": passphrase, "joins": joins, "sse": sse, "malformed": malformed,
                   "sockets": sockets_flood}


# ---------------------------------------------------------------- one flood, measured

class Context:
    def __init__(self, args, venue, probe, second_session, name):
        self.args, self.venue, self.probe, self.second_session, self.name = args, venue, probe, second_session, name
        self.guard, self.during, self.end, self.goals = None, None, None, []

    def say(self, text):
        print("  " + text, flush=True)

    def end_of_flood(self):
        """The flood has done its work (its connections still open): stop the probe, take the figures."""
        if self.during is None:
            self.during = self.probe.stop(self.args.timeout * 3 + 60)
            self.end = self.venue.snapshot()

    def goal(self, name, figure, met):
        self.goals.append((self.name, name, figure, met))


def measure(args, venue, probe, second_session, name):
    ctx = Context(args, venue, probe, second_session, name)
    print("\n== %s (%s)" % (name, machine()), flush=True)
    probe.start()
    time.sleep(args.rest_seconds)
    rest = probe.stop(args.timeout * 3 + 60)
    before = venue.snapshot()
    rest_keeper, rest_health = summarize(rest["keeper"], args.timeout), summarize(rest["health"], args.timeout)
    ctx.say(describe("at rest, keeper", rest_keeper))
    ctx.say(describe("at rest, /healthz", rest_health))
    ctx.say(snapshot_line("gateway before", before))
    ctx.guard = Guard(venue, args.rss_limit_mb)
    probe.start()
    started = time.monotonic()
    try:
        FLOOD_FUNCTIONS[name](ctx)
    finally:
        ctx.end_of_flood()
        ctx.guard.close()
    if ctx.guard.reason:
        ctx.say("stopped early: %s" % ctx.guard.reason)
    during_keeper = summarize(ctx.during["keeper"], args.timeout)
    during_health = summarize(ctx.during["health"], args.timeout)
    ctx.say(describe("during (%.0f s), keeper" % (time.monotonic() - started), during_keeper))
    ctx.say(describe("during, /healthz", during_health))
    ctx.say(snapshot_line("gateway at the flood's end", ctx.end))
    time.sleep(args.settle)
    after = venue.snapshot()
    ctx.say(snapshot_line("gateway after (%g s later)" % args.settle, after))
    ratio = (during_keeper["p99"] / rest_keeper["p99"]) if during_keeper["p99"] and rest_keeper["p99"] else None
    ctx.goals.insert(0, (name, "keeper p99 during < %gx at rest" % args.goal_ratio,
                         "%s ms / %s ms = %s" % (ms(during_keeper["p99"]), ms(rest_keeper["p99"]),
                                                 "-" if ratio is None else "%.1fx" % ratio),
                         ratio is not None and ratio < args.goal_ratio))
    ctx.goals.insert(1, (name, "keeper: no failed or timed-out round trip",
                         "%d failed, %d timed out of %d" % (during_keeper["failures"], during_keeper["timeouts"],
                                                           during_keeper["n"]),
                         during_keeper["failures"] + during_keeper["timeouts"] == 0 and during_keeper["n"] > 0))
    if not venue.alive():
        ctx.goals.append((name, "gateway and daemon still running", "one exited", False))
    return {"name": name, "rest": rest_keeper, "during": during_keeper, "ratio": ratio, "before": before,
            "end": ctx.end, "after": after, "goals": ctx.goals, "health_rest": rest_health,
            "health_during": during_health}


def print_summary(rows):
    def mb(s):
        return "-" if s["rss"] is None else "%.0f" % (s["rss"] / 1024)

    table = [("flood", "rest p50/p99 ms", "during p50/p99 ms", "p99 x", "fail/timeout", "healthz p99 rest/during",
              "RSS MB before/end/after", "fds before/end/after", "store kB before/after")]
    for r in rows:
        table.append((
            r["name"], "%s / %s" % (ms(r["rest"]["p50"]), ms(r["rest"]["p99"])),
            "%s / %s" % (ms(r["during"]["p50"]), ms(r["during"]["p99"])),
            "-" if r["ratio"] is None else "%.1f" % r["ratio"],
            "%d / %d" % (r["during"]["failures"], r["during"]["timeouts"]),
            "%s / %s" % (ms(r["health_rest"]["p99"]), ms(r["health_during"]["p99"])),
            "%s / %s / %s" % (mb(r["before"]), mb(r["end"]), mb(r["after"])),
            "%s / %s / %s" % (dash(r["before"]["fds"]), dash(r["end"]["fds"]), dash(r["after"]["fds"])),
            "%s / %s" % (format(r["before"]["store"] // 1024, ","), format(r["after"]["store"] // 1024, ","))))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    print("\n== summary")
    for index, row in enumerate(table):
        print("  " + "  ".join(cell.ljust(widths[i]) for i, cell in enumerate(row)).rstrip())
        if index == 0:
            print("  " + "  ".join("-" * w for w in widths))
    goals = [g for r in rows for g in r["goals"]]
    widths = [max(len(g[i]) for g in goals) for i in range(3)] if goals else [0, 0, 0]
    print("\n== goals")
    for flood, goal, figure, met in goals:
        print("  %s  %s  %s  %s" % (flood.ljust(widths[0]), goal.ljust(widths[1]), figure.ljust(widths[2]),
                                    "PASS" if met else "FAIL"))
    print("  %d of %d met" % (sum(1 for g in goals if g[3]), len(goals)), flush=True)


# ---------------------------------------------------------------- main

def parse(argv):
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0].strip(), epilog="\n\n".join(__doc__.split("\n\n")[1:]),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    add = parser.add_argument
    add("--build-dir", default=".build/release", metavar="DIR",
        help="where courtsided and courtside-web are, relative to the repository or absolute (default: %(default)s; "
             "while developing: .build/debug)")
    add("--config", default="config/tournament.yaml", metavar="FILE",
        help="the tournament courtsided starts with, relative to the repository (default: %(default)s; it must have "
             "g1 on Court 1 and g2 on Court 2, with players as in the sample)")
    add("--flood", action="append", choices=FLOODS, metavar="NAME",
        help="a flood to run: %s; repeat for several, in the order given (default: all, in this order)" %
             ", ".join(FLOODS))
    add("--seconds", type=float, default=20, metavar="S",
        help="how long the passphrase, sse and sockets floods last (default: %(default)s)")
    add("--half-open", type=int, default=2000, metavar="N",
        help="half-open connections, each a request head left unfinished (default: %(default)s)")
    add("--half-open-seconds", type=int, default=30, metavar="S",
        help="how long to watch them for the gateway's close; 'still open' is counted at 1, 5, 10, 20, 30 ... s and "
             "at S (default: %(default)s)")
    add("--passphrase-addresses", type=int, default=16, metavar="N",
        help="client addresses posting wrong desk passphrases: 127.0.0.2 to 127.0.0.(N+1), at most 200 "
             "(default: %(default)s)")
    add("--joins", type=int, default=10000, metavar="N",
        help="POST /keep/join with the right PIN (default: %(default)s)")
    add("--join-concurrency", type=int, default=8, metavar="N", help="joins in flight at once (default: %(default)s)")
    add("--joins-max-seconds", type=float, default=900, metavar="S",
        help="the joins flood stops after this long even if unfinished (default: %(default)s)")
    add("--sockets", type=int, default=200, metavar="N",
        help="keeper sockets opened from one address and left idle (default: %(default)s)")
    add("--sse-clients", type=int, default=1000, metavar="N",
        help="GET /api/events streams that never read (default: %(default)s)")
    add("--sse-addresses", type=int, default=20, metavar="N",
        help="the streams come from 127.0.1.1 to 127.0.1.N in turn, as the screens and phones of a venue do; 1 puts "
             "them all on one address (default: %(default)s)")
    add("--sse-rcvbuf", type=int, default=4096, metavar="BYTES",
        help="their SO_RCVBUF, set before connecting (the kernel doubles it; default: %(default)s)")
    add("--sse-rate", type=float, default=20, metavar="PER_S",
        help="moves a second posted by a second keeper (Court 2, rebounds in g2) during the sse flood "
             "(default: %(default)s)")
    add("--malformed-rounds", type=int, default=1, metavar="N", help="rounds of bad requests (default: %(default)s)")
    add("--malformed-timeout", type=float, default=15, metavar="S",
        help="how long one bad request waits for its answer (default: %(default)s)")
    add("--connect-seconds", type=float, default=30, metavar="S",
        help="how long the half-open and sse floods wait for their connections to open, all at once "
             "(default: %(default)s)")
    add("--rest-seconds", type=float, default=10, metavar="S",
        help="the keeper's round trips at rest, before each flood (default: %(default)s)")
    add("--interval", type=float, default=0.05, metavar="S",
        help="the keeper's (and /healthz's) pace: one round trip started every S s at most (default: %(default)s)")
    add("--keeper-connection", choices=["new", "keep-alive"], default="new",
        help="new: the keeper and /healthz open a connection for each round trip, as a phone back on the Wi-Fi "
             "does; keep-alive: one each, reopened after a failure (default: %(default)s)")
    add("--timeout", type=float, default=5, metavar="S",
        help="a round trip (keeper, /healthz, flood request) that takes longer fails as a timeout "
             "(default: %(default)s)")
    add("--goal-ratio", type=float, default=4, metavar="X",
        help="the goal: the keeper's p99 during a flood below X times its p99 at rest (default: %(default)s)")
    add("--settle", type=float, default=3, metavar="S",
        help="how long after a flood's connections close the 'after' figures are taken (default: %(default)s)")
    add("--gateway-nofile", type=int, default=1024, metavar="N",
        help="the gateway's soft limit of open files, as systemd's default LimitNOFILE gives "
             "systemd/courtside-web.service; 0 leaves it as this script's (default: %(default)s)")
    add("--rss-limit-mb", type=int, default=4096, metavar="MB",
        help="a flood stops early when the gateway's RSS passes this (default: %(default)s)")
    add("--log-level", default="warning", metavar="LEVEL",
        help="courtsided's and courtside-web's --log-level; their logs are in the temporary directory "
             "(default: %(default)s)")
    add("--keep-temp", action="store_true", help="keep the temporary directory (logs, stores) and print its path")
    args = parser.parse_args(argv)
    if not 1 <= args.passphrase_addresses <= 200:
        parser.error("--passphrase-addresses takes 1 to 200")
    if not 1 <= args.sse_addresses <= 250:
        parser.error("--sse-addresses takes 1 to 250")
    for name in ("half_open", "joins", "join_concurrency", "sse_clients", "malformed_rounds"):
        if getattr(args, name) < (0 if name != "join_concurrency" else 1):
            parser.error("--%s must not be negative" % name.replace("_", "-"))
    if args.seconds <= 0 or args.interval <= 0 or args.timeout <= 0 or args.sse_rate <= 0:
        parser.error("--seconds, --interval, --timeout and --sse-rate must be positive")
    args.flood = args.flood or FLOODS
    return args


def interrupted(*_):
    raise KeyboardInterrupt()


def main(argv):
    args = parse(argv)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = args.half_open + args.sse_clients + 200
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(needed, soft)), hard))
    signal.signal(signal.SIGTERM, interrupted)
    venue, probe = None, None
    try:
        try:
            venue = Venue(args)
            venue.start_daemon()
            venue.start_gateway()
            keeper_session = venue.join("Court 1", "floods-keeper", KEEPER_ADDRESS)
            second_session = venue.join("Court 2", "floods-second", SECOND_KEEPER_ADDRESS)
            probe = Probe(args, venue.port, keeper_session)
        except (SetupError, OSError, subprocess.SubprocessError) as error:
            print("web-floods: setup failed: %s" % error, file=sys.stderr)
            return 1
        print("courtsided pid %d at %s; courtside-web pid %d at http://%s:%d (open files %s), from %s" % (
            venue.daemon.pid, venue.command_endpoint, venue.gateway.pid, HOST, venue.port, venue.limit_of_gateway(),
            venue.build))
        print("keeper: a device on Court 1 (PIN %s), g1's clock started and paused in turn, a %s connection each, "
              "every %g s; timeout %g s" % (venue.pins["Court 1"], "new" if args.keeper_connection == "new" else
                                            "keep-alive", args.interval, args.timeout), flush=True)
        rows = []
        for name in args.flood:
            if not venue.alive():
                print("\n== %s: not run, a process under test has exited" % name)
                continue
            try:
                rows.append(measure(args, venue, probe, second_session, name))
            except SetupError as error:  # the probe hung: the figures that follow would mean nothing
                print("web-floods: %s" % error, file=sys.stderr)
                return 1
        print_summary(rows)
        print("\nat the end: %s" % machine())
        for name, process in (("courtside-web", venue.gateway), ("courtsided", venue.daemon)):
            with open(venue.log(name), errors="replace") as f:
                lines = f.readlines()
            status = process.poll()
            if status is None:
                print("%s's log: %d lines%s" % (name, len(lines), (", the last: " + lines[-1].strip()[:200])
                                                 if lines else ""))
            else:
                print("%s EXITED with status %d%s; its log (%d lines), the first 25 and the last 15:\n%s" % (
                    name, status, " (signal %s)" % signal.Signals(-status).name if status < 0 else "", len(lines),
                    "".join("    " + line for line in (lines if len(lines) <= 40 else lines[:25] + ["...\n"] +
                                                       lines[-15:]))))
        return 0
    except KeyboardInterrupt:
        print("\nweb-floods: interrupted", file=sys.stderr)
        return 130
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        if probe:
            probe.close()
        if venue:
            venue.close(args.keep_temp)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
