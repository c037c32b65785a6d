#!/usr/bin/env python3
"""Keeps a local SQLite replica of a Carnet store up to date with the change history.

Usage:
    python3 examples/sync_client.py --url https://127.0.0.1:8443/graphql --ca ca.pem --token TOKEN \
        [--db carnet-replica.sqlite] [--once] [--exclude-author my-app ...] [--no-groups] [--page-size 500]
        [--reset]

    (--url, --token, --ca default to CARNET_URL, CARNET_TOKEN, CARNET_CA)

How it works:
  1. Pull: `changeHistory(since: <stored token>)` over HTTPS, page after page while `hasMore`. Each page is
     applied and its `token` stored in the same SQLite transaction, so a crash never loses or repeats a page.
     With no stored token (first run) or one the server can no longer use, the first event is
     DropEverythingEvent: the replica is emptied and the add events that follow rebuild it. Full and
     incremental sync are the same loop.
  2. Live: `subscription changeHistory(since: <token>)` over wss (graphql-transport-ws). Every payload is a page
     of events with the token to resume from; each is applied and stored the same way. When the connection
     drops, the client reconnects (with backoff) from the stored token.
  --once stops after the pull. --exclude-author leaves out changes saved by those transaction authors (an app
  excludes its own writes, which it already has). With group changes (the default) groups and memberships are
  replicated too.

Tables: contacts (id, container_id, display_name, given_name, family_name, organization_name, revision,
modified_at, data = the contact as JSON), groups (id, name, container_id, revision, data), memberships
(group_id, contact_id), meta (key, value: the history token). Images are not replicated (only
imageDataAvailable and the thumbnail).

Needs `pip install -r tests/clients/requirements.txt` (gql 4 with aiohttp and websockets).
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import ssl
import sys
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from gql import Client, GraphQLRequest
from gql.transport.aiohttp import AIOHTTPTransport
from gql.transport.exceptions import TransportError, TransportQueryError
from gql.transport.websockets import WebsocketsTransport

# The keys the replica keeps for every contact and group; add and update events carry the record as it is now.
EVENT_FRAGMENTS = """
fragment ReplicaEvent on ChangeEvent {
  __typename
  author
  ... on AddContactEvent { contactId containerId contact { ...ReplicaContact } }
  ... on UpdateContactEvent { contactId changedKeys contact { ...ReplicaContact } }
  ... on DeleteContactEvent { contactId }
  ... on AddGroupEvent { groupId containerId group { ...ReplicaGroup } }
  ... on UpdateGroupEvent { groupId group { ...ReplicaGroup } }
  ... on DeleteGroupEvent { groupId }
  ... on AddMemberToGroupEvent { contactId groupId }
  ... on RemoveMemberFromGroupEvent { contactId groupId }
}

fragment ReplicaContact on Contact {
  id
  contactType
  displayName
  namePrefix
  givenName
  middleName
  familyName
  previousFamilyName
  nameSuffix
  nickname
  phoneticGivenName
  phoneticMiddleName
  phoneticFamilyName
  phoneticOrganizationName
  organizationName
  departmentName
  jobTitle
  note
  birthday { ...ReplicaDate }
  nonGregorianBirthday { ...ReplicaDate }
  imageDataAvailable
  thumbnailImageData
  phoneNumbers { identifier label value }
  emailAddresses { identifier label value }
  postalAddresses {
    identifier
    label
    value { street subLocality city subAdministrativeArea state postalCode country isoCountryCode }
  }
  urlAddresses { identifier label value }
  dates { identifier label value { ...ReplicaDate } }
  contactRelations { identifier label value { name } }
  socialProfiles { identifier label value { service username userIdentifier urlString } }
  instantMessageAddresses { identifier label value { service username } }
  vCardProperties
  groups { id }
  container { id }
  revision
  createdAt
  modifiedAt
}

fragment ReplicaGroup on Group {
  id
  name
  container { id }
  revision
  createdAt
  modifiedAt
}

fragment ReplicaDate on DateComponents { calendar era year month day isLeapMonth }
"""

PULL_QUERY = """
query SyncPull($since: String, $first: Int!, $includeGroupChanges: Boolean!, $excludedAuthors: [String!]!) {
  changeHistory(
    since: $since
    first: $first
    includeGroupChanges: $includeGroupChanges
    excludedAuthors: $excludedAuthors
  ) {
    token
    hasMore
    events { ...ReplicaEvent }
  }
}
""" + EVENT_FRAGMENTS

LIVE_SUBSCRIPTION = """
subscription SyncLive($since: String, $includeGroupChanges: Boolean!, $excludedAuthors: [String!]!) {
  changeHistory(since: $since, includeGroupChanges: $includeGroupChanges, excludedAuthors: $excludedAuthors) {
    token
    hasMore
    events { ...ReplicaEvent }
  }
}
""" + EVENT_FRAGMENTS

COUNT_QUERY = """
query SyncServerCount {
  contacts(first: 1) { totalCount }
}
"""

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS contacts (
  id TEXT PRIMARY KEY,
  container_id TEXT,
  display_name TEXT NOT NULL,
  given_name TEXT NOT NULL,
  family_name TEXT NOT NULL,
  organization_name TEXT NOT NULL,
  revision TEXT NOT NULL,
  modified_at TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS groups (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  container_id TEXT,
  revision TEXT NOT NULL,
  data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS memberships (
  group_id TEXT NOT NULL,
  contact_id TEXT NOT NULL,
  PRIMARY KEY (group_id, contact_id)
);
CREATE INDEX IF NOT EXISTS memberships_by_contact ON memberships (contact_id);
CREATE INDEX IF NOT EXISTS contacts_by_name ON contacts (family_name, given_name);
"""


