#!/usr/bin/env python3
"""End-to-end scenario for a running Carnet server, driven from outside Swift with Python's gql.

Usage:
    python3 tests/clients/scenario.py --url https://127.0.0.1:PORT/graphql --ca ca.pem \
        --token-a TOKEN_A --token-b TOKEN_B [--ws-url wss://127.0.0.1:PORT/graphql] [--timeout 120]

    --token-a  a read+write token bound to the transaction author "app-a"
    --token-b  a read+write token bound to the transaction author "app-b"

Needs tests/clients/requirements.txt (gql 4 with aiohttp and websockets). The server certificate is verified
against --ca (never disabled), so it must name the host of --url (an IP SAN for 127.0.0.1).

Steps (one line each; the first failure prints FAIL with the reason and exits 1):
  1. introspection over HTTPS (gql fetch_schema_from_transport): Query, Mutation, Subscription, the fields this
     scenario uses, and SaveOperationInput marked @oneOf (isOneOf);
  2. save (transactionAuthor "app-a") adds two tagged contacts; read back by id; found by a name search (case
     and accents ignored) and by an email search;
  3. two WebSocket (graphql-transport-ws) sessions subscribe to storeDidChange, one with token A and
     excludedAuthors ["app-b"], one with token B and excludedAuthors ["app-a"];
  4. a save by app-a reaches the first subscriber within 5 s and not the second (2 s of silence);
  5. a save by app-b reaches the second and not the first;
  6. a save with token B and no transactionAuthor is recorded under the token's own author, app-b;
  7. token A with transactionAuthor "app-b" fails with FORBIDDEN, writes nothing (counts before and after) and
     fires no storeDidChange;
  8. the contacts this run added are deleted.
Every contact this run writes carries a random tag word in its organization name, so runs never collide.
"""
from __future__ import annotations

import argparse
import asyncio
import random
import ssl
import string
import sys
import time
from typing import Any, Awaitable, Callable
from urllib.parse import urlsplit, urlunsplit

try:
    from gql import Client, GraphQLRequest
    from gql.transport.aiohttp import AIOHTTPTransport
    from gql.transport.exceptions import TransportQueryError
    from gql.transport.websockets import WebsocketsTransport
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"scenario.py needs gql 4 (pip install -r tests/clients/requirements.txt): {error}")

AUTHOR_A = "app-a"
AUTHOR_B = "app-b"
EVENT_TIMEOUT = 30.0  # seconds a subscriber may take to see a commit: a hang bound for loaded CI, not a goal
SILENCE = 2.0  # seconds a subscriber that must not see a commit is watched

SAVE_MUTATION = """
mutation ScenarioSave($request: SaveRequestInput!) {
  save(request: $request) {
    revision
    historyToken
    contacts { id givenName familyName organizationName }
    deletedContactIds
  }
}
"""

CONTACT_QUERY = """
query ScenarioContact($id: ID!) {
  contact(id: $id) {
    id
    contactType
    givenName
    familyName
    organizationName
    jobTitle
    phoneNumbers { identifier label value }
    emailAddresses { identifier label value }
    postalAddresses { identifier label value { street city postalCode country } }
    revision
    createdAt
    modifiedAt
  }
}
"""

SEARCH_QUERY = """
query ScenarioSearch($filter: ContactFilter!) {
  contacts(filter: $filter, sortOrder: FAMILY_NAME, first: 50) {
    totalCount
    nodes { id givenName familyName }
    pageInfo { hasNextPage endCursor }
  }
}
"""

COUNT_QUERY = """
query ScenarioCount($tag: String!) {
  all: contacts(first: 1) { totalCount }
  tagged: contacts(filter: {name: $tag}, first: 1) { totalCount }
}
"""

STORE_DID_CHANGE = """
subscription ScenarioStoreDidChange($excluded: [String!]) {
  storeDidChange(excludedAuthors: $excluded) { historyToken authors }
}
"""


class ScenarioFailure(Exception):
    """A step's expectation did not hold."""


def check(condition: bool, message: str) -> None:
    if not condition:
        raise ScenarioFailure(message)


