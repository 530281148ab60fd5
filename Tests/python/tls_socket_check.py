#!/usr/bin/env python3
"""The keeper's socket through courtside-web's TLS, as a page served over https opens it (wss://).

    tls_socket_check.py --url https://127.0.0.1:PORT --cafile web.crt --cookie 'courtside_keeper=...' \
        --message '{"command_id": ...}'

Makes the WebSocket upgrade of /api/keep/socket over TLS (checked against --cafile) with the
page's Origin and the keeper's cookie, sends --message as one masked text frame, and prints one
JSON line: {"status": the upgrade's HTTP status, "answer": the first text message's JSON or
null}. Exits 0 whatever the gateway answered; the caller judges it. Python's standard library
only: ssl, socket, base64, os.
"""
import argparse
import base64
import json
import os
import socket
import ssl
import struct
import sys
import urllib.parse


def frame(text):
    """One masked text frame, as a browser sends it."""
    payload, mask = text.encode(), os.urandom(4)
    head = bytes([0x81])
    if len(payload) < 126:
        head += bytes([0x80 | len(payload)])
    else:
        head += bytes([0x80 | 126]) + struct.pack("!H", len(payload))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def read_exact(conn, count, buffer):
    while len(buffer) < count:
        chunk = conn.recv(65536)
        if not chunk:
            raise EOFError("the gateway closed the connection")
        buffer += chunk
    return buffer[:count], buffer[count:]


def text_message(conn, buffer):
    """The first text frame's payload (the gateway's frames are unmasked); pings are skipped."""
    while True:
        head, buffer = read_exact(conn, 2, buffer)
        opcode, length = head[0] & 0x0F, head[1] & 0x7F
        if length == 126:
            extended, buffer = read_exact(conn, 2, buffer)
            length = struct.unpack("!H", extended)[0]
        elif length == 127:
            extended, buffer = read_exact(conn, 8, buffer)
            length = struct.unpack("!Q", extended)[0]
        payload, buffer = read_exact(conn, length, buffer)
        if opcode == 0x1:
            return payload.decode()
        if opcode == 0x8:
            return None


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", required=True, help="the gateway's https:// base")
    parser.add_argument("--cafile", required=True, help="the certificate to trust (the gateway's own, self-signed)")
    parser.add_argument("--cookie", required=True, help="the keeper's cookie, name=value")
    parser.add_argument("--message", required=True, help="the command to send, as the page sends it")
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()

    base = urllib.parse.urlsplit(args.url)
    context = ssl.create_default_context(cafile=args.cafile)
    raw = socket.create_connection((base.hostname, base.port), timeout=args.seconds)
    conn = context.wrap_socket(raw, server_hostname=base.hostname)
    key = base64.b64encode(os.urandom(16)).decode()
    host = "%s:%d" % (base.hostname, base.port)
    conn.sendall((
        "GET /api/keep/socket HTTP/1.1\r\nHost: %s\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n"
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: %s\r\nOrigin: https://%s\r\nCookie: %s\r\n\r\n"
        % (host, key, host, args.cookie)).encode())
    buffer = b""
    while b"\r\n\r\n" not in buffer:
        chunk = conn.recv(65536)
        if not chunk:
            break
        buffer += chunk
    head, _, buffer = buffer.partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].decode(errors="replace")
    status = int(status_line.split()[1]) if len(status_line.split()) > 1 else 0
    answer = None
    if status == 101:
        conn.sendall(frame(args.message))
        text = text_message(conn, buffer)
        answer = json.loads(text) if text else None
    print(json.dumps({"status": status, "answer": answer}))
    conn.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
