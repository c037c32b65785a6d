#!/usr/bin/env python3
"""A WebSocket client that stops reading while large answers are pending is closed once the server's writes have
waited `--stall` seconds, and the answers it held leave the server's budget: a query of another client is
answered. Before, such a socket was never closed (its ping waited behind the answers, so the ping timeout never
came), and a few of them kept the budget full, so other clients' large queries got SERVER_BUSY (an outside
tester's find).

    python3 tests/clients/ws_stalled_reader.py --port PORT --ca ca.pem --token TOKEN --stall SECONDS

The client's receive buffer is 4 KiB and each answer ~6 MB (ws_unread_responses.py), so the answers stay with
the server. Exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import json
import ssl
import sys
import time

import httpx

from ws_unread_responses import QUERY, Reader, built, frame, open_socket, seed

SOCKETS = 2
ASKED = 2


def main() -> int:
    context = ssl.create_default_context(cafile=ARGS.ca)
    with httpx.Client(base_url=f"https://localhost:{ARGS.port}", verify=context, timeout=120,
                      headers={"Authorization": f"Bearer {ARGS.token}"}) as client:
        seed(client)
        before = built(client)
        stalled = []
        for number in range(SOCKETS):
            connection, reader = open_socket(ARGS.port, ARGS.ca, ARGS.token)
            for index in range(ASKED):
                connection.sendall(frame(json.dumps(
                    {"id": f"s{number}-{index}", "type": "subscribe", "payload": {"query": QUERY}})))
            stalled.append((connection, reader))
        deadline = time.monotonic() + 300
        while built(client) < before + SOCKETS * ASKED:
            if time.monotonic() > deadline:
                raise SystemExit(f"FAIL: the server ran {built(client) - before} of {SOCKETS * ASKED} queries")
            time.sleep(0.2)
        # Unread past the stall limit (and the answers' own writing, on a loaded machine): then closed.
        time.sleep(ARGS.stall + 10)
        for number, (connection, reader) in enumerate(stalled):
            answers = 0
            try:
                while answers < ASKED:
                    message = reader.message()
                    if message.get("type") in ("next", "error"):
                        answers += 1
            except (SystemExit, OSError):
                pass  # the server closed the socket before the answers were all written: what this checks
            else:
                print(f"FAIL: socket {number} unread for {ARGS.stall + 10} s was not closed: its {ASKED} answers came")
                return 1
            connection.close()
        # Their answers left the budget: another client's same query is answered.
        reply = client.post("/graphql", json={"query": QUERY})
        if reply.status_code != 200 or "errors" in reply.json():
            print(f"FAIL: after the stalled sockets closed, a query got {reply.status_code} {reply.text[:300]}")
            return 1
        print(f"{SOCKETS} sockets that stopped reading were closed after the {ARGS.stall} s stall limit")
    return 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--stall", type=int, required=True)
    ARGS = parser.parse_args()
    sys.exit(main())
