"""The real-document gold set (tests/gold/real/): read MANIFEST.tsv, ingest each document alone,
export, keep the manifest's kinds and scope, and score with ../shared/tools/score.py.

Used by tests/test_gold_real.py (one test per manifest line, failing below its floor) and by
bench/gold_real.py (the score table recorded in bench/RESULTS.md).
"""
from __future__ import annotations

import tempfile
from dataclasses import dataclass
from pathlib import Path

from ruleslawyer.ingest.pipeline import ingest_paths
from ruleslawyer.library.corpus import load_corpus
from ruleslawyer.names import fold
from ruleslawyer.records_json import to_dict
from ruleslawyer.store import Store

from tests.gold import _score_module

GOLD_DIR = Path(__file__).resolve().parent / "gold" / "real"
MANIFEST = GOLD_DIR / "MANIFEST.tsv"
# The blind half: gold written per family by helpers who never read the parser code. Its
# failures are fixed in the family's parser, never by a rule naming the document; a document
# whose failure was fixed moves to the tuning half and a new blind one is written.
BLIND_MANIFEST = GOLD_DIR / "blind" / "MANIFEST.tsv"


@dataclass(frozen=True)
class GoldEntry:
    """One manifest line: a document, its gold file, the kinds scored, the floor and the scope."""

    document: str  # relative to ../shared
    gold: str  # relative to GOLD_DIR
    kinds: frozenset[str] | None  # None: every kind
    floor: float
    scope: str = "all"
    half: str = "tuning"  # or "blind" (see BLIND_MANIFEST)

    @property
    def id(self) -> str:
        return Path(self.gold).stem


def read_manifest(path: Path = MANIFEST) -> list[GoldEntry]:
    """The manifest's entries (blank lines and `#` comments skipped); gold paths are made
    relative to GOLD_DIR, and entries of the blind manifest are marked as the blind half."""
    if not path.is_file():
        return []
    folder = path.parent.relative_to(GOLD_DIR)
    half = "blind" if path.parent.name == "blind" else "tuning"
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        kinds = None if cols[2].strip() == "all" else frozenset(k.strip() for k in cols[2].split(","))
        gold = cols[1].strip()
        if folder.parts and not gold.startswith(f"{folder.as_posix()}/"):
            gold = f"{folder.as_posix()}/{gold}"
        entries.append(GoldEntry(cols[0], gold, kinds, float(cols[3]),
                                 cols[4].strip() if len(cols) > 4 else "all", half))
    return entries


def _pages(spec: str) -> set[int]:
    pages: set[int] = set()
    for part in spec.split(","):
        lo, _, hi = part.partition("-")
        pages.update(range(int(lo), int(hi or lo) + 1))
    return pages


def in_scope(record: dict, scope: str) -> bool:
    """Whether an exported record falls inside a manifest scope ("all", "pages=1-2",
    "faction=Necrons", "group=…", "names=A|B", several joined by ";")."""
    for clause in filter(None, (c.strip() for c in scope.split(";"))):
        if clause == "all":
            continue
        key, _, value = clause.partition("=")
        if key == "pages":
            if (record.get("source") or {}).get("page") not in _pages(value):
                return False
        elif key == "faction":
            if fold(record.get("faction") or "") != fold(value):
                return False
        elif key == "group":
            if fold(record.get("group") or "") != fold(value):
                return False
        elif key == "names":
            wanted = {fold(n) for n in value.split("|")}
            if fold(record.get("name") or record.get("question") or "") not in wanted:
                return False
        else:
            raise ValueError(f"unknown scope clause {clause!r}")
    return True


def exported(shared: Path, entry: GoldEntry) -> list[dict]:
    """The records the tool exports for the document alone (a fresh store), as records.md dicts."""
    with tempfile.TemporaryDirectory() as tmp:
        with Store(Path(tmp) / "gold.sqlite") as store:
            report = ingest_paths(store, [shared / entry.document])
            if report.failed:
                raise AssertionError(f"{entry.document}: {report.failed[0].error}")
            return [to_dict(r) for r in load_corpus(store, amended=False).records]


def score_entry(shared: Path, entry: GoldEntry, predicted: list[dict] | None = None) -> dict:
    """score.py's report for one manifest entry."""
    score = _score_module(shared)
    gold = score.load(str(GOLD_DIR / entry.gold))
    pred = predicted if predicted is not None else exported(shared, entry)
    if entry.kinds:
        gold = [g for g in gold if g["kind"] in entry.kinds]
        pred = [p for p in pred if p["kind"] in entry.kinds]
    pred = [p for p in pred if in_scope(p, entry.scope)]
    return score.score(gold, pred)
