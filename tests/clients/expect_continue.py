#!/usr/bin/env python3
"""`Expect: 100-continue` (RFC 9110 10.1.1): a client that waits for `100 Continue` before it sends its body gets it
at once, over HTTP/1.1 (also when the request is pipelined behind another, after that one's answer) and HTTP/2,
and then its answer; a body announced over the limit gets its final 413 instead, and an HTTP/1.0 client no 100.
Each step waits for the server without sending the body: without the 100, the server answered only at its body
deadline (408), and curl waited a second on every such request.

    python3 tests/clients/expect_continue.py --port PORT --ca ca.pem --token TOKEN [--max-body BYTES]

Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import json
import socket
import ssl
import sys

try:
    import h2.config
    import h2.connection
    import h2.events
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"expect_continue.py needs httpx[http2] (pip install -r tests/clients/requirements.txt): {error}")

BODY = json.dumps({"query": "{ __typename }"}).encode()


def connect(args, alpn: str) -> ssl.SSLSocket:
    context = ssl.create_default_context(cafile=args.ca)
    context.set_alpn_protocols([alpn])
    sock = socket.create_connection(("localhost", args.port), timeout=60)
    return context.wrap_socket(sock, server_hostname="localhost")


class Reader:
    """HTTP/1.1 responses off one socket, one head (and body) at a time."""

    def __init__(self, sock: ssl.SSLSocket):
        self.sock, self.buffer = sock, b""

    def head(self) -> tuple[int, dict[str, str]]:
        while b"\r\n\r\n" not in self.buffer:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError(f"the connection closed after {self.buffer[:80]!r}")
            self.buffer += data
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        fields = dict(line.split(":", 1) for line in lines[1:])
        return int(lines[0].split()[1]), {name.strip().lower(): value.strip() for name, value in fields.items()}

    def body(self, fields: dict[str, str]) -> bytes:
        length = int(fields.get("content-length", "0"))
        while len(self.buffer) < length:
            data = self.sock.recv(65536)
            if not data:
                raise EOFError("the connection closed in a body")
            self.buffer += data
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return body


def head(args, length: int, version: str = "1.1", expect: bool = True) -> bytes:
    return (f"POST /graphql HTTP/{version}\r\nHost: localhost\r\nAuthorization: Bearer {args.token}\r\n"
            "Content-Type: application/json\r\nAccept: application/json\r\n"
            + ("Expect: 100-continue\r\n" if expect else "") + f"Content-Length: {length}\r\n\r\n").encode()


def answered(reader: Reader) -> str | None:
    status, fields = reader.head()
    body = reader.body(fields)
    if status != 200 or json.loads(body).get("data") != {"__typename": "Query"}:
        return f"{status} {body[:120]!r}"
    return None


def http1(args) -> list[str]:
    problems = []
    with connect(args, "http/1.1") as sock:
        reader = Reader(sock)
        sock.sendall(head(args, len(BODY)))
        status, _ = reader.head()
        if status != 100:
            # The answer came at the body's deadline, and closed the connection.
            return [f"HTTP/1.1: {status} where 100 Continue was due before the body"]
        sock.sendall(BODY)
        if (problem := answered(reader)) is not None:
            problems.append(f"HTTP/1.1: after the 100, {problem}")
        # Pipelined behind a request in flight: its 100 comes after that request's whole answer.
        sock.sendall(head(args, len(BODY), expect=False) + BODY + head(args, len(BODY)))
        if (problem := answered(reader)) is not None:
            problems.append(f"HTTP/1.1 pipelined: the first request got {problem}")
        status, _ = reader.head()
        if status != 100:
            problems.append(f"HTTP/1.1 pipelined: {status} where 100 Continue was due")
        else:
            sock.sendall(BODY)
            if (problem := answered(reader)) is not None:
                problems.append(f"HTTP/1.1 pipelined: after the 100, {problem}")
    with connect(args, "http/1.1") as sock:
        sock.sendall(head(args, args.max_body + 1))
        status, _ = Reader(sock).head()
        if status != 413:
            problems.append(f"HTTP/1.1: {status} for a body announced over the limit, where 413 was due at once")
    with connect(args, "http/1.1") as sock:
        # HTTP/1.0 has no 100 (RFC 9110 10.1.1): the body follows the head, and the answer is the final one.
        sock.sendall(head(args, len(BODY), version="1.0") + BODY)
        status, fields = Reader(sock).head()
        if status != 200:
            problems.append(f"HTTP/1.0: {status} where the answer was due, without a 100")
    return problems


def http2(args) -> list[str]:
    return http2_request(args, len(BODY)) + http2_over_limit(args)


def http2_over_limit(args) -> list[str]:
    """A body announced over the limit: its final 413 at once, no 100 before it."""
    with connect(args, "h2") as sock:
        h2c = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        h2c.initiate_connection()
        h2c.send_headers(1, headers(args, args.max_body + 1))
        sock.sendall(h2c.data_to_send())
        while True:
            data = sock.recv(65536)
            if not data:
                return ["HTTP/2 over the limit: the connection closed without an answer"]
            for event in h2c.receive_data(data):
                if isinstance(event, h2.events.InformationalResponseReceived):
                    return ["HTTP/2 over the limit: 100 Continue before the 413"]
                if isinstance(event, h2.events.ResponseReceived):
                    status = dict(event.headers)[b":status"].decode()
                    return [] if status == "413" else [f"HTTP/2 over the limit: {status} where 413 was due"]
            sock.sendall(h2c.data_to_send())


def headers(args, length: int) -> list[tuple[str, str]]:
    return [(":method", "POST"), (":scheme", "https"), (":authority", "localhost"), (":path", "/graphql"),
            ("authorization", f"Bearer {args.token}"), ("content-type", "application/json"),
            ("content-length", str(length)), ("expect", "100-continue")]


def http2_request(args, length: int) -> list[str]:
    with connect(args, "h2") as sock:
        h2c = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True))
        h2c.initiate_connection()
        h2c.send_headers(1, headers(args, length))
        sock.sendall(h2c.data_to_send())
        statuses, body, sent = [], b"", False
        while True:
            data = sock.recv(65536)
            if not data:
                return [f"HTTP/2: the connection closed after statuses {statuses}"]
            for event in h2c.receive_data(data):
                if isinstance(event, h2.events.InformationalResponseReceived):
                    statuses.append(dict(event.headers)[b":status"].decode())
                elif isinstance(event, h2.events.ResponseReceived):
                    statuses.append(dict(event.headers)[b":status"].decode())
                    if not sent:
                        return [f"HTTP/2: {statuses} before the body, where 100 was due first"]
                elif isinstance(event, h2.events.DataReceived):
                    body += event.data
                    h2c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                elif isinstance(event, h2.events.StreamEnded):
                    if statuses != ["100", "200"] or json.loads(body).get("data") != {"__typename": "Query"}:
                        return [f"HTTP/2: statuses {statuses}, body {body[:120]!r}"]
                    return []
            if statuses == ["100"] and not sent:
                h2c.send_data(1, BODY, end_stream=True)
                sent = True
            sock.sendall(h2c.data_to_send())


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--max-body", type=int, default=1 << 20)
    args = parser.parse_args()
    problems = http1(args) + http2(args)
    for problem in problems:
        print("FAIL: " + problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