class Replica:
    """The SQLite file: applies pages of events, one transaction per page, token included."""

    def __init__(self, path: str):
        self.db = sqlite3.connect(path)
        self.db.execute("PRAGMA journal_mode = WAL")
        self.db.executescript(SCHEMA)

    @property
    def token(self) -> str | None:
        row = self.db.execute("SELECT value FROM meta WHERE key = 'token'").fetchone()
        return row[0] if row else None

    def reset(self) -> None:
        with self.db:
            self.db.execute("DELETE FROM meta WHERE key = 'token'")

    def counts(self) -> tuple[int, int, int]:
        return tuple(self.db.execute(f"SELECT count(*) FROM {table}").fetchone()[0]  # type: ignore[return-value]
                     for table in ("contacts", "groups", "memberships"))

    def apply_page(self, page: dict[str, Any]) -> dict[str, int]:
        applied: dict[str, int] = {}
        with self.db:  # one transaction: the events and the token that follows them
            for event in page["events"]:
                kind = event["__typename"]
                self.apply(kind, event)
                applied[kind] = applied.get(kind, 0) + 1
            self.db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('token', ?)", (page["token"],))
        return applied

    def apply(self, kind: str, event: dict[str, Any]) -> None:
        db = self.db
        if kind == "DropEverythingEvent":
            db.execute("DELETE FROM contacts")
            db.execute("DELETE FROM groups")
            db.execute("DELETE FROM memberships")
        elif kind in ("AddContactEvent", "UpdateContactEvent"):
            self.put_contact(event["contact"])
        elif kind == "DeleteContactEvent":
            db.execute("DELETE FROM contacts WHERE id = ?", (event["contactId"],))
            db.execute("DELETE FROM memberships WHERE contact_id = ?", (event["contactId"],))
        elif kind in ("AddGroupEvent", "UpdateGroupEvent"):
            group = event["group"]
            db.execute(
                "INSERT OR REPLACE INTO groups (id, name, container_id, revision, data) VALUES (?, ?, ?, ?, ?)",
                (group["id"], group["name"], group["container"]["id"], group["revision"],
                 json.dumps(group, ensure_ascii=False)))
        elif kind == "DeleteGroupEvent":
            db.execute("DELETE FROM groups WHERE id = ?", (event["groupId"],))
            db.execute("DELETE FROM memberships WHERE group_id = ?", (event["groupId"],))
        elif kind == "AddMemberToGroupEvent":
            db.execute("INSERT OR IGNORE INTO memberships (group_id, contact_id) VALUES (?, ?)",
                       (event["groupId"], event["contactId"]))
        elif kind == "RemoveMemberFromGroupEvent":
            db.execute("DELETE FROM memberships WHERE group_id = ? AND contact_id = ?",
                       (event["groupId"], event["contactId"]))
        else:
            # A newer server may add event types; a replica that cannot apply one must not skip it silently.
            raise RuntimeError(f"unknown change event {kind}: update sync_client.py")

    def put_contact(self, contact: dict[str, Any]) -> None:
        self.db.execute(
            "INSERT OR REPLACE INTO contacts (id, container_id, display_name, given_name, family_name, "
            "organization_name, revision, modified_at, data) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (contact["id"], contact["container"]["id"], contact["displayName"], contact["givenName"],
             contact["familyName"], contact["organizationName"], contact["revision"], contact["modifiedAt"],
             json.dumps(contact, ensure_ascii=False)))
        # The contact's groups as they are now; later membership events (in this page or the next) still apply
        # on top, so the replica converges either way.
        self.db.execute("DELETE FROM memberships WHERE contact_id = ?", (contact["id"],))
        self.db.executemany("INSERT OR IGNORE INTO memberships (group_id, contact_id) VALUES (?, ?)",
                            [(group["id"], contact["id"]) for group in contact["groups"]])


def describe(applied: dict[str, int]) -> str:
    return ", ".join(f"{count} {kind}" for kind, count in sorted(applied.items())) or "no events"


