"""Benchmark print cards on the real Wahapedia export: speed side by side, and the fit.

Speed (default): 100 10th edition datasheets picked evenly by name, made into a PDF the way
`ruleslawyer cards --out x.pdf` does (fit, impose, final layout, overflow check, write),
beside one plain WeasyPrint render of the very same final HTML (`HTML(string).render()
.write_pdf()`), in the same run. The ratio pdf / render is the issue 19 target (<= 1.3).

Fit (`--fit`): every 10th and 11th edition datasheet, poker and tarot: how many fit one card,
the type sizes chosen, with how many exact layouts.

    .venv/bin/python bench/cards.py --db /tmp/cards_store/real.sqlite           # speed
    .venv/bin/python bench/cards.py --db /tmp/cards_store/real.sqlite --fit     # distribution
    .venv/bin/python bench/cards.py --db /tmp/e11.sqlite --issue29 [--lists DIR]  # the issue's checks

`--issue29`: 40 datasheets of the newest edition in the store picked evenly by name (as
tests/test_cards_real.py and test_cards_lists.py do), and the cards of each army list in
`--lists`: how many print every rule in full on one card, how many take a second card, how many
need the rules sheet (key sentence or names), the smallest type printed and the emptiest face;
then the same 40 with one card a unit (`one_card`).

The store must hold the export (`ruleslawyer --db X ingest ../shared/realdata/wahadumper__wahadumper`).
"""
from __future__ import annotations

import argparse
import collections
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


class Clock:
    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def load(db: str):
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    with Store(db) as store:
        return load_corpus(store).records


