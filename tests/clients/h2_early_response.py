#!/usr/bin/env python3
"""An HTTP/2 request answered before its body has all arrived (413 for a body announced over the limit, 401 with
no token) is then reset with NO_ERROR (RFC 9113 8.1), so that the client stops sending; a request answered after
its body is not reset; the connection serves the next request either way. Before, the client uploaded the whole
announced body, the server granting window for bytes it dropped.

    python3 tests/clients/h2_early_response.py --port PORT --ca ca.pem --token TOKEN [--limit BYTES]

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
    import h2.exceptions
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"h2_early_response.py needs httpx[http2] (pip install -r tests/clients/requirements.txt): {error}")

QUERY = json.dumps({"query": "{ __typename }"}).encode()


def headers(token: str | None, length: int) -> list[tuple[str, str]]:
    fields = [(":method", "POST"), (":scheme", "https"), (":authority", "localhost"), (":path", "/graphql"),
              ("content-type", "application/json"), ("content-length", str(length))]
    return fields + ([("authorization", f"Bearer {token}")] if token else [])


def exchange(connection, h2c, fields, length: int, first: bytes = b"") -> dict:
    """Sends a request announcing `length` bytes of body and keeps sending (`first`, then filler) as flow control
    allows, until the stream ends both ways or is reset. What happened: status, whether the response ended,
    the reset's code, the body bytes sent."""
    stream = h2c.get_next_available_stream_id()
    h2c.send_headers(stream, fields)
    connection.sendall(h2c.data_to_send())
    body = first + b" " * (length - len(first))
    sent, outcome = 0, {"status": None, "ended": False, "reset": None, "sent": 0}
    while True:
        if sent < length and stream in h2c.streams and outcome["reset"] is None:
            try:
                window = min(h2c.local_flow_control_window(stream), h2c.max_outbound_frame_size)
                if window > 0:
                    chunk = body[sent:sent + window]
                    sent += len(chunk)
                    h2c.send_data(stream, chunk, end_stream=sent == length)
                    connection.sendall(h2c.data_to_send())
                    continue
            except h2.exceptions.StreamClosedError:
                pass
        if outcome["reset"] is not None or (outcome["ended"] and sent == length):
            break
        data = connection.recv(65536)
        if not data:
            raise SystemExit(f"FAIL: the server closed the connection: {outcome}")
        for event in h2c.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                outcome["status"] = dict(event.headers).get(b":status", b"").decode()
            elif isinstance(event, h2.events.DataReceived):
                h2c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                outcome["ended"] = True
            elif isinstance(event, h2.events.StreamReset):
                outcome["reset"] = h2.errors.ErrorCodes(event.error_code)
            elif isinstance(event, h2.events.ConnectionTerminated):
                raise SystemExit(f"FAIL: GOAWAY {event.error_code!r}: {outcome}")
        connection.sendall(h2c.data_to_send())
    outcome["sent"] = sent
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--limit", type=int, default=1 << 20, help="the server's body limit")
    args = parser.parse_args()
    context = ssl.create_default_context(cafile=args.ca)
    context.set_alpn_protocols(["h2"])
    big = 64 * args.limit
    failures = 0
    with context.wrap_socket(socket.create_connection(("127.0.0.1", args.port), timeout=120),
                             server_hostname="localhost") as connection:
        h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        h2c.initiate_connection()
        connection.sendall(h2c.data_to_send())
        cases = [
            ("body announced over the limit", headers(args.token, big), big, b"", "413"),
            ("no token, body still to come", headers(None, big), big, b"", "401"),
        ]
        for name, fields, length, first, status in cases:
            outcome = exchange(connection, h2c, fields, length, first)
            # The answer ends before the body does, and the reset stops the upload well short of its length.
            if (outcome["status"], outcome["ended"], outcome["reset"]) != (status, True, h2.errors.ErrorCodes.NO_ERROR) \
                    or outcome["sent"] >= length // 2:
                print(f"FAIL: {name}: {outcome} of {length} bytes")
                failures += 1
            else:
                print(f"{name}: {status}, then RST_STREAM NO_ERROR after {outcome['sent']} of {length} bytes")
            answered = exchange(connection, h2c, headers(args.token, len(QUERY)), len(QUERY), QUERY)
            if (answered["status"], answered["ended"], answered["reset"]) != ("200", True, None):
                print(f"FAIL: after {name}, a good request: {answered}")
                failures += 1
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
