#!/usr/bin/env python3
"""duplicateCandidates on a pathological book: 2,000 contacts in 100 groups of 20, each group sharing 100 email
addresses and 100 phone numbers (19,000 candidate pairs, 3.8 million pairings of shared keys).

Usage: scripts/bench_duplicates_pathological.py [CARNET] (default .build-rel/release/carnet). Imports the book into a
temporary data folder with `carnet import`, then times `carnet query` for the first page (first: 1) three times,
process start included (about 0.05 s)."""
import os
import subprocess
import sys
import tempfile
import time

carnet = sys.argv[1] if len(sys.argv) > 1 else ".build-rel/release/carnet"
with tempfile.TemporaryDirectory() as folder:
    cards = []
    for index in range(2000):
        group = index // 20
        lines = ["BEGIN:VCARD", "VERSION:3.0", f"UID:dup-{index}", f"N:Fam{index};Giv{index};;;",
                 f"FN:Giv{index} Fam{index}"]
        lines += [f"EMAIL;TYPE=INTERNET:s{group}_{key}@example.com" for key in range(100)]
        lines += [f"TEL;TYPE=CELL:+1 5{group:03d}{key:06d}" for key in range(100)]
        cards.append("\r\n".join(lines + ["END:VCARD"]))
    path = os.path.join(folder, "cards.vcf")
    with open(path, "w") as file:
        file.write("\r\n".join(cards) + "\r\n")
    data = os.path.join(folder, "data")
    subprocess.run([carnet, "import", "--data", data, path], check=True, capture_output=True)
    query = "{ duplicateCandidates(first: 1) { totalCount nodes { score reasons { kind } } } }"
    for run in range(3):
        start = time.perf_counter()
        result = subprocess.run([carnet, "query", "--data", data, query], check=True, capture_output=True, text=True)
        elapsed = time.perf_counter() - start
        print(f"run {run + 1}: {elapsed:.2f} s, {result.stdout[:80]}")
