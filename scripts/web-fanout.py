#!/usr/bin/env python3
"""How many /api/events clients one courtside-web holds at a given event rate, none falling behind.

    scripts/web-fanout.py --web http://127.0.0.1:8080 --command tcp://127.0.0.1:5555 \
        --game g1 --player ann --clients 50,200,500 --rate 100 --seconds 10

For each client count: opens that many Server-Sent Events streams (asyncio, one process), then
sends rebounds (they score nothing, so the game never ends) at --rate per second for --seconds
over ZeroMQ, and counts the `event` messages each client received for that game. A client
"kept up" if it got every one within 2 s of the last move. Prints one line per count. The readers
run on the same machine as the gateway: the figures are a lower bound. Needs python3-zmq.
"""
import argparse
import asyncio
import json
import time
import urllib.parse
import uuid

import zmq
import zmq.asyncio


async def reader(host, port, game, counts, index, ready):
    stream_reader, writer = await asyncio.open_connection(host, port)
    writer.write(b"GET /api/events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
    await writer.drain()
    ready.append(index)
    name = None
    try:
        while True:
            line = await stream_reader.readline()
            if not line:
                break
            if line.startswith(b"event:"):
                name = line[6:].strip()
            elif line.startswith(b"data:") and name == b"event" and (b'"game":"%s"' % game.encode()) in line:
                counts[index] += 1
    except (asyncio.CancelledError, ConnectionError):
        pass
    finally:
        writer.close()


async def run(args, clients):
    url = urllib.parse.urlparse(args.web)
    counts, ready = [0] * clients, []
    tasks = [asyncio.create_task(reader(url.hostname, url.port, args.game, counts, i, ready)) for i in range(clients)]
    while len(ready) < clients:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1)  # every stream has had its state
    context = zmq.asyncio.Context.instance()
    dealer = context.socket(zmq.DEALER)
    dealer.setsockopt(zmq.LINGER, 0)
    dealer.connect(args.command)
    total, start = int(args.rate * args.seconds), time.monotonic()
    acknowledged = 0
    for n in range(total):
        await asyncio.sleep(max(0, start + n / args.rate - time.monotonic()))
        await dealer.send(json.dumps({"op": "move", "client_id": "fanout", "command_id": uuid.uuid4().hex,
                                      "game": args.game, "player": args.player, "move": "rebound"}).encode())
        acknowledged += json.loads(await dealer.recv()).get("ok", False)
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline and min(counts) < acknowledged:
        await asyncio.sleep(0.05)
    kept = sum(1 for c in counts if c >= acknowledged)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    dealer.close()
    return acknowledged, kept, min(counts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--web", required=True)
    parser.add_argument("--command", required=True)
    parser.add_argument("--game", default="g1")
    parser.add_argument("--player", default="ann")
    parser.add_argument("--clients", default="50,200,500")
    parser.add_argument("--rate", type=float, default=100)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    for clients in [int(c) for c in args.clients.split(",")]:
        moves, kept, slowest = asyncio.run(run(args, clients))
        print("clients %d at %.0f events/s: %d of %d kept up (%d moves; the slowest got %d)" % (
            clients, args.rate, kept, clients, moves, slowest), flush=True)


if __name__ == "__main__":
    main()
