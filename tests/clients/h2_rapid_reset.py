#!/usr/bin/env python3
"""HTTP/2 rapid reset (the CVE-2023-44487 pattern) against Carnet: streams that ask for an expensive query and are
reset at once must not run it. Before the fix every reset stream ran its query to the end, and 25,000 of them kept
the server busy for over two minutes.

Usage (against a release `carnet serve --rate-limit 0`; not part of `swift test`: a debug build's handlers are so slow
that reset streams stop either way, and on two loaded cores 2,000 of them outlast the bound):
    python3 tests/clients/h2_rapid_reset.py --port PORT --ca ca.pem --token TOKEN [--streams 2000]

Seeds 300 contacts with 2 KB notes, then sends --streams HEADERS + RST_STREAM pairs (a GET of 1,000 contacts with
their vCards each) over connections of 200 streams, then asks for a tiny query (the 60 s bound only catches a stall:
running the reset queries took minutes) and reads the server's metrics: most of those GETs must have ended as 499
(stopped because their client left), not 200 (run to the end). Exit status 1 on failure.
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
    import httpx
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"h2_rapid_reset.py needs httpx[http2] (pip install -r tests/clients/requirements.txt): {error}")

EXPENSIVE = "/graphql?query=%7Bcontacts(first%3A1000)%7Bnodes%7Bid%20vCard%20note%7D%7D%7D"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--streams", type=int, default=2000)
    args = parser.parse_args()
    url = f"https://localhost:{args.port}/graphql"
    headers = {"Authorization": f"Bearer {args.token}"}
    with httpx.Client(verify=args.ca, timeout=300) as client:
        operations = [{"addContact": {"givenName": f"P{i}", "familyName": "Reset", "note": "n" * 2000}}
                      for i in range(300)]
        seeded = client.post(url, headers=headers, json={
            "query": "mutation($r: SaveRequestInput!) { save(request: $r) { revision } }",
            "variables": {"r": {"operations": operations}}})
        if seeded.status_code != 200 or "errors" in seeded.json():
            print(f"FAIL seeding: {seeded.status_code} {seeded.text[:300]}")
            return 1

        context = ssl.create_default_context(cafile=args.ca)
        context.set_alpn_protocols(["h2"])
        request = [(":method", "GET"), (":scheme", "https"), (":authority", "localhost"), (":path", EXPENSIVE),
                   ("authorization", f"Bearer {args.token}")]
        sent = 0
        while sent < args.streams:
            with context.wrap_socket(socket.create_connection(("127.0.0.1", args.port)),
                                     server_hostname="localhost") as connection:
                h2c = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True))
                h2c.initiate_connection()
                for index in range(min(200, args.streams - sent)):
                    stream = h2c.get_next_available_stream_id()
                    h2c.send_headers(stream, request, end_stream=True)
                    h2c.reset_stream(stream)
                    if index % 50 == 49:
                        connection.sendall(h2c.data_to_send())
                connection.sendall(h2c.data_to_send())
                sent += 200

        start = time.monotonic()
        try:
            reply = client.post(url, headers=headers, json={"query": "{ viewer { id } }"}, timeout=60)
            waited = time.monotonic() - start
            ok = reply.status_code == 200 and "errors" not in reply.json()
        except httpx.TimeoutException:
            waited, ok = time.monotonic() - start, False
        print(f"{sent} streams reset; the next query {'answered' if ok else 'FAILED'} after {waited:.2f} s")
        # The server's own count: a reset stream's request ends as 499 (its client left) once it notices, where
        # one that ran to the end is a 200. Most must have been stopped.
        metrics = client.get(f"https://localhost:{args.port}/metrics").text
        counts = {status: sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
                              if line.startswith('carnet_http_requests_total{route="/graphql",method="GET"')
                              and f'status="{status}"' in line) for status in ("200", "499")}
        print(f"GET /graphql: {counts['200']:.0f} answered, {counts['499']:.0f} stopped as their clients left")
        stopped = counts["499"] > 0 and counts["499"] >= counts["200"]
        if not stopped:
            print("FAIL: the reset streams' queries ran")
        return 0 if ok and stopped else 1


if __name__ == "__main__":
    sys.exit(main())
