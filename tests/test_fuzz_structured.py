"""Fuzzing the structured loaders: damaged exports, catalogues, points data and army lists.

The companion of test_fuzz_loaders.py (PDF, HTML, text) for the sources that are read as data:
the Wahapedia CSV export (a folder: one CSV at a time is damaged, in a copy of a small subset of
a real export), BattleScribe data (.cat/.gst XML and the 11th edition JSON: the catalogue or its
game system is damaged), the Munitorum Field Manual (YAML files and the saved points web page)
and army lists (app text, New Recruit text, .ros/.rosz rosters). Each loader gets at least 2,000
inputs made the same way (bytes flipped, files truncated, pieces of real files spliced in, runs
inserted or repeated) from a fixed seed. Sources go through `ingest_paths`, exactly as
`ruleslawyer ingest` reads a folder or file: nothing may raise, a failure is one line that is
not an internal error (a bug), and a refused source leaves the store as it was. Army lists are
not stored: `parse_list` must return a list or raise the library's own LoadError.

The seeds are small (a few datasheets of an export, a few units of a catalogue), so that each
input costs milliseconds; every PARSE_EVERY-th input is read to its records in full, the others
stop once the source is recognised (sniffing, headers, the file set) plus the cheap checks.
"""
from __future__ import annotations

import random
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from ruleslawyer.errors import RuleslawyerError
from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.ingest.sources.armylists import parse_list
from ruleslawyer.store import Store
from tests.conftest import ROOT, require_shared
from tests.fuzz_helpers import (export_subset, json_subset, mfm_subset, mutate, snapshot, window_page,
                                 xml_subset)

PER_LOADER = 2000
PARSE_EVERY = 8  # every 8th input is read to its records in full (they are small); see the docstring
BUDGET_SECONDS = 60  # of CPU time per loader
LIMIT = 1 << 16  # seeds are whole files: a window of a catalogue is rarely a catalogue


# ------------------------------------------------------------------ the loaders
class Loader:
    """One structured loader under fuzzing: a folder of files, one of which is damaged at a time."""

    name = ""

    def __init__(self, shared: Path, work: Path):
        self.work = work / self.name
        self.files: dict[str, bytes] = {}  # file name in the folder -> its seed bytes
        self.target = self.work  # what is ingested: the folder, or one file in it
        self.current = -1  # which of several seed sets is in the folder (see choose_from)

    def write_all(self) -> None:
        self.work.mkdir(parents=True, exist_ok=True)
        for name, data in self.files.items():
            (self.work / name).write_bytes(data)

    def pool(self) -> list[bytes]:
        return list(self.files.values())

    def choose_from(self, sets: list[dict[str, bytes]], rnd: random.Random) -> str:
        """Pick one of `sets` (the folder is rewritten whole when the pick changes) and the name
        of the file in it to damage."""
        n = rnd.randrange(len(sets))
        if n != self.current or not self.work.is_dir():
            shutil.rmtree(self.work, ignore_errors=True)
            self.files = sets[n]
            self.write_all()
            self.current = n
        return rnd.choice(sorted(self.files))


class WahapediaLoader(Loader):
    name = "wahapedia"

    def __init__(self, shared, work):
        super().__init__(shared, work)
        real = shared / "realdata"
        for n, folder in enumerate([real / "wahadumper__wahadumper", real / "damnsamn__40k-helper",
                                    real / "e11" / "csv" / "ListBrewer_Data_sample_repaired"]):
            sub = export_subset(folder, work / f"seed{n}")
            self.exports = getattr(self, "exports", []) + [{p.name: p.read_bytes() for p in sub.glob("*.csv")}]

    def pool(self):
        return [b for files in self.exports for b in files.values()]

    def choose(self, rnd: random.Random) -> tuple[str, list[bytes]]:
        """Which export this input damages and which file of it."""
        name = self.choose_from(self.exports, rnd)
        return name, [self.files[name]]


