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

import json
import random
import shutil
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ruleslawyer.errors import RuleslawyerError
from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.ingest.sources.armylists import parse_list
from ruleslawyer.ingest.sources.wahapedia_csv import read_table
from ruleslawyer.store import Store
from tests.conftest import ROOT, require_shared
from tests.test_fuzz_loaders import mutate, snapshot

PER_LOADER = 2000
PARSE_EVERY = 8  # every 8th input is read to its records in full (they are small); see the docstring
BUDGET_SECONDS = 60  # of CPU time per loader
LIMIT = 1 << 16  # seeds are whole files: a window of a catalogue is rarely a catalogue
SHEETS = 3  # datasheets kept in an export subset
ROWS = 4  # rows kept of the tables not keyed by datasheet


# ------------------------------------------------------------------ seeds
def export_subset(folder: Path, out: Path, sheets: int = SHEETS) -> Path:
    """A small real export: its first datasheets with their rows in every table, a few rows of
    the other tables, written back in the export's own form (`a|b|c|` rows, one header)."""
    out.mkdir(parents=True)
    kept = read_table(folder / "Datasheets.csv")[:sheets]
    keep = {r["id"] for r in kept}
    for csv in sorted(folder.glob("*.csv")):
        header = (csv.read_bytes().decode("utf-8-sig").split("\n", 1)[0]).rstrip("\r|").split("|")
        rows = read_table(csv)
        if csv.name == "Datasheets.csv":
            rows = kept
        elif "datasheet_id" in header:
            rows = [r for r in rows if r.get("datasheet_id") in keep][:ROWS * 4 * sheets // SHEETS]
        elif csv.name == "Datasheets_leader.csv":
            rows = [r for r in rows if r.get("leader_id") in keep or r.get("attached_id") in keep][:ROWS]
        elif csv.name not in ("Factions.csv", "Last_update.csv"):
            rows = rows[:ROWS]
        lines = ["|".join(header) + "|"] + ["|".join(r.get(h, "") for h in header) + "|" for r in rows]
        (out / csv.name).write_text("\ufeff" + "\r\n".join(lines) + "\r\n", encoding="utf-8")
    return out


def _trim(containers: dict[str, list], size, keep: int) -> None:
    """Keep a catalogue small: the smallest units its entry links point at, and the smallest few
    of everything else (the profile and cost types whole: they say what the rest means)."""
    links = containers.get("entryLinks", [])
    targets = {link.get("targetId") for link in links}
    units = sorted((i for i in containers.get("sharedSelectionEntries", []) if i.get("id") in targets), key=size)
    kept_units = units[:keep] or sorted(containers.get("sharedSelectionEntries", []), key=size)[:keep]
    for name, items in containers.items():
        if name == "sharedSelectionEntries":
            containers[name] = kept_units
        elif name == "entryLinks":
            ids = {u.get("id") for u in kept_units}
            containers[name] = [link for link in items if link.get("targetId") in ids]
        elif name not in ("profileTypes", "costTypes", "catalogueLinks", "forceEntries"):
            containers[name] = sorted(items, key=size)[:keep]


def json_subset(path: Path, keep: int = 2) -> bytes:
    """An 11th edition BSData JSON file cut down to a few small entries of each top-level list."""
    data = json.loads(path.read_bytes())
    (tag, body), = data.items()
    lists = {k: v for k, v in body.items() if isinstance(v, list)}
    _trim(lists, lambda item: len(json.dumps(item)), keep)
    body.update(lists)
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def xml_subset(path: Path, keep: int = 2) -> bytes:
    """A .cat/.gst cut down the same way, as XML."""
    root = ET.parse(path).getroot()
    ns = root.tag[:root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    ET.register_namespace("", ns.strip("{}"))
    as_lists = {box.tag[len(ns):]: [dict(item.attrib, _el=item) for item in box] for box in root}
    _trim(as_lists, lambda d: len(ET.tostring(d["_el"])), keep)
    for box in list(root):
        kept = [d["_el"] for d in as_lists.get(box.tag[len(ns):], [])]
        for item in list(box):
            box.remove(item)
        for el in dict.fromkeys(kept):
            box.append(el)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False)


def mfm_subset(mfm: Path, factions: tuple[str, ...]) -> dict[str, bytes]:
    """The MFM data folder for a few factions: meta.yaml without its long notes, their files,
    and the changelog's lines about them (with every heading, so the versions stay)."""
    meta = (mfm / "meta.yaml").read_text(encoding="utf-8").split("\n")
    start, end = next(i for i, l in enumerate(meta) if l.startswith("notes:")), \
        next(i for i, l in enumerate(meta) if l.startswith("factions:"))
    meta = meta[:start] + ["factions:"] + [f"  - {f}" for f in factions]
    names = [yaml_name(mfm / f"{f}.yaml") for f in factions]
    log = [line for line in (mfm / "DATA-CHANGELOG.md").read_text(encoding="utf-8").split("\n")
           if not line.startswith("- ") or any(f"**{n}**" in line for n in names)]
    text = "\n".join(log)
    files = {f"{f}.yaml": yaml_items(mfm / f"{f}.yaml", lambda name: name in text).encode("utf-8") for f in factions}
    return {"meta.yaml": "\n".join(meta).encode() + b"\n", **files, "DATA-CHANGELOG.md": text.encode("utf-8")}


def yaml_items(path: Path, wanted, first: int = 2) -> str:
    """A faction file with the first items of each top-level list and the items `wanted(name)`
    picks (those the changelog mentions), its lines as they are."""
    out, seen, keep = [], 0, True
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.startswith(" "):
            seen, keep = 0, True
        elif line.startswith("  - "):
            seen += 1
            keep = seen <= first or wanted(line.split("name:", 1)[-1].strip())
        if keep:
            out.append(line)
    return "\n".join(out)


def yaml_name(path: Path) -> str:
    return next(l for l in path.read_text(encoding="utf-8").split("\n") if l.startswith("name:"))[5:].strip()


def window_page(data: bytes, size: int) -> list[bytes]:
    """Pieces of a large saved page that keep its head (title and all): the points page is 235 KB."""
    end = data.find(b"</title>")
    head = data[:end + 8] if end >= 0 else data[:512]
    step = max(size, (len(data) - len(head)) // 12)
    return [head + data[at:at + size] for at in range(len(head), len(data), step)]


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
