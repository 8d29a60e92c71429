"""load_corpus with record identity and precedence (issue 15) against the same load without them.

Builds a store of N synthetic records (bench/site.py's generator, spread over 60 files), plus a
second printing of every 10th record in another file, then times `load_corpus` side by side in
one run: `reconciled=False` (every stored record, as before identity existed) and
`reconciled=True` (one entry per record, printings ranked, differences listed). Best of R runs.

    .venv/bin/python bench/reference.py [--records 50000] [--repeat 3]
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def build_store(path: Path, count: int):
    """A store of `count` synthetic records in 60 files, every 10th printed again in `reprint.txt`."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_site", ROOT / "bench" / "site.py")
    bench_site = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_site)  # bench/site.py's generator (its name shadows the stdlib `site`)
    synthetic_corpus = bench_site.synthetic_corpus

    from ruleslawyer.store import Store

    corpus = synthetic_corpus(count)
    by_file = defaultdict(list)
    for r in corpus.originals:
        by_file[r.source.file].append(r)
    reprints = [dataclasses.replace(r, source=dataclasses.replace(r.source, file="reprint.txt"))
                for n, r in enumerate(corpus.originals) if n % 10 == 0 and r.kind not in ("errata", "faq", "note")]
    by_file["reprint.txt"] = reprints
    store = Store(path)
    for name, records in by_file.items():
        store.replace_file(path=name, name=name, sha256=name, format="text", size=1, records=records)
    return store


def best_of(repeat: int, fn) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def main() -> None:
    """Print the side-by-side timings."""
    from ruleslawyer.library.corpus import load_corpus

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        store = build_store(Path(tmp) / "bench.sqlite", args.records)
        # Interleaved, best of R each: the two loads see the same machine state.
        plain = merged = float("inf")
        for _ in range(args.repeat):
            t, c1 = best_of(1, lambda: load_corpus(store, reconciled=False))
            plain = min(plain, t)
            t, c2 = best_of(1, lambda: load_corpus(store, reconciled=True))
            merged = min(merged, t)
        store.close()
    print(f"records stored: {len(c1.originals)}; entries after identity: {len(c2.originals)}; "
          f"merged printings: {len(c2.printings)}")
    print(f"load_corpus without identity: {plain:.2f} s")
    print(f"load_corpus with identity and precedence: {merged:.2f} s  ({merged / plain:.2f}x)")


if __name__ == "__main__":
    main()