class BattleScribeLoader(Loader):
    name = "battlescribe"

    def __init__(self, shared, work):
        super().__init__(shared, work)
        real = shared / "realdata"
        self.sets = [
            {"Necrons.cat": xml_subset(real / "BSData__wh40k-10e" / "Necrons.cat"),
             "Warhammer_40000.gst": xml_subset(real / "BSData__wh40k-10e" / "Warhammer_40000.gst")},
            {"Necrons.cat": xml_subset(real / "BSData__wh40k" / "Necrons.cat")},
            {"Necrons.json": json_subset(real / "e11" / "bsdata" / "Necrons.json"),
             "Warhammer_40_000.json": json_subset(real / "e11" / "bsdata" / "Warhammer_40_000.json")},
        ]

    def choose(self, rnd):
        name = self.choose_from(self.sets, rnd)
        catalogue = next(k for k in self.files if k.endswith((".cat", "Necrons.json")))
        self.target = self.work / catalogue  # the catalogue is what a user names; the .gst comes with it
        return name, [self.files[name]]

    def pool(self):
        return [b for s in self.sets for b in s.values()]


class MfmLoader(Loader):
    """The MFM data folder (meta.yaml, faction files, the changelog) and the saved points page."""

    name = "mfm"

    def __init__(self, shared, work):
        super().__init__(shared, work)
        self.folder = mfm_subset(shared / "realdata" / "e11" / "mfm", ("adeptus-custodes",))
        self.pages = window_page((shared / "realdata" / "e11" / "html" / "mfm_necrons.html").read_bytes(), 3000)
        self.files = self.folder
        self.write_all()

    def choose(self, rnd):
        if rnd.random() < 0.25:  # the web page: one file, ingested on its own
            self.target = self.work.parent / "page" / "points.html"
            self.target.parent.mkdir(exist_ok=True)
            return "../page/points.html", self.pages
        self.target = self.work
        name = rnd.choice(sorted(self.folder))
        return name, [self.folder[name]]

    def pool(self):
        return [*self.folder.values(), *self.pages]


LOADERS = {cls.name: cls for cls in (WahapediaLoader, BattleScribeLoader, MfmLoader)}


# ------------------------------------------------------------------ the tests
@pytest.fixture
def fuzz_tmp():
    with tempfile.TemporaryDirectory(dir="/dev/shm" if Path("/dev/shm").is_dir() else None) as tmp:
        yield Path(tmp)


def _quick(monkeypatch, full: list[bool]) -> None:
    """Most inputs stop after their first records: a source is recognised and its first table
    or tree read. A folder no source claims any more (its meta.yaml broken) is walked file by
    file, as ingest does; its plain documents are parsed only on the full inputs too."""
    import ruleslawyer.ingest.pipeline as pipeline

    real = pipeline.ingest_structured
    real_parse = pipeline.parse_document
    monkeypatch.setattr(pipeline, "parse_document", lambda doc, ctx: real_parse(doc, ctx) if full[0] else [])

    def ingest(store, source, **kw):
        if not full[0]:
            records = source.records
            source.records = lambda: iter(list(_first(records())))
        return real(store, source, **kw)
    monkeypatch.setattr(pipeline, "ingest_structured", ingest)


def _first(records, n: int = 3):
    for i, r in enumerate(records):
        if i >= n:
            return
        yield r


