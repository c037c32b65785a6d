#!/usr/bin/env python3
"""HTTP benchmark of a running-from-scratch Carnet server over TLS on loopback.

Seeds a fresh data folder with N generated contacts (examples/generate_sample_data.py --vcf, then
`carnet import`), starts Benchmarks/Tools/carnet-server-bench (release build: `carnet serve`'s application with the rate
limit off and logging at warning), and loads
it with wrk (HTTP/1.1) and h2load (HTTP/2): a contact by id, a page of 50 sorted by family name, a name search,
a single-contact save (and `{ __typename }`, GraphQL without a store read), each beside GET /healthz, a static response from the same server (the ceiling).
The server is Benchmarks/Tools/carnet-server-bench: `carnet serve` with the rate limit off and POST /bench/static beside
/graphql (a route only the benchmark has). It also loads that route with the contact-by-id request: the same request
answered with a fixed body of the same size, so its gap to the query is Carnet's own work (auth, GraphQL, store, JSON).

Usage:
    swift build -c release --product carnet
    CARNET_BENCHMARKS=1 swift build -c release --product carnet-server-bench
    python3 scripts/bench_server.py [--contacts 10000] [--duration 10] [--connections 32] [--markdown] [--perf]
    python3 scripts/bench_server.py --database postgres://postgres@127.0.0.1:54329/postgres?sslmode=disable \
        [--contacts 100000] [--rounds 5]

With --database, contact by id on SQLite against the same data on PostgreSQL (issue 18): the seeded folder is copied
with `carnet migrate-store` into a fresh database carnet_bench_server on that server (dropped and made again each
run; psql makes it), both servers run side by side, and wrk and h2load load them in alternating rounds.

With --perf, `perf stat` also counts the server's instructions and cycles during each run (all its threads), and
the table gains instructions per request and instructions per cycle: unlike requests per second, instructions per
request hardly move between runs on this VM, so they show what a change did to the work a request takes.

Needs wrk and h2load (Debian: apt-get install wrk nghttp2-client). Prints requests per second and p99 latency
per operation and client, and the contact-by-id throughput as a share of the static response's. The static response
and the contact by id, the goal's pair, alternate in --rounds short rounds and report their median round; every
other row is one run of --duration seconds, its share against the median static round. The contact by id's share is
the median of each round's ratio.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CONTACT_BY_ID = ("query ContactById($id: ID!) { contact(id: $id) { id givenName familyName organizationName "
                 "phoneNumbers { label value } emailAddresses { label value } } }")
PAGE = ("query Page { contacts(first: 50, sortOrder: FAMILY_NAME) { nodes { id displayName "
        "emailAddresses { value } } pageInfo { endCursor hasNextPage } } }")
SEARCH = "query Search($q: String!) { contacts(first: 20, filter: {name: $q}) { nodes { id displayName } } }"
SAVE = ("mutation Save($request: SaveRequestInput!) { save(request: $request) { revision } }")


BUILD = ROOT / ".build"


def carnet(*args: str, data: Path | None, check=True) -> str:
    binary = BUILD / "release" / "carnet"
    # The data folder only: an exported CARNET_DATABASE_URL would send the seeding to PostgreSQL.
    env = {k: v for k, v in os.environ.items() if k != "CARNET_DATABASE_URL"}
    result = subprocess.run([str(binary), *args, *(["--data", str(data)] if data else [])],
                            capture_output=True, text=True, env=env)
    if check and result.returncode != 0:
        sys.exit(f"carnet {' '.join(args)} failed: {result.stderr}")
    return result.stdout


def wrk(url: str, token: str, body: Path | None, duration: int, connections: int) -> tuple[float, float]:
    env = dict(os.environ, BENCH_TOKEN=token, BENCH_BODY_FILE=str(body) if body else "")
    out = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{duration}s", "--latency",
                          "-s", str(ROOT / "scripts/bench/wrk_post.lua"), url],
                         capture_output=True, text=True, env=env, check=True).stdout
    failures = int(re.search(r"non-200-or-errors=(\d+)", out).group(1))
    if failures:
        sys.exit(f"wrk saw {failures} failed responses for {url} {body}:\n{out}")
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    return rps, float(p99.group(1)) * scale


def h2load(url: str, token: str, body: Path | None, duration: int, connections: int) -> tuple[float, float]:
    with tempfile.NamedTemporaryFile(suffix=".log") as log:
        command = ["h2load", "-t2", f"-c{min(connections, 8)}", "-m16", "-D", str(duration),
                   "-H", f"authorization: Bearer {token}", "--log-file", log.name]
        if body:
            command += ["-d", str(body), "-H", "content-type: application/json"]
        out = subprocess.run(command + [url], capture_output=True, text=True, check=True).stdout
        status = re.search(r"status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx", out)
        if not status or int(status.group(3)) or int(status.group(4)):
            sys.exit(f"h2load saw failures for {url} {body}:\n{out}")
        rps = float(re.search(r"finished in [\d.]+\w+, ([\d.]+) req/s", out).group(1))
        elapsed = sorted(int(line.split()[2]) for line in Path(log.name).read_text().splitlines() if line.strip())
        p99 = elapsed[min(len(elapsed) - 1, int(len(elapsed) * 0.99))] / 1000.0
    return rps, p99


class ServerCounters:
    """`perf stat` on the server for the middle of one load run: instructions and cycles per request."""

    def __init__(self, pid: int | None, duration: int):
        self.window = max(1, duration - 1)
        self.process = None if pid is None else subprocess.Popen(
            ["sh", "-c", f"sleep 0.5; exec perf stat -x, -e instructions,cycles -p {pid} -- sleep {self.window}"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)

    def per_request(self, rps: float) -> tuple[float, float] | None:
        if self.process is None:
            return None
        counts = {}
        for line in self.process.communicate()[1].splitlines():
            fields = line.split(",")
            if len(fields) > 2 and fields[0].isdigit():
                counts[fields[2].split(":")[0]] = int(fields[0])
        if "instructions" not in counts or "cycles" not in counts:
            return None
        return counts["instructions"] / (rps * self.window), counts["instructions"] / counts["cycles"]


def start_server(data: Path, port: int, database: str | None = None) -> subprocess.Popen:
    """carnet-server-bench on `data` (its TLS material, and its books unless `database` is given), once listening."""
    env = dict(os.environ)
    env.pop("CARNET_DATABASE_URL", None)
    if database:
        env["CARNET_DATABASE_URL"] = database
    server = subprocess.Popen([str(BUILD / "release/carnet-server-bench"), str(data), str(port)],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    for line in server.stdout:
        if "listening on" in line:
            return server
    sys.exit(f"carnet-server-bench on port {port} exited before listening")


def database_url(base: str, name: str) -> str:
    """`base` with its database replaced by `name`; libpq's form for psql drops Carnet's own parameters."""
    scheme, rest = base.split("://", 1)
    authority, _, tail = rest.partition("/")
    query = tail.partition("?")[2]
    return f"{scheme}://{authority}/{name}" + (f"?{query}" if query else "")


def psql(url: str, sql: str) -> None:
    libpq = "&".join(p for p in url.partition("?")[2].split("&") if p.split("=")[0] in ("sslmode", "sslrootcert"))
    subprocess.run(["psql", url.partition("?")[0] + (f"?{libpq}" if libpq else ""), "-v", "ON_ERROR_STOP=1",
                    "-qc", sql], check=True, capture_output=True)


def compare_backends(args, work: Path, data: Path, token: str, body: Path) -> None:
    """Contact by id on SQLite and on PostgreSQL (issue 18): the same folder copied with `carnet migrate-store`
    (same contacts, ids and token), two servers, loaded in alternating rounds so the machine's drift hits both."""
    url = database_url(args.database, "carnet_bench_server")
    psql(args.database, "DROP DATABASE IF EXISTS carnet_bench_server")
    psql(args.database, "CREATE DATABASE carnet_bench_server")
    carnet("migrate-store", "--from", str(data), "--to", url, data=None)
    servers = {"sqlite": start_server(data, args.port),
               "postgres": start_server(work / "pg-tls", args.port + 1, database=url)}
    ports = {"sqlite": args.port, "postgres": args.port + 1}
    try:
        for client, load in (("wrk (HTTP/1.1)", wrk), ("h2load (HTTP/2)", h2load)):
            rounds = {"sqlite": [], "postgres": []}
            for _ in range(args.rounds):
                for backend in ("sqlite", "postgres"):
                    rounds[backend].append(load(f"https://localhost:{ports[backend]}/graphql", token, body,
                                                args.round_duration, args.connections))
            ratios = [p[0] / s[0] for s, p in zip(rounds["sqlite"], rounds["postgres"])]
            for backend in ("sqlite", "postgres"):
                rps, p99 = statistics.median_low(rounds[backend])
                print(f"{client:16} contact by id  {backend:8} {rps:10,.0f} req/s   p99 {p99:7.2f} ms   "
                      f"(rounds: {', '.join(f'{r[0]:,.0f}' for r in rounds[backend])})")
            print(f"{client:16} postgres / sqlite in each round: {', '.join(f'{r:.0%}' for r in ratios)}; "
                  f"median {statistics.median(ratios):.0%}")
    finally:
        for server in servers.values():
            server.send_signal(signal.SIGTERM)
        for server in servers.values():
            server.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--contacts", type=int, default=10_000)
    parser.add_argument("--duration", type=int, default=10, help="seconds per operation")
    parser.add_argument("--rounds", type=int, default=3, help="alternating static / contact-by-id rounds")
    parser.add_argument("--round-duration", type=int, default=5, help="seconds per round")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--port", type=int, default=18443)
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    parser.add_argument("--perf", action="store_true", help="count the server's instructions per request (perf stat)")
    parser.add_argument("--scratch-path", default=".build", help="where the release binaries were built")
    parser.add_argument("--database", help="a postgres:// URL: compare contact by id on SQLite and PostgreSQL "
                        "(the same data copied with carnet migrate-store into its database carnet_bench_server)")
    args = parser.parse_args()
    global BUILD
    BUILD = ROOT / args.scratch_path
    for tool in ("wrk", "h2load") + (("perf",) if args.perf else ()):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: apt-get install wrk nghttp2-client")

    work = Path(tempfile.mkdtemp(prefix="carnet-bench-"))
    data = work / "data"
    vcf = work / "sample.vcf"
    subprocess.run([sys.executable, str(ROOT / "examples/generate_sample_data.py"), "-n", str(args.contacts),
                    "--vcf", str(vcf), "--seed", "1"], check=True, capture_output=True)
    carnet("import", str(vcf), data=data)
    token = carnet("token", "create", "--name", "bench", "--scope", "read", "--scope", "write", data=data).strip()
    first = json.loads(carnet("query", "{ contacts(first: 1, sortOrder: FAMILY_NAME) { nodes { id } } }", data=data))
    contact_id = first["data"]["contacts"]["nodes"][0]["id"]

    bodies = {
        # GraphQL with no store read: what HTTP, auth, parsing and execution cost on their own.
        "{ __typename }": {"query": "{ __typename }"},
        "contact by id": {"query": CONTACT_BY_ID, "variables": {"id": contact_id}},
        "page of 50": {"query": PAGE},
        "name search": {"query": SEARCH, "variables": {"q": "mar"}},
        "save 1 contact": {"query": SAVE, "variables": {"request": {"transactionAuthor": "bench", "operations": [
            {"addContact": {"givenName": "Bench", "familyName": "Mark", "emailAddresses": [
                {"label": "work", "value": "bench@example.com"}]}}]}}},
    }
    files = {}
    for name, body in bodies.items():
        path = work / (re.sub(r"[^a-z0-9]+", "-", name).strip("-") + ".json")
        path.write_text(json.dumps(body))
        files[name] = path

    if args.database:
        try:
            compare_backends(args, work, data, token, files["contact by id"])
        finally:
            shutil.rmtree(work, ignore_errors=True)
        return

    server = start_server(data, args.port)
    try:
        base = f"https://localhost:{args.port}"
        rows, notes = [], []
        counted = {}

        def measured(load, url: str, body: Path | None, duration: int, label: tuple[str, str]) -> tuple[float, float]:
            counters = ServerCounters(server.pid if args.perf else None, duration)
            rps, p99 = load(url, token, body, duration, args.connections)
            if (found := counters.per_request(rps)) is not None:
                counted.setdefault(label, []).append(found)
            return rps, p99

        for client, load in (("wrk (HTTP/1.1)", wrk), ("h2load (HTTP/2)", h2load)):
            def run(url: str, body: Path | None, duration: int, name: str) -> tuple[float, float]:
                return measured(load, url, body, duration, (client, name))
            # This VM's throughput drifts by a third within minutes: the static response and the contact by id
            # (the goal's pair) alternate in short rounds, and each reports its median round.
            rounds = {"static": [], "by id": []}
            for _ in range(args.rounds):
                rounds["static"].append(run(base + "/healthz", None, args.round_duration, "static GET /healthz"))
                rounds["by id"].append(run(base + "/graphql", files["contact by id"], args.round_duration,
                                           "contact by id"))
            static, by_id = (statistics.median_low(rounds[key]) for key in ("static", "by id"))
            rows.append((client, "static GET /healthz", *static, 1.0))
            same = run(base + "/bench/static", files["contact by id"], args.duration, "static POST, by-id request")
            rows.append((client, "static POST, by-id request", *same, same[0] / static[0]))
            # The goal's share: the median of each round's ratio, a static run and the by-id run right after it.
            ratios = [b[0] / a[0] for a, b in zip(rounds["static"], rounds["by id"])]
            for name, path in files.items():
                if name == "contact by id":
                    rows.append((client, name, *by_id, statistics.median(ratios)))
                    continue
                rps, p99 = run(base + "/graphql", path, args.duration, name)
                rows.append((client, name, rps, p99, rps / static[0]))
            notes.append(f"{client}: contact by id / static in each round: {', '.join(f'{r:.0%}' for r in ratios)}"
                         f" (static {', '.join(f'{a[0]:,.0f}' for a in rounds['static'])} req/s)")
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        shutil.rmtree(work, ignore_errors=True)

    def counts(client: str, name: str) -> str:
        found = counted.get((client, name))
        if not found:
            return "–"
        instructions = statistics.median(f[0] for f in found)
        return f"{instructions / 1000:,.0f}k, IPC {statistics.median(f[1] for f in found):.2f}"

    if args.markdown:
        extra = " Server instructions / request |" if args.perf else ""
        print("| Client | Operation | Requests/s | p99 (ms) | Share of static |" + extra)
        print("| --- | --- | ---: | ---: | ---: |" + (" ---: |" if args.perf else ""))
        for client, name, rps, p99, share in rows:
            cell = f" {counts(client, name)} |" if args.perf else ""
            print(f"| {client} | {name} | {rps:,.0f} | {p99:.2f} | {share:.0%} |" + cell)
    else:
        for client, name, rps, p99, share in rows:
            cell = f"   {counts(client, name)} instructions/request" if args.perf else ""
            print(f"{client:16} {name:22} {rps:10,.0f} req/s   p99 {p99:7.2f} ms   {share:5.0%} of static" + cell)
    for note in notes:
        print(note)


if __name__ == "__main__":
    main()
