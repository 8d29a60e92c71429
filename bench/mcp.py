"""MCP overhead: a warm tool call of `ruleslawyer mcp` next to the library call it wraps.

Usage: .venv/bin/python bench/mcp.py [--db STORE] [--repeat 15]

Without --db, the shipped example corpus is ingested into a temporary store. Each tool is
called once to warm it (the corpus loaded, the index open), then the library call and the
tool call (through the SDK's own in-memory Client: JSON-RPC request, argument validation,
citations, text, structured content) are timed in turns, `--repeat` times; the times are
printed side by side. Times are the thread's CPU time (`time.thread_time`: the in-memory
client, the server and the library all run on this thread), best of `--repeat`: on a machine
shared with other work, wall-clock medians swing with its load. Target: tool <= library + max(20%, 5 ms).

`answer` wraps `ruleslawyer.mcp.answer.rank` (two index searches, names, passages, FAQs);
its line shows that, and the index search of the same question on the next line for scale.
"""
from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run as a script, this file's folder comes first on sys.path, where this file would shadow the
# `mcp` SDK: the folder is swapped for the repository root.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != Path(__file__).resolve().parent]
sys.path.insert(0, str(ROOT))


def library_calls(ref, army: str | None):
    """tool name -> (arguments, the library call the tool wraps)."""
    from ruleslawyer.amend.report import select_outcomes
    from ruleslawyer.ingest.sources.armylists import parse_list
    from ruleslawyer.library.armylist import check_list
    from ruleslawyer.library.files import find_conflicts
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.library.points import find_points
    from ruleslawyer.library.queries import filter_stratagems
    from ruleslawyer.index.search import search
    from ruleslawyer.mcp.answer import rank

    store, corpus = ref.store, ref.corpus
    # a rule number and an erratum's target that this store has
    number = next(r.number for r in corpus.records if r.kind == "rule" and getattr(r, "number", None))
    target = next((o.target_name for o in corpus.outcomes if o.applied and o.target_name), "look out sir")
    calls = {
        "answer": ({"question": "Can my unit shoot after it fell back?"},
                   lambda: rank(ref, "Can my unit shoot after it fell back?")),
        "answer (index search only)": (None, lambda: search(store, "unit shoot fall back", limit=40)),
        "search": ({"query": "deep strike"}, lambda: search(store, "deep strike", limit=10)),
        "show": ({"name": "deep strike"}, lambda: pick_record(corpus, "deep strike")),
        "rule": ({"number": number}, lambda: search(store, f"number:{number}", limit=10)),
        "stratagems": ({"faction": "necrons"}, lambda: filter_stratagems(corpus.records, faction="necrons")),
        "points": ({"unit": "doomsday ark"}, lambda: find_points(store, "doomsday ark")),
        "errata": ({"name": target}, lambda: select_outcomes(corpus.outcomes)),
        "conflicts": ({"name": "overwatch"}, lambda: find_conflicts(store)),
    }
    if army:
        calls["check_list"] = ({"text": army}, lambda: check_list(parse_list(army), corpus.records))
    return calls


async def measure(ref, repeat: int, army: str | None) -> list[tuple[str, float, float | None]]:
    from mcp import Client

    from ruleslawyer.mcp.server import build_server

    rows = []
    async with Client(build_server(ref)) as client:
        for name, (args, call) in library_calls(ref, army).items():
            tool = name.split()[0]
            call()
            if args is not None:
                result = await client.call_tool(tool, args)
                if result.is_error:
                    raise SystemExit(f"{tool}: {result.content[0].text}")
            lib, mcp = [], []
            for _ in range(repeat):
                start = time.thread_time()
                call()
                lib.append(time.thread_time() - start)
                if args is not None:
                    start = time.thread_time()
                    await client.call_tool(tool, args)
                    mcp.append(time.thread_time() - start)
            # best of N: the machine is shared, and the least disturbed run is the cost itself
            rows.append((name, min(lib) * 1000, min(mcp) * 1000 if mcp else None))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", help="a store to read (default: the shipped corpus in a temporary store)")
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    from ruleslawyer.mcp.reference import Reference

    db = args.db
    if db is None:
        from ruleslawyer.ingest.pipeline import ensure_corpus
        from ruleslawyer.store import Store

        db = str(Path(tempfile.mkdtemp()) / "example.sqlite")
        with Store(db) as store:
            ensure_corpus(store)
    army_file = ROOT / "docs" / "examples" / "army-list.txt"
    army = army_file.read_text(encoding="utf-8") if army_file.is_file() else None
    with Reference(db) as ref:
        ref.refresh()
        rows = asyncio.run(measure(ref, args.repeat, army))
        count = len(ref.records)
    print(f"store: {db} ({count} records); best of {args.repeat}")
    print(f"{'tool':<28}{'library ms':>12}{'tool ms':>10}{'added ms':>10}{'ratio':>8}  within max(20%, 5 ms)")
    failed = 0
    for name, lib, mcp in rows:
        if mcp is None:
            print(f"{name:<28}{lib:>12.2f}")
            continue
        added = mcp - lib
        ok = added <= max(0.2 * lib, 5.0)
        failed += not ok
        print(f"{name:<28}{lib:>12.2f}{mcp:>10.2f}{added:>10.2f}{mcp / lib if lib else 0:>8.2f}  {'yes' if ok else 'NO'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
