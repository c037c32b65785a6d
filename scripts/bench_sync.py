#!/usr/bin/env python3
"""Sync benchmarks over TLS on loopback, against a release build of Carnet.

1. Full sync: a new device pulls N contacts with every key through `changeHistory(since: null, first: 10000)`,
   page after page, client-inclusive (the requests and the JSON parsing). Median of --rounds.
2. The same cards from Radicale (PyPI `radicale`, the same TLS certificate): one WebDAV `sync-collection` REPORT
   with every card's address data, client-inclusive (the request and the XML parsing). Median of --rounds.
   Both are also reported up to the last byte received, without the client's parsing: Python's parsers are a
   property of this client, not of either server.
   Radicale's cards are then parsed once with vobject, for what a CardDAV client pays to hold the contacts as
   fields, as the JSON client does after `json.loads`.
3. Commit to subscriber: a wss `changeHistory` subscriber on an idle server; --saves saves one at a time over HTTP
   from another client, each timed from just before the save is sent until the subscriber holds its event; and
   at the server, from the commit to the payload written on the socket (`carnet_subscription_delivery_seconds`,
   read from /metrics before and after: bucket bounds). Then the same with the saves sent by another client over a
   WebSocket of its own, which costs the client less than an HTTP request.

Usage:
    swift build -c release --product carnet
    python3 -m pip install radicale httpx websockets vobject [orjson]
    python3 scripts/bench_sync.py [--contacts 10000] [--rounds 5] [--saves 300]
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import httpx
import vobject

try:
    import orjson
except ImportError:
    orjson = None
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
LABELED = "identifier label"
CONTACT_KEYS = f"""
  id contactType namePrefix givenName middleName familyName previousFamilyName nameSuffix nickname
  phoneticGivenName phoneticMiddleName phoneticFamilyName phoneticOrganizationName organizationName departmentName
  jobTitle note birthday {{ calendar era year month day isLeapMonth }}
  nonGregorianBirthday {{ calendar era year month day isLeapMonth }} imageData thumbnailImageData imageDataAvailable
  phoneNumbers {{ {LABELED} value }} emailAddresses {{ {LABELED} value }} urlAddresses {{ {LABELED} value }}
  postalAddresses {{ {LABELED} value {{ street subLocality city subAdministrativeArea state postalCode country isoCountryCode }} }}
  dates {{ {LABELED} value {{ calendar era year month day isLeapMonth }} }}
  contactRelations {{ {LABELED} value {{ name }} }}
  socialProfiles {{ {LABELED} value {{ urlString username userIdentifier service }} }}
  instantMessageAddresses {{ {LABELED} value {{ username service }} }}
"""
FULL_SYNC = f"""
query FullSync($since: String) {{
  changeHistory(since: $since, first: 10000) {{
    token hasMore
    events {{ __typename ... on AddContactEvent {{ contact {{ {CONTACT_KEYS} }} }} }}
  }}
}}
"""
FEED = "subscription Feed($since: String) { changeHistory(since: $since) { token events { __typename ... on AddContactEvent { contactId } } } }"
SAVE = "mutation Save($request: SaveRequestInput!) { save(request: $request) { contacts { id } } }"
SYNC_COLLECTION = b"""<?xml version="1.0" encoding="utf-8" ?>
<D:sync-collection xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav">
  <D:sync-token/><D:sync-level>1</D:sync-level><D:prop><D:getetag/><C:address-data/></D:prop>