def error_codes(error: TransportQueryError) -> list[str | None]:
    return [(e.get("extensions") or {}).get("code") if isinstance(e, dict) else None for e in (error.errors or [])]


def make_ssl_context(ca_path: str) -> ssl.SSLContext:
    """Verifies the server against the given CA only (hostname checked, verification never disabled)."""
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cafile=ca_path)
    context.check_hostname = True
    context.verify_mode = ssl.CERT_REQUIRED
    return context


def websocket_url(http_url: str) -> str:
    parts = urlsplit(http_url)
    return urlunsplit(("wss", parts.netloc, parts.path, parts.query, ""))


class Subscriber:
    """One graphql-transport-ws connection with one storeDidChange subscription feeding a queue."""

    def __init__(self, name: str, url: str, context: ssl.SSLContext, token: str, excluded: list[str]):
        self.name = name
        self.excluded = excluded
        self.transport = WebsocketsTransport(
            url=url,
            ssl=context,
            init_payload={"authorization": f"Bearer {token}"},
            subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
            connect_timeout=60,
            ack_timeout=60,
            close_timeout=5,
        )
        self.client = Client(transport=self.transport, fetch_schema_from_transport=False, execute_timeout=60)
        self.queue: asyncio.Queue[Any] = asyncio.Queue()
        self.session: Any = None
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        # connect_async returns once the server has sent connection_ack.
        self.session = await asyncio.wait_for(self.client.connect_async(), 60)
        check(
            self.transport.subprotocol == WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL,
            f"{self.name}: server chose subprotocol {self.transport.subprotocol!r}, expected graphql-transport-ws",
        )
        self.task = asyncio.create_task(self._listen(), name=f"subscriber {self.name}")
        # The subscribe message has gone out once gql registers a listener for its id.
        deadline = time.monotonic() + 5
        while not self.transport.listeners:
            if self.task.done() or time.monotonic() > deadline:
                await self._raise_pending(f"{self.name}: the subscribe message was not sent within 5 s")
            await asyncio.sleep(0.02)

    async def _listen(self) -> None:
        request = GraphQLRequest(STORE_DID_CHANGE, variable_values={"excluded": self.excluded})
        try:
            async for data in self.session.subscribe(request):
                await self.queue.put(data.get("storeDidChange"))
        except asyncio.CancelledError:
            raise
        except Exception as error:  # surfaced to the step waiting on the queue
            await self.queue.put(error)
        else:
            await self.queue.put(ScenarioFailure(f"{self.name}: the server completed the subscription"))

    async def _raise_pending(self, fallback: str) -> None:
        if not self.queue.empty():
            item = self.queue.get_nowait()
            if isinstance(item, BaseException):
                raise ScenarioFailure(f"{self.name}: subscription failed: {item!r}")
        raise ScenarioFailure(fallback)

    def _checked(self, item: Any) -> dict[str, Any]:
        if isinstance(item, BaseException):
            raise ScenarioFailure(f"{self.name}: subscription failed: {item!r}")
        check(isinstance(item, dict), f"{self.name}: storeDidChange payload is not an object: {item!r}")
        authors = item.get("authors")
        check(isinstance(item.get("historyToken"), str) and item["historyToken"] != "",
              f"{self.name}: event without a historyToken: {item!r}")
        check(isinstance(authors, list), f"{self.name}: event without an authors list: {item!r}")
        # The rule: a commit is left out only when every one of its authors is excluded.
        check(not (authors and all(a in self.excluded for a in authors)),
              f"{self.name}: received {item!r} although every author is in excludedAuthors {self.excluded}")
        return item

    async def expect_event(self, author: str, timeout: float = EVENT_TIMEOUT) -> dict[str, Any]:
        """Waits for an event whose authors include `author`; other (legitimate) events are skipped."""
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ScenarioFailure(f"{self.name}: no storeDidChange with author {author!r} within {timeout:g} s")
            try:
                item = await asyncio.wait_for(self.queue.get(), remaining)
            except asyncio.TimeoutError:
                continue
            event = self._checked(item)
            if author in event["authors"]:
                return event
            print(f"     note: {self.name} skipped an unrelated event {event!r}", flush=True)

    async def expect_silence(self, author: str, duration: float = SILENCE) -> None:
        """Fails if an event carrying `author` (or any event breaking the exclusion rule) arrives."""
        deadline = time.monotonic() + duration
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                item = await asyncio.wait_for(self.queue.get(), remaining)
            except asyncio.TimeoutError:
                return
            event = self._checked(item)  # fails on an event whose authors are all excluded, e.g. [author]
            print(f"     note: {self.name} saw an event with other authors too {event!r}", flush=True)

    def drain(self) -> None:
        while not self.queue.empty():
            self._checked(self.queue.get_nowait())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            try:
                await self.task
            except (asyncio.CancelledError, Exception):
                pass
        if self.session is not None:
            try:
                await asyncio.wait_for(self.client.close_async(), 10)
            except Exception:
                pass