def evenly(records, count: int, editions=(10,)):
    units = sorted((r for r in records if r.kind == "datasheet" and r.edition in editions),
                   key=lambda r: (r.name, r.faction or ""))
    step = max(1, len(units) // count)
    return units[::step][:count]


def speed(records, count: int, size: str, sheet: str) -> None:
    from weasyprint import HTML

    from ruleslawyer.cards import make_cards, measure
    from ruleslawyer.cards.options import CardOptions

    units = evenly(records, count)
    opts = CardOptions(size=size, sheet=sheet, duplex=sheet != "none")
    out = Path(tempfile.gettempdir())
    measure._CACHE.clear()
    before = dict(measure.STATS)
    with Clock() as pdf:
        cards = make_cards(units, records, opts, title="bench")
        cards.write_pdf(out / "bench_cards.pdf")
    exact = measure.STATS["exact_streams"] - before["exact_streams"]
    layouts = measure.STATS["exact_layouts"] - before["exact_layouts"]
    finals = measure.STATS["final_layouts"] - before["final_layouts"]
    with Clock() as render:
        HTML(string=cards.html).render().write_pdf(out / "bench_cards_render.pdf")
    one = sum(1 for f, _ in cards.pairs if f.total == 1)
    print(f"{len(units)} datasheets -> {len(cards.pairs)} {size} cards, sheet {sheet}; "
          f"{one} on one card; {exact} streams laid out exactly in {layouts} layouts; "
          f"{finals} final layout(s) (more than 1: an overflow was refitted)")
    print(f"{'step':<28}{'wall s':>9}{'cpu s':>9}")
    print(f"{'cards PDF (whole path)':<28}{pdf.wall:>9.2f}{pdf.cpu:>9.2f}")
    print(f"{'WeasyPrint render, same HTML':<28}{render.wall:>9.2f}{render.cpu:>9.2f}")
    print(f"ratio (cpu): {pdf.cpu / render.cpu:.2f}   ratio (wall): {pdf.wall / render.wall:.2f}")


def fit(records, sizes: list[str]) -> None:
    from ruleslawyer.cards import measure
    from ruleslawyer.cards.content import build_content
    from ruleslawyer.cards.fit import fit_cards
    from ruleslawyer.cards.options import CardOptions

    units = [r for r in records if r.kind == "datasheet" and (r.edition or 0) >= 10]
    contents = build_content(units, records)
    by_ed = collections.Counter(u.edition for u in units)
    print(f"{len(units)} datasheets of editions >= 10: " + ", ".join(f"{e}th: {n}" for e, n in sorted(by_ed.items())))
    for size in sizes:
        before = dict(measure.STATS)
        with Clock() as c:
            done = fit_cards(contents, CardOptions(size=size))
        ok = [v for v in done.values() if v is not None]
        hist = collections.Counter(v[1] for v in ok)
        print(f"\n{size}: {len(ok)}/{len(units)} on one card ({100 * len(ok) / len(units):.1f}%), "
              f"{len(units) - len(ok)} need a second card; fit {c.wall:.0f} s wall, {c.cpu:.0f} s cpu; "
              f"{measure.STATS['exact_streams'] - before['exact_streams']} streams laid out exactly")
        print("  type size (pt): " + ", ".join(f"{s:g}: {n}" for s, n in sorted(hist.items(), reverse=True)))
        misses = sorted(contents[i].title for i, v in done.items() if v is None)
        if misses:
            print("  second card: " + ", ".join(misses[:40]) + (" ..." if len(misses) > 40 else ""))


def _card_stats(cards) -> dict:
    """One card set's numbers: records, second cards, records pointing to the rules sheet, type, fill."""
    from ruleslawyer.cards.render import face_fills

    firsts = {f.key[0]: f for f, _ in cards.pairs if f.kind != "rules" and f.number == 1}
    pointing = {f.key[0] for pair in cards.pairs for f in pair if f.kind != "rules" for b in f.blocks
                if "rules sheet" in str(b.data.get("text", ""))
                or any("rules sheet" in label for label, _ in b.data.get("lines", ()))}
    fills = [(fill, face.title) for face, fill in face_fills(cards.document, cards.sheets, cards.options)
             if face.kind != "rules"]
    return {"records": len(firsts), "second": sorted(f.title for f in firsts.values() if f.total > 1),
            "sheet": sorted(firsts[k].title for k in pointing if k in firsts),
            "min_pt": min(f.font_pt for f, _ in cards.pairs), "min_fill": min(fills) if fills else (1.0, "")}


def _print_stats(label: str, st: dict) -> None:
    one = st["records"] - len(st["second"]) - len([t for t in st["sheet"] if t not in st["second"]])
    print(f"{label}: {st['records']} records; {one} every rule in full on one card, {len(st['second'])} on a "
          f"second card, {len(st['sheet'])} pointing to the rules sheet; smallest type {st['min_pt']:g} pt; "
          f"emptiest face {st['min_fill'][0]:.0%} ({st['min_fill'][1]})")
    for key in ("second", "sheet"):
        if st[key]:
            print(f"  {key}: " + ", ".join(st[key]))


def issue29(records, db: str, lists: str | None) -> None:
    from ruleslawyer.cards import CardError, make_cards
    from ruleslawyer.cards.options import CardOptions

    newest = max(r.edition or 0 for r in records if r.kind == "datasheet")
    units = sorted((r for r in records if r.kind == "datasheet" and (r.edition or 0) >= min(newest, 10)),
                   key=lambda r: (r.name, r.faction or ""))
    units = units[:: max(1, len(units) // 40)][:40]
    for one_card in (False, True):
        cards = make_cards(units, records, CardOptions(one_card=one_card), title="bench")
        _print_stats(f"40 datasheets{' (one_card)' if one_card else ''}", _card_stats(cards))
    if not lists:
        return
    from ruleslawyer.library.armylist_cards import list_card_records
    from ruleslawyer.store import Store

    for path in sorted(Path(lists).glob("*.txt")):
        with Store(db) as store:
            chosen = list_card_records(store, path)
        try:
            cards = make_cards(chosen.records, chosen.corpus_records, CardOptions(), title="bench")
        except CardError as e:
            print(f"{path.name}: {e}")
            continue
        _print_stats(path.name, _card_stats(cards))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--db", required=True)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--size", default="poker")
    parser.add_argument("--sheet", default="none")
    parser.add_argument("--fit", action="store_true", help="fit distribution instead of speed")
    parser.add_argument("--issue29", action="store_true",
                        help="the issue 29 numbers: one card, second cards, rules sheet")
    parser.add_argument("--lists", help="with --issue29: a folder of army lists (*.txt) to make cards of")
    args = parser.parse_args()
    with Clock() as c:
        import weasyprint  # noqa: F401  (paid once per `cards` run)
    print(f"import weasyprint: {c.wall:.2f} s")
    records = load(args.db)
    if args.issue29:
        issue29(records, args.db, args.lists)
    elif args.fit:
        fit(records, ["poker", "tarot"])
    else:
        speed(records, args.count, args.size, args.sheet)
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
