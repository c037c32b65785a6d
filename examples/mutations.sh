#!/usr/bin/env bash
# Writes to Carnet with curl: creates a group and a contact in it, updates the contact, takes it out of the group,
# then deletes both. Each step prints the server's answer.
#
# Usage:
#   export CARNET_URL=https://127.0.0.1:8443/graphql   # the GraphQL endpoint
#   export CARNET_TOKEN=...                             # a token with the write scope
#   export CARNET_CA=./ca.pem                           # the CA that signed the server certificate
#   export CARNET_AUTHOR=mutations-sh                   # optional: the transaction author (your token may restrict it)
#   examples/mutations.sh
#
# Needs curl and jq. The certificate is verified against CARNET_CA (curl --cacert); nothing here turns it off.
set -euo pipefail

: "${CARNET_URL:?set CARNET_URL to https://HOST:PORT/graphql}"
: "${CARNET_TOKEN:?set CARNET_TOKEN to a token with the write scope}"
: "${CARNET_CA:?set CARNET_CA to the CA certificate (PEM)}"
AUTHOR="${CARNET_AUTHOR:-}"
command -v jq >/dev/null || { echo "mutations.sh needs jq" >&2; exit 2; }

# graphql QUERY VARIABLES_JSON: POSTs one operation, prints the data, exits on any error.
graphql() {
  local body response
  body=$(jq -n --arg query "$1" --argjson variables "$2" '{query: $query, variables: $variables}')
  response=$(curl --silent --show-error --fail-with-body \
    --cacert "$CARNET_CA" \
    --header "Authorization: Bearer $CARNET_TOKEN" \
    --header "Content-Type: application/json" \
    --header "Accept: application/graphql-response+json, application/json;q=0.9" \
    --data-binary "$body" \
    "$CARNET_URL") || { echo "HTTP request failed: $response" >&2; exit 1; }
  if jq -e '.errors' >/dev/null <<<"$response"; then
    echo "GraphQL errors:" >&2
    jq '.errors' >&2 <<<"$response"
    exit 1
  fi
  jq '.data' <<<"$response"
}

# request OPERATIONS_JSON: a SaveRequestInput with the optional transaction author.
request() {
  jq -n --argjson operations "$1" --arg author "$AUTHOR" \
    '{request: ({operations: $operations} + (if $author == "" then {} else {transactionAuthor: $author} end))}'
}

read -r -d '' SAVE <<'GRAPHQL' || true
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
GRAPHQL

read -r -d '' CONTACT <<'GRAPHQL' || true
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
GRAPHQL

# Identifiers chosen by the client let later operations of the same save refer to new records. They must never
# have been used before (deleted identifiers are retired), hence the time and random suffix.
suffix="$(date +%Y%m%d%H%M%S)-$RANDOM"
group_id="example-group-$suffix"
contact_id="example-contact-$suffix"

echo "== 1. add a group, add a contact, put the contact in the group (one atomic save)"
graphql "$SAVE" "$(request "$(jq -n --arg g "$group_id" --arg c "$contact_id" '[
  {addGroup: {id: $g, name: "Club de lecture"}},
  {addContact: {
    id: $c,
    givenName: "Anaïs", familyName: "Lefèvre", organizationName: "Éditions du Rhône", jobTitle: "Éditrice",
    phoneNumbers: [{label: "mobile", value: "+33 6 98 76 54 32"}],
    emailAddresses: [{label: "work", value: "anais.lefevre@editions-rhone.example"}],
    postalAddresses: [{label: "work", value: {street: "3 quai Saint-Antoine", city: "Lyon", postalCode: "69002",
                                               country: "France", isoCountryCode: "fr"}}],
    birthday: {month: 4, day: 17}
  }},
  {addMember: {contactId: $c, groupId: $g}}
]')")"

echo "== 2. read it back (the phone number's identifier and the revision are needed for the update)"
contact=$(graphql "$CONTACT" "$(jq -n --arg id "$contact_id" '{id: $id}')")
echo "$contact"
phone_id=$(jq -r '.contact.phoneNumbers[0].identifier' <<<"$contact")
revision=$(jq -r '.contact.revision' <<<"$contact")

echo "== 3. update: new job title, keep the mobile number (same identifier), add a work number"
# baseRevision makes the save merge with concurrent edits of other keys and fail with CONFLICT on the same keys.
graphql "$SAVE" "$(request "$(jq -n --arg c "$contact_id" --arg p "$phone_id" --arg r "$revision" '[
  {updateContact: {
    id: $c, baseRevision: $r,
    jobTitle: "Directrice éditoriale",
    phoneNumbers: [{identifier: $p, label: "mobile", value: "+33 6 98 76 54 32"},
                   {label: "work", value: "+33 4 72 00 00 00"}]
  }}
]')")"

echo "== 4. take the contact out of the group"
graphql "$SAVE" "$(request "$(jq -n --arg g "$group_id" --arg c "$contact_id" '[
  {removeMember: {contactId: $c, groupId: $g}}
]')")"

echo "== 5. delete the contact and the group"
graphql "$SAVE" "$(request "$(jq -n --arg g "$group_id" --arg c "$contact_id" '[
  {deleteContact: $c},
  {deleteGroup: $g}
]')")"
