"""Fuzzing the loaders: thousands of damaged inputs, none may raise anything but our own errors.

Each loader (PDF, HTML, text) gets at least 2,000 inputs made from real files (the shipped
corpus, ../shared/inputs and ../shared/seeds) and small seeds: bytes flipped, files truncated,
pieces of two files spliced, runs of bytes inserted or repeated. A fixed seed makes every run the
same. Every input goes through `ingest_file` into one store, exactly as `ruleslawyer ingest` reads
a file: the result must be "ingested" or "failed" with a one-line error that is not an internal
error (a bug), and a refused input must leave the store exactly as it was. Inputs are kept small
(a few KB) so that the whole test stays well under a minute.
"""
from __future__ import annotations

import random
import tempfile
import time
import zlib
from pathlib import Path

import pytest

from ruleslawyer.ingest.pipeline import ingest_file
from ruleslawyer.store import Store
from tests.conftest import ROOT, find_shared
from tests.fuzz_helpers import MAX_INPUT, mutate, snapshot

PER_LOADER = 2000
PARSE_EVERY = 40  # every 40th input is also parsed in full; the others stop after loading
BUDGET_SECONDS = 60  # of CPU time: other processes on a busy machine do not count
CORPUS = ROOT / "ruleslawyer" / "corpus"


def tiny_pdf(lines: list[str]) -> bytes:
    """A small valid PDF with one page of Helvetica text (one line per entry), xref and all."""
    text = "BT /F1 11 Tf 50 780 Td 14 TL " + " ".join(
        f"({line.replace(chr(92), '').replace('(', '').replace(')', '')}) '" for line in lines) + " ET"
    stream = zlib.compress(text.encode("latin-1"))
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream) + stream + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def seeds() -> dict[str, list[bytes]]:
    """Real files (and small made ones) to mutate, by loader."""
    shared = find_shared()
    pdf = [tiny_pdf(["Look Out, Sir", "A CHARACTER cannot be targeted.", "Stratagem 1CP", "WHEN: Shooting phase."]),
           tiny_pdf(["Q: Can a unit do this?", "A: Yes.", "Page 12 - Overwatch", "Change to read:"])]
    html = [(CORPUS / "necrons-royal-warden.html").read_bytes()]
    text = [(CORPUS / "core-rules-summary.md").read_bytes(), (CORPUS / "classic-charts.md").read_bytes()]
    if shared is not None:
        pdf += [p.read_bytes()[:MAX_INPUT * 4] for p in sorted((shared / "inputs").glob("*.pdf"))]
        html += [p.read_bytes() for p in sorted((shared / "inputs").glob("*.html"))]
        text += [p.read_bytes() for p in sorted((shared / "seeds").glob("*.txt"))]
    return {"pdf": pdf, "html": html, "text": text}


def test_loaders_survive_damaged_inputs(monkeypatch):
    import ruleslawyer.ingest.pipeline as pipeline

    real_parse = pipeline.parse_document
    parse_now = [False]
    monkeypatch.setattr(pipeline, "parse_document", lambda doc, ctx: real_parse(doc, ctx) if parse_now[0] else [])
    all_seeds = seeds()
    pool = [b for group in all_seeds.values() for b in group]
    rnd = random.Random(20)
    start = time.process_time()
    counts = {fmt: {"ingested": 0, "failed": 0} for fmt in all_seeds}
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as tmp:
        tmp = Path(tmp)
        with Store(tmp / "fuzz.sqlite") as store:
            store.conn.execute("PRAGMA synchronous=OFF")  # a scratch store: no fsync per file
            for fmt, own in all_seeds.items():
                began = time.process_time()
                suffix = {"pdf": ".pdf", "html": ".html", "text": ".txt"}[fmt]
                for n in range(PER_LOADER):
                    data = mutate(rnd, own, pool)
                    path = tmp / f"input{n % 7}{suffix}"
                    path.write_bytes(data)
                    before = snapshot(store)
                    parse_now[0] = n % PARSE_EVERY == 0
                    result = ingest_file(store, path, force=True)
                    assert result.status in ("ingested", "failed"), (fmt, n, result)
                    counts[fmt][result.status] += 1
                    if result.status == "failed":
                        assert "internal error" not in (result.error or ""), (fmt, n, result.error, data[:200])
                        assert "\n" not in result.error
                        assert snapshot(store) == before, (fmt, n, "a refused file changed the store")
                    assert time.process_time() - start < BUDGET_SECONDS, f"over budget at {fmt} input {n}"
                print(fmt, counts[fmt], f"{time.process_time() - began:.1f}s CPU")
    for fmt, c in counts.items():
        assert c["ingested"] + c["failed"] >= PER_LOADER
        # Both outcomes occur: the mutations neither all break the format nor all leave it alone.
        assert c["ingested"] > 0 and c["failed"] > 0, (fmt, c)


@pytest.mark.parametrize("fmt", ["pdf", "html", "text"])
def test_the_seeds_themselves_ingest(fmt, tmp_path):
    """The unmutated seeds are readable, so the fuzzing starts from inputs that work."""
    with Store(tmp_path / "s.sqlite") as store:
        data = seeds()[fmt][0]
        path = tmp_path / f"seed.{ {'pdf': 'pdf', 'html': 'html', 'text': 'md'}[fmt] }"
        path.write_bytes(data)
        result = ingest_file(store, path)
        assert result.status == "ingested", result.error
