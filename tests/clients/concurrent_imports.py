#!/usr/bin/env python3
"""Many vCard imports at once, into a few books, beside single saves and queries: more imports than the server's
background threads (four), so some run on background threads and some on the request's own. Every import must
report each of its cards added, every save must succeed, each book must end with exactly the contacts sent to it,
a `storeDidChange` subscriber on each book must hear every import's author and every save's, and each CATEGORIES name
must end as one group (imports at once each make the group of a new name, by CATEGORIES or by a group card under a
UID of its own: the store refuses all but the first, and the others join it) holding every card that named it, but for the cards the import said joined none (the name was two groups' when the
import ended: a CATEGORIES warning at the card). The seed is printed on failure.

Usage: python3 tests/clients/concurrent_imports.py --url https://localhost:PORT/graphql --ca ca.pem --token TOKEN
       [--imports 12] [--books 3] [--seed N]   (the token must be able to create books)
"""
from __future__ import annotations

import argparse
import asyncio
import json
import random
import ssl
import sys

try:
    import httpx
    import websockets
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"concurrent_imports.py needs httpx and websockets (pip install -r tests/clients/requirements.txt): {error}")

IMPORT = ("mutation($b:ID!,$d:String!,$a:String!,$s:Boolean!){ importVCards(addressBookId:$b, data:$d,"
          " transactionAuthor:$a, strict:$s){ added updated unchanged skipped{ message } warnings{ key cardLine } historyToken } }")
SAVE = "mutation($b:ID!,$r:SaveRequestInput!){ save(addressBookId:$b, request:$r){ historyToken } }"
COUNT = "query($b:ID!){ addressBook(id:$b){ contacts(first:1){ totalCount } } }"
GROUPS = "query($b:ID!){ addressBook(id:$b){ groups { name memberCount } } }"
SUBSCRIBE = "subscription($b:ID!){ storeDidChange(addressBookId:$b){ historyToken authors } }"


def cards(rng: random.Random, prefix: str, count: int, named: dict, lines: dict, group_card: bool) -> str:
    """`count` cards, each in one CATEGORIES group; `named` counts the cards of each group name, `lines` gives each
    card's name by its first line. With `group_card`, the cards have UIDs and the file ends with a group card (under
    a UID of its own) listing some of its cards, for one of the CATEGORIES names or for "Board", which no card's
    CATEGORIES give: imports at once that each make the group of a new name, by group card or by CATEGORIES, must
    still leave one group of it."""
    text = []
    line = 1
    members = {}
    for index in range(count):
        category = rng.choice(['Team', 'Family', 'Club'])
        named[category] = named.get(category, 0) + 1
        lines[line] = category
        given = rng.choice(["Anna", "José", "Zoë", "Łukasz", "Mei", "Noah"])
        uid = f"{prefix.lower()}-card-{index}"
        card = ("BEGIN:VCARD\r\nVERSION:3.0\r\n"
                + (f"UID:{uid}\r\n" if group_card else "")
                + f"N:{prefix}-{index};{given};;;\r\nFN:{given} {prefix}-{index}\r\n"
                f"EMAIL;TYPE=HOME:{prefix.lower()}.{index}@example.org\r\n"
                f"TEL;TYPE=CELL:+1 555 {rng.randrange(1000, 9999)}\r\n"
                f"CATEGORIES:{category}\r\n"
                "END:VCARD\r\n")
        text.append(card)
        line += card.count("\r\n")
        if rng.random() < 0.5:
            members.setdefault(category, []).append(uid)
    # "Board" no CATEGORIES gives: the imports that list it race to make its group at their ends.
    members["Board"] = [f"{prefix.lower()}-card-{index}" for index in range(count) if rng.random() < 0.3]
    if group_card:
        name = rng.choice(sorted(members))
        if name == "Board":
            named[name] = named.get(name, 0) + len(members[name])
        text.append("BEGIN:VCARD\r\nVERSION:3.0\r\nX-ADDRESSBOOKSERVER-KIND:group\r\n"
                    f"UID:{prefix.lower()}-group\r\nN:{name};;;;\r\nFN:{name}\r\n"
                    + "".join(f"X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:{uid}\r\n" for uid in members[name])
                    + "END:VCARD\r\n")
    return "".join(text)


