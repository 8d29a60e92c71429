"""Output equivalence of two versions of the readers: what the loaders and family parsers make
of a fixed set of documents, dumped to JSON and compared. For speed work that must not change
a single block, record or warning.

    RULESLAWYER_SHARED=../shared .venv/bin/python bench/equivalence.py dump before.json
    ... change the code ...
    RULESLAWYER_SHARED=../shared .venv/bin/python bench/equivalence.py dump after.json
    .venv/bin/python bench/equivalence.py diff before.json after.json     # "differing: 0"

The documents: every seed input, every HTML, PDF, text and Markdown file under realdata/, and
two generated bench pages (bench/html_scaling.py's page of 0.5 and 1 MB).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def _documents() -> list[tuple[str, bytes]]:
    shared = Path(os.environ.get("RULESLAWYER_SHARED") or _HERE.parent.parent / "shared")
    if not shared.is_dir():
        sys.exit(f"no shared documents at {shared}: set RULESLAWYER_SHARED")
    paths = sorted({p for pattern in ("inputs/*", "realdata/**/*.html", "realdata/**/*.pdf",
                                      "realdata/**/*.txt", "realdata/**/*.md") for p in shared.glob(pattern)
                    if p.is_file()})
    docs = [(str(p.relative_to(shared)), p.read_bytes()) for p in paths]
    sys.path.insert(0, str(_HERE))
    from html_scaling import page  # noqa: E402 (bench/ is not a package)

    return docs + [(f"bench_{mb}mb.html", page(mb)) for mb in (0.5, 1)]


def dump(out: Path) -> None:
    """Write every document's blocks, records, warnings and loader metadata (or its error)."""
    from ruleslawyer.ingest.formats import load_bytes
    from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
    from ruleslawyer.records_json import to_dict

    result = {}
    for name, data in _documents():
        try:
            doc = load_bytes(data, Path(name), sha256=hashlib.sha256(data).hexdigest())
            ctx = ParseContext(doc=doc, edition=guess_edition(doc))
            records = [json.dumps(to_dict(r), sort_keys=True) for r in parse_document(doc, ctx)]
            result[name] = {"blocks": [repr(b) for b in doc.blocks], "records": records,
                            "warnings": list(ctx.warnings), "meta": repr(sorted(doc.meta.items()))}
        except Exception as exc:  # an error is an output too: it must stay the same
            result[name] = {"error": f"{type(exc).__name__}: {exc}"}
        print(f"{name}: {len(result[name].get('records', []))} records", file=sys.stderr)
    out.write_text(json.dumps(result))


def diff(a: Path, b: Path) -> int:
    """Print where two dumps differ (the first differing item of each part); the count of files."""
    before, after = json.loads(a.read_text()), json.loads(b.read_text())
    differing = 0
    for name in sorted(set(before) | set(after)):
        x, y = before.get(name) or {}, after.get(name) or {}
        if x == y:
            continue
        differing += 1
        print("DIFF", name)
        for part in ("error", "blocks", "records", "warnings", "meta"):
            u, v = x.get(part), y.get(part)
            if u == v:
                continue
            if isinstance(u, list) and isinstance(v, list):
                at = next((i for i, (p, q) in enumerate(zip(u, v)) if p != q), min(len(u), len(v)))
                print(f"  {part}: {len(u)} vs {len(v)}, first difference at {at}")
                print("   before:", (u[at] if at < len(u) else "(none)")[:300])
                print("   after: ", (v[at] if at < len(v) else "(none)")[:300])
            else:
                print(f"  {part}: {str(u)[:200]} vs {str(v)[:200]}")
    print(f"files: {len(set(before) | set(after))} differing: {differing}")
    return differing


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="command", required=True)
    sub.add_parser("dump", help="write the dump of this checkout's readers").add_argument("out", type=Path)
    d = sub.add_parser("diff", help="compare two dumps")
    d.add_argument("before", type=Path)
    d.add_argument("after", type=Path)
    args = ap.parse_args()
    if args.command == "dump":
        dump(args.out)
        return 0
    return 1 if diff(args.before, args.after) else 0


if __name__ == "__main__":
    sys.exit(main())
