"""Score real parser output against ../shared/gold with ../shared/tools/score.py.

`score_input(shared, path, kinds)` loads and parses the file with the real pipeline, turns the
records into records.md JSON, and returns score.py's report restricted to `kinds`.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

from ruleslawyer.ingest.formats import load_file
from ruleslawyer.ingest.parse.parsing import parse_document
from ruleslawyer.records_json import to_dict


@lru_cache(maxsize=None)
def _score_module(shared: Path):
    spec = importlib.util.spec_from_file_location("ruleslawyer_gold_score", shared / "tools" / "score.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@lru_cache(maxsize=None)
def parsed(path: Path) -> tuple[dict, ...]:
    """records.md dicts of everything the pipeline finds in `path` (cached per file)."""
    return tuple(to_dict(r) for r in parse_document(load_file(path)))


def gold_for(shared: Path, path: Path) -> Path:
    return shared / "gold" / (path.stem + ".jsonl")


def score_input(shared: Path, path: Path, kinds: set[str] | None = None) -> dict:
    """score.py's report for `path` against its gold, only for `kinds` (all when None)."""
    score = _score_module(shared)
    gold = score.load(str(gold_for(shared, path)))
    pred = list(parsed(path))
    if kinds:
        gold = [g for g in gold if g["kind"] in kinds]
        pred = [p for p in pred if p["kind"] in kinds]
    return score.score(gold, pred)


def format_report(report: dict) -> str:
    """The score table (with missing and weak records) for a failing test's message."""
    lines = [f"{'kind':16} {'gold':>5} {'pred':>5} {'recall':>6} {'prec':>6} {'fields':>6}"]
    fmt = lambda v: "  -  " if v is None else f"{v:5.3f}"
    for kind, r in report.items():
        if kind == "_overall":
            continue
        lines.append(f"{kind:16} {r['gold']:5d} {r['predicted']:5d} {fmt(r['recall']):>6} "
                     f"{fmt(r['precision']):>6} {fmt(r['field_accuracy']):>6}")
        lines.extend(f"    missing: {m}" for m in r["missing"])
        lines.extend(f"    {s:.3f} {n}: {', '.join(bad)}" for n, s, bad in r["weak"])
    o = report["_overall"]
    lines.append(f"overall: recall {o['recall']:.3f} precision {o['precision']:.3f} "
                 f"fields {o['field_accuracy']:.3f} score {o['score']:.3f}")
    return "\n".join(lines)
