#!/usr/bin/env python3
"""Cross-checks Carnet's vCard export with an independent parser (Python's vobject).

The Swift test `VCardCrossCheckTests` exports a store with every kind of value as vCard 3.0 and 4.0 and writes
what each card must say to expected.json. This script parses every card with vobject and compares.
Usage: vcard_crosscheck.py DIRECTORY
"""
import json
import sys
from pathlib import Path

import vobject


def values(card, name):
    return [item.value for item in card.contents.get(name.lower(), [])]


def check(path, expected):
    problems = []
    with open(path, encoding="utf-8", newline="") as handle:
        cards = list(vobject.readComponents(handle.read()))
    # A 4.0 export ends with group cards (KIND:group); they are checked against the contacts' CATEGORIES.
    groups = [card for card in cards if values(card, "kind") == ["group"]]
    cards = [card for card in cards if values(card, "kind") != ["group"]]
    members = {}
    for group in groups:
        for member in values(group, "member"):
            members.setdefault(member.removeprefix("urn:uuid:"), []).append(group.fn.value)
    if len(cards) != len(expected):
        problems.append(f"{path.name}: {len(cards)} cards, expected {len(expected)}")
    by_uid = {card.uid.value: card for card in cards if hasattr(card, "uid")}
    for want in expected:
        card = by_uid.get(want["uid"])
        if card is None:
            problems.append(f"{path.name}: no card with UID {want['uid']}")
            continue
        where = f"{path.name} {want['uid']}"
        name = card.n.value if hasattr(card, "n") else None
        if want["familyName"] or want["givenName"]:
            if name is None or name.family != want["familyName"] or name.given != want["givenName"]:
                problems.append(f"{where}: N {name!r}, expected {want['givenName']!r} {want['familyName']!r}")
        if not hasattr(card, "fn") or not card.fn.value.strip():
            problems.append(f"{where}: no FN")
        for field, key in (("email", "emails"), ("tel", "phones"), ("url", "urls")):
            got = sorted(values(card, field))
            if got != sorted(want[key]):
                problems.append(f"{where}: {field.upper()} {got}, expected {sorted(want[key])}")
        if want["organization"]:
            org = values(card, "org")
            if not org or org[0][0] != want["organization"]:
                problems.append(f"{where}: ORG {org}, expected {want['organization']!r}")
        if want["note"]:
            note = values(card, "note")
            if note != [want["note"]]:
                problems.append(f"{where}: NOTE {note}, expected {[want['note']]}")
        streets = sorted(adr.street for adr in values(card, "adr"))
        if streets != sorted(want["streets"]):
            problems.append(f"{where}: ADR streets {streets}, expected {sorted(want['streets'])}")
        categories = sorted(c for group in values(card, "categories") for c in group)
        if categories != sorted(want["categories"]):
            problems.append(f"{where}: CATEGORIES {categories}, expected {sorted(want['categories'])}")
        if groups and sorted(members.get(want["uid"], [])) != sorted(want["categories"]):
            problems.append(f"{where}: group cards {members.get(want['uid'])}, expected {sorted(want['categories'])}")
    return problems, len(cards)


def main():
    directory = Path(sys.argv[1])
    expected = json.loads((directory / "expected.json").read_text(encoding="utf-8"))
    problems, checked = [], 0
    for name in ("export-3.0.vcf", "export-4.0.vcf"):
        found, count = check(directory / name, expected)
        problems += found
        checked += count
    for problem in problems:
        print("vobject:", problem)
    print(f"vobject cross-check: {checked} cards parsed, {len(problems)} mismatches")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
