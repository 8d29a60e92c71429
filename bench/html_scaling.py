"""HTML scaling (issue 20): ingest time and peak memory of generated pages of growing size.

    .venv/bin/python bench/html_scaling.py [--load-only] [--sizes 1,4,16,60] [--deep 20000]

Each size (MB) is a page of semantic HTML written by `page(mb)`: sections of rules text
(headings, paragraphs with bold and links, lists), reference tables and datasheet blocks
(stat grids, weapon tables, keyword footers) with distinct names, the mix a long wiki or
faction page has. Each size is ingested into a fresh store in a child process (so peak RSS
is that ingest's own), timed (wall and CPU seconds), and its peak resident memory read from
the child's rusage; the load average and a yardstick are printed before and after.
`--deep N` also times a page nested N elements deep. Results go to bench/RESULTS.md by hand.
"""
from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_SECTION = """<section id="s{n}"><h2>Rules section {n}</h2>
<p>Each time a model in unit {n} makes an attack, you can re-roll the <b>Hit roll</b>; see
<a href="#s{n}">section {n}</a> for the <i>exceptions</i> &amp; the details &mdash; &ldquo;as written&rdquo;.</p>
<ul><li>Ability {n} applies while the unit is within 6&quot; of an objective.</li>
<li>It ends at the end of the phase &hellip; unless stated otherwise.</li></ul>
<h3>Table {n}</h3>
<table><tr><th>Roll</th><th>Result</th></tr><tr><td>1-2</td><td>Nothing happens {n}</td></tr>
<tr><td>3-5</td><td>One mortal wound</td></tr><tr><td>6</td><td>D3 mortal wounds</td></tr></table>
<article class="datasheet"><h2>Warrior Band {n}</h2>
<div class="profile"><div class="stat"><span class="name">M</span><span class="value">6"</span></div>
<div class="stat"><span class="name">T</span><span class="value">4</span></div>
<div class="stat"><span class="name">Sv</span><span class="value">3+</span></div>
<div class="stat"><span class="name">W</span><span class="value">2</span></div>
<div class="stat"><span class="name">Ld</span><span class="value">6+</span></div>
<div class="stat"><span class="name">OC</span><span class="value">2</span></div></div>
<table><tr><th>RANGED WEAPONS</th><th>RANGE</th><th>A</th><th>BS</th><th>S</th><th>AP</th><th>D</th></tr>
<tr><td>Las rifle {n} [RAPID FIRE 1]</td><td>24"</td><td>2</td><td>3+</td><td>4</td><td>0</td><td>1</td></tr></table>
<h3>ABILITIES</h3><p><b>Steady Aim {n}:</b> This unit's ranged weapons have +1 to hit rolls.</p>
<footer><p>KEYWORDS: INFANTRY, BATTLELINE, WARRIOR BAND {n}</p><p>FACTION KEYWORDS: IMPERIUM</p></footer>
</article></section>
"""


def page(mb: float) -> bytes:
    """A page of about `mb` megabytes of repeated, distinctly named sections."""
    head = "<!DOCTYPE html><html><head><meta charset='utf-8'><title>Big page</title></head><body><main>\n"
    parts, size, n = [head], len(head), 0
    while size < mb * 1024 * 1024:
        chunk = _SECTION.format(n=n)
        parts.append(chunk)
        size += len(chunk)
        n += 1
    parts.append("</main></body></html>\n")
    return "".join(parts).encode()


def deep_page(depth: int) -> bytes:
    """A page whose text sits `depth` elements deep."""
    return (b"<html><body><h1>Deep page</h1>" + b"<div><span>" * (depth // 2) + b"<p>Deep text.</p>"
            + b"</span></div>" * (depth // 2) + b"<p>After.</p></body></html>")


def _child(path: str, load_only: bool) -> None:
    if load_only:
        from ruleslawyer.ingest.formats import load_file

        t, c = time.perf_counter(), time.process_time()
        doc = load_file(path)
        seconds, status, records, error = time.perf_counter() - t, "loaded", len(doc.blocks), None
        cpu = time.process_time() - c
    else:
        from ruleslawyer.ingest.pipeline import ingest_paths
        from ruleslawyer.store import Store

        with tempfile.TemporaryDirectory() as tmp, Store(Path(tmp) / "s.sqlite") as store:
            t, c = time.perf_counter(), time.process_time()
            result = ingest_paths(store, [path]).results[0]
            seconds, cpu = time.perf_counter() - t, time.process_time() - c
        status, records, error = result.status, result.records, result.error
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"seconds": seconds, "cpu": cpu, "peak_mb": peak_mb, "status": status,
                      "records": records, "error": error}))


def measure(data: bytes, name: str, load_only: bool = False) -> dict:
    """Ingest (or only load) `data` saved as `name` in a child process: seconds, peak MB,
    records (blocks when only loading)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_bytes(data)
        del data
        cmd = [sys.executable, __file__, "--child", str(path)] + (["--load-only"] if load_only else [])
        out = subprocess.run(cmd, capture_output=True, text=True, check=True,
                             cwd=Path(__file__).resolve().parent.parent)
        return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1,4,16,60", help="page sizes in MB, comma-separated")
    ap.add_argument("--deep", type=int, default=20000, help="nesting depth of the deep page (0: skip)")
    ap.add_argument("--load-only", action="store_true",
                    help="time the HTML loader alone (file -> Document), not the parsers and store")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        _child(args.child, args.load_only)
        return
    from ingest import machine_line  # bench/ingest.py: load average and yardstick

    what = "blocks" if args.load_only else "records"
    print(machine_line(), flush=True)
    print(f"{'page':>12} {'MB':>6} {'seconds':>8} {'CPU s':>7} {'CPU s/MB':>8} {'peak MB':>8} {what:>8}  status")
    for mb in (float(s) for s in args.sizes.split(",")):
        data = page(mb)
        r = measure(data, f"big_{mb:g}mb.html", args.load_only)
        size = len(data) / 1024 / 1024
        print(f"{'sections':>12} {size:6.1f} {r['seconds']:8.1f} {r['cpu']:7.1f} {r['cpu'] / size:8.2f} "
              f"{r['peak_mb']:8.0f} {r['records']:8d}  {r['status']} {r['error'] or ''}", flush=True)
    if args.deep:
        r = measure(deep_page(args.deep), "deep.html", args.load_only)
        print(f"{'deep ' + str(args.deep):>12} {'':>6} {r['seconds']:8.1f} {r['cpu']:7.1f} {'':>8} "
              f"{r['peak_mb']:8.0f} {r['records']:8d}  {r['status']} {r['error'] or ''}", flush=True)
    print(machine_line())


if __name__ == "__main__":
    main()
