#!/usr/bin/env python3
"""An answer a client leaves unread counts against the server's budget of held answers until its bytes have left the
process, over HTTP/1.1 and WebSocket alike: while one connection holds an unread answer that fills the budget, the
same query on another connection is refused with SERVER_BUSY (503 over HTTP), and answered again once the first
client reads. Before, HTTP/1.1's and the WebSocket's writers returned once an answer was in the pipeline and gave its
bytes back to the budget at once: an outside tester's 30 connections, one unread 21 MB answer each, held 601 MiB under
a budget of 256 MiB.

    python3 tests/clients/unread_across_connections.py --port PORT --ca ca.pem --token TOKEN --budget BYTES

The clients' receive buffers are 4 KiB and an answer ~6 MB, past what the kernel holds for a socket (4 MiB). Pick a
budget between one answer and two. Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import json
import socket
import ssl
import sys
import time

from ws_unread_responses import CONTACTS, NOTE, QUERY, built, frame, open_socket, seed

try:
    import httpx
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"unread_across_connections.py needs httpx (pip install -r tests/clients/requirements.txt): {error}")

BODY = json.dumps({"query": QUERY}).encode()


def wait_built(client: httpx.Client, count: int) -> None:
    deadline = time.monotonic() + 300
    while built(client) < count:
        if time.monotonic() > deadline:
            raise SystemExit(f"FAIL: the server ran {built(client)} of {count} queries in 300 s")
        time.sleep(0.1)
    # Past the writes of the answer into the pipeline, which took milliseconds before.
    time.sleep(1)


def whole(body: dict) -> bool:
    return [node["note"] for node in body["data"]["contacts"]["nodes"]] == [NOTE] * CONTACTS


def http1(client: httpx.Client) -> int:
    raw = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.settimeout(120)
    raw.connect(("127.0.0.1", ARGS.port))
    tls = ssl.create_default_context(cafile=ARGS.ca)
    tls.set_alpn_protocols(["http/1.1"])
    failures = 0
    with tls.wrap_socket(raw, server_hostname="localhost") as held:
        before = built(client)
        held.sendall(b"POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer " + ARGS.token.encode()
                     + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(BODY) + BODY)
        wait_built(client, before + 1)
        other = client.post("/graphql", json={"query": QUERY})
        code = (other.json().get("errors") or [{}])[0].get("extensions", {}).get("code")
        if other.status_code != 503 or code != "SERVER_BUSY":
            print(f"FAIL: HTTP/1.1: another connection's query got {other.status_code} {code} while an unread answer"
                  " filled the budget")
            failures += 1
        # Now the first client reads its answer, whole.
        data = b""
        while b"\r\n\r\n" not in data:
            data += held.recv(1 << 16)
        head, body = data.split(b"\r\n\r\n", 1)
        length = int([line.split(b":", 1)[1] for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:")][0])
        while len(body) < length:
            chunk = held.recv(1 << 20)
            if not chunk:
                break
            body += chunk
        if not head.startswith(b"HTTP/1.1 200") or not whole(json.loads(body)):
            print(f"FAIL: HTTP/1.1: the held answer: {head[:40]!r}, {len(body)} of {length} bytes")
            failures += 1
    # Its bytes have gone: the query is answered again (the budget is given back just after the last byte).
    for _ in range(50):
        again = client.post("/graphql", json={"query": QUERY})
        if again.status_code == 200:
            break
        time.sleep(0.1)
    if again.status_code != 200:
        print(f"FAIL: HTTP/1.1: once the answer was read, the query got {again.status_code}")
        failures += 1
    return failures


def websocket(client: httpx.Client) -> int:
    failures = 0
    first, first_reader = open_socket(ARGS.port, ARGS.ca, ARGS.token)
    second, second_reader = open_socket(ARGS.port, ARGS.ca, ARGS.token)
    before = built(client)
    first.sendall(frame(json.dumps({"id": "held", "type": "subscribe", "payload": {"query": QUERY}})))
    wait_built(client, before + 1)
    second.sendall(frame(json.dumps({"id": "other", "type": "subscribe", "payload": {"query": QUERY}})))
    message = second_reader.message()
    codes = [error.get("extensions", {}).get("code") for error in message.get("payload") or []]
    if message.get("type") != "error" or codes != ["SERVER_BUSY"]:
        print(f"FAIL: WebSocket: another socket's query got {json.dumps(message)[:200]} while an unread answer"
              " filled the budget")
        failures += 1
    message = first_reader.message()
    if message.get("type") != "next" or not whole(message["payload"]):
        print(f"FAIL: WebSocket: the held answer: {json.dumps(message)[:200]}")
        failures += 1
    # Its bytes have gone: the other socket's query is answered again.
    for attempt in range(50):
        second.sendall(frame(json.dumps({"id": f"again{attempt}", "type": "subscribe", "payload": {"query": QUERY}})))
        message = second_reader.message()
        if message.get("type") == "next":
            break
        time.sleep(0.1)
    if message.get("type") != "next":
        print(f"FAIL: WebSocket: once the answer was read, the query got {json.dumps(message)[:200]}")
        failures += 1
    first.close()
    second.close()
    return failures


def main() -> int:
    answer = CONTACTS * len(NOTE)
    if not answer <= ARGS.budget < 2 * answer:
        raise SystemExit(f"FAIL: a budget of {ARGS.budget} bytes must hold one answer of ~{answer}, not two")
    with httpx.Client(base_url=f"https://localhost:{ARGS.port}", verify=ssl.create_default_context(cafile=ARGS.ca),
                      timeout=120, headers={"Authorization": f"Bearer {ARGS.token}"}) as client:
        seed(client)
        failures = http1(client) + websocket(client)
    if not failures:
        print("an unread answer held its bytes in the budget over HTTP/1.1 and WebSocket until it was read")
    return 1 if failures else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--budget", type=int, required=True)
    ARGS = parser.parse_args()
    sys.exit(main())
