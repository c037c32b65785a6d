#!/usr/bin/env python3
"""graphql-transport-ws protocol checks against a running Carnet server, with the `websockets` library.

Usage:
    python3 tests/clients/ws_protocol.py --url wss://127.0.0.1:PORT/graphql --ca ca.pem \
        --token READ_WRITE_TOKEN --read-only-token READ_ONLY_TOKEN [--no-writes] [--only NAME ...]

Each check opens its own connection (subprotocol graphql-transport-ws, certificate verified against --ca) and
has a time limit, so the script never hangs. Checks:
  subprotocol          the server echoes graphql-transport-ws and acks a good connection_init
  bad-token            connection_init with a bad token -> close 4403
  no-token             connection_init without authorization -> close 4403
  init-timeout         no connection_init -> close 4408 (the server waits 3 s: not before 1 s, and within the step bound)
  subscribe-before-ack subscribe before connection_init -> close 4401
  duplicate-id         a second subscribe with an active id (204 bytes long) -> close 4409
  invalid-json         a text frame that is not JSON -> close 4400
  unknown-type         a message of an unknown type (140 bytes long) -> close 4400
  missing-id           a subscribe without id -> close 4400
  malformed-payload    a subscribe whose query is no string, whose variables or extensions are no object, and a
                       ping whose payload is no object -> close 4400 (as graphql-ws's own server)
  double-init          a second connection_init -> close 4429
  ping-pong            ping -> pong (payload echoed back is not required)
  query                a query over the socket -> one next (with data) then complete
  invalid-operation    a query that fails validation -> an error message for its id; the socket stays open
  read-only-query      a query with the read-only token -> next then complete
  read-only-mutation   a mutation with the read-only token -> error (or next with errors) with code FORBIDDEN
  complete-stops       client complete stops a subscription: the id can be reused at once, and (unless
                       --no-writes) a commit after it sends nothing for that id. The write adds one contact
                       "WS Protocol Probe" and deletes it again.
Exit status 1 if any check fails; one line per check; `N passed, N failed` at the end.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import ssl
import sys
import time
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit

try:
    from websockets.asyncio.client import ClientConnection, connect
    from websockets.exceptions import ConnectionClosed
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"ws_protocol.py needs websockets >= 14 (pip install -r tests/clients/requirements.txt): {error}")

SUBPROTOCOL = "graphql-transport-ws"
STEP_TIMEOUT = 60.0  # seconds to wait for any one expected message or close: a hang bound, generous for loaded CI
CHECK_TIMEOUT = 180.0  # seconds for a whole check

HISTORY_TOKEN_QUERY = "query WsHistoryToken { currentHistoryToken }"
STORE_DID_CHANGE = "subscription WsStoreDidChange { storeDidChange { historyToken authors } }"
READ_ONLY_SAVE = "mutation WsReadOnlySave { save(request: {operations: []}) { historyToken } }"
PROBE_SAVE = """
mutation WsProbeSave($request: SaveRequestInput!) {
  save(request: $request) { historyToken contacts { id } deletedContactIds }
}
"""
# Deliberately invalid (validate_examples.py skips names starting with INVALID_).
INVALID_QUERY = "query WsInvalid { carnetNoSuchField }"
INVALID_JSON = "{this is not json"


class CheckFailure(Exception):
    """A protocol expectation did not hold."""


def make_ssl_context(ca_path: str) -> ssl.SSLContext:
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca_path)
    context.check_hostname = True
    context.verify_mode = ssl.CERT_REQUIRED
    return context


class Session:
    """One WebSocket connection speaking graphql-transport-ws by hand."""

    def __init__(self, ws: ClientConnection):
        self.ws = ws
        self.backlog: list[dict[str, Any]] = []  # messages read while waiting for something else

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def _read(self, timeout: float) -> dict[str, Any]:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        if isinstance(frame, bytes):
            raise CheckFailure(f"the server sent a binary frame ({frame[:60]!r})")
        try:
            message = json.loads(frame)
        except ValueError:
            raise CheckFailure(f"the server sent a frame that is not JSON: {frame[:200]!r}") from None
        if not isinstance(message, dict) or "type" not in message:
            raise CheckFailure(f"the server sent a message without type: {frame[:200]!r}")
        if message["type"] == "ping":  # the server may ping at any time; answer and read on
            await self.send({"type": "pong"})
            return await self._read(timeout)
        return message

    async def expect(self, predicate: Callable[[dict[str, Any]], bool], what: str,
                     timeout: float = STEP_TIMEOUT) -> dict[str, Any]:
        """Returns the first message matching `predicate`; others go to the backlog."""
        for index, message in enumerate(self.backlog):
            if predicate(message):
                return self.backlog.pop(index)
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CheckFailure(f"no {what} within {timeout:g} s (other messages: {self.backlog[:3]!r})")
            try:
                message = await self._read(remaining)
            except asyncio.TimeoutError:
                continue
            except ConnectionClosed as closed:
                raise CheckFailure(f"the connection closed ({close_text(closed)}) while waiting for {what}") from None
            if predicate(message):
                return message
            self.backlog.append(message)

    async def expect_nothing_for(self, operation_id: str, duration: float) -> None:
        """Fails if a message for `operation_id` arrives within `duration` seconds."""
        deadline = time.monotonic() + duration
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                message = await self._read(remaining)
            except asyncio.TimeoutError:
                break
            except ConnectionClosed as closed:
                raise CheckFailure(f"the connection closed ({close_text(closed)})") from None
            if message.get("id") == operation_id:
                raise CheckFailure(f"got {message!r} for {operation_id!r} after it should have ended")
            self.backlog.append(message)
        if any(m.get("id") == operation_id for m in self.backlog):
            raise CheckFailure(f"got a message for {operation_id!r} after it should have ended")

    async def expect_close(self, code: int, timeout: float = STEP_TIMEOUT) -> float:
        """Waits for the server to close with `code`; returns the seconds it took."""
        started = time.monotonic()
        deadline = started + timeout
        seen: list[Any] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise CheckFailure(f"still open after {timeout:g} s, expected close {code} (messages: {seen[:3]!r})")
            try:
                seen.append(await asyncio.wait_for(self.ws.recv(), remaining))
            except asyncio.TimeoutError:
                continue
            except ConnectionClosed as closed:
                received = closed.rcvd.code if closed.rcvd is not None else None
                if received != code:
                    raise CheckFailure(f"closed with {close_text(closed)}, expected {code}") from None
                return time.monotonic() - started

    async def init(self, token: str | None) -> dict[str, Any]:
        payload = {"authorization": f"Bearer {token}"} if token is not None else {}
        await self.send({"type": "connection_init", "payload": payload})
        return await self.expect(lambda m: m["type"] == "connection_ack", "connection_ack")

    async def alive(self) -> None:
        """The connection still answers a ping."""
        await self.send({"type": "ping"})
        await self.expect(lambda m: m["type"] == "pong", "pong")

    async def subscribe(self, operation_id: str, query: str, variables: dict[str, Any] | None = None) -> None:
        payload: dict[str, Any] = {"query": query}
        if variables is not None:
            payload["variables"] = variables
        await self.send({"id": operation_id, "type": "subscribe", "payload": payload})

    async def single_result(self, operation_id: str) -> dict[str, Any]:
        """One `next` then `complete` for a query or mutation; returns the next's payload."""
        first = await self.expect(lambda m: m.get("id") == operation_id, f"a message for {operation_id!r}")
        if first["type"] == "error":
            raise CheckFailure(f"error for {operation_id!r}: {first.get('payload')!r}")
        if first["type"] != "next":
            raise CheckFailure(f"first message for {operation_id!r} is {first!r}, expected next")
        second = await self.expect(lambda m: m.get("id") == operation_id, f"complete for {operation_id!r}")
        if second["type"] != "complete":
            raise CheckFailure(f"after next, {operation_id!r} got {second!r}, expected complete")
        return first.get("payload") or {}


