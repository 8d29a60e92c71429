"""Benchmark print cards: 100 datasheet cards to PDF, beside the same cards as HTML only.

The datasheets are the real ones of the seeds (18 from 000, the Chronomancer from 001, parsed
by the real parsers), repeated under distinct names so no measurement cache can answer for a
repeat. For each card size it prints, side by side (wall and CPU seconds):

- fit:   measuring and packing every stream with WeasyPrint (type size, splits)
- jinja: rendering the final HTML from the fitted faces (templating alone)
- html:  the whole `--out cards.html` path (fit, imposition, Jinja; no PDF layout)
- pdf:   the whole `--out cards.pdf` path (the html path plus writing the PDF)

    .venv/bin/python bench/cards.py                 # 100 poker cards, one a page
    .venv/bin/python bench/cards.py --count 40 --sheet a4 --size tarot
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SHARED = ROOT.parent / "shared"


def load_units(count: int):
    """`count` datasheets from the seeds, renamed "Name #k" on repeats, and the corpus records."""
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    seeds = sorted((SHARED / "seeds").glob("000_*.txt")) + sorted((SHARED / "seeds").glob("001_*.txt"))
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite") as store:
        ingest_paths(store, seeds)
        records = load_corpus(store).records
    units = [r for r in records if r.kind == "datasheet"]
    picked = [dataclasses.replace(units[i % len(units)], name=f"{units[i % len(units)].name} #{i // len(units) + 1}")
              for i in range(count)]
    return picked, records


class Clock:
    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall = time.perf_counter() - self.wall
        self.cpu = time.process_time() - self.cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--size", default="poker")
    parser.add_argument("--sheet", default="none")
    args = parser.parse_args()

    with Clock() as c:
        import weasyprint  # noqa: F401  (the import cost is paid once per `cards` run)
    print(f"import weasyprint: {c.wall:.2f} s")
    units, records = load_units(args.count)
    from ruleslawyer.cards import make_cards
    from ruleslawyer.cards import fit
    from ruleslawyer.cards.content import build_content
    from ruleslawyer.cards.impose import impose
    from ruleslawyer.cards.options import CardOptions
    from ruleslawyer.cards.render import document_html

    opts = CardOptions(size=args.size, sheet=args.sheet)
    rows = []
    fit._CACHE.clear()
    with Clock() as c:
        pairs = fit.assemble(build_content(units, records), opts)
    rows.append(("fit", c))
    page, sheets = impose(pairs, opts)
    with Clock() as c:
        html = document_html(page, sheets, opts)
    rows.append(("jinja", c))
    fit._CACHE.clear()
    with Clock() as c:
        cards = make_cards(units, records, opts, verify=False)
        Path(tempfile.gettempdir(), "bench_cards.html").write_text(cards.html, encoding="utf-8")
    rows.append(("html", c))
    fit._CACHE.clear()
    with Clock() as c:
        cards = make_cards(units, records, opts)
        cards.write_pdf(Path(tempfile.gettempdir()) / "bench_cards.pdf")
    rows.append(("pdf", c))
    faces = sum(1 for pair in cards.pairs for f in pair if f.side != "blank")
    print(f"{args.count} datasheets -> {len(cards.pairs)} {args.size} cards ({faces} printed faces), "
          f"{len(cards.sheets)} PDF pages, sheet {args.sheet}; HTML {len(html) // 1024} KiB")
    print(f"{'step':<7}{'wall s':>9}{'cpu s':>9}{'ms/card (cpu)':>15}")
    for name, clock in rows:
        print(f"{name:<7}{clock.wall:>9.2f}{clock.cpu:>9.2f}{1000 * clock.cpu / len(cards.pairs):>15.1f}")


if __name__ == "__main__":
    main()
