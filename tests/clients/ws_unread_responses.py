#!/usr/bin/env python3
"""A WebSocket client that runs queries and never reads holds at most the server's budget of built answers, as an
HTTP client does (unread_responses.py): answers past it are dropped and their operations get an `error` message
with SERVER_BUSY; those within it arrive whole once the client reads, and a query after that is answered again.
Before, every socket held its running answers (an outside tester's six sockets grew the server by 2.5 GB).

    python3 tests/clients/ws_unread_responses.py --port PORT --ca ca.pem --token TOKEN --budget BYTES

The client's receive buffer is 4 KiB and an answer ~6 MB, past what the kernel holds for a socket (4 MiB), so an
answer the client does not read stays with the server. Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import socket
import ssl
import sys
import time

try:
    import httpx
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"ws_unread_responses.py needs httpx (pip install -r tests/clients/requirements.txt): {error}")

CONTACTS = 100
NOTE = "n" * 60_000
QUERY = "query Unread { contacts(first: %d) { nodes { note } } }" % CONTACTS
ASKED = 4


def seed(client: httpx.Client) -> None:
    for start in range(0, CONTACTS, 10):
        operations = [{"addContact": {"givenName": f"Unread {i}", "note": NOTE}} for i in range(start, start + 10)]
        reply = client.post("/graphql", json={
            "query": "mutation($r: SaveRequestInput!) { save(request: $r) { revision } }",
            "variables": {"r": {"transactionAuthor": "seed", "operations": operations}}})
        if reply.status_code != 200 or "errors" in reply.json():
            raise SystemExit(f"FAIL: seeding: {reply.status_code} {reply.text[:300]}")


def built(client: httpx.Client) -> int:
    """How many `Unread` operations the server has run (it counts one before sending its answer)."""
    total = 0
    for line in client.get("/metrics").text.splitlines():
        if line.startswith("carnet_graphql_operations_total") and 'operation="Unread"' in line:
            total += int(float(line.rsplit(" ", 1)[1]))
    return total


def frame(text: str) -> bytes:
    payload, mask = text.encode(), os.urandom(4)
    size = len(payload)
    head = bytes([0x81]) + (bytes([0x80 | size]) if size < 126 else bytes([0x80 | 126]) + size.to_bytes(2, "big"))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


class Reader:
    def __init__(self, connection):
        self.connection, self.buffer = connection, b""

    def take(self, count: int) -> bytes:
        while len(self.buffer) < count:
            data = self.connection.recv(1 << 16)
            if not data:
                raise SystemExit("FAIL: the server closed the socket")
            self.buffer += data
        taken, self.buffer = self.buffer[:count], self.buffer[count:]
        return taken

    def message(self) -> dict:
        text = b""
        while True:
            first, second = self.take(2)
            size = second & 0x7F
            if size == 126:
                size = int.from_bytes(self.take(2), "big")
            elif size == 127:
                size = int.from_bytes(self.take(8), "big")
            payload = self.take(size)
            if first & 0x0F in (0x1, 0x0):
                text += payload
                if first & 0x80:
                    return json.loads(text)


def open_socket(port: int, ca: str, token: str):
    """A graphql-transport-ws socket past its `connection_ack`, with a 4 KiB receive buffer."""
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(120)
    raw.connect(("127.0.0.1", port))
    tls = ssl.create_default_context(cafile=ca)
    tls.set_alpn_protocols(["http/1.1"])
    connection = tls.wrap_socket(raw, server_hostname="localhost")
    connection.sendall((
        "GET /graphql HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\nSec-WebSocket-Version: 13\r\n"
        "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n").encode())
    reader = Reader(connection)
    while b"\r\n\r\n" not in reader.buffer:
        reader.buffer += connection.recv(1)
    head, reader.buffer = reader.buffer.split(b"\r\n\r\n", 1)
    if not head.startswith(b"HTTP/1.1 101"):
        raise SystemExit(f"FAIL: upgrade: {head[:200]!r}")
    connection.sendall(frame(json.dumps(
        {"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}})))
    if reader.message().get("type") != "connection_ack":
        raise SystemExit("FAIL: no connection_ack")
    return connection, reader


def main() -> int:
    context = ssl.create_default_context(cafile=ARGS.ca)
    base = f"https://localhost:{ARGS.port}"
    with httpx.Client(base_url=base, verify=context, timeout=120,
                      headers={"Authorization": f"Bearer {ARGS.token}"}) as client:
        seed(client)
        connection, reader = open_socket(ARGS.port, ARGS.ca, ARGS.token)
        for index in range(ASKED):
            connection.sendall(frame(json.dumps({"id": f"q{index}", "type": "subscribe", "payload": {"query": QUERY}})))
        # The client reads nothing until the server has run every query: each answer is then held or refused.
        deadline = time.monotonic() + 300
        while built(client) < ASKED:
            if time.monotonic() > deadline:
                raise SystemExit(f"FAIL: the server ran {built(client)} of {ASKED} queries in 300 s")
            time.sleep(0.2)
        # Past the few instructions between counting an answer and holding or refusing it: generous, since a loaded
        # machine (a test run beside a CPU hog) once took more than a second over them, and the client's reading
        # then let a third answer in.
        time.sleep(5)
        outcomes: dict[str, str] = {}
        while len(outcomes) < ASKED:
            message = reader.message()
            if message.get("type") == "next":
                notes = [node["note"] for node in message["payload"]["data"]["contacts"]["nodes"]]
                outcomes[message["id"]] = "whole" if notes == [NOTE] * CONTACTS else f"changed ({len(notes)} notes)"
            elif message.get("type") == "error":
                codes = [error.get("extensions", {}).get("code") for error in message["payload"]]
                outcomes[message["id"]] = "busy" if codes == ["SERVER_BUSY"] else f"error {codes}"
        counts = sorted(outcomes.values())
        answered = counts.count("whole")
        fit = max(1, ARGS.budget // (CONTACTS * len(NOTE)))
        if counts.count("busy") + answered != ASKED or answered > fit + 1 or counts.count("busy") < 1:
            print(f"FAIL: {ASKED} unread answers under a budget of {ARGS.budget} bytes: {counts}")
            return 1
        print(f"{answered} answers held or sent, {ASKED - answered} refused with SERVER_BUSY while unread")
        # Everything read: the same query is answered again.
        connection.sendall(frame(json.dumps({"id": "again", "type": "subscribe", "payload": {"query": QUERY}})))
        while True:
            message = reader.message()
            if message.get("id") == "again" and message.get("type") in ("next", "error"):
                break
        if message.get("type") != "next":
            print(f"FAIL: after the client read, a query got {json.dumps(message)[:300]}")
            return 1
        connection.close()
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--budget", type=int, required=True)
    ARGS = parser.parse_args()
    sys.exit(main())