def close_text(closed: ConnectionClosed) -> str:
    if closed.rcvd is None:
        return "no close frame"
    return f"{closed.rcvd.code} {closed.rcvd.reason!r}"


def error_codes(errors: Any) -> list[Any]:
    return [(e.get("extensions") or {}).get("code") for e in errors or [] if isinstance(e, dict)]


class Checks:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.context = make_ssl_context(args.ca)

    def open(self, subprotocols: list[str] | None = None) -> Any:
        return connect(
            self.args.url,
            ssl=self.context,
            subprotocols=subprotocols or [SUBPROTOCOL],  # type: ignore[list-item]
            open_timeout=60,
            close_timeout=3,
            ping_interval=None,
            max_size=16 * 1024 * 1024,
        )

    async def session(self, token: str | None = None, *, ack: bool = True) -> Session:
        ws = await self.open()
        if ws.subprotocol != SUBPROTOCOL:
            await ws.close()
            raise CheckFailure(f"the server chose subprotocol {ws.subprotocol!r}, expected {SUBPROTOCOL!r}")
        session = Session(ws)
        if ack:
            try:
                await session.init(token if token is not None else self.args.token)
            except BaseException:
                await ws.close()
                raise
        return session

    # -- checks ------------------------------------------------------------------------------------------------

    async def check_subprotocol(self) -> str:
        session = await self.session(ack=False)
        async with session.ws:
            ack = await session.init(self.args.token)
            return f"echoed {session.ws.subprotocol!r}; connection_ack {ack!r}"

    async def check_bad_token(self) -> str:
        session = await self.session(ack=False)
        async with session.ws:
            await session.send({"type": "connection_init", "payload": {"authorization": "Bearer not-a-real-token"}})
            await session.expect_close(4403)
            return "closed 4403"

    async def check_no_token(self) -> str:
        session = await self.session(ack=False)
        async with session.ws:
            await session.send({"type": "connection_init", "payload": {}})
            await session.expect_close(4403)
            return "closed 4403"

    async def check_init_timeout(self) -> str:
        session = await self.session(ack=False)
        async with session.ws:
            elapsed = await session.expect_close(4408, timeout=STEP_TIMEOUT)
            if elapsed < 1.0:
                raise CheckFailure(f"closed 4408 after only {elapsed:.2f} s; the server should wait about 3 s")
            return f"closed 4408 after {elapsed:.2f} s"

    async def check_subscribe_before_ack(self) -> str:
        session = await self.session(ack=False)
        async with session.ws:
            await session.subscribe("early", HISTORY_TOKEN_QUERY)
            await session.expect_close(4401)
            return "closed 4401"

    async def check_duplicate_id(self) -> str:
        session = await self.session()
        async with session.ws:
            # A long id: the server's reason names it, and a close frame holds at most 125 bytes (RFC 6455 5.5),
            # or the client fails the connection with 1002 before it sees 4409.
            long_id = "dup-" + "é" * 100
            await session.subscribe(long_id, STORE_DID_CHANGE)
            await asyncio.sleep(0.3)
            await session.subscribe(long_id, STORE_DID_CHANGE)
            await session.expect_close(4409)
            return "closed 4409 (an id of 204 bytes)"

    async def check_invalid_json(self) -> str:
        session = await self.session()
        async with session.ws:
            await session.send(INVALID_JSON)
            await session.expect_close(4400)
            return "closed 4400"

    async def check_unknown_type(self) -> str:
        session = await self.session()
        async with session.ws:
            await session.send({"type": "carnet-no-such-type-" + "x" * 120, "id": "x"})
            await session.expect_close(4400)
            return "closed 4400 (a type of 140 bytes)"

    async def check_missing_id(self) -> str:
        session = await self.session()
        async with session.ws:
            await session.send({"type": "subscribe", "payload": {"query": HISTORY_TOKEN_QUERY}})
            await session.expect_close(4400)
            return "closed 4400"

    async def check_malformed_payload(self) -> str:
        messages = [
            {"id": "m", "type": "subscribe", "payload": {"query": 7}},
            {"id": "m", "type": "subscribe", "payload": {"query": HISTORY_TOKEN_QUERY, "variables": [1]}},
            {"id": "m", "type": "subscribe", "payload": {"query": HISTORY_TOKEN_QUERY, "extensions": "x"}},
            {"type": "ping", "payload": "not an object"},
        ]
        for message in messages:
            session = await self.session()
            async with session.ws:
                await session.send(message)
                await session.expect_close(4400)
        return f"{len(messages)} closed 4400"

    async def check_double_init(self) -> str:
        session = await self.session()
        async with session.ws:
            await session.send({"type": "connection_init", "payload": {"authorization": f"Bearer {self.args.token}"}})
            await session.expect_close(4429)
            return "closed 4429"

    async def check_ping_pong(self) -> str:
        session = await self.session()
        async with session.ws:
            await session.send({"type": "ping", "payload": {"check": "ws_protocol"}})
            pong = await session.expect(lambda m: m["type"] == "pong", "pong")
            return f"pong {pong!r}"

    async def check_query(self) -> str:
        session = await self.session()
        async with session.ws:
            await session.subscribe("q1", HISTORY_TOKEN_QUERY)
            payload = await session.single_result("q1")
            token = (payload.get("data") or {}).get("currentHistoryToken")
            if not isinstance(token, str) or not token or payload.get("errors"):
                raise CheckFailure(f"next payload {payload!r}, expected data.currentHistoryToken")
            await session.expect_nothing_for("q1", 0.5)
            return "next with data.currentHistoryToken, then complete, then nothing"

    async def check_invalid_operation(self) -> str:
        session = await self.session()
        async with session.ws:
            await session.subscribe("bad", INVALID_QUERY)
            message = await session.expect(lambda m: m.get("id") == "bad", "a message for 'bad'")
            if message["type"] != "error":
                raise CheckFailure(f"got {message!r}, expected an error message")
            if not isinstance(message.get("payload"), list) or not message["payload"]:
                raise CheckFailure(f"the error payload is not a list of GraphQL errors: {message!r}")
            await session.expect_nothing_for("bad", 0.3)  # error ends the operation: no complete follows
            await session.alive()
            return f"error {error_codes(message['payload'])}, no complete, socket still open"

    async def check_read_only_query(self) -> str:
        session = await self.session(self.args.read_only_token)
        async with session.ws:
            await session.subscribe("ro-q", HISTORY_TOKEN_QUERY)
            payload = await session.single_result("ro-q")
            if payload.get("errors") or not (payload.get("data") or {}).get("currentHistoryToken"):
                raise CheckFailure(f"next payload {payload!r}")
            return "next then complete"

    async def check_read_only_mutation(self) -> str:
        session = await self.session(self.args.read_only_token)
        async with session.ws:
            await session.subscribe("ro-m", READ_ONLY_SAVE)
            message = await session.expect(lambda m: m.get("id") == "ro-m", "a message for 'ro-m'")
            if message["type"] == "error":
                codes = error_codes(message.get("payload"))
            elif message["type"] == "next":
                payload = message.get("payload") or {}
                codes = error_codes(payload.get("errors"))
                if (payload.get("data") or {}).get("save"):
                    raise CheckFailure(f"the read-only mutation returned data: {payload!r}")
            else:
                raise CheckFailure(f"got {message!r}, expected error or next")
            if "FORBIDDEN" not in codes:
                raise CheckFailure(f"error codes {codes}, expected FORBIDDEN: {message!r}")
            await session.alive()
            return f"{message['type']} with FORBIDDEN; socket still open"

    async def check_complete_stops(self) -> str:
        session = await self.session()
        async with session.ws:
            notes = []
            probe_id = None
            await session.subscribe("live", STORE_DID_CHANGE)
            # The server starts each operation in a task of its own: give the subscription time to listen on a
            # loaded machine (nothing in the protocol says when it does).
            await asyncio.sleep(3.0)
            if not self.args.no_writes:
                await session.subscribe("add", PROBE_SAVE, {"request": {"operations": [
                    {"addContact": {"givenName": "WS Protocol", "familyName": "Probe"}}]}})
                result = await session.single_result("add")
                contacts = ((result.get("data") or {}).get("save") or {}).get("contacts") or []
                if result.get("errors") or not contacts:
                    raise CheckFailure(f"the probe save failed: {result!r}")
                probe_id = contacts[0]["id"]
                event = await session.expect(lambda m: m.get("id") == "live", "storeDidChange for the probe save")
                if event["type"] != "next":
                    raise CheckFailure(f"subscription got {event!r}, expected next")
                notes.append("subscription live")
            await session.send({"id": "live", "type": "complete"})
            await asyncio.sleep(0.3)
            session.backlog = [m for m in session.backlog if m.get("id") != "live"]
            if probe_id is not None:
                await session.subscribe("del", PROBE_SAVE, {"request": {"operations": [{"deleteContact": probe_id}]}})
                result = await session.single_result("del")
                if result.get("errors"):
                    raise CheckFailure(f"deleting the probe failed: {result!r}")
                await session.expect_nothing_for("live", 2.0)
                notes.append("no next after complete")
            # The id is free again once completed: reusing it must not close with 4409.
            await session.subscribe("live", STORE_DID_CHANGE)
            await asyncio.sleep(0.3)
            await session.alive()
            notes.append("id reusable")
            await session.send({"id": "live", "type": "complete"})
            return ", ".join(notes)

    async def run(self) -> int:
        checks: list[tuple[str, Callable[[], Awaitable[str]]]] = [
            ("subprotocol", self.check_subprotocol),
            ("bad-token", self.check_bad_token),
            ("no-token", self.check_no_token),
            ("init-timeout", self.check_init_timeout),
            ("subscribe-before-ack", self.check_subscribe_before_ack),
            ("duplicate-id", self.check_duplicate_id),
            ("invalid-json", self.check_invalid_json),
            ("unknown-type", self.check_unknown_type),
            ("missing-id", self.check_missing_id),
            ("malformed-payload", self.check_malformed_payload),
            ("double-init", self.check_double_init),
            ("ping-pong", self.check_ping_pong),
            ("query", self.check_query),
            ("invalid-operation", self.check_invalid_operation),
            ("read-only-query", self.check_read_only_query),
            ("read-only-mutation", self.check_read_only_mutation),
            ("complete-stops", self.check_complete_stops),
        ]
        if self.args.only:
            checks = [c for c in checks if c[0] in self.args.only]
        passed = failed = 0
        for name, check in checks:
            started = time.monotonic()
            try:
                detail = await asyncio.wait_for(check(), CHECK_TIMEOUT)
            except CheckFailure as failure:
                failed += 1
                print(f"FAIL {name}: {failure}", flush=True)
                continue
            except asyncio.TimeoutError:
                failed += 1
                print(f"FAIL {name}: did not finish within {CHECK_TIMEOUT:g} s", flush=True)
                continue
            except ConnectionClosed as closed:
                failed += 1
                print(f"FAIL {name}: the connection closed unexpectedly ({close_text(closed)})", flush=True)
                continue
            except Exception as error:  # TLS, handshake refused, ...
                failed += 1
                print(f"FAIL {name}: {type(error).__name__}: {error}", flush=True)
                continue
            except asyncio.CancelledError as error:  # a BaseException: it would end the run without a word
                failed += 1
                print(f"FAIL {name}: cancelled: {error!r}", flush=True)
                continue
            passed += 1
            print(f"ok   {name} ({time.monotonic() - started:.2f} s): {detail}", flush=True)
        print(f"{passed} passed, {failed} failed")
        return 1 if failed else 0


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    names = ["subprotocol", "bad-token", "no-token", "init-timeout", "subscribe-before-ack", "duplicate-id",
             "invalid-json", "unknown-type", "missing-id", "malformed-payload", "double-init", "ping-pong", "query", "invalid-operation",
             "read-only-query", "read-only-mutation", "complete-stops"]
    parser = argparse.ArgumentParser(
        description="graphql-transport-ws protocol checks against a running Carnet server.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Checks: " + ", ".join(names),
    )
    parser.add_argument("--url", required=True, help="the WebSocket endpoint, wss://HOST:PORT/graphql")
    parser.add_argument("--ca", required=True, help="PEM file of the CA that signed the server certificate")
    parser.add_argument("--token", required=True, help="a read+write token")
    parser.add_argument("--read-only-token", required=True, help="a token with the read scope only")
    parser.add_argument("--no-writes", action="store_true",
                        help="skip the probe contact complete-stops adds and deletes")
    parser.add_argument("--only", nargs="+", choices=names, metavar="NAME", help="run only these checks")
    args = parser.parse_args(argv)
    if urlsplit(args.url).scheme != "wss":
        parser.error("--url must be wss:// (Carnet serves TLS only)")
    return args


def main(argv: list[str] | None = None) -> int:
    return asyncio.run(Checks(parse_args(argv)).run())


if __name__ == "__main__":
    sys.exit(main())
