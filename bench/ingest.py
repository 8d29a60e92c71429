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

With --scaling it writes synthetic text, Markdown, HTML (bench/html_scaling.py's page) and PDF
inputs at a small size and at 4x that size, ingests each alone in a fresh process (so peak RSS
is that input's own), and prints wall and CPU time, peak RSS and the 4x/1x ratios side by side
(issue 20: the ratio must stay <= 5), with the load average and a yardstick before and after.
--big-text MB and --big-pdf PAGES add the absolute checks (a 20 MB text file under 60 s; a
600-page PDF under 600 MB peak RSS).

    .venv/bin/python bench/ingest.py --scaling [--big-text 20] [--big-pdf 600]
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


# ------------------------------------------------------------------ scaling (issue 20)
_WORDS = ("each time a model makes an attack that targets this unit subtract one from the hit roll "
          "until the end of the phase friendly units within six inches of this model can re-roll "
          "charge rolls and advance rolls while this unit is engaged it cannot be selected").split()


def _prose(i: int, n: int = 18) -> str:
    words = [_WORDS[(i * 7 + k * 3) % len(_WORDS)] for k in range(n)]
    return " ".join(words).capitalize() + "."


def make_text(n_rules: int) -> str:
    """A plain-text file of short rules: an ALL-CAPS name line, then one or two prose lines."""
    out = []
    for i in range(n_rules):
        out.append(f"RULE NUMBER {i} OF THE BOOK\n{_prose(i)}\n{_prose(i + 1, 12)}\n\n")
    return "".join(out)


def make_markdown(n_headings: int) -> str:
    """A Markdown file with many headings, ALL-CAPS lines and short paragraphs."""
    out = []
    for i in range(n_headings):
        out.append(f"## Heading {i}\n\nHIT ROLL MODIFIERS{i % 7}\n\n{_prose(i)}\n\n")
    return "".join(out)


def make_pdf(n_pages: int, lines_per_page: int = 45) -> bytes:
    """A plain PDF (Helvetica, one column) of n_pages pages of headings and prose, written by hand."""
    objects: list[bytes] = []
    font = 3
    kids = []
    for p in range(n_pages):
        ops = ["BT /F1 14 Tf 50 800 Td (CHAPTER %d RULES) Tj ET" % p]
        y = 780
        for k in range(lines_per_page):
            text = _prose(p * lines_per_page + k, 14).replace("(", "").replace(")", "")
            ops.append("BT /F1 9 Tf 50 %d Td (%s) Tj ET" % (y, text))
            y -= 16
        stream = "\n".join(ops).encode("latin-1")
        content_no = 4 + 2 * p
        page_no = content_no + 1
        objects.append(b"<< /Length %d >>\nstream\n%s\nendstream" % (len(stream), stream))
        objects.append(b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents %d 0 R "
                       b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (content_no, font))
        kids.append(page_no)
    head = [b"<< /Type /Catalog /Pages 2 0 R >>",
            b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(b"%d 0 R" % k for k in kids), n_pages),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"]
    body = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, obj in enumerate(head + objects, start=1):
        offsets.append(len(body))
        body += b"%d 0 obj\n" % n + obj + b"\nendobj\n"
    xref = len(body)
    body += b"xref\n0 %d\n0000000000 65535 f \n" % (len(offsets) + 1)
    for off in offsets:
        body += b"%010d 00000 n \n" % off
    body += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(offsets) + 1, xref)
    return bytes(body)


def ingest_one(path: Path) -> int:
    """Ingest one file into a fresh store; print wall seconds, peak RSS MB, records and CPU
    seconds (one line)."""
    import resource
    import tempfile

    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "bench.sqlite") as store:
        t0, c0 = time.perf_counter(), time.process_time()
        report = ingest_paths(store, [path])
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    if report.failed:
        print(report.failed[0].error, file=sys.stderr)
        return 1
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{wall:.3f} {rss:.1f} {sum(report.kinds.values())} {cpu:.3f}")
    return 0


