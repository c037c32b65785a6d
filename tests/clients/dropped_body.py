#!/usr/bin/env python3
"""A client that drops its connection in the middle of a request body, without TLS's close_notify (a phone going
out of range), is a client that left: the server counts it as 499, as for any other client that went away, never as
a 500, and logs no error. Before, each was logged as an unhandled NIOSSLError and counted as a 500, which set off
error-rate alerts (an outside fuzzer saw 280 in one run).

Usage: python3 tests/clients/dropped_body.py --port PORT --ca ca.pem --token TOKEN
Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import socket
import ssl
import sys
import time
import urllib.request


def counts(port: int, context: ssl.SSLContext) -> dict[str, float]:
    with urllib.request.urlopen(f"https://localhost:{port}/metrics", context=context, timeout=30) as response:
        metrics = response.read().decode()
    result = {}
    for status in ("499", "500"):
        result[status] = sum(float(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
                             if line.startswith("carnet_http_requests_total") and 'route="/graphql"' in line
                             and f'status="{status}"' in line)
    return result


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--drops", type=int, default=5)
    args = parser.parse_args()
    context = ssl.create_default_context(cafile=args.ca)
    context.set_alpn_protocols(["http/1.1"])
    before = counts(args.port, context)
    for _ in range(args.drops):
        raw = socket.create_connection(("127.0.0.1", args.port))
        tls = context.wrap_socket(raw, server_hostname="localhost")
        tls.sendall(
            f"POST /graphql HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer {args.token}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"query\":".encode())
        time.sleep(0.2)
        # SSLSocket.shutdown shuts the TCP socket down without TLS's close_notify: the connection just ends.
        tls.shutdown(socket.SHUT_RDWR)
        tls.close()
    # The server notices each at once; its count is read until it shows them all (or the bound passes).
    deadline = time.monotonic() + 60
    while True:
        after = counts(args.port, context)
        dropped = after["499"] - before["499"]
        errors = after["500"] - before["500"]
        if dropped >= args.drops or errors > 0 or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    print(f"{args.drops} dropped bodies: {dropped:.0f} counted as 499, {errors:.0f} as 500")
    return 0 if dropped == args.drops and errors == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
