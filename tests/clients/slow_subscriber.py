#!/usr/bin/env python3
"""A changeHistory subscriber that stops reading while many large commits happen, then reads on: it must end up
with every commit's event (coalesced into fewer payloads), or a documented error, never a silent gap.

Usage:
    python3 tests/clients/slow_subscriber.py --url wss://localhost:PORT/graphql --ca ca.pem --token TOKEN [--saves 400]

The reader connection keeps at most one unread message in the websockets library (max_queue=1), so while it
pauses, the TLS stream and then the server's writes back up: the server must wait, not drop. A second connection
saves contacts with a 16 KB note each. Prints `N passed, N failed`; exit status 1 on failure.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
import time
from typing import Any

try:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"slow_subscriber.py needs websockets >= 14 (pip install -r tests/clients/requirements.txt): {error}")

SUBPROTOCOL = "graphql-transport-ws"
FEED = """
subscription SlowFeed($since: String) {
  changeHistory(since: $since) {
    token hasMore
    events { __typename ... on AddContactEvent { contactId contact { note } } ... on UpdateContactEvent { contactId contact { note } } }
  }
}
"""
SAVE = """
mutation SlowSave($request: SaveRequestInput!) { save(request: $request) { contacts { id } } }
"""
TOKEN = "query SlowToken { currentHistoryToken }"
NOTE = "n" * 16_000


def context(ca: str) -> ssl.SSLContext:
    ctx = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca)
    ctx.check_hostname = True
    ctx.verify_mode = ssl.CERT_REQUIRED
    return ctx


async def open_session(url: str, ca: str, token: str, max_queue: int) -> Any:
    ws = await connect(url, ssl=context(ca), subprotocols=[SUBPROTOCOL], open_timeout=60, close_timeout=3,
                       ping_interval=None, max_size=64 * 1024 * 1024, max_queue=max_queue)
    await ws.send(json.dumps({"type": "connection_init", "payload": {"authorization": f"Bearer {token}"}}))
    while json.loads(await asyncio.wait_for(ws.recv(), 60))["type"] != "connection_ack":
        pass
    return ws


async def request(ws: Any, op_id: str, query: str, variables: dict[str, Any] | None = None) -> dict[str, Any]:
    await ws.send(json.dumps({"id": op_id, "type": "subscribe", "payload": {"query": query, "variables": variables or {}}}))
    result: dict[str, Any] = {}
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 60))
        if message.get("type") == "ping":
            await ws.send(json.dumps({"type": "pong"}))
        elif message.get("id") == op_id and message["type"] == "next":
            result = message["payload"]
        elif message.get("id") == op_id and message["type"] in ("complete", "error"):
            if message["type"] == "error":
                raise RuntimeError(f"{op_id}: {message}")
            return result


async def run(args: argparse.Namespace) -> list[str]:
    failures: list[str] = []
    writer = await open_session(args.url, args.ca, args.token, 16)
    start_token = (await request(writer, "t0", TOKEN))["data"]["currentHistoryToken"]
    reader = await open_session(args.url, args.ca, args.token, 1)
    await reader.send(json.dumps({"id": "feed", "type": "subscribe",
                                  "payload": {"query": FEED, "variables": {"since": start_token}}}))
    first = json.loads(await asyncio.wait_for(reader.recv(), 60))
    if first.get("type") != "next":
        return [f"first feed message: {first}"]
    token = first["payload"]["data"]["changeHistory"]["token"]
    # The reader now pauses: nothing reads its socket while the writer commits.
    created: list[str] = []
    for index in range(args.saves):
        request_input = {"transactionAuthor": "slow-writer",
                         "operations": [{"addContact": {"givenName": f"Slow {index}", "note": NOTE}}]}
        saved = await request(writer, f"s{index}", SAVE, {"request": request_input})
        created.append(saved["data"]["save"]["contacts"][0]["id"])
    final_token = (await request(writer, "t1", TOKEN))["data"]["currentHistoryToken"]
    await writer.close()

    seen: dict[str, int] = {}
    payloads = 0
    resumed = 0
    deadline = time.monotonic() + 120
    while token != final_token:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            failures.append(f"after {payloads} payloads the feed stands at another token than the last commit")
            break
        try:
            message = json.loads(await asyncio.wait_for(reader.recv(), remaining))
        except ConnectionClosed:
            # A reader paused past the server's ping timeout is disconnected (it did not answer pings). The
            # contract: subscribe again from the last token applied, and nothing is lost.
            resumed += 1
            reader = await open_session(args.url, args.ca, args.token, 1)
            await reader.send(json.dumps({"id": "feed", "type": "subscribe",
                                          "payload": {"query": FEED, "variables": {"since": token}}}))
            continue
        if message.get("type") == "ping":
            await reader.send(json.dumps({"type": "pong"}))
            continue
        if message.get("type") != "next" or message.get("id") != "feed":
            failures.append(f"unexpected message {str(message)[:300]}")
            break
        payload = message["payload"]
        if payload.get("errors"):
            # A documented end: the client resumes from its last token. Carnet should not need it here.
            failures.append(f"the feed ended with errors {payload['errors']}")
            break
        page = payload["data"]["changeHistory"]
        payloads += 1
        for event in page["events"]:
            if "contactId" in event:
                seen[event["contactId"]] = len(event["contact"]["note"])
        token = page["token"]
    await reader.close()
    missing = [contact for contact in created if contact not in seen]
    if missing:
        failures.append(f"{len(missing)} of {len(created)} contacts never reached the paused subscriber")
    if any(length != len(NOTE) for length in seen.values()):
        failures.append("a note arrived cut")
    print(f"{args.saves} commits reached the paused subscriber in {payloads} payloads ({resumed} resubscriptions)")
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--ca", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--saves", type=int, default=400)
    args = parser.parse_args()
    failures = asyncio.run(run(args))
    for failure in failures:
        print(f"FAIL: {failure}")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
