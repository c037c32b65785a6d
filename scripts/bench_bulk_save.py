#!/usr/bin/env python3
"""Times one save of N adds, one of N updates and one of N deletes against the release `carnet serve`, on SQLite
and, with --database, on PostgreSQL (a fresh database each run, made and dropped with psql): what an import or a
clean-up through the API costs, client-inclusive over TLS. A save holds its book's lock throughout, so its time is
also how long other saves to that book wait.

Usage:
    swift build -c release --product carnet
    python3 scripts/bench_bulk_save.py [--operations 8000] [--rounds 3] \
        [--database postgres://postgres@127.0.0.1:54329/postgres?sslmode=disable]

Standard library only. Prints each round's seconds per save and backend, and each answer's error codes if any.
The request body limit (1 MiB by default) bounds --operations at about 10,000 adds of this shape.
"""
from __future__ import annotations

import argparse
import http.client
import json
import re
import shutil
import signal
import ssl
import subprocess
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAVE = "mutation($r: SaveRequestInput!) { save(request: $r) { revision contacts { id } } }"


class Server:
    """`carnet serve` on a new data folder (and `database`, if given), once it listens."""

    def __init__(self, binary: Path, database: str | None):
        self.data = Path(tempfile.mkdtemp(prefix="carnet-bulk-"))
        args = [str(binary), "serve", "--data", str(self.data), "--port", "0", "--rate-limit", "0"]
        if database:
            args += ["--database", database]
        log = self.data / "server.log"
        self.process = subprocess.Popen(args, stdout=log.open("wb"), stderr=subprocess.STDOUT)
        deadline = time.time() + 120
        self.port = self.token = None
        while time.time() < deadline and self.port is None:
            text = log.read_text(errors="replace")
            token = re.search(r"\b(carnet_[A-Za-z0-9_-]{12}_[A-Za-z0-9_-]{43})\b", text)
            port = re.search(r"listening on https?://[^:]+:(\d+)/graphql", text)
            self.token = token.group(1) if token else self.token
            self.port = int(port.group(1)) if port else None
            if self.process.poll() is not None:
                raise SystemExit("carnet serve exited:\n" + text[-2000:])
            time.sleep(0.1)
        if self.port is None or self.token is None:
            raise SystemExit("carnet serve did not start")
        context = ssl.create_default_context(cafile=str(self.data / "tls" / "ca.pem"))
        self.connection = http.client.HTTPSConnection("localhost", self.port, context=context, timeout=1800)

    def save(self, operations: list) -> tuple[float, dict]:
        body = json.dumps({"query": SAVE, "variables": {"r": {"transactionAuthor": "bulk", "operations": operations}}})
        started = time.perf_counter()
        self.connection.request(
            "POST", "/graphql", body,
            {"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"})
        answer = json.loads(self.connection.getresponse().read())
        return time.perf_counter() - started, answer

    def stop(self) -> None:
        self.connection.close()
        self.process.send_signal(signal.SIGTERM)
        self.process.wait(60)
        shutil.rmtree(self.data, ignore_errors=True)


def psql(url: str, sql: str) -> None:
    subprocess.run(["psql", url.partition("?")[0], "-qc", sql], check=True, capture_output=True)


def run(binary: Path, database: str | None, count: int) -> list[str]:
    server = Server(binary, database)
    try:
        figures = []
        adds = [{"addContact": {"givenName": f"Bulk{i % 50}", "emailAddresses": [{"value": f"b{i}@example.com"}]}}
                for i in range(count)]
        seconds, answer = server.save(adds)
        ids = [contact["id"] for contact in ((answer.get("data") or {}).get("save") or {}).get("contacts", [])]
        figures.append(f"add {seconds:.1f} s" + errors(answer))
        updates = [{"updateContact": {"id": i, "givenName": "Renamed", "jobTitle": "Engineer"}} for i in ids]
        seconds, answer = server.save(updates)
        figures.append(f"update {seconds:.1f} s" + errors(answer))
        seconds, answer = server.save([{"deleteContact": i} for i in ids])
        figures.append(f"delete {seconds:.1f} s" + errors(answer))
        return figures
    finally:
        server.stop()


def errors(answer: dict) -> str:
    codes = [(error.get("extensions") or {}).get("code") for error in answer.get("errors") or []]
    return f" {codes}" if codes else ""


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--operations", type=int, default=8000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--database", help="a PostgreSQL server's URL (its database is replaced by a new one)")
    parser.add_argument("--binary", type=Path, default=ROOT / ".build/release/carnet")
    args = parser.parse_args()
    for round in range(args.rounds):
        print(f"round {round}, SQLite: " + ", ".join(run(args.binary, None, args.operations)), flush=True)
        if args.database:
            scheme, rest = args.database.split("://", 1)
            authority, _, tail = rest.partition("/")
            query = tail.partition("?")[2]
            url = f"{scheme}://{authority}/carnet_bench_bulk" + (f"?{query}" if query else "")
            psql(args.database, "DROP DATABASE IF EXISTS carnet_bench_bulk WITH (FORCE)")
            psql(args.database, "CREATE DATABASE carnet_bench_bulk")
            try:
                print(f"round {round}, PostgreSQL: " + ", ".join(run(args.binary, url, args.operations)), flush=True)
            finally:
                psql(args.database, "DROP DATABASE IF EXISTS carnet_bench_bulk WITH (FORCE)")


if __name__ == "__main__":
    main()
