#!/usr/bin/env python3
"""How many /api/events clients one courtside-web holds at a given event rate, none falling behind.

    scripts/web-fanout.py --web http://127.0.0.1:8080 --command tcp://127.0.0.1:5555 \
        --game g1 --player ann --clients 50,200,500 --rate 100 --seconds 10 [--gateway-pid PID]

For each client count: opens that many Server-Sent Events streams, spread over --processes
reader processes (asyncio in each: one Python process cannot parse 10,000 streams at 50 events/s,
and the figure would measure the reader), waits until every stream has had its first `state`,
then sends rebounds (they score nothing, so the game never ends) at --rate per second for
--seconds over ZeroMQ, and follows each client's latest `sequence` (of its `event`s, or of a
`state`, which the gateway sends a stream that fell behind in place of what it missed). A client
"kept up" if, within 2 s of the last move, it had the last move's sequence: what its display
shows is current. Also counted: the clients that got every `event` of the game (none replaced by
a state). Of the clients that did not keep up, the line says how many the gateway ended, and how
many had bytes waiting unread in their own sockets at the verdict (the reader behind, not the
gateway), with those bytes in all, and the bytes the gateway's sockets to them held (their Send-Q,
from `ss`: what the gateway holds beyond that, in NIO and its hub, is not seen from here). Prints
one line per count with the readers' CPU from the first move, and with --gateway-pid the gateway's
peak and current RSS (VmHWM, VmRSS) and its CPU from the first move, also per event received (a
figure a busy machine disturbs less than "kept up"). The readers run on the same machine as the
gateway: the figures are a lower bound. Needs python3-zmq.
"""
import argparse
import array
import asyncio
import fcntl
import json
import multiprocessing
import os
import re
import resource
import subprocess
import termios
import time
import urllib.parse
import uuid

import zmq
import zmq.asyncio


class Streams:
    """One reader process's share of the clients: their counts, and which have had their state."""

    def __init__(self, clients, game):
        self.counts = [0] * clients
        self.latest = [0] * clients
        self.ended = [False] * clients
        self.readers = [None] * clients
        self.judged = False
        self.started = [False] * clients
        self.settled = [False] * clients
        self.refused = 0
        self.waiting = clients
        self.game = b'"game":"%s"' % game.encode()

    def settle(self, index):
        """The stream at `index` has had its state, or never will."""
        if not self.settled[index]:
            self.settled[index] = True
            self.waiting -= 1

    def count(self, index, data, stop):
        """Counts the events of the game in `data` up to `stop`, whole messages only: found by
        bytes.find, the game's id looked for just after each `event: event` line (the protocol's
        fields come before the view), never a Python loop over lines nor a copy."""
        events, at = 0, data.find(EVENT, 0, stop)
        while at >= 0:
            if data.find(self.game, at, min(at + 400, stop)) >= 0:
                events += 1
            at = data.find(EVENT, at + len(EVENT), stop)
        self.counts[index] += events

    def note_sequence(self, index, data, stop):
        """Keeps the last `sequence` in `data` up to `stop` (an event's or a state's: each message
        has one, and they come in order), found by bytes.rfind."""
        at = data.rfind(SEQUENCE, 0, stop)
        if at >= 0:
            digits = DIGITS.match(data, at + len(SEQUENCE))
            if digits:
                self.latest[index] = int(digits.group())

    def port(self, index):
        """The stream's own port (the gateway's side of it has it as its peer), or None."""
        reader = self.readers[index]
        if reader is None or reader.transport is None or reader.transport.is_closing():
            return None
        return reader.transport.get_extra_info("sockname")[1]

    def unread(self, index):
        """Bytes the reader has not taken yet: in its socket, and a part of a message it holds."""
        reader = self.readers[index]
        if reader is None or reader.transport is None or reader.transport.is_closing():
            return 0
        waiting = array.array("i", [0])
        try:
            fcntl.ioctl(reader.transport.get_extra_info("socket").fileno(), termios.FIONREAD, waiting)
        except OSError:
            return len(reader.pending)
        return waiting[0] + len(reader.pending)


EVENT = b"event: event\ndata: "
SEQUENCE = b'"sequence":'
DIGITS = re.compile(rb"\d+")