def _measure(path: Path) -> tuple[float, float, int, float]:
    """Ingest `path` alone in a fresh process: wall s, peak RSS MB, records, CPU s."""
    import subprocess

    out = subprocess.run([sys.executable, __file__, "--one", str(path)], capture_output=True, text=True)
    if out.returncode:
        raise SystemExit(f"{path}: {out.stderr.strip()}")
    wall, rss, n, cpu = out.stdout.split()
    return float(wall), float(rss), int(n), float(cpu)


def machine_line() -> str:
    """The load average and a yardstick (`sum(range(10**8))` in a child: wall and CPU seconds),
    printed beside timings taken on a shared machine so runs can be compared."""
    import os
    import resource
    import subprocess

    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", "sum(range(10**8))"], check=True)
    wall = time.perf_counter() - t0
    cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"load average {load}; yardstick sum(range(10**8)): {wall:.2f} s wall, {cpu:.2f} s CPU"


def _html_page(mb: float) -> bytes:
    sys.path.insert(0, str(ROOT / "bench"))
    from html_scaling import page

    return page(mb)


def scaling_bench(big_text: float | None, big_pdf: int | None) -> int:
    """Small vs 4x inputs per format, side by side; then the absolute checks asked for."""
    import tempfile

    cases = [("text", ".txt", lambda n: make_text(n).encode(), 5000),
             ("markdown", ".md", lambda n: make_markdown(n).encode(), 5000),
             ("html", ".html", lambda n: _html_page(n / 1000), 500),
             ("pdf", ".pdf", make_pdf, 40)]
    print(machine_line(), flush=True)
    print(f"{'format':9} {'size 1x':>9} {'size 4x':>9} {'1x s':>7} {'4x s':>7} {'ratio':>6} "
          f"{'1x CPU':>7} {'4x CPU':>7} {'ratio':>6} {'1x RSS MB':>9} {'4x RSS MB':>9} {'records 1x/4x':>14}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, suffix, make, n in cases:
            rows = []
            for mult in (1, 4):
                path = Path(tmp) / f"{name}_{mult}x{suffix}"
                path.write_bytes(make(n * mult))
                rows.append((path.stat().st_size, *_measure(path)))
            (s1, t1, r1, n1, c1), (s4, t4, r4, n4, c4) = rows
            worst = max(worst, c4 / c1)
            print(f"{name:9} {s1 / 2**20:8.2f}M {s4 / 2**20:8.2f}M {t1:7.2f} {t4:7.2f} {t4 / t1:6.2f} "
                  f"{c1:7.2f} {c4:7.2f} {c4 / c1:6.2f} {r1:9.0f} {r4:9.0f} {n1:>6}/{n4:<7}", flush=True)
        if big_text:
            path = Path(tmp) / "big.txt"
            path.write_bytes(make_text(1000).encode())
            per = path.stat().st_size / 1000
            path.write_bytes(make_text(int(big_text * 2**20 / per)).encode())
            t, r, n, c = _measure(path)
            print(f"text {path.stat().st_size / 2**20:.1f} MB: {t:.1f} s wall, {c:.1f} s CPU, peak RSS {r:.0f} MB, "
                  f"{n} records (target < 60 s)", flush=True)
        if big_pdf:
            path = Path(tmp) / "big.pdf"
            path.write_bytes(make_pdf(big_pdf))
            t, r, n, c = _measure(path)
            print(f"pdf {big_pdf} pages: {t:.1f} s wall, {c:.1f} s CPU, peak RSS {r:.0f} MB, {n} records "
                  f"(target < 600 MB)", flush=True)
    print(machine_line())
    print(f"worst 4x/1x CPU-time ratio: {worst:.2f} (target <= 5)")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Print the side-by-side table; the PDFs are the arguments or ../shared/inputs/*.pdf."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdfs", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best is kept)")
    parser.add_argument("--export", type=Path, help="benchmark ingesting this structured source folder instead")
    parser.add_argument("--scaling", action="store_true", help="small vs 4x synthetic text, Markdown and PDF")
    parser.add_argument("--big-text", type=float, help="with --scaling: also ingest a text file of this many MB")
    parser.add_argument("--big-pdf", type=int, help="with --scaling: also ingest a PDF of this many pages")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        return ingest_one(args.one)
    if args.scaling:
        return scaling_bench(args.big_text, args.big_pdf)
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