async def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--imports", type=int, default=12)
    parser.add_argument("--books", type=int, default=3)
    parser.add_argument("--seed", type=int, default=random.randrange(1 << 32))
    args = parser.parse_args()
    rng = random.Random(args.seed)
    ctx = ssl.create_default_context(cafile=args.ca)
    # A context of its own for the WebSocket handshake, which is HTTP/1.1 whatever httpx sets on its context.
    ws_ctx = ssl.create_default_context(cafile=args.ca)
    ws_ctx.set_alpn_protocols(["http/1.1"])
    headers = {"Authorization": "Bearer " + args.token}
    problems: list[str] = []

    # HTTP/1.1, a connection per request in flight: httpcore's HTTP/2 client opens streams past the server's
    # SETTINGS_MAX_CONCURRENT_STREAMS when they come before its SETTINGS arrive, and fails ("Max outbound streams").
    async with httpx.AsyncClient(verify=ctx, http2=False, timeout=300) as client:
        async def post(query: str, variables: dict) -> dict:
            response = await client.post(args.url, json={"query": query, "variables": variables}, headers=headers)
            body = response.json()
            if body.get("errors"):
                problems.append(f"{query.split('(')[0]} answered {body['errors']}")
            return body.get("data") or {}

        books = []
        for number in range(args.books):
            created = await post('mutation($n:String!){ createAddressBook(name:$n){ id } }',
                                 {"n": f"Imports {args.seed} {number}"})
            books.append(created["createAddressBook"]["id"])

        # A subscriber per book, ready before the first write: it must hear every author.
        heard = {book: set() for book in books}
        ready = {book: asyncio.Event() for book in books}
        done = asyncio.Event()
        ws_url = args.url.replace("https://", "wss://")

        async def subscribe(book: str) -> None:
            async with websockets.connect(ws_url, ssl=ws_ctx, subprotocols=["graphql-transport-ws"]) as socket:
                await socket.send(json.dumps({"type": "connection_init", "payload": {"authorization": "Bearer " + args.token}}))
                assert json.loads(await socket.recv())["type"] == "connection_ack"
                await socket.send(json.dumps({"id": "1", "type": "subscribe",
                                              "payload": {"query": SUBSCRIBE, "variables": {"b": book}}}))
                # The subscription is live once the server has it; a ping round trip after the subscribe says so.
                await socket.send(json.dumps({"type": "ping"}))
                while True:
                    message = json.loads(await socket.recv())
                    if message["type"] == "pong":
                        ready[book].set()
                        break
                deadline = None
                while True:
                    if done.is_set():
                        if len(heard[book]) >= expected_authors[book]:
                            return
                        # Every write has been answered: what is still to come must come soon.
                        deadline = deadline or asyncio.get_running_loop().time() + 30
                        if asyncio.get_running_loop().time() > deadline:
                            problems.append(f"book {book}: the subscriber heard {sorted(heard[book])} and then nothing")
                            return
                    try:
                        message = json.loads(await asyncio.wait_for(socket.recv(), timeout=0.5))
                    except asyncio.TimeoutError:
                        continue
                    if message["type"] == "next":
                        change = message["payload"]["data"]["storeDidChange"]
                        heard[book].update(a for a in change["authors"] if a)
                    elif message["type"] in ("error", "complete"):
                        problems.append(f"book {book}: the subscription ended: {message}")
                        return

        plan = []  # (book, author, cards, strict, count, CATEGORIES name by card line)
        sent = {book: 0 for book in books}
        named = {book: {} for book in books}  # CATEGORIES name -> cards naming it, by book
        for number in range(args.imports):
            book = books[number % len(books)]
            count = rng.randrange(20, 400)
            lines = {}
            text = cards(rng, f"I{number}", count, named[book], lines, group_card=rng.random() < 0.4)
            plan.append((book, f"import-{number}", text, rng.random() < 0.3, count, lines))
            sent[book] += count
        saves = [(books[rng.randrange(len(books))], f"save-{number}") for number in range(24)]
        for book, _ in saves:
            sent[book] += 1
        expected_authors = {book: len([p for p in plan if p[0] == book]) + len([s for s in saves if s[0] == book])
                            for book in books}

        subscribers = [asyncio.create_task(subscribe(book)) for book in books]
        await asyncio.wait_for(asyncio.gather(*(event.wait() for event in ready.values())), timeout=30)

        async def run_import(book, author, data, strict, count, lines):
            result = (await post(IMPORT, {"b": book, "d": data, "a": author, "s": strict})).get("importVCards")
            if result is None:
                return
            for warning in result["warnings"]:
                if warning["key"] == "CATEGORIES":
                    named[book][lines[warning["cardLine"]]] -= 1
            if result["added"] != count or result["skipped"] or result["updated"] or result["unchanged"]:
                problems.append(f"{author} ({count} cards, strict {strict}) reported {result}")

        async def run_save(book, author):
            request = {"transactionAuthor": author,
                       "operations": [{"addContact": {"givenName": "Saved", "familyName": author}}]}
            await post(SAVE, {"b": book, "r": request})
            await post(COUNT, {"b": book})

        await asyncio.gather(*(run_import(*entry) for entry in plan), *(run_save(*entry) for entry in saves))
        done.set()
        await asyncio.wait_for(asyncio.gather(*subscribers), timeout=60)

        for book in books:
            total = (await post(COUNT, {"b": book}))["addressBook"]["contacts"]["totalCount"]
            if total != sent[book]:
                problems.append(f"book {book} holds {total} contacts; {sent[book]} were sent")
            authors = {p[1] for p in plan if p[0] == book} | {s[1] for s in saves if s[0] == book}
            if heard[book] != authors:
                problems.append(f"book {book}: the subscriber missed {sorted(authors - heard[book])}")
            groups = (await post(GROUPS, {"b": book}))["addressBook"]["groups"]
            found = {}
            for group in groups:
                found.setdefault(group["name"], []).append(group["memberCount"])
            wanted = {name: [count] for name, count in named[book].items()}
            if found != wanted:
                problems.append(f"book {book}: groups (name: member counts) {found}, the cards named {wanted}")

    if problems:
        print(f"seed {args.seed}: {len(problems)} problems", file=sys.stderr)
        for problem in problems[:20]:
            print("  " + problem, file=sys.stderr)
        return 1
    print(f"seed {args.seed}: {args.imports} imports and {len(saves)} saves into {args.books} books, all consistent")
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
