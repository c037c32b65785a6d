#!/usr/bin/env python3
"""HTTP/2 stream limit: Carnet announces SETTINGS_MAX_CONCURRENT_STREAMS (ServerConfiguration's
maxConcurrentHTTP2Streams) once the connection is up, so a client that reads none of its answers holds that many,
not Hummingbird's 100 (an outside client held 1.7 GB with 4 connections of 100 unread multi-MB answers). A client
that keeps to the limit gets every answer on one connection.

    python3 tests/clients/h2_stream_limit.py --port PORT --ca ca.pem --token TOKEN [--expect 8] [--keep SECONDS]
        [--header-list BYTES]

It also checks the announced header list size (ServerConfiguration's maxRequestHeadBytes) and that a GET of 40 KB
is answered once it is acknowledged.

With --keep, the connection then asks one request every quarter second for that long: a busy connection must stay
open past the guard's limit for a silent one (idle timeout + 15 s; the test sets a short idle timeout).

Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import socket
import ssl
import sys
import time

try:
    import h2.config
    import h2.connection
    import h2.events
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"h2_stream_limit.py needs httpx[http2] (pip install -r tests/clients/requirements.txt): {error}")


def answers(connection, h2c, streams: set[int]) -> dict[int, str] | None:
    """Reads until every stream in `streams` has ended: each stream's status, or None (and why) if the connection
    or a stream ended first."""
    statuses: dict[int, str] = {}
    ended: set[int] = set()
    while ended != streams:
        data = connection.recv(65536)
        if not data:
            print(f"FAIL: the server closed the connection with {len(streams - ended)} answers missing")
            return None
        for event in h2c.receive_data(data):
            if isinstance(event, h2.events.ResponseReceived):
                statuses[event.stream_id] = dict(event.headers).get(b":status", b"").decode()
            elif isinstance(event, h2.events.DataReceived):
                h2c.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                ended.add(event.stream_id)
            elif isinstance(event, (h2.events.StreamReset, h2.events.ConnectionTerminated)):
                print(f"FAIL: {event}")
                return None
        connection.sendall(h2c.data_to_send())
    return statuses


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--expect", type=int, default=8)
    parser.add_argument("--keep", type=float, default=0)
    parser.add_argument("--header-list", type=int, default=80 * 1024)
    args = parser.parse_args()
    context = ssl.create_default_context(cafile=args.ca)
    context.set_alpn_protocols(["h2"])
    with context.wrap_socket(socket.create_connection(("127.0.0.1", args.port), timeout=60),
                             server_hostname="localhost") as connection:
        h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
        h2c.initiate_connection()
        connection.sendall(h2c.data_to_send())
        # The announced limit arrives in the server's second SETTINGS frame; wait for it (or give up after 30 s).
        deadline = time.monotonic() + 30
        while h2c.remote_settings.max_concurrent_streams != args.expect and time.monotonic() < deadline:
            data = connection.recv(65536)
            if not data:
                print("FAIL: the server closed the connection")
                return 1
            h2c.receive_data(data)
            connection.sendall(h2c.data_to_send())
        announced = h2c.remote_settings.max_concurrent_streams
        if announced != args.expect:
            print(f"FAIL: the server announced {announced} concurrent streams, expected {args.expect}")
            return 1
        header_list = h2c.remote_settings.max_header_list_size
        if header_list != args.header_list:
            print(f"FAIL: the server announced a header list of {header_list} bytes, expected {args.header_list}")
            return 1
        # Once acknowledged, the announced size is the limit: a GET with a 40 KB query string (NIO's first limit
        # is 16 KiB, past which it ended the connection) is answered like any other.
        long_get = [(":method", "GET"), (":scheme", "https"), (":authority", "localhost"),
                    (":path", "/graphql?query=%7B__typename%7D%23" + "x" * 40_000),
                    ("authorization", f"Bearer {args.token}")]
        stream = h2c.get_next_available_stream_id()
        h2c.send_headers(stream, long_get, end_stream=True)
        connection.sendall(h2c.data_to_send())
        statuses = answers(connection, h2c, {stream})
        if statuses != {stream: "200"}:
            print(f"FAIL: a GET with a 40 KB query string: {statuses}")
            return 1
        print(f"a header list of {header_list} bytes announced; a GET of 40 KB answered 200")
        # As many requests at once as announced, all answered on this connection.
        request = [(":method", "GET"), (":scheme", "https"), (":authority", "localhost"),
                   (":path", "/graphql?query=%7B__typename%7D"), ("authorization", f"Bearer {args.token}")]
        streams = set()
        for _ in range(announced):
            stream = h2c.get_next_available_stream_id()
            h2c.send_headers(stream, request, end_stream=True)
            streams.add(stream)
        connection.sendall(h2c.data_to_send())
        statuses = answers(connection, h2c, streams)
        if statuses is None:
            return 1
        if set(statuses.values()) != {"200"}:
            print(f"FAIL: statuses {statuses}")
            return 1
        print(f"{announced} concurrent streams announced; {len(streams)} requests at once answered 200")
        end = time.monotonic() + args.keep
        asked = 0
        while time.monotonic() < end:
            stream = h2c.get_next_available_stream_id()
            h2c.send_headers(stream, request, end_stream=True)
            connection.sendall(h2c.data_to_send())
            if answers(connection, h2c, {stream}) is None:
                print(f"FAIL: the busy connection ended after {asked} more requests")
                return 1
            asked += 1
            time.sleep(0.25)
        if args.keep:
            print(f"{asked} more requests over {args.keep:.0f} s on the same connection")
        return 0


if __name__ == "__main__":
    sys.exit(main())
