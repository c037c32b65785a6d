#!/usr/bin/env python3
"""Reads Carnet's vCard exports with an independent parser (Python's vobject) and compares every card's values
with what Carnet says it wrote.

The Swift test `VobjectTests` imports cards in the shapes iCloud/macOS, Google, Outlook, Android and CardDAV
servers write, exports them in each version and group style, and writes each export beside a JSON file of the
values of every card (contacts and group cards). Usage: vcard_vobject.py DIRECTORY
"""
import json
import sys
from pathlib import Path

import vobject


def texts(card, name):
    return [item.value for item in card.contents.get(name, [])]


def flat(value):
    return " ".join(value) if isinstance(value, list) else value


def compare(where, card, want):
    problems = []

    def check(what, got, expected):
        if got != expected:
            problems.append(f"{where}: {what} {got!r}, expected {expected!r}")

    check("FN", texts(card, "fn"), [want["fn"]])
    if want["kind"] == "group":
        check("MEMBER", sorted(texts(card, "member") + texts(card, "x-addressbookserver-member")),
              sorted(want["members"]))
        return problems
    name = card.n.value if hasattr(card, "n") else None
    parts = [flat(getattr(name, field)) for field in ("family", "given", "additional", "prefix", "suffix")] \
        if name else None
    check("N", parts, want["n"])
    check("EMAIL", texts(card, "email"), want["emails"])
    check("TEL", texts(card, "tel"), want["tels"])
    check("URL", texts(card, "url"), want["urls"])
    org = texts(card, "org")
    check("ORG", [part for part in org[0] if part] if org else [], want["org"])
    check("NOTE", texts(card, "note"), [want["note"]] if want["note"] else [])
    check("ADR street", [adr.street for adr in texts(card, "adr")], want["streets"])
    check("ADR city", [adr.city for adr in texts(card, "adr")], want["cities"])
    check("CATEGORIES", sorted(c for group in texts(card, "categories") for c in group), sorted(want["categories"]))
    related = texts(card, "x-abrelatednames") + [
        item.value for item in card.contents.get("related", []) if item.params.get("VALUE", [""])[0].lower() == "text"
    ]
    check("relations", related, want["relations"])
    for name in want["kept"]:
        if name.lower() not in card.contents:
            problems.append(f"{where}: kept property {name} missing")
    return problems


def main():
    directory = Path(sys.argv[1])
    problems, checked = [], 0
    for expected_path in sorted(directory.glob("*.json")):
        export = expected_path.with_suffix(".vcf")
        expected = json.loads(expected_path.read_text(encoding="utf-8"))
        with open(export, encoding="utf-8", newline="") as handle:
            cards = list(vobject.readComponents(handle.read()))
        if len(cards) != len(expected):
            problems.append(f"{export.name}: {len(cards)} cards, expected {len(expected)}")
        for card, want in zip(cards, expected):
            checked += 1
            uid = card.uid.value if hasattr(card, "uid") else None
            where = f"{export.name} {want['uid']}"
            if uid != want["uid"]:
                problems.append(f"{where}: UID {uid!r}")
            problems += compare(where, card, want)
    for problem in problems:
        print("vobject:", problem)
    print(f"vobject: {checked} cards read, {len(problems)} mismatches")
    return 1 if problems or checked == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
