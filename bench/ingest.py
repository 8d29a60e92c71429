"""Time the PDF loader against bare pdfplumber text extraction, side by side, in one run.

For each PDF (default: ../shared/inputs/*.pdf) it times, best of N runs each:
  bare    pdfplumber.open + page.extract_text() on every page
  loader  ruleslawyer.ingest.load.pdf.load_pdf (columns, tables, styles, footers)
and prints the ratio loader / bare (target: <= 1.5).

    .venv/bin/python bench/ingest.py [--repeat N] [PDF ...]

With --export FOLDER it instead ingests a whole structured source (e.g. the 10th edition
Wahapedia export) into a fresh store and prints records per second and peak memory
(tracemalloc peak of Python allocations, and the process's peak RSS), then times the second,
unchanged ingest that must skip the export.

    .venv/bin/python bench/ingest.py --export ../shared/realdata/wahadumper__wahadumper
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
    from ruleslawyer.ingest.load.pdf import load_pdf

    return len(load_pdf(data, origin_for(path, data, "pdf")).blocks)


def best_of(fn, repeat: int) -> tuple[float, object]:
    """The shortest of `repeat` timings of `fn()`, with its last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def export_bench(folder: Path) -> int:
    """Ingest a structured source into a temporary store: time, records/s, peak memory, re-ingest."""
    import resource
    import tempfile
    import tracemalloc

    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    # Timed run without tracemalloc (it slows Python several times over), then a traced run
    # in a second fresh store for the peak of Python allocations.
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite") as store:
        t0, c0 = time.perf_counter(), time.process_time()
        report = ingest_paths(store, [folder])
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        if report.failed:
            print("\n".join(f.error for f in report.failed), file=sys.stderr)
            return 1
        records = sum(report.kinds.values())
        t1 = time.perf_counter()
        again = ingest_paths(store, [folder])
        rerun = time.perf_counter() - t1
    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite") as store:
        tracemalloc.start()
        ingest_paths(store, [folder])
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{'source':40} {'records':>8} {'wall s':>7} {'cpu s':>7} {'rec/s (cpu)':>12} {'py peak MB':>10} {'RSS MB':>7}")
    print(f"{folder.name[:40]:40} {records:8d} {wall:7.2f} {cpu:7.2f} {records / cpu:12.0f} "
          f"{peak / 2**20:10.1f} {rss_mb:7.1f}")
    print(f"unchanged re-ingest: {rerun:.2f} s ({again.unchanged} unchanged, {again.read} read)")
    print("by kind: " + ", ".join(f"{k} {n}" for k, n in sorted(report.kinds.items())))
    return 0


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side table; the PDFs are the arguments or ../shared/inputs/*.pdf."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best is kept)")
    parser.add_argument("--export", type=Path, help="benchmark ingesting this structured source folder instead")
    args = parser.parse_args(argv)
    if args.export:
        return export_bench(args.export)
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
