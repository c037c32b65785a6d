#!/usr/bin/env python3
"""Deleting an address book while clients use it: queries, saves and a subscription on the book run while its owner
deletes it. Every response must be data or an error with a documented code (never INTERNAL_SERVER_ERROR, never an
empty body), the subscription must end with an error, and the server must keep answering. Before the fix the
deletion closed the book's connections under running reads: about one round in ten answered INTERNAL_SERVER_ERROR
(SQLite's misuse error, on a connection whose memory could already be reused).

Usage: python3 tests/clients/book_deletion_race.py --url https://localhost:PORT/graphql --ca ca.pem --token TOKEN
       [--rounds 5]   (the token must be able to manage books: not limited to some)
"""
from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
import time

try:
    import httpx
    import websockets
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"book_deletion_race.py needs httpx and websockets (pip install -r tests/clients/requirements.txt): {error}")

QUERIES = [
    "query($b:ID!){ addressBook(id:$b){ contacts(first:50){ totalCount nodes{ id givenName emailAddresses{ value }"
    " groups{ id } } } groups{ memberCount members(first:10){ id } } } }",
    "query($b:ID!){ addressBook(id:$b){ contacts(first:5, filter:{name:\"an\"}){ nodes{ id displayName } } } }",
]
SAVE = "mutation($b:ID!,$r:SaveRequestInput!){ save(addressBookId:$b, request:$r){ historyToken } }"
SUBSCRIBE = "subscription($b:ID!){ storeDidChange(addressBookId:$b){ historyToken } }"


async def run_round(client, args, ctx, number: int, codes: dict, bad: list) -> None:
    headers = {"Authorization": "Bearer " + args.token}

    async def post(body):
        response = await client.post(args.url, json=body, headers=headers)
        if not response.content:
            bad.append(f"round {number}: an empty body with status {response.status_code}")
            return {}
        return response.json()

    created = await post({"query": 'mutation($n:String!){ createAddressBook(name:$n){ id } }',
                          "variables": {"n": f"Doomed {number}"}})
    book = created["data"]["createAddressBook"]["id"]
    people = [{"addContact": {"givenName": f"Anna {i}", "familyName": "Race",
                              "emailAddresses": [{"label": "home", "value": f"anna{i}@example.org"}]}}
              for i in range(100)]
    seeded = await post({"query": SAVE, "variables": {"b": book, "r": {"transactionAuthor": "seed", "operations": people}}})
    if seeded.get("errors"):
        bad.append(f"round {number}: seeding failed: {seeded['errors']}")
        return
    deleted = asyncio.Event()
    subscribed = asyncio.Event()

    def record(errors, where):
        for error in errors or []:
            code = (error.get("extensions") or {}).get("code")
            codes[f"{where}{code}"] = codes.get(f"{where}{code}", 0) + 1
            if code in (None, "INTERNAL_SERVER_ERROR"):
                bad.append(f"round {number}: {where}{error}")

    async def client_loop(index):
        # Until a moment after the deletion returned: requests before, during and after it.
        after = None
        while after is None or time.monotonic() < after:
            if deleted.is_set() and after is None:
                after = time.monotonic() + 0.3
            if index % 3 == 2:
                save = {"transactionAuthor": "writer",
                        "operations": [{"addContact": {"givenName": "Late", "familyName": f"Writer {index}"}}]}
                body = {"query": SAVE, "variables": {"b": book, "r": save}}
            else:
                body = {"query": QUERIES[index % 2], "variables": {"b": book}}
            record((await post(body)).get("errors"), "")

    async def subscriber():
        url = args.url.replace("https://", "wss://")
        async with websockets.connect(url, ssl=ctx, subprotocols=["graphql-transport-ws"]) as socket:
            await socket.send(json.dumps({"type": "connection_init", "payload": {"Authorization": "Bearer " + args.token}}))
            await socket.recv()
            await socket.send(json.dumps({"id": "1", "type": "subscribe",
                                          "payload": {"query": SUBSCRIBE, "variables": {"b": book}}}))
            subscribed.set()
            # A stall is what fails here, not slowness: two minutes.
            deadline = time.monotonic() + 120
            while time.monotonic() < deadline:
                try:
                    message = json.loads(await asyncio.wait_for(socket.recv(), 1))
                except asyncio.TimeoutError:
                    continue
                if message["type"] == "error":
                    record(message.get("payload"), "subscription:")
                    return
                if message["type"] == "complete":
                    bad.append(f"round {number}: the subscription completed without saying why")
                    return
            bad.append(f"round {number}: the subscription did not end after its book was deleted")

    async def deleter():
        await subscribed.wait()
        await asyncio.sleep(0.2 + (number % 5) * 0.1)
        answer = await post({"query": "mutation($b:ID!){ deleteAddressBook(id:$b) }", "variables": {"b": book}})
        if answer.get("errors") or (answer.get("data") or {}).get("deleteAddressBook") != book:
            bad.append(f"round {number}: the deletion failed: {answer}")
        deleted.set()

    await asyncio.gather(*[client_loop(index) for index in range(6)], subscriber(), deleter())


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    ctx = ssl.create_default_context(cafile=args.ca)
    codes: dict[str, int] = {}
    bad: list[str] = []
    async with httpx.AsyncClient(verify=ctx, timeout=120) as client:
        for number in range(args.rounds):
            await run_round(client, args, ctx, number, codes, bad)
        # The server goes on.
        alive = await client.post(args.url, json={"query": "{ contacts(first: 1) { totalCount } }"},
                                  headers={"Authorization": "Bearer " + args.token})
        if alive.status_code != 200 or alive.json().get("errors"):
            bad.append(f"the server stopped answering: {alive.status_code} {alive.text[:200]}")
    print(f"{args.rounds} rounds; error codes seen: {codes}")
    for line in bad[:20]:
        print("FAIL", line)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