</D:sync-collection>"""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def carnet(binary: Path, *args: str, data: Path) -> str:
    result = subprocess.run([str(binary), *args, "--data", str(data)], capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"carnet {' '.join(args)} failed: {result.stderr}")
    return result.stdout


def carnet_full_sync(client: httpx.Client, url: str, token: str, loads=json.loads) -> tuple[float, int, float]:
    """Returns the client-inclusive time, the contacts, and the part of the time spent parsing JSON."""
    started = time.perf_counter()
    since, contacts, parsing = None, 0, 0.0
    while True:
        response = client.post(url, headers={"Authorization": f"Bearer {token}"},
                               json={"query": FULL_SYNC, "variables": {"since": since}})
        body = response.content
        parse_started = time.perf_counter()
        page = loads(body)["data"]["changeHistory"]
        parsing += time.perf_counter() - parse_started
        contacts += sum(1 for event in page["events"] if event["__typename"] == "AddContactEvent")
        since = page["token"]
        if not page["hasMore"]:
            return time.perf_counter() - started, contacts, parsing


def radicale_full_sync(client: httpx.Client, url: str) -> tuple[float, int, float]:
    """Returns the client-inclusive time, the cards, and the part of the time spent parsing XML."""
    started = time.perf_counter()
    response = client.request("REPORT", url, content=SYNC_COLLECTION,
                              headers={"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})
    body = response.content
    parse_started = time.perf_counter()
    tree = ElementTree.fromstring(body)
    cards = [node.text for node in tree.iter("{urn:ietf:params:xml:ns:carddav}address-data") if node.text]
    parsing = time.perf_counter() - parse_started
    return time.perf_counter() - started, len(cards), parsing


DELIVERY = 'carnet_subscription_delivery_seconds_bucket{le="'
SAVES = 'carnet_graphql_operation_duration_seconds_bucket{operation="Save",kind="mutation",le="'


def server_buckets(client: httpx.Client, base: str) -> dict[str, dict[float, int]]:
    """The server's commit-to-subscriber and save histograms: cumulative count by upper bound in seconds."""
    histograms: dict[str, dict[float, int]] = {DELIVERY: {}, SAVES: {}}
    for line in client.get(f"{base}/metrics").text.splitlines():
        for prefix, buckets in histograms.items():
            if line.startswith(prefix):
                bound = line[len(prefix):].split('"')[0]
                buckets[float("inf") if bound == "+Inf" else float(bound)] = int(float(line.rsplit(" ", 1)[1]))
    return histograms


def bucket_quantile(before: dict[float, int], after: dict[float, int], quantile: float) -> tuple[float, int]:
    """The upper bound of the bucket holding `quantile` of the payloads recorded between the two reads."""
    delta = {bound: after[bound] - before.get(bound, 0) for bound in sorted(after)}
    total = delta.get(float("inf"), 0)
    for bound, count in delta.items():
        if count >= quantile * total:
            return bound, total
    return float("inf"), total


def radicale_cards(client: httpx.Client, url: str) -> list[str]:
    response = client.request("REPORT", url, content=SYNC_COLLECTION,
                              headers={"Depth": "1", "Content-Type": "application/xml; charset=utf-8"})
    tree = ElementTree.fromstring(response.content)
    return [node.text for node in tree.iter("{urn:ietf:params:xml:ns:carddav}address-data") if node.text]


async def open_socket(ws_url: str, ca: ssl.SSLContext, token: str):
    """A graphql-transport-ws connection, acknowledged."""
    ws = await connect(ws_url, ssl=ca, subprotocols=["graphql-transport-ws"], ping_interval=None,
                       max_size=64 * 1024 * 1024)
    await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}))
    while json.loads(await ws.recv())["type"] != "connection_ack":
        pass
    return ws


async def subscribe_feed(ws, since: str) -> None:
    await ws.send(json.dumps({"id": "feed", "type": "subscribe",
                              "payload": {"query": FEED, "variables": {"since": since}}}))
    await ws.recv()  # the first payload: the token


async def next_event(ws) -> None:
    """Waits for the feed's next payload that carries events."""
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "next" and message["payload"]["data"]["changeHistory"]["events"]:
            return


async def subscriber_latency(ws_url: str, http_url: str, ca: ssl.SSLContext, token: str,
                             saves: int) -> tuple[list[float], list[float]]:
    """Per save: from just before it is sent until the subscriber holds its event, and until its own response."""
    ws = await open_socket(ws_url, ca, token)
    try:
        async with httpx.AsyncClient(verify=ca) as client:
            current = (await client.post(http_url, headers={"Authorization": f"Bearer {token}"},
                                         json={"query": "{ currentHistoryToken }"})).json()["data"]["currentHistoryToken"]
            await subscribe_feed(ws, current)
            latencies, round_trips = [], []
            for index in range(saves):
                request = {"transactionAuthor": "bench", "operations": [{"addContact": {"givenName": f"Live {index}"}}]}
                started = time.perf_counter()
                save = asyncio.create_task(client.post(http_url, headers={"Authorization": f"Bearer {token}"},
                                                       json={"query": SAVE, "variables": {"request": request}}))
                answered: list[float] = []
                save.add_done_callback(lambda _: answered.append(time.perf_counter()))
                await next_event(ws)
                latencies.append(time.perf_counter() - started)
                await save
                await asyncio.sleep(0)  # lets the done callback run
                round_trips.append(answered[0] - started)
                await asyncio.sleep(0.01)  # an idle server between commits
            return latencies, round_trips
    finally:
        await ws.close()


