"""Instructions (valgrind's callgrind, deterministic) one stage of the HTML ingest takes on a
generated bench page: for speed work on a machine whose speed varies by 40% minute to minute.

    .venv/bin/python bench/instructions.py [--mb 0.5]
    load 1,354 M   parse 3,622 M   store 3,790 M   (parsers = parse - load; store - parse)

Each stage runs in its own process under valgrind (about a minute each): `load` reads the page
(with every family parser imported, so imports cancel out), `parse` also runs the family
parsers, `store` also writes the records to a fresh store. PYTHONHASHSEED is fixed.
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _stage(path: str, stage: str) -> None:
    from ruleslawyer.gcpause import gc_paused
    from ruleslawyer.ingest.formats import load_bytes
    from ruleslawyer.ingest.parse.parsing import ParseContext, family_parsers, guess_edition, parse_document
    from ruleslawyer.store import Store

    family_parsers()  # imported before the count starts
    data = Path(path).read_bytes()
    with gc_paused():  # as ingest_file
        doc = load_bytes(data, Path(path), sha256="x")
        if stage == "load":
            return
        ctx = ParseContext(doc=doc, edition=guess_edition(doc))
        records = parse_document(doc, ctx)
        if stage == "store":
            with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "s.sqlite") as store:
                store.replace_file(path=path, name=Path(path).name, sha256="x", format="html", size=len(data),
                                   records=records, title=doc.title, edition=ctx.edition)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=0.5, help="size of the generated page")
    ap.add_argument("--stage", help=argparse.SUPPRESS)
    ap.add_argument("--page", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.stage:
        _stage(args.page, args.stage)
        return 0
    sys.path.insert(0, str(_HERE))
    from html_scaling import page  # noqa: E402 (bench/ is not a package)

    counts = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "page.html"
        path.write_bytes(page(args.mb))
        for stage in ("load", "parse", "store"):
            out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
                                  __file__, "--stage", stage, "--page", str(path)],
                                 capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"},
                                 cwd=_HERE.parent)
            m = re.search(r"Collected : (\d+)", out.stderr)
            if out.returncode or not m:
                sys.exit(f"{stage}: valgrind failed: {out.stderr[-500:]}")
            counts[stage] = int(m.group(1))
            print(f"{stage} {counts[stage] / 1e6:,.0f} M", flush=True)
    print(f"parsers {(counts['parse'] - counts['load']) / 1e6:,.0f} M, store {(counts['store'] - counts['parse']) / 1e6:,.0f} M")
    return 0


if __name__ == "__main__":
    sys.exit(main())
