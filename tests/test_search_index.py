"""The index kept up to date: incremental updates, full builds only on version change,
damaged indexes rebuilt, rule numbers, FAQ/errata answers."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ruleslawyer.index import engine, lifecycle
from ruleslawyer.index.query import parse_query
from ruleslawyer.index.search import ensure_index, search
from ruleslawyer.records import Erratum, Faq, Rule, Source
from ruleslawyer.store import Store

from .relevance import SHAPES
from .search_helpers import RECORDS

OTHER = Source(file="other.txt")
ERRATA = Source(file="errata.txt")
MORE = [
    Rule(name="Heroic Intervention", source=OTHER, edition=10, number="24.12",
         text="After the enemy has charged, one of your characters close by may move towards them."),
    Rule(name="Rapid Ingress", source=OTHER, edition=10, number="15.04",
         text="At the end of your opponent's turn a reserve unit may arrive."),
]
FIX = Erratum(document="Core Book", version="1.1", page="3", target="Deep Strike", source=ERRATA, edition=10,
              operation="replace", text="Set the unit up anywhere more than 8 inches from every enemy unit.")
ASK = Faq(question="Can a unit that arrived by Deep Strike charge that turn?", source=ERRATA, edition=10,
          answer="Yes, but it needs a 9 on the charge roll.", document="Core Book FAQ")


def _put(store: Store, path: str, records) -> None:
    store.replace_file(path=path, name=path, sha256=json.dumps([repr(r) for r in records])[:64] + path,
                       format="text", size=0, records=records)


def _hits(store, query: str, limit: int = 20) -> list[tuple[str, str]]:
    return [(h.kind, h.name) for h in search(store, query, limit=limit).hits]


@pytest.fixture
def two_files(tmp_path):
    with Store(tmp_path / "s.sqlite") as store:
        _put(store, "made-up.txt", RECORDS)
        _put(store, "other.txt", MORE)
        ensure_index(store)
        yield store


def _pointer(store) -> dict:
    return lifecycle.read_current(lifecycle.index_root(store.path))


# ---------------------------------------------------------------- incremental updates
def test_adding_a_file_adds_its_records_and_the_records_its_errata_change(two_files):
    before = _pointer(two_files)
    _put(two_files, "errata.txt", [FIX, ASK])
    ensure_index(two_files)
    after = _pointer(two_files)
    assert after["dir"] == before["dir"]  # updated in place, not rebuilt
    # The erratum and the FAQ are new; Deep Strike's amended view replaces its old document.
    assert (after["added"], after["removed"]) == (3, 1)
    assert after["documents"] == len(RECORDS) + len(MORE) + 2
    assert ("rule", "Deep Strike") in _hits(two_files, '"8 inches"')
    rule = search(two_files, "deep strike kind:rule").hits[0]
    assert rule.name == "Deep Strike" and "8 inches" in rule.snippet and "9 inches" not in rule.snippet


def test_removing_a_file_removes_its_documents_and_restores_what_its_errata_changed(two_files):
    _put(two_files, "errata.txt", [FIX])
    ensure_index(two_files)
    two_files.remove_file("errata.txt")
    ensure_index(two_files)
    after = _pointer(two_files)
    assert (after["added"], after["removed"]) == (1, 2)
    assert ("rule", "Deep Strike") in _hits(two_files, '"9 inches"')
    assert all(kind != "errata" for kind, _ in _hits(two_files, "deep strike"))


def test_re_ingesting_a_file_rewrites_only_what_changed(two_files):
    changed = [MORE[0], Rule(name="Rapid Ingress", source=OTHER, edition=10, number="15.04",
                             text="At the end of your opponent's Movement phase a reserve unit may arrive.")]
    _put(two_files, "other.txt", changed)
    ensure_index(two_files)
    after = _pointer(two_files)
    assert (after["added"], after["removed"]) == (1, 1)


def test_incremental_results_match_a_full_build(two_files, tmp_path):
    _put(two_files, "errata.txt", [FIX, ASK])
    two_files.remove_file("other.txt")
    ensure_index(two_files)
    with Store(tmp_path / "fresh.sqlite") as fresh:
        _put(fresh, "made-up.txt", RECORDS)
        _put(fresh, "errata.txt", [FIX, ASK])
        for query in [*SHAPES, "deep strike charge", "heroic intervention"]:
            if parse_query(query).has_terms:
                assert sorted(_hits(two_files, query)) == sorted(_hits(fresh, query)), query


def test_a_new_index_version_rebuilds_in_full(two_files, monkeypatch):
    before = _pointer(two_files)
    monkeypatch.setattr(lifecycle, "INDEX_VERSION", lifecycle.INDEX_VERSION + 1)
    ensure_index(two_files)
    after = _pointer(two_files)
    assert after["dir"] != before["dir"] and "added" not in after


def test_an_update_adds_no_documents_when_nothing_changed(two_files):
    two_files._bump_generation()
    ensure_index(two_files)
    assert (_pointer(two_files)["added"], _pointer(two_files)["removed"]) == (0, 0)


# ---------------------------------------------------------------- damaged indexes
def _segment_files(store) -> list[Path]:
    folder = lifecycle.index_root(store.path) / _pointer(store)["dir"]
    return sorted(folder.glob("*.pst")) + sorted(folder.glob("*.trm"))


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[:40])


def _garbage(path: Path) -> None:
    path.write_bytes(os.urandom(max(path.stat().st_size, 64)))


@pytest.mark.parametrize("damage", ["truncate segment", "garbage segment", "truncate toc", "garbage toc",
                                    "missing toc", "missing segment"])
def test_a_damaged_index_is_rebuilt_with_one_notice(two_files, damage):
    folder = lifecycle.index_root(two_files.path) / _pointer(two_files)["dir"]
    toc = next(folder.glob("*.toc"))
    target = toc if "toc" in damage else next(f for f in _segment_files(two_files) if f.suffix == ".pst")
    if damage.startswith("truncate"):
        _truncate(target)
    elif damage.startswith("garbage"):
        _garbage(target)
    else:
        target.unlink()
    notices: list[str] = []
    hits = search(two_files, "deep strike", notice=notices.append).hits
    assert hits and hits[0].name == "Deep Strike"
    assert len(notices) == 1 and "damaged" in notices[0] and "\n" not in notices[0]
    assert _pointer(two_files)["dir"] != folder.name
    search(two_files, "deep strike", notice=notices.append)
    assert len(notices) == 1  # repaired: no second notice


def test_cli_prints_one_notice_line_for_a_damaged_index(tmp_path):
    db = tmp_path / "s.sqlite"
    with Store(db) as store:
        _put(store, "made-up.txt", RECORDS)
        ensure_index(store)
        for f in _segment_files(store):
            _garbage(f)
    env = {**os.environ, "RULESLAWYER_DB": str(db)}
    out = subprocess.run([sys.executable, "-m", "ruleslawyer", "search", "overwatch"], env=env,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "Overwatch" in out.stdout
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Notice:") and "Traceback" not in out.stderr


# ---------------------------------------------------------------- ingest keeps the index fresh
def test_ingest_updates_the_index_and_no_index_skips_it(tmp_path, shared):
    from .conftest import seed_path

    db = tmp_path / "s.sqlite"
    env = {**os.environ, "RULESLAWYER_DB": str(db)}
    run = lambda *args: subprocess.run([sys.executable, "-m", "ruleslawyer", *args], env=env,  # noqa: E731
                                       capture_output=True, text=True, check=True)
    run("ingest", "-q", "--no-index", str(seed_path(shared, "000")))
    assert lifecycle.read_current(lifecycle.index_root(db)) is None
    run("ingest", "-q", str(seed_path(shared, "001")))
    with Store(db) as store:
        assert lifecycle.is_fresh(lifecycle.read_current(lifecycle.index_root(db)), store.generation)


# ---------------------------------------------------------------- numbers, answers
def test_a_rule_number_finds_its_rule(two_files):
    assert _hits(two_files, "24.12")[0] == ("rule", "Heroic Intervention")
    assert _hits(two_files, "15.04")[0] == ("rule", "Rapid Ingress")
    assert _hits(two_files, "number:24.12") == [("rule", "Heroic Intervention")]


def test_faq_snippet_shows_the_answer_and_errata_the_new_wording(two_files):
    _put(two_files, "errata.txt", [FIX, ASK])
    faq = next(h for h in search(two_files, "deep strike charge kind:faq").hits)
    assert faq.name == ASK.question and "9 on the charge roll" in faq.snippet and ASK.question not in faq.snippet
    erratum = next(h for h in search(two_files, "deep strike kind:errata").hits)
    assert "8 inches" in erratum.snippet


def test_show_finds_faqs_by_question_and_errata_by_target(two_files):
    from ruleslawyer.errors import NotFoundError
    from ruleslawyer.library.find import find_one

    records = [*RECORDS, *MORE, FIX, ASK]
    assert find_one(records, ASK.question, kinds=["faq"]) is ASK
    assert find_one(records, "deep strike", kinds=["errata"]) is FIX
    assert find_one(records, "deep strike").kind == "rule"  # without --kind, the rule itself
    with pytest.raises(NotFoundError):
        find_one(records, "no such question at all", kinds=["faq"])


def test_many_updates_merge_small_segments_and_still_match_a_full_build(tmp_path):
    """Whoosh merges small segments once there are several; the merged index ranks as a
    fresh build of the same records does."""
    extra = [Rule(name=f"Made-up Rule {n}", source=Source(file=f"f{n}.txt"), edition=10,
                  text=f"Roll {n} dice for each unit that can shoot; on a {n}+ add one attack.") for n in range(12)]
    with Store(tmp_path / "inc.sqlite") as store, Store(tmp_path / "fresh.sqlite") as fresh:
        _put(store, "made-up.txt", RECORDS)
        ensure_index(store)
        for n, record in enumerate(extra):
            _put(store, f"f{n}.txt", [record])
            if n % 3 == 0:
                store.remove_file(f"f{n}.txt")
            ensure_index(store)
        folder = ensure_index(store)
        assert len(list(folder.glob("*.pst"))) < len(extra)  # merged, not one segment per update
        _put(fresh, "made-up.txt", RECORDS)
        for n, record in enumerate(extra):
            if n % 3:
                _put(fresh, f"f{n}.txt", [record])
        for query in [*SHAPES, "roll dice attack", "made-up rule 7", '"add one attack"']:
            if parse_query(query).has_terms:
                assert sorted(_hits(store, query, 40)) == sorted(_hits(fresh, query, 40)), query


def _update_in_child(db: str) -> None:
    from ruleslawyer.index.search import update_after_ingest

    update_after_ingest(db)


@pytest.mark.parametrize("delay", [0.1, 0.4, 1.5])
@pytest.mark.parametrize("kept", [slice(100, 700), slice(200, None)], ids=["in-place update", "full rebuild"])
def test_kill_9_during_an_update_leaves_an_index_that_repairs_itself(tmp_path, delay, kept):
    """An update killed at any moment: the next one finishes it, or rebuilds, and the index
    then ranks as a fresh build of the same records. Replacing 100 of 600 records is done in
    place; replacing 200 and adding 400 is more than half, so it is a full build."""
    import multiprocessing
    import signal

    many = [Rule(name=f"Made-up Rule {n}", source=Source(file="many.txt"), edition=10,
                 text=f"Roll {n % 7} dice for each unit in range {n}; on a {n % 5 + 2}+ it may shoot again.")
            for n in range(1000)]
    db = tmp_path / "s.sqlite"
    with Store(db) as store:
        _put(store, "made-up.txt", RECORDS)
        ensure_index(store)
        _put(store, "many.txt", many[:600])
        ensure_index(store)
        _put(store, "many.txt", many[kept])
    child = multiprocessing.get_context("fork").Process(target=_update_in_child, args=(str(db),))
    child.start()
    child.join(delay)
    if child.is_alive():
        os.kill(child.pid, signal.SIGKILL)
    child.join()
    with Store(db) as store, Store(tmp_path / "fresh.sqlite") as fresh:
        _put(fresh, "made-up.txt", RECORDS)
        _put(fresh, "many.txt", many[kept])
        for query in ["made-up rule 99", "made-up rule 650", "made-up rule 900", "roll dice shoot again", "deep strike"]:
            assert sorted(_hits(store, query, 30)) == sorted(_hits(fresh, query, 30)), query
