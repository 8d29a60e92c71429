"""Time the PDF loader against bare pdfplumber text extraction, side by side, in one run.

For each PDF (default: ../shared/inputs/*.pdf) it times, best of N runs each:
  bare    pdfplumber.open + page.extract_text() on every page
  loader  ruleslawyer.ingest.pdf.load_pdf (columns, tables, styles, footers)
and prints the ratio loader / bare (target: <= 1.5).

    .venv/bin/python bench/ingest.py [--repeat N] [PDF ...]
"""
from __future__ import annotations

import argparse
import io
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def bare(data: bytes) -> int:
    """Open and extract every page's text with pdfplumber defaults; return the text length."""
    import pdfplumber

    n = 0
    with pdfplumber.open(io.BytesIO(data)) as pdf:
        for page in pdf.pages:
            n += len(page.extract_text() or "")
    return n


def loader(data: bytes, path: Path) -> int:
    """Load with the project's PDF loader; return the number of blocks."""
    from ruleslawyer.ingest.formats import origin_for
    from ruleslawyer.ingest.pdf import load_pdf

    return len(load_pdf(data, origin_for(path, data, "pdf")).blocks)


def best_of(fn, repeat: int) -> tuple[float, object]:
    """The shortest of `repeat` timings of `fn()`, with its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side table; the PDFs are the arguments or ../shared/inputs/*.pdf."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best is kept)")
    args = parser.parse_args(argv)
    pdfs = args.pdfs or sorted((ROOT.parent / "shared" / "inputs").glob("*.pdf"))
    if not pdfs:
        print("no PDFs given and none in ../shared/inputs", file=sys.stderr)
        return 2
    import pdfplumber  # noqa: F401  (import cost kept out of the first measurement)

    print(f"{'file':40} {'pages':>5} {'bare s':>8} {'loader s':>9} {'ratio':>6} {'blocks':>7}")
    total_bare = total_loader = 0.0
    for path in pdfs:
        data = path.read_bytes()
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            pages = len(pdf.pages)
        # Interleave the two so a busy machine slows both alike.
        t_bare = t_loader = float("inf")
        blocks = 0
        for _ in range(args.repeat):
            t_bare = min(t_bare, best_of(lambda: bare(data), 1)[0])
            t, blocks = best_of(lambda: loader(data, path), 1)
            t_loader = min(t_loader, t)
        total_bare += t_bare
        total_loader += t_loader
        print(f"{path.name[:40]:40} {pages:5d} {t_bare:8.3f} {t_loader:9.3f} {t_loader / t_bare:6.2f} {blocks:7d}")
    print(f"{'total':40} {'':5} {total_bare:8.3f} {total_loader:9.3f} {total_loader / total_bare:6.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
