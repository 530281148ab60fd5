#!/usr/bin/env python3
"""Where a keeper's command spends its time in courtside-web, as the loopback interface sees it.

    scripts/keeper-wire-split.py --http-port 8080 --command-port 5555 --seconds 40

Reads every TCP packet on `lo` for --seconds (a raw socket: run as root; no tcpdump needed) with
the kernel's receive time, and cuts each `POST /api/keep/commands` the gateway answers into: the
request's first packet to the gateway's ZeroMQ request to the daemon, that request to the daemon's
reply, the reply to the answer's head, all from packets, without touching either process. Run it
beside `Tests/python/keeper_check.py --figures N` (the keeper page) or any loop of POSTs, one
command at a time. Its own reading costs CPU on the same cores: compare builds in the same minutes.
"""
import argparse
import socket
import struct
import time

SO_TIMESTAMPNS = 35


def packets(seconds):
    """(time, source port, destination port, first bytes, payload length) of each TCP packet with a payload."""
    s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.ntohs(0x0003))
    s.bind(("lo", 0))
    s.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
    s.settimeout(0.5)
    end, seen = time.time() + seconds, []
    while time.time() < end:
        try:
            data, ancillary, _, address = s.recvmsg(65536, 1024)
        except socket.timeout:
            continue
        if address[2] == socket.PACKET_OUTGOING:  # each loopback packet is seen leaving and arriving
            continue
        stamp = None
        for _, kind, value in ancillary:
            if kind == SO_TIMESTAMPNS:
                sec, ns = struct.unpack("qq", value[:16])
                stamp = sec + ns / 1e9
        ip = data[14:]
        if ip[0] >> 4 != 4 or ip[9] != 6:
            continue
        header = (ip[0] & 15) * 4
        tcp = ip[header:]
        offset = (tcp[12] >> 4) * 4
        length = struct.unpack("!H", ip[2:4])[0] - header - offset
        if length > 0:
            seen.append((stamp, *struct.unpack("!HH", tcp[:4]), tcp[offset:offset + 40], length))
    return seen


def split(seen, http_port, command_port):
    done, current = [], None
    for stamp, source, destination, first, length in seen:
        if destination == http_port and first.startswith(b"POST /api/keep/commands"):
            current = {"post": stamp}
        elif current and destination == http_port and "request" not in current:
            current["last"] = stamp  # the body in a packet of its own
        # ZeroMQ's heartbeats are a few bytes; a command is more than 40.
        elif current and destination == command_port and length > 40 and "request" not in current:
            current["request"] = stamp
        elif current and source == command_port and length > 40 and "request" in current and "reply" not in current:
            current["reply"] = stamp
        elif current and source == http_port and first.startswith(b"HTTP/1.1") and "reply" in current:
            current["answer"] = stamp
            done.append(current)
            current = None
    return done


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p * (len(ordered) - 1))))] * 1000


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--http-port", type=int, required=True)
    parser.add_argument("--command-port", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=40)
    args = parser.parse_args()
    posts = split(packets(args.seconds), args.http_port, args.command_port)
    if not posts:
        print("no keeper command seen")
        return 1
    print("%d commands (%d with the body in a packet of its own), p50 / p90 / p99 in ms:" % (
        len(posts), sum(1 for p in posts if "last" in p)))
    for name, values in (
            ("the request's first packet to the ZeroMQ request", [p["request"] - p["post"] for p in posts]),
            ("its last packet to the ZeroMQ request", [p["request"] - p.get("last", p["post"]) for p in posts]),
            ("the daemon (request to reply)", [p["reply"] - p["request"] for p in posts]),
            ("the reply to the answer's head", [p["answer"] - p["reply"] for p in posts]),
            ("the request's first packet to the answer's head", [p["answer"] - p["post"] for p in posts])):
        print("  %-50s %.3f / %.3f / %.3f" % (name, percentile(values, .5), percentile(values, .9), percentile(values, .99)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
