#!/usr/bin/env python3
"""SIGTERM ends `carnet serve` even while a changeHistory subscriber has stopped reading. Its payloads pile up
unsent, and the 1001 close frame waited behind them: the process never exited (an outside sync tester killed it
after 120 s). The shutdown now gives up on that close after the grace period and cuts the connection at the
server's own shutdown limit. Queries in flight on the same socket, their answers stuck behind the payloads, held
the shutdown longer still: the drain waited the grace period for them, then again for the close, and only then did
the server's own limit start (35 s past SIGTERM, an outside tester's find). Every limit now counts from SIGTERM:
the README's 15 s for any connection still open.

With --plain-http the same over plain HTTP (a server behind a TLS-terminating proxy), which went through another
channel without the shutdown's limit and never exited (an outside tester's find).

Usage: python3 tests/clients/shutdown_stuck_subscriber.py PATH/TO/carnet [--plain-http]
Starts its own server in a temporary folder; exit status 1 when it does not exit 0 within 25 s of SIGTERM (the
documented 15 s and a margin for a loaded machine).
"""
from __future__ import annotations

import asyncio
import json
import re
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

SUBSCRIPTION = "subscription { changeHistory { token events { __typename } } }"
QUERY = "{ contacts(first: 1000) { nodes { note } } }"
SAVE = 'mutation($n: String) { save(request: {operations: [{addContact: {givenName: "x", note: $n}}]}) { revision } }'


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


async def main(binary: str, plain: bool) -> int:
    with tempfile.TemporaryDirectory() as folder:
        data, port = Path(folder) / "data", free_port()
        log = open(Path(folder) / "server.log", "w+")
        server = subprocess.Popen([binary, "serve", "--data", str(data), "--port", str(port), "--rate-limit", "0"]
                                  + (["--plain-http"] if plain else []), stdout=log, stderr=subprocess.STDOUT)
        try:
            token = None
            for _ in range(600):
                log.seek(0)
                found = re.search(r"shown only this once:\s+(carnet_\S+)", log.read())
                if found:
                    token = found.group(1)
                    break
                time.sleep(0.1)
            if token is None:
                print("the server did not start")
                return 1
            context = None if plain else ssl.create_default_context(cafile=str(data / "tls" / "ca.pem"))
            scheme = "http" if plain else "https"
            # A tiny receive buffer, never read: the server's payloads stay queued on its side.
            raw = socket.create_connection(("127.0.0.1", port))
            raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            raw.setblocking(False)
            tls = {} if plain else {"ssl": context, "server_hostname": "localhost"}
            ws = await connect(f"{'ws' if plain else 'wss'}://localhost:{port}/graphql", sock=raw, **tls,
                               subprotocols=["graphql-transport-ws"], max_queue=1, ping_interval=None, max_size=None)
            await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}))
            await ws.recv()
            await ws.send(json.dumps({"type": "subscribe", "id": "1", "payload": {"query": SUBSCRIPTION}}))
            await ws.recv()
            async with httpx.AsyncClient(verify=context or False) as http:
                for _ in range(80):
                    await http.post(f"{scheme}://localhost:{port}/graphql", json={"query": SAVE, "variables": {
                        "n": "y" * 60000}}, headers={"Authorization": f"Bearer {token}"})
            # Queries whose answers (4.8 MB each) wait behind the payloads: operations in flight at the shutdown.
            for index in range(4):
                await ws.send(json.dumps({"type": "subscribe", "id": f"q{index}", "payload": {"query": QUERY}}))
            await asyncio.sleep(1)
            started = time.monotonic()
            server.send_signal(signal.SIGTERM)
            while server.poll() is None and time.monotonic() - started < 60:
                await asyncio.sleep(0.1)
            elapsed = time.monotonic() - started
            print(f"SIGTERM with a subscriber that stopped reading ({scheme}): exit {server.poll()} after {elapsed:.1f} s")
            return 0 if server.poll() == 0 and elapsed < 25 else 1
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], "--plain-http" in sys.argv[2:])))