class Reader(asyncio.Protocol):
    """One /api/events stream, read as it comes (a Protocol: no stream reader's copies)."""

    def __init__(self, streams, index):
        self.streams, self.index = streams, index
        self.head, self.pending = b"", b""
        self.transport = None

    def connection_made(self, transport):
        self.transport = transport
        self.streams.readers[self.index] = self
        transport.write(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")

    def data_received(self, data):
        streams = self.streams
        if self.head is not None:
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                return
            if not self.head.startswith(b"HTTP/1.1 200"):
                streams.refused += 1
                streams.settle(self.index)
                self.transport.close()
                return
            data, self.head = self.head[end + 4 :], None
        # A message may straddle two reads: only whole ones (ended by a blank line) are counted.
        data = self.pending + data if self.pending else data
        end = data.rfind(b"\n\n")
        if end < 0:
            self.pending = data
            return
        # The whole messages are read where they lie: a slice of each read would copy it all.
        stop, self.pending = end + 2, data[end + 2 :]
        if not streams.started[self.index]:
            if data.find(b"event: state\n", 0, stop) >= 0:
                streams.started[self.index] = True
                streams.settle(self.index)
        streams.count(self.index, data, stop)
        streams.note_sequence(self.index, data, stop)

    def connection_lost(self, exc):
        if not self.streams.judged:
            self.streams.ended[self.index] = True
        self.streams.settle(self.index)


async def reader(host, port, streams, index):
    try:
        await asyncio.get_running_loop().create_connection(lambda: Reader(streams, index), host, port)
    except OSError:
        streams.refused += 1
        streams.settle(index)


async def serve_share(url, game, clients, pipe):
    """A reader process: opens `clients` streams, says when each has had its state (or was
    refused), then reports how many had the `sequence` the parent sends by its deadline, how many
    received `target` events, and why the others did not keep up."""
    streams = Streams(clients, game)
    for i in range(clients):
        asyncio.create_task(reader(url.hostname, url.port, streams, i))
    # A stream that has neither its state nor an end after a minute counts as not started.
    give_up = time.monotonic() + 60
    while streams.waiting > 0 and time.monotonic() < give_up:
        await asyncio.sleep(0.05)
    pipe.send(("ready", sum(streams.started), streams.refused))
    loop = asyncio.get_running_loop()
    orders = asyncio.Queue()
    loop.add_reader(pipe.fileno(), lambda: orders.put_nowait(pipe.recv()))
    await orders.get()
    usage = resource.getrusage(resource.RUSAGE_SELF)
    pipe.send(("usage", usage.ru_utime + usage.ru_stime))
    target, sequence, deadline = await orders.get()
    while time.time() < deadline and min(streams.latest) < sequence:
        await asyncio.sleep(0.05)
    judged = time.time()
    streams.judged = True
    loop.remove_reader(pipe.fileno())
    current = [latest >= sequence for latest in streams.latest]
    every = sum(1 for c in streams.counts if c >= target)
    behind = [i for i in range(clients) if not current[i]]
    ended = sum(1 for i in behind if streams.ended[i])
    unread = [streams.unread(i) for i in behind if not streams.ended[i]]
    waiting = unsent(url.port, {streams.port(i) for i in behind if not streams.ended[i]})
    usage = resource.getrusage(resource.RUSAGE_SELF)
    pipe.send(("result", sum(current), min(streams.counts), judged, usage.ru_utime + usage.ru_stime,
               sum(streams.counts), every, ended, sum(1 for u in unread if u > 0), sum(unread), waiting))


def unsent(port, peers):
    """Bytes the gateway's sockets for these peer ports hold unsent or unacknowledged (their
    Send-Q, from `ss`: on this machine both ends' sockets are visible), or None without `ss`."""
    try:
        listing = subprocess.run(["ss", "-tnH", "state", "established", "( sport = :%d )" % port],
                                 capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    total = 0
    for line in listing.splitlines():
        fields = line.split()
        if len(fields) >= 4 and int(fields[3].rsplit(":", 1)[1]) in peers:
            total += int(fields[1])
    return total


def share_process(url, game, clients, pipe):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(serve_share(url, game, clients, pipe))


async def send_moves(args):
    """Sends --rate rebounds a second for --seconds; returns how many the daemon acknowledged, and
    the last one's sequence."""
    context = zmq.asyncio.Context.instance()
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(args.command)
    total, start = int(args.rate * args.seconds), time.monotonic()
    acknowledged, sequence = 0, 0
    for n in range(total):
        await asyncio.sleep(max(0, start + n / args.rate - time.monotonic()))
        await dealer.send(json.dumps({"op": "move", "client_id": "fanout", "command_id": uuid.uuid4().hex,
                                      "game": args.game, "player": args.player, "move": "rebound"}).encode())
        reply = json.loads(await dealer.recv())
        acknowledged += reply.get("ok", False)
        sequence = max(sequence, reply.get("sequence", 0))
    dealer.close()
    return acknowledged, sequence


def run(args, clients):
    url = urllib.parse.urlparse(args.web)
    processes = max(1, min(args.processes, clients))
    shares = [clients // processes + (1 if i < clients % processes else 0) for i in range(processes)]
    pipes, workers = [], []
    began = time.monotonic()
    for share in shares:
        parent, child = multiprocessing.Pipe()
        worker = multiprocessing.Process(target=share_process, args=(url, args.game, share, child), daemon=True)
        worker.start()
        pipes.append(parent)
        workers.append(worker)
    readies = [pipe.recv() for pipe in pipes]
    # The readers' CPU so far (their connecting), taken from their total at the end.
    for pipe in pipes:
        pipe.send(("usage",))
    connecting = sum(pipe.recv()[1] for pipe in pipes)
    started, refused = sum(r[1] for r in readies), sum(r[2] for r in readies)
    connected = time.monotonic() - began
    time.sleep(1)  # every change before the first move has reached its streams
    gateway_before = cpu_seconds(args.gateway_pid)
    acknowledged, sequence = asyncio.run(send_moves(args))
    last_move = time.time()
    for pipe in pipes:
        pipe.send((acknowledged, sequence, last_move + 2))
    results = [pipe.recv() for pipe in pipes]
    for worker in workers:
        worker.join()
    gateway = cpu_seconds(args.gateway_pid) - gateway_before
    kept, slowest = sum(r[1] for r in results), min(r[2] for r in results)
    caught_up = max(r[3] for r in results) - last_move if kept == clients else None
    readers, received = sum(r[4] for r in results) - connecting, sum(r[5] for r in results)
    every, ended, unread, backlog = (sum(r[i] for r in results) for i in (6, 7, 8, 9))
    waiting = None if any(r[10] is None for r in results) else sum(r[10] for r in results)
    return (acknowledged, kept, slowest, started, refused, connected, caught_up, gateway, readers, received,
            every, ended, unread, backlog, waiting)


def cpu_seconds(pid):
    """The process's user and system CPU so far, in seconds, from /proc (0 without a pid)."""
    if not pid:
        return 0.0
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def memory(pid):
    """The process's peak and current resident memory, in MB, from /proc."""
    fields = {}
    with open("/proc/%d/status" % pid) as status:
        for line in status:
            name, _, value = line.partition(":")
            if name in ("VmHWM", "VmRSS"):
                fields[name] = int(value.split()[0]) // 1024
    return fields.get("VmHWM", 0), fields.get("VmRSS", 0)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--web", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--game", default="g1")
    parser.add_argument("--player", default="ann")
    parser.add_argument("--clients", default="50,200,500")
    parser.add_argument("--rate", type=float, default=100)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1,
                        help="reader processes the clients are spread over (default: one a core)")
    parser.add_argument("--gateway-pid", type=int, help="courtside-web's pid: print its peak RSS after each count")
    args = parser.parse_args()
    for clients in [int(c) for c in args.clients.split(",")]:
        (moves, kept, slowest, started, refused, connected, caught_up, gateway, readers, received,
         every, ended, unread, backlog, waiting) = run(args, clients)
        line = "clients %d at %.0f events/s: %d of %d kept up (%d moves; %d got every event, the slowest %d)" % (
            clients, args.rate, kept, clients, moves, every, slowest)
        if kept < clients:
            line += "; of the %d behind, %d ended by the gateway, %d with %.1f MB unread in their readers" % (
                clients - kept, ended, unread, backlog / 1e6)
            if waiting is not None:
                line += " and %.1f MB in the gateway's sockets to them" % (waiting / 1e6)
        line += "; %d had their state within %.1f s, %d refused" % (started, connected, refused)
        if caught_up is not None:
            line += "; all current %.0f ms after the last move" % max(0, caught_up * 1000)
        line += "; readers' CPU %.1f s" % readers
        if args.gateway_pid:
            line += "; gateway peak RSS %d MB, now %d MB" % memory(args.gateway_pid)
            line += ", its CPU from the first move %.1f s, %.1f us an event received" % (
                gateway, gateway * 1e6 / max(1, received))
        print(line, flush=True)


if __name__ == "__main__":
    main()