class Scenario:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.context = make_ssl_context(args.ca)
        self.ws_url = args.ws_url or websocket_url(args.url)
        self.tag = "zq" + "".join(random.choice(string.ascii_lowercase) for _ in range(10))
        self.http_a: Any = None
        self.http_b: Any = None
        self.clients: list[Client] = []
        self.subscribers: list[Subscriber] = []
        self.created: list[str] = []
        self.elodie = ""
        self.jurgen = ""

    # -- plumbing --------------------------------------------------------------------------------------------

    async def http_session(self, token: str, introspect: bool) -> Any:
        transport = AIOHTTPTransport(
            url=self.args.url,
            headers={"Authorization": f"Bearer {token}"},
            ssl=self.context,
            # Hang bounds: a test suite on two loaded cores answers slowly (the introspection once took over 60 s).
            timeout=180,
        )
        client = Client(
            transport=transport,
            fetch_schema_from_transport=introspect,
            introspection_args={"input_object_one_of": True},
            execute_timeout=180,
        )
        self.clients.append(client)
        return await asyncio.wait_for(client.connect_async(), 300)

    async def save(self, session: Any, operations: list[dict[str, Any]], author: str | None) -> dict[str, Any]:
        request: dict[str, Any] = {"operations": operations}
        if author is not None:
            request["transactionAuthor"] = author
        try:
            result = await session.execute(GraphQLRequest(SAVE_MUTATION, variable_values={"request": request}))
        except TransportQueryError as error:
            raise ScenarioFailure(f"save as {author!r} failed: {error.errors!r}") from error
        return result["save"]

    async def counts(self) -> tuple[int, int]:
        data = await self.http_a.execute(GraphQLRequest(COUNT_QUERY, variable_values={"tag": self.tag}))
        return data["all"]["totalCount"], data["tagged"]["totalCount"]

    async def search(self, **filter_: str) -> dict[str, Any]:
        data = await self.http_a.execute(GraphQLRequest(SEARCH_QUERY, variable_values={"filter": filter_}))
        return data["contacts"]

    # -- steps -----------------------------------------------------------------------------------------------

    async def step_introspect(self) -> str:
        self.http_a = await self.http_session(self.args.token_a, introspect=True)
        schema = self.http_a.client.schema
        check(schema is not None, "introspection gave no schema")
        for kind, root in (("Query", schema.query_type), ("Mutation", schema.mutation_type),
                           ("Subscription", schema.subscription_type)):
            check(root is not None and root.name == kind, f"the schema has no {kind} root type (got {root})")
        wanted = {
            "Query": ["contact", "contacts", "groups", "group", "changeHistory", "currentHistoryToken", "node"],
            "Mutation": ["save"],
            "Subscription": ["storeDidChange", "changeHistory"],
        }
        for type_name, fields in wanted.items():
            missing = [f for f in fields if f not in schema.type_map[type_name].fields]  # type: ignore[union-attr]
            check(not missing, f"{type_name} lacks {missing}")
        operation_input = schema.type_map.get("SaveOperationInput")
        check(operation_input is not None, "the schema has no SaveOperationInput")
        check(getattr(operation_input, "is_one_of", False), "SaveOperationInput is not reported as @oneOf (isOneOf)")
        for event in ("DropEverythingEvent", "AddContactEvent", "UpdateContactEvent", "DeleteContactEvent"):
            check(event in schema.type_map, f"the schema has no {event}")
        self.http_b = await self.http_session(self.args.token_b, introspect=False)
        return f"{len(schema.type_map)} types; Query, Mutation, Subscription present; SaveOperationInput is @oneOf"

    async def step_create(self) -> str:
        organization = f"Scenario {self.tag}"
        operations = [
            {"addContact": {
                "givenName": "Élodie", "familyName": "Dupré", "organizationName": organization,
                "jobTitle": "Ingénieure", "phoneNumbers": [{"label": "mobile", "value": "+33 6 12 34 56 78"}],
                "emailAddresses": [{"label": "work", "value": f"elodie.dupre.{self.tag}@example.com"}],
                "postalAddresses": [{"label": "home", "value": {
                    "street": "12 rue de l'Église", "city": "Lyon", "postalCode": "69002", "country": "France",
                    "isoCountryCode": "fr"}}],
            }},
            {"addContact": {
                "givenName": "Jürgen", "familyName": "Weiß", "organizationName": organization,
                "emailAddresses": [{"label": "home", "value": f"juergen.weiss.{self.tag}@example.de"}],
            }},
        ]
        result = await self.save(self.http_a, operations, AUTHOR_A)
        contacts = result["contacts"]
        check(len(contacts) == 2, f"save returned {len(contacts)} contacts, expected 2: {result!r}")
        check(bool(result["historyToken"]), "save returned no historyToken")
        check(result["revision"] is not None, "save that added contacts returned a null revision")
        self.elodie, self.jurgen = contacts[0]["id"], contacts[1]["id"]
        self.created += [self.elodie, self.jurgen]
        check(contacts[0]["givenName"] == "Élodie" and contacts[1]["familyName"] == "Weiß",
              f"save returned other names than given: {contacts!r}")
        return f"added {self.elodie} and {self.jurgen} as {AUTHOR_A} (tag {self.tag})"

    async def step_read_back(self) -> str:
        data = await self.http_a.execute(GraphQLRequest(CONTACT_QUERY, variable_values={"id": self.elodie}))
        contact = data["contact"]
        check(contact is not None, f"contact(id: {self.elodie!r}) is null right after the save")
        expected = {"id": self.elodie, "givenName": "Élodie", "familyName": "Dupré", "jobTitle": "Ingénieure",
                    "organizationName": f"Scenario {self.tag}", "contactType": "PERSON"}
        for key, value in expected.items():
            check(contact[key] == value, f"contact.{key} is {contact[key]!r}, expected {value!r}")
        phones = contact["phoneNumbers"]
        check(len(phones) == 1 and phones[0]["value"] == "+33 6 12 34 56 78" and phones[0]["label"] == "mobile",
              f"phoneNumbers read back as {phones!r}")
        check(bool(phones[0]["identifier"]), "a phone number came back without an identifier")
        emails = contact["emailAddresses"]
        check([e["value"] for e in emails] == [f"elodie.dupre.{self.tag}@example.com"],
              f"emailAddresses read back as {emails!r}")
        address = contact["postalAddresses"][0]["value"] if contact["postalAddresses"] else None
        check(address is not None and address["street"] == "12 rue de l'Église" and address["city"] == "Lyon"
              and address["postalCode"] == "69002", f"postalAddresses read back as {contact['postalAddresses']!r}")
        check(bool(contact["revision"]) and bool(contact["createdAt"]), "revision or createdAt missing")
        other = await self.http_a.execute(GraphQLRequest(CONTACT_QUERY, variable_values={"id": self.jurgen}))
        check(other["contact"] is not None and other["contact"]["givenName"] == "Jürgen",
              f"contact(id: {self.jurgen!r}) read back as {other['contact']!r}")
        return "both contacts read back by id with their values"

    async def step_search(self) -> str:
        both = await self.search(name=self.tag)
        ids = {n["id"] for n in both["nodes"]}
        check(ids == {self.elodie, self.jurgen} and both["totalCount"] == 2,
              f"name search {self.tag!r} found {both!r}, expected the two contacts")
        names = [n["familyName"] for n in both["nodes"]]
        check(names == ["Dupré", "Weiß"], f"FAMILY_NAME order gave {names!r}, expected ['Dupré', 'Weiß']")
        folded = await self.search(name=f"ELODIE {self.tag[:6]}")
        check([n["id"] for n in folded["nodes"]] == [self.elodie],
              f"name search 'ELODIE {self.tag[:6]}' (case, accents, prefix) found {folded['nodes']!r}")
        by_email = await self.search(email=f"Elodie.Dupre.{self.tag}@EXAMPLE.com")
        check([n["id"] for n in by_email["nodes"]] == [self.elodie],
              f"email search found {by_email['nodes']!r}, expected only {self.elodie}")
        return "name search (tag; 'ELODIE' + tag prefix) and email search (case-insensitive) find the right contacts"

    async def step_subscribe(self) -> str:
        self.subscribers = [
            Subscriber(f"subscriber(token A, excludes {AUTHOR_B})", self.ws_url, self.context, self.args.token_a,
                       [AUTHOR_B]),
            Subscriber(f"subscriber(token B, excludes {AUTHOR_A})", self.ws_url, self.context, self.args.token_b,
                       [AUTHOR_A]),
        ]
        await asyncio.gather(*(s.start() for s in self.subscribers))
        await asyncio.sleep(0.5)  # let the server register both subscriptions with the store
        for subscriber in self.subscribers:
            subscriber.drain()
        return f"two storeDidChange subscriptions acked and subscribed over {self.ws_url}"

    async def step_save_as_a(self) -> str:
        excludes_b, excludes_a = self.subscribers
        result = await self.save(self.http_a, [{"updateContact": {"id": self.elodie, "jobTitle": "Directrice"}}],
                                 AUTHOR_A)
        event = await excludes_b.expect_event(AUTHOR_A)
        await excludes_a.expect_silence(AUTHOR_A)
        same = "same as" if event["historyToken"] == result["historyToken"] else "differs from"
        return f"{excludes_b.name} got {event['authors']} ({same} the save's token); {excludes_a.name} got nothing"

    async def step_save_as_b(self) -> str:
        excludes_b, excludes_a = self.subscribers
        await self.save(self.http_b, [{"updateContact": {"id": self.jurgen, "note": "Mis à jour par app-b"}}],
                        AUTHOR_B)
        event = await excludes_a.expect_event(AUTHOR_B)
        await excludes_b.expect_silence(AUTHOR_B)
        return f"{excludes_a.name} got {event['authors']}; {excludes_b.name} got nothing"

    async def step_default_author(self) -> str:
        excludes_b, excludes_a = self.subscribers
        result = await self.save(self.http_b, [{"addContact": {
            "givenName": "Zoë", "familyName": "Ångström", "organizationName": f"Scenario {self.tag}"}}], None)
        self.created.append(result["contacts"][0]["id"])
        event = await excludes_a.expect_event(AUTHOR_B)
        await excludes_b.expect_silence(AUTHOR_B)
        return f"a save with token B and no transactionAuthor was recorded as {event['authors']}"

    async def step_spoofed_author(self) -> str:
        before = await self.counts()
        operations = [{"addContact": {"givenName": "Mallory", "familyName": "Spoof",
                                      "organizationName": f"Scenario {self.tag}"}}]
        try:
            result = await self.http_a.execute(GraphQLRequest(
                SAVE_MUTATION, variable_values={"request": {"transactionAuthor": AUTHOR_B, "operations": operations}}))
        except TransportQueryError as error:
            codes = error_codes(error)
            check("FORBIDDEN" in codes, f"spoofed save failed with codes {codes}, expected FORBIDDEN: {error.errors!r}")
            check(not (error.data or {}).get("save"), f"spoofed save returned data {error.data!r}")
        else:
            added = [c["id"] for c in (result.get("save") or {}).get("contacts", [])]
            self.created += added
            raise ScenarioFailure(f"token A saved as {AUTHOR_B!r} without error (added {added})")
        for subscriber in self.subscribers:
            await subscriber.expect_silence(AUTHOR_B, duration=1.0)
        after = await self.counts()
        check(after == before, f"contact counts (all, tagged) changed from {before} to {after}: something was written")
        return f"FORBIDDEN, counts (all, tagged) {before} unchanged, no storeDidChange"

    async def step_cleanup(self) -> str:
        result = await self.save(self.http_a, [{"deleteContact": cid} for cid in self.created], AUTHOR_A)
        check(sorted(result["deletedContactIds"]) == sorted(self.created),
              f"deleted {result['deletedContactIds']}, expected {self.created}")
        _, tagged = await self.counts()
        check(tagged == 0, f"{tagged} tagged contacts remain after the deletion")
        deleted, self.created = len(self.created), []
        return f"deleted the {deleted} contacts this run added"

    async def close(self) -> None:
        for subscriber in self.subscribers:
            await subscriber.close()
        for client in self.clients:
            try:
                await asyncio.wait_for(client.close_async(), 10)
            except Exception:
                pass

    async def run(self) -> int:
        steps: list[tuple[str, Callable[[], Awaitable[str]]]] = [
            ("introspect the schema", self.step_introspect),
            ("create contacts as app-a", self.step_create),
            ("read contacts back by id", self.step_read_back),
            ("search by name and email", self.step_search),
            ("open two storeDidChange subscriptions", self.step_subscribe),
            ("save as app-a: only the subscriber excluding app-b hears it", self.step_save_as_a),
            ("save as app-b: only the subscriber excluding app-a hears it", self.step_save_as_b),
            ("save without transactionAuthor uses the token's author", self.step_default_author),
            ("spoofed transactionAuthor is FORBIDDEN and writes nothing", self.step_spoofed_author),
            ("delete what this run added", self.step_cleanup),
        ]
        try:
            for number, (title, step) in enumerate(steps, 1):
                started = time.monotonic()
                try:
                    detail = await step()
                except ScenarioFailure as failure:
                    print(f"FAIL {number:2d}. {title}: {failure}", flush=True)
                    return 1
                except TransportQueryError as error:
                    print(f"FAIL {number:2d}. {title}: GraphQL errors {error.errors!r}", flush=True)
                    return 1
                except Exception as error:  # transport, TLS, timeout: report and stop
                    print(f"FAIL {number:2d}. {title}: {type(error).__name__}: {error}", flush=True)
                    return 1
                print(f"ok   {number:2d}. {title} ({time.monotonic() - started:.2f} s): {detail}", flush=True)
            print(f"{len(steps)} passed, 0 failed")
            return 0
        finally:
            if self.created and self.http_a is not None:
                try:
                    await asyncio.wait_for(self.save(self.http_a, [{"deleteContact": c} for c in self.created],
                                                     AUTHOR_A), 15)
                except Exception as error:
                    print(f"     note: could not delete {self.created}: {error}", flush=True)
            await self.close()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="End-to-end scenario against a running Carnet server (gql over HTTPS and wss).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Steps" + __doc__.split("Steps", 1)[1] if __doc__ else None,
    )
    parser.add_argument("--url", required=True, help="the GraphQL endpoint, https://HOST:PORT/graphql")
    parser.add_argument("--ws-url", help="the WebSocket endpoint (default: --url with wss://)")
    parser.add_argument("--ca", required=True, help="PEM file of the CA that signed the server certificate")
    parser.add_argument("--token-a", required=True, help=f"read+write token bound to author {AUTHOR_A!r}")
    parser.add_argument("--token-b", required=True, help=f"read+write token bound to author {AUTHOR_B!r}")
    parser.add_argument("--timeout", type=float, default=120, help="seconds for the whole scenario (default 120)")
    args = parser.parse_args(argv)
    if urlsplit(args.url).scheme != "https":
        parser.error("--url must be https:// (Carnet serves TLS only)")
    if args.ws_url and urlsplit(args.ws_url).scheme != "wss":
        parser.error("--ws-url must be wss://")
    return args


async def main_async(args: argparse.Namespace) -> int:
    scenario = Scenario(args)
    try:
        return await asyncio.wait_for(scenario.run(), args.timeout)
    except asyncio.TimeoutError:
        print(f"FAIL the scenario did not finish within {args.timeout:g} s", flush=True)
        return 1


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