@pytest.mark.parametrize("which", sorted(LOADERS))
def test_structured_loaders_survive_damaged_inputs(which, fuzz_tmp, monkeypatch):
    shared = require_shared()
    full = [True]
    _quick(monkeypatch, full)
    loader = LOADERS[which](shared, fuzz_tmp)
    pool = loader.pool()
    rnd = random.Random(20)
    counts = {"ingested": 0, "failed": 0}
    start = time.process_time()
    with Store(fuzz_tmp / "fuzz.sqlite") as store:
        store.conn.execute("PRAGMA synchronous=OFF")  # a scratch store: no fsync per input
        for n in range(PER_LOADER):
            name, own = loader.choose(rnd)
            path = loader.work / name
            original = path.read_bytes() if path.exists() else None
            data = mutate(rnd, own, pool, LIMIT)
            path.write_bytes(data)
            full[0] = n % PARSE_EVERY == 0
            before = snapshot(store)
            report = ingest_paths(store, [loader.target], force=True)
            results = report.results
            assert results, (which, n, name)
            for result in results:
                assert result.status in ("ingested", "failed"), (which, n, name, result)
                counts[result.status] += 1
                if result.status == "failed":
                    assert "internal error" not in (result.error or ""), (which, n, name, result.error, data[:300])
                    assert "\n" not in result.error
            if all(r.status == "failed" for r in results):
                assert snapshot(store) == before, (which, n, name, "a refused source changed the store")
            if original is not None:
                path.write_bytes(original)
            assert time.process_time() - start < BUDGET_SECONDS, f"over budget at {which} input {n}"
    print(which, counts, f"{time.process_time() - start:.1f}s CPU")
    assert counts["ingested"] > 0 and counts["failed"] > 0, (which, counts)


def list_seeds(shared: Path) -> list[bytes]:
    """Army lists as players export them: the app's text, New Recruit's formats, rosters."""
    lists = shared / "realdata" / "e11" / "lists"
    fixtures = ROOT / "tests" / "fixtures" / "armylists"
    paths = [*sorted(lists.glob("*.txt")), *sorted((lists / "late10e").glob("*.txt")),
             *sorted(fixtures.glob("*.txt")), fixtures / "tau_patrol.ros", fixtures / "tau_patrol.rosz"]
    return [p.read_bytes() for p in paths if p.is_file()]


def test_army_list_reader_survives_damaged_inputs():
    shared = require_shared()
    own = list_seeds(shared)
    rnd = random.Random(20)
    counts = {"read": 0, "refused": 0}
    start = time.process_time()
    for n in range(PER_LOADER):
        data = mutate(rnd, own, own)
        try:
            army = parse_list(data if n % 2 else data.decode("utf-8", errors="replace"), name="fuzz.txt")
        except RuleslawyerError as exc:
            assert "\n" not in str(exc), (n, str(exc))
            counts["refused"] += 1
        else:
            assert army.units, n
            counts["read"] += 1
        assert time.process_time() - start < BUDGET_SECONDS, f"over budget at input {n}"
    print("armylists", counts, f"{time.process_time() - start:.1f}s CPU")
    assert counts["read"] > 0 and counts["refused"] > 0, counts


@pytest.mark.parametrize("which", sorted(LOADERS))
def test_the_structured_seeds_themselves_ingest(which, fuzz_tmp):
    """Every unmutated seed set is recognised and gives records, so the fuzzing starts from inputs that work."""
    loader = LOADERS[which](require_shared(), fuzz_tmp)
    sets = getattr(loader, "exports", None) or getattr(loader, "sets", None) or [loader.folder]
    with Store(fuzz_tmp / "s.sqlite") as store:
        for n, files in enumerate(sets):
            shutil.rmtree(loader.work, ignore_errors=True)
            loader.files = files
            loader.write_all()
            target = loader.work
            if which == "battlescribe":
                target = loader.work / next(k for k in files if k.endswith((".cat", "Necrons.json")))
            report = ingest_paths(store, [target])
            assert [r.status for r in report.results] == ["ingested"], (which, n, report.results)
            assert report.results[0].records > 0, (which, n)
        if which == "mfm":
            page = fuzz_tmp / "page.html"
            page.write_bytes((require_shared() / "realdata" / "e11" / "html" / "mfm_necrons.html").read_bytes())
            assert ingest_paths(store, [page]).results[0].records > 0
