"""Score every document of the real-document gold set and print a Markdown table for RESULTS.md.

    python bench/gold_real.py [tuning|blind]   (needs ../shared beside the checkout or RULESLAWYER_SHARED)

Prints the tuning half (tests/gold/real/MANIFEST.tsv) and the blind half
(tests/gold/real/blind/MANIFEST.tsv) as separate tables with their own means.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.conftest import find_shared  # noqa: E402
from tests.gold_real import BLIND_MANIFEST, MANIFEST, read_manifest, score_entry  # noqa: E402


def main() -> int:
    shared = find_shared()
    if shared is None:
        print("../shared not found: set RULESLAWYER_SHARED", file=sys.stderr)
        return 2
    halves = [("Tuning half", MANIFEST), ("Blind half (gold written without reading the parsers)", BLIND_MANIFEST)]
    only = sys.argv[1] if len(sys.argv) > 1 else None  # "tuning" or "blind"
    for title, manifest in halves:
        entries = read_manifest(manifest)
        if not entries or (only and not title.lower().startswith(only)):
            continue
        print(f"\n### {title}\n")
        print("| gold | document | kinds | scope | recall | precision | fields | score | floor |")
        print("|---|---|---|---|---|---|---|---|---|")
        scores = []
        for e in entries:
            t = time.perf_counter()
            o = score_entry(shared, e)["_overall"]
            scores.append(o["score"])
            kinds = ",".join(sorted(e.kinds)) if e.kinds else "all"
            print(f"| {e.id} | {e.document} | {kinds} | {e.scope[:40]} | {o['recall']:.3f} | {o['precision']:.3f} "
                  f"| {o['field_accuracy']:.3f} | {o['score']:.3f} | {e.floor} |", flush=True)
            print(f"  ({time.perf_counter() - t:.1f} s)", file=sys.stderr)
        print(f"\n{title.split(' (')[0]}: mean {sum(scores) / len(scores):.3f}, min {min(scores):.3f} "
              f"over {len(scores)} gold files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
