"""Carnet's introspection, read by graphql-core as a client would, must describe schema/carnet.graphql exactly.

Usage: introspection_roundtrip.py CARNET_BINARY

Runs graphql-core's introspection query through `carnet query` on a fresh data folder, builds a client schema
from the result (build_client_schema), and requires that it prints as schema/carnet.graphql does and that
find_breaking_changes and find_dangerous_changes between the two find nothing beyond the built-in directives
(a default missing from introspection is a dangerous change). Types, fields, arguments, input fields and enum values must come in
definition order, and isOneOf must be null except on input objects.
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from graphql import (build_client_schema, build_schema, find_breaking_changes, find_dangerous_changes,
                     get_introspection_query, print_schema)

root = Path(__file__).resolve().parents[2]
query = get_introspection_query(descriptions=True, specified_by_url=True, directive_is_repeatable=True,
                                input_value_deprecation=True).replace("kind\n  name\n  description",
                                                                       "kind\n  name\n  description\n  isOneOf", 1)
with tempfile.TemporaryDirectory() as data:
    output = subprocess.run([sys.argv[1], "query", "--data", data, query], check=True, capture_output=True).stdout
result = json.loads(output)
assert "errors" not in result, result.get("errors")
introspection = result["data"]

sdl_schema = build_schema((root / "schema/carnet.graphql").read_text())
client_schema = build_client_schema(introspection)
failures = []
if print_schema(client_schema) != print_schema(sdl_schema):
    failures.append("the client schema prints differently from schema/carnet.graphql")
# The built-in directives are GraphQLSwift's, not Carnet's: graphql-core 3.3 follows the draft spec, where
# @deprecated may also stand on directive definitions, and the library's (October 2021) @deprecated does not.
BUILT_IN = ("@deprecated", "@include", "@skip", "@specifiedBy", "@oneOf")
for change in find_breaking_changes(sdl_schema, client_schema) + find_dangerous_changes(sdl_schema, client_schema):
    if not any(name in change.description for name in BUILT_IN):
        failures.append(f"{change.type.name}: {change.description}")

sdl_types = [name for name in sdl_schema.type_map if not name.startswith("__")]
for type_ in introspection["__schema"]["types"]:
    if type_["kind"] != "INPUT_OBJECT" and type_.get("isOneOf") is not None:
        failures.append(f"{type_['name']}: isOneOf is {type_['isOneOf']!r}, not null")
    if type_["name"].startswith("__") or type_["name"] not in sdl_schema.type_map:
        continue
    expected = sdl_schema.type_map[type_["name"]]
    for member, listed in (("fields", type_.get("fields")), ("inputFields", type_.get("inputFields")),
                           ("enumValues", type_.get("enumValues"))):
        if listed is None:
            continue
        wanted = list(getattr(expected, "values" if member == "enumValues" else "fields"))
        if [item["name"] for item in listed] != wanted:
            failures.append(f"{type_['name']}.{member} not in definition order")
    for field in type_.get("fields") or []:
        wanted = list(expected.fields[field["name"]].args)
        if [argument["name"] for argument in field["args"]] != wanted:
            failures.append(f"{type_['name']}.{field['name']} arguments not in definition order")
for type_ in introspection["__schema"]["types"]:
    for text in [type_.get("description") or ""] + [f.get("description") or "" for f in type_.get("fields") or []]:
        if "\\`" in text:
            failures.append(f"{type_['name']}: a description has a stray backslash")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print(f"introspection round trip: {len(introspection['__schema']['types'])} types, no changes")
