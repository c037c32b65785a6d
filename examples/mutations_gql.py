#!/usr/bin/env python3
"""Writes to Carnet with Python's gql: creates a group and a contact in it, updates the contact, takes it out of
the group, then deletes both (the same steps as mutations.sh).

Usage:
    export CARNET_URL=https://127.0.0.1:8443/graphql CARNET_TOKEN=... CARNET_CA=./ca.pem
    python3 examples/mutations_gql.py [--author my-app]

    --url, --token, --ca override the environment variables; --author sets the save's transactionAuthor
    (CARNET_AUTHOR; without one the token's own author is used).

Needs `pip install -r tests/clients/requirements.txt` (gql 4 with requests). The server certificate is verified
against the CA file.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
import time
from typing import Any

from gql import Client, GraphQLRequest
from gql.transport.exceptions import TransportQueryError
from gql.transport.requests import RequestsHTTPTransport

SAVE = """
mutation ExampleSave($request: SaveRequestInput!) {
  save(request: $request) {
    revision
    historyToken
    contacts {
      id
      displayName
      jobTitle
      phoneNumbers { identifier label value }
      emailAddresses { identifier label value }
      groups { id name }
      revision
    }
    groups { id name memberCount }
    deletedContactIds
    deletedGroupIds
  }
}
"""

CONTACT = """
query ExampleContact($id: ID!) {
  contact(id: $id) {
    id
    displayName
    jobTitle
    phoneNumbers { identifier label value }
    groups { id name }
    revision
  }
}
"""


class Carnet:
    """A small synchronous client: one HTTPS session, bearer token, CA-verified TLS."""

    def __init__(self, url: str, token: str, ca: str, author: str | None):
        transport = RequestsHTTPTransport(
            url=url,
            headers={"Authorization": f"Bearer {token}",
                     "Accept": "application/graphql-response+json, application/json;q=0.9"},
            verify=ca,  # the CA bundle to verify the server with
            timeout=30,
            retries=0,
        )
        # fetch_schema_from_transport: gql introspects once and validates every operation locally before sending.
        self.client = Client(transport=transport, fetch_schema_from_transport=True)
        self.author = author

    def __enter__(self) -> "Carnet":
        self.session = self.client.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.client.__exit__(*exc)

    def execute(self, query: str, variables: dict[str, Any]) -> dict[str, Any]:
        return self.session.execute(GraphQLRequest(query, variable_values=variables))

    def save(self, *operations: dict[str, Any]) -> dict[str, Any]:
        request: dict[str, Any] = {"operations": list(operations)}
        if self.author:
            request["transactionAuthor"] = self.author
        return self.execute(SAVE, {"request": request})["save"]


def show(title: str, value: Any) -> None:
    print(f"== {title}")
    print(json.dumps(value, ensure_ascii=False, indent=2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default=os.environ.get("CARNET_URL"), help="GraphQL endpoint (CARNET_URL)")
    parser.add_argument("--token", default=os.environ.get("CARNET_TOKEN"), help="write token (CARNET_TOKEN)")
    parser.add_argument("--ca", default=os.environ.get("CARNET_CA"), help="CA certificate PEM (CARNET_CA)")
    parser.add_argument("--author", default=os.environ.get("CARNET_AUTHOR"), help="transaction author")
    args = parser.parse_args()
    missing = [name for name in ("url", "token", "ca") if not getattr(args, name)]
    if missing:
        parser.error(f"set {', '.join('CARNET_' + m.upper() for m in missing)} or pass --{' --'.join(missing)}")

    # Client-chosen identifiers let later operations of one save refer to records added earlier in it. They are
    # never reused, even after a delete, so make them unique.
    suffix = f"{time.strftime('%Y%m%d%H%M%S')}-{secrets.token_hex(3)}"
    group_id, contact_id = f"example-group-{suffix}", f"example-contact-{suffix}"

    try:
        with Carnet(args.url, args.token, args.ca, args.author) as carnet:
            show("1. add a group, add a contact, put the contact in the group (one atomic save)", carnet.save(
                {"addGroup": {"id": group_id, "name": "Club de lecture"}},
                {"addContact": {
                    "id": contact_id,
                    "givenName": "Anaïs", "familyName": "Lefèvre",
                    "organizationName": "Éditions du Rhône", "jobTitle": "Éditrice",
                    "phoneNumbers": [{"label": "mobile", "value": "+33 6 98 76 54 32"}],
                    "emailAddresses": [{"label": "work", "value": "anais.lefevre@editions-rhone.example"}],
                    "postalAddresses": [{"label": "work", "value": {
                        "street": "3 quai Saint-Antoine", "city": "Lyon", "postalCode": "69002",
                        "country": "France", "isoCountryCode": "fr"}}],
                    "birthday": {"month": 4, "day": 17},
                }},
                {"addMember": {"contactId": contact_id, "groupId": group_id}},
            ))

            contact = carnet.execute(CONTACT, {"id": contact_id})["contact"]
            show("2. read it back (the phone number's identifier and the revision are needed for the update)",
                 contact)
            mobile = contact["phoneNumbers"][0]

            # baseRevision: merge with concurrent edits of other keys, fail with CONFLICT on the same keys.
            show("3. update: new job title, keep the mobile number (same identifier), add a work number",
                 carnet.save({"updateContact": {
                     "id": contact_id,
                     "baseRevision": contact["revision"],
                     "jobTitle": "Directrice éditoriale",
                     "phoneNumbers": [
                         {"identifier": mobile["identifier"], "label": mobile["label"], "value": mobile["value"]},
                         {"label": "work", "value": "+33 4 72 00 00 00"},
                     ],
                 }}))

            show("4. take the contact out of the group",
                 carnet.save({"removeMember": {"contactId": contact_id, "groupId": group_id}}))

            show("5. delete the contact and the group",
                 carnet.save({"deleteContact": contact_id}, {"deleteGroup": group_id}))
    except TransportQueryError as error:
        # A failed save carries the store's code (CONFLICT, VALIDATION_FAILED, FORBIDDEN, ...) and writes nothing.
        print("GraphQL errors:", json.dumps(error.errors, ensure_ascii=False, indent=2), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