async def socket_writer_latency(ws_url: str, ca: ssl.SSLContext, token: str, since: str,
                                saves: int) -> tuple[list[float], list[float]]:
    """The same with the saves sent by another client over a WebSocket of its own (graphql-transport-ws runs
    mutations too): no HTTP request per save on the client's side."""
    subscriber, writer = await open_socket(ws_url, ca, token), await open_socket(ws_url, ca, token)

    async def answered() -> float:
        while json.loads(await writer.recv()).get("type") != "next":
            pass
        return time.perf_counter()

    try:
        await subscribe_feed(subscriber, since)
        latencies, round_trips = [], []
        for index in range(saves):
            request = {"transactionAuthor": "bench", "operations": [{"addContact": {"givenName": f"Socket {index}"}}]}
            started = time.perf_counter()
            await writer.send(json.dumps({"id": f"save{index}", "type": "subscribe",
                                          "payload": {"query": SAVE, "variables": {"request": request}}}))
            answer = asyncio.create_task(answered())
            await next_event(subscriber)
            latencies.append(time.perf_counter() - started)
            round_trips.append(await answer - started)
            while json.loads(await writer.recv()).get("type") != "complete":
                pass
            await asyncio.sleep(0.01)  # an idle server between commits
        return latencies, round_trips
    finally:
        await subscriber.close()
        await writer.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--contacts", type=int, default=10_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--saves", type=int, default=300)
    parser.add_argument("--carnet", type=Path, default=ROOT / ".build/release/carnet")
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="carnet-sync-bench-"))
    data, vcf = work / "data", work / "sample.vcf"
    subprocess.run([sys.executable, str(ROOT / "examples/generate_sample_data.py"), "-n", str(args.contacts),
                    "--vcf", str(vcf), "--seed", "1"], check=True, capture_output=True)
    carnet(args.carnet, "import", str(vcf), data=data)
    token = carnet(args.carnet, "token", "create", "--name", "bench", "--scope", "read", "--scope", "write",
                   data=data).strip()
    port, radicale_port = free_port(), free_port()
    server = subprocess.Popen([str(args.carnet), "serve", "--data", str(data), "--port", str(port), "--rate-limit", "0",
                               "--log-level", "warning"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    radicale = None
    try:
        for line in server.stdout:
            if "is listening on" in line:
                break
        tls = data / "tls"
        ca = ssl.create_default_context(cafile=str(tls / "ca.pem"))
        url = f"https://localhost:{port}/graphql"
        with httpx.Client(verify=ca, timeout=120) as client:
            carnet_runs = [carnet_full_sync(client, url, token) for _ in range(args.rounds)]
            # The same with a faster JSON parser (PyPI orjson), when installed: the parser is the client's choice.
            fast_runs = [carnet_full_sync(client, url, token, orjson.loads) for _ in range(args.rounds)] if orjson else []
        storage = work / "radicale"
        radicale = subprocess.Popen([sys.executable, "-m", "radicale", "--storage-filesystem-folder", str(storage),
                                     "--auth-type", "none", "--server-hosts", f"127.0.0.1:{radicale_port}",
                                     "--server-ssl", "True", "--server-certificate", str(tls / "server.pem"),
                                     "--server-key", str(tls / "server-key.pem"), "--logging-level", "warning"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        collection = f"https://localhost:{radicale_port}/bench/contacts/"
        with httpx.Client(verify=ca, timeout=600) as client:
            for _ in range(100):
                try:
                    client.request("OPTIONS", f"https://localhost:{radicale_port}/")
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            client.request("MKCOL", f"https://localhost:{radicale_port}/bench/")
            upload = client.put(collection, content=vcf.read_bytes(), headers={"Content-Type": "text/vcard"})
            if upload.status_code >= 300:
                sys.exit(f"Radicale refused the address book: {upload.status_code} {upload.text[:200]}")
            radicale_runs = [radicale_full_sync(client, collection) for _ in range(args.rounds)]
            cards = radicale_cards(client, collection)
            vcard_started = time.perf_counter()
            for card in cards:
                vobject.readOne(card)
            vcard_parsing = time.perf_counter() - vcard_started
        with httpx.Client(verify=ca, timeout=120) as client:
            before = server_buckets(client, f"https://localhost:{port}")
            latencies, round_trips = asyncio.run(
                subscriber_latency(f"wss://localhost:{port}/graphql", url, ca, token, args.saves))
            current = client.post(url, headers={"Authorization": f"Bearer {token}"},
                                  json={"query": "{ currentHistoryToken }"}).json()["data"]["currentHistoryToken"]
            socket_latencies, socket_round_trips = asyncio.run(
                socket_writer_latency(f"wss://localhost:{port}/graphql", ca, token, current, args.saves))
            after = server_buckets(client, f"https://localhost:{port}")
    finally:
        server.terminate()
        if radicale:
            radicale.terminate()
    carnet_time = statistics.median(run[0] for run in carnet_runs)
    radicale_time = statistics.median(run[0] for run in radicale_runs)
    # Up to the last byte received: what the server and the transport take, without the client's parser.
    carnet_wire = statistics.median(run[0] - run[2] for run in carnet_runs)
    radicale_wire = statistics.median(run[0] - run[2] for run in radicale_runs)
    def p99(samples: list[float]) -> float:
        ordered = sorted(samples)
        return ordered[max(0, int(len(ordered) * 0.99 + 0.5) - 1)]

    print(f"| Full sync, {carnet_runs[0][1]} contacts, every key, pages of 10,000 (client-inclusive) | "
          f"{carnet_time * 1000:.0f} ms | Radicale sync-collection, {radicale_runs[0][1]} cards: "
          f"{radicale_time * 1000:.0f} ms | {radicale_time / carnet_time:.1f}× faster |")
    print(f"| The same up to the last byte (without parsing) | {carnet_wire * 1000:.0f} ms | "
          f"{radicale_wire * 1000:.0f} ms | {radicale_wire / carnet_wire:.1f}× faster |")
    if fast_runs:
        fast_time = statistics.median(run[0] for run in fast_runs)
        print(f"| The same client-inclusive with orjson as the JSON parser | {fast_time * 1000:.0f} ms | "
              f"{radicale_time * 1000:.0f} ms | {radicale_time / fast_time:.1f}× faster |")
    print(f"| Radicale's client also parsing its {len(cards)} cards with vobject (once: {vcard_parsing * 1000:.0f} ms) | "
          f"{carnet_time * 1000:.0f} ms | {(radicale_time + vcard_parsing) * 1000:.0f} ms | "
          f"{(radicale_time + vcard_parsing) / carnet_time:.1f}× faster |")
    for prefix, what in ((DELIVERY, "commit to payload written on the socket"), (SAVES, "the saves, request to response")):
        (p50_bound, count), (p99_bound, _) = (bucket_quantile(before[prefix], after[prefix], q) for q in (0.5, 0.99))
        print(f"| At the server, {what}, {count} recorded (bucket bounds) | p50 ≤ {p50_bound * 1000:g} ms | "
              f"p99 ≤ {p99_bound * 1000:g} ms |")
    print(f"| Commit to wss changeHistory subscriber, {len(latencies)} saves | p50 "
          f"{statistics.median(latencies) * 1000:.2f} ms | p99 {p99(latencies) * 1000:.2f} ms |")
    # The save's own round trip holds the commit: the event's latency from the commit is at most the first line's.
    print(f"| The same saves' own HTTP round trip (request, commit, response) | p50 "
          f"{statistics.median(round_trips) * 1000:.2f} ms | p99 {p99(round_trips) * 1000:.2f} ms |")
    print(f"| Commit to subscriber, {len(socket_latencies)} saves sent by another client over its own wss socket | "
          f"p50 {statistics.median(socket_latencies) * 1000:.2f} ms | p99 {p99(socket_latencies) * 1000:.2f} ms |")
    print(f"| Those saves' own round trip over the socket | p50 {statistics.median(socket_round_trips) * 1000:.2f} ms | "
          f"p99 {p99(socket_round_trips) * 1000:.2f} ms |")


if __name__ == "__main__":
    main()
