#!/usr/bin/env python3
"""HTTP/2 stream errors end one stream, not the connection: a request with an invalid header block (an uppercase
or connection-specific header field, a pseudo-header after a regular one) or a body that disagrees with its
content-length is reset (RST_STREAM, PROTOCOL_ERROR), and a request of the same client in flight on the same
connection, and one sent after, are answered. A connection error (a PING frame of the wrong size) still ends the
connection with GOAWAY.

    python3 tests/clients/h2_stream_errors.py --port PORT --ca ca.pem --token TOKEN

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
    import h2.errors
    import h2.events
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"h2_stream_errors.py needs httpx[http2] (pip install -r tests/clients/requirements.txt): {error}")

QUERY = json.dumps({"query": "{ __typename }"}).encode()


def read(connection, h2c, streams: set[int]) -> dict[int, object] | str:
    """Reads until every stream in `streams` has ended or been reset: each stream's status (str) or its reset's
    error code (h2.errors.ErrorCodes); or why the connection ended first."""
    outcome: dict[int, object] = {}
    while not streams <= outcome.keys():
        try:
            data = connection.recv(65536)
        except OSError as error:
            data = b""
        if not data:
            return f"the server closed the connection with {sorted(streams - outcome.keys())} open"
        for event in h2c.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                status = dict(event.headers).get(b":status", b"").decode()
                if status != "200":
                    outcome[event.stream_id] = status
            elif isinstance(event, h2.events.DataReceived):
                h2c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                outcome.setdefault(event.stream_id, "200")
            elif isinstance(event, h2.events.StreamReset):
                outcome[event.stream_id] = h2.errors.ErrorCodes(event.error_code)
            elif isinstance(event, h2.events.ConnectionTerminated):
                return f"GOAWAY {event.error_code!r}"
        try:
            connection.sendall(h2c.data_to_send())
        except OSError as error:
            return f"the server closed the connection ({error})"
    return outcome


def request(token: str, length: int | None = None) -> list[tuple[str, str]]:
    headers = [(":method", "POST"), (":scheme", "https"), (":authority", "localhost"), (":path", "/graphql"),
               ("authorization", f"Bearer {token}"), ("content-type", "application/json")]
    if length is not None:
        headers.append(("content-length", str(length)))
    return headers


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    args = parser.parse_args()
    context = ssl.create_default_context(cafile=args.ca)
    context.set_alpn_protocols(["h2"])
    bad_headers = {
        "uppercase header name": request(args.token) + [("X-Upper", "1")],
        "connection-specific header": request(args.token) + [("connection", "keep-alive")],
        "pseudo-header after a regular one": request(args.token)[1:] + [(":method", "POST")],
    }
    failures = 0
    with context.wrap_socket(socket.create_connection(("127.0.0.1", args.port), timeout=120),
                             server_hostname="localhost") as connection:
        config = h2.config.H2Configuration(client_side=True, validate_outbound_headers=False,
                                           normalize_outbound_headers=False, validate_inbound_headers=False)
        h2c = h2.connection.H2Connection(config)
        h2c.initiate_connection()
        connection.sendall(h2c.data_to_send())
        cases = [(name, headers, None) for name, headers in bad_headers.items()]
        cases.append(("body longer than its content-length", request(args.token, len(QUERY) - 3), QUERY))
        for name, headers, body in cases:
            # A good request whose body is still to come, then the bad one, then the good one's body and a new one.
            pending = h2c.get_next_available_stream_id()
            h2c.send_headers(pending, request(args.token, len(QUERY)))
            bad = h2c.get_next_available_stream_id()
            h2c.send_headers(bad, headers, end_stream=body is None)
            if body is not None:
                h2c.send_data(bad, body, end_stream=True)
            connection.sendall(h2c.data_to_send())
            first = read(connection, h2c, {bad})
            h2c.send_data(pending, QUERY, end_stream=True)
            after = h2c.get_next_available_stream_id()
            h2c.send_headers(after, request(args.token, len(QUERY)))
            h2c.send_data(after, QUERY, end_stream=True)
            connection.sendall(h2c.data_to_send())
            rest = read(connection, h2c, {pending, after}) if isinstance(first, dict) else first
            expected = {bad: h2.errors.ErrorCodes.PROTOCOL_ERROR}
            if first != expected or rest != {pending: "200", after: "200"}:
                print(f"FAIL: {name}: the bad stream {first}, the others {rest}")
                failures += 1
                break
            print(f"{name}: stream reset with PROTOCOL_ERROR; the request in flight and the next answered 200")
        if failures == 0:
            # A connection error still ends the connection: PING's payload is 8 bytes (RFC 9113 6.7).
            connection.sendall(b"\x00\x00\x07\x06\x00\x00\x00\x00\x00" + b"\x00" * 7)
            outcome = read(connection, h2c, {h2c.get_next_available_stream_id()})
            if not (isinstance(outcome, str) and outcome.startswith("GOAWAY")):
                print(f"FAIL: a PING of 7 bytes: {outcome}")
                failures += 1
            else:
                print(f"a PING of 7 bytes: {outcome}")
    if failures == 0:
        failures += ping_flood(context, args.port)
    if failures == 0:
        failures += zero_increment(context, args.port, args.token)
    return 1 if failures else 0


def zero_increment(context, port: int, token: str) -> int:
    """A WINDOW_UPDATE of increment 0 on a request's stream (RFC 9113 6.9) ends the connection with a GOAWAY that
    says why: the server once reset the stream and closed the connection without a word."""
    with context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=120),
                             server_hostname="localhost") as connection:
        h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        h2c.initiate_connection()
        stream = h2c.get_next_available_stream_id()
        h2c.send_headers(stream, request(token, len(QUERY)))
        connection.sendall(h2c.data_to_send())
        connection.sendall(b"\x00\x00\x04\x08\x00" + stream.to_bytes(4, "big") + b"\x00\x00\x00\x00")
        outcome = "the server closed the connection without GOAWAY"
        try:
            while data := connection.recv(65536):
                terminated = [e for e in h2c.receive_data(data) if isinstance(e, h2.events.ConnectionTerminated)]
                if terminated:
                    outcome = f"GOAWAY {terminated[0].error_code!r}"
                    break
        except OSError as error:
            outcome = f"the server closed the connection without GOAWAY ({error})"
        if outcome != f"GOAWAY {h2.errors.ErrorCodes.PROTOCOL_ERROR!r}":
            print(f"FAIL: a zero window increment on a stream: {outcome}")
            return 1
        print(f"a zero window increment on a stream: {outcome}")
    return 0


def ping_flood(context, port: int) -> int:
    """Ten PINGs at once on an idle connection are past the server's ping policy: it closes the connection, and the
    GOAWAY that says why (ENHANCE_YOUR_CALM) reaches the client first."""
    with context.wrap_socket(socket.create_connection(("127.0.0.1", port), timeout=120),
                             server_hostname="localhost") as connection:
        h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        h2c.initiate_connection()
        for number in range(10):
            h2c.ping(number.to_bytes(8, "big"))
        connection.sendall(h2c.data_to_send())
        # Read only: a write after the server's close would be answered with a reset, which can discard the
        # GOAWAY still unread here.
        outcome = "the server closed the connection without GOAWAY"
        while data := connection.recv(65536):
            terminated = [e for e in h2c.receive_data(data) if isinstance(e, h2.events.ConnectionTerminated)]
            if terminated:
                outcome = f"GOAWAY {terminated[0].error_code!r}"
                break
        if outcome != f"GOAWAY {h2.errors.ErrorCodes.ENHANCE_YOUR_CALM!r}":
            print(f"FAIL: ten PINGs at once: {outcome}")
            return 1
        print(f"ten PINGs at once: {outcome} before the close")
        return 0


if __name__ == "__main__":
    sys.exit(main())