class SyncClient:
    def __init__(self, args: argparse.Namespace):
        self.args = args
        self.replica = Replica(args.db)
        self.context = ssl.create_default_context(cafile=args.ca)
        parts = urlsplit(args.url)
        self.ws_url = args.ws_url or urlunsplit(("wss", parts.netloc, parts.path, parts.query, ""))
        self.variables = {"includeGroupChanges": not args.no_groups, "excludedAuthors": args.exclude_author}

    async def pull(self) -> None:
        transport = AIOHTTPTransport(url=self.args.url, headers={"Authorization": f"Bearer {self.args.token}"},
                                     ssl=self.context, timeout=60)
        async with Client(transport=transport, execute_timeout=120) as session:
            pages = events = 0
            while True:
                variables = {**self.variables, "since": self.replica.token, "first": self.args.page_size}
                data = await session.execute(GraphQLRequest(PULL_QUERY, variable_values=variables))
                page = data["changeHistory"]
                applied = self.replica.apply_page(page)
                pages += 1
                events += len(page["events"])
                print(f"pull page {pages}: {describe(applied)}", flush=True)
                if not page["hasMore"]:
                    break
            contacts, groups, memberships = self.replica.counts()
            total = (await session.execute(GraphQLRequest(COUNT_QUERY)))["contacts"]["totalCount"]
            print(f"pulled {events} events in {pages} pages; replica: {contacts} contacts, {groups} groups, "
                  f"{memberships} memberships (server: {total} contacts)", flush=True)

    async def live(self) -> None:
        delay = 1.0
        while True:
            transport = WebsocketsTransport(
                url=self.ws_url,
                ssl=self.context,
                init_payload={"authorization": f"Bearer {self.args.token}"},
                subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL],
                ping_interval=30,  # graphql-transport-ws pings: a dead connection is noticed within 40 s
                pong_timeout=10,
                close_timeout=3,
            )
            try:
                async with Client(transport=transport) as session:
                    print(f"live: subscribed from token {self.replica.token}", flush=True)
                    variables = {**self.variables, "since": self.replica.token}
                    async for data in session.subscribe(GraphQLRequest(LIVE_SUBSCRIPTION, variable_values=variables)):
                        page = data["changeHistory"]
                        applied = self.replica.apply_page(page)
                        if page["events"]:
                            contacts, groups, _ = self.replica.counts()
                            print(f"live: {describe(applied)} -> {contacts} contacts, {groups} groups", flush=True)
                        delay = 1.0
                print("live: the server ended the subscription; resubscribing", flush=True)
            except TransportQueryError as error:
                raise SystemExit(f"the server refused the subscription: {error.errors}") from error
            except (TransportError, OSError, asyncio.TimeoutError) as error:
                print(f"live: connection lost ({type(error).__name__}: {error}); retrying in {delay:g} s", flush=True)
            await asyncio.sleep(delay)
            delay = min(delay * 2, 60)

    async def run(self) -> None:
        if self.args.reset:
            self.replica.reset()
        await self.pull()
        if not self.args.once:
            await self.live()


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Keep a local SQLite replica of a Carnet store up to date.")
    parser.add_argument("--url", default=os.environ.get("CARNET_URL"), help="https://HOST:PORT/graphql (CARNET_URL)")
    parser.add_argument("--ws-url", help="the WebSocket endpoint (default: --url with wss://)")
    parser.add_argument("--token", default=os.environ.get("CARNET_TOKEN"), help="read token (CARNET_TOKEN)")
    parser.add_argument("--ca", default=os.environ.get("CARNET_CA"), help="CA certificate PEM (CARNET_CA)")
    parser.add_argument("--db", default="carnet-replica.sqlite", help="the replica file (default %(default)s)")
    parser.add_argument("--once", action="store_true", help="pull up to now and exit (no live subscription)")
    parser.add_argument("--exclude-author", action="append", default=[], metavar="AUTHOR",
                        help="leave out changes by this transaction author (repeatable)")
    parser.add_argument("--no-groups", action="store_true", help="leave out group and membership events")
    parser.add_argument("--page-size", type=int, default=500,
                        help="events per pulled page, 1-5000 (default %(default)s; larger pages may pass the "
                             "server's node limit)")
    parser.add_argument("--reset", action="store_true", help="forget the stored token: a full sync follows")
    args = parser.parse_args()
    missing = [name for name in ("url", "token", "ca") if not getattr(args, name)]
    if missing:
        parser.error(f"set {', '.join('CARNET_' + m.upper() for m in missing)} or pass --{' --'.join(missing)}")
    if not 1 <= args.page_size <= 5000:
        parser.error("--page-size must be from 1 to 5000")
    return args


def main() -> int:
    args = parse_args()
    try:
        asyncio.run(SyncClient(args).run())
    except KeyboardInterrupt:
        print("stopped; the replica and its token are saved", file=sys.stderr)
    except TransportQueryError as error:
        print(f"GraphQL errors: {error.errors}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
