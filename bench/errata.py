"""Time applying errata (`ruleslawyer.amend.apply.apply_errata`) as the corpus grows.

The FAQ of seed 003 (45 entries) is applied to the rules of seed 000 copied N times under new
names, so most entries search a large corpus for a target that is not there (the slow path:
name lookup, then a search by wording). Best of R runs for each size.

    .venv/bin/python bench/errata.py [--sizes 1,10,100] [--repeat 3]
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    """Time parsing and applying the seed FAQ against a large rules corpus, and print the timings."""
    from ruleslawyer.amend.apply import apply_errata
    from ruleslawyer.ingest.formats import load_file
    from ruleslawyer.ingest.parse.parsing import parse_document

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,100", help="copies of the seed 000 rules")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--shared", default=str(ROOT.parent / "shared"))
    args = parser.parse_args()
    seeds = Path(args.shared) / "seeds"
    rules = [r for r in parse_document(load_file(next(seeds.glob("000_*.txt")))) if r.kind == "rule"]
    faq = [r for r in parse_document(load_file(next(seeds.glob("003_*.txt")))) if r.kind == "errata"]
    print(f"{'copies':>6} {'rules':>7} {'errata':>6} {'best s':>8} {'applied':>7}")
    for copies in (int(x) for x in args.sizes.split(",")):
        corpus = [dataclasses.replace(r, name=f"{r.name} #{n}" if n else r.name)
                  for n in range(copies) for r in rules]
        best = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            result = apply_errata(corpus + faq)
            best = min(best, time.perf_counter() - start)
        applied = sum(o.applied for o in result.outcomes)
        print(f"{copies:>6} {len(corpus):>7} {len(faq):>6} {best:>8.3f} {applied:>7}")


if __name__ == "__main__":
    main()
