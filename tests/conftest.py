"""Shared fixtures: where ../shared is, temporary stores, the CLI runner.

Tests that need ../shared locate it from RULESLAWYER_SHARED or `../shared` beside the checkout.
They skip with a reason when it is absent, except under CI=true, where they fail instead.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def find_shared() -> Path | None:
    env = os.environ.get("RULESLAWYER_SHARED")
    candidates = [Path(env)] if env else []
    candidates.append(ROOT.parent / "shared")
    for c in candidates:
        if (c / "gold").is_dir() and (c / "seeds").is_dir():
            return c.resolve()
    return None


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(reason)
    pytest.skip(reason)


def require_shared() -> Path:
    """The ../shared folder, or skip (fail under CI=true) with a clear reason."""
    shared = find_shared()
    if shared is None:
        _skip_or_fail("../shared not found (set RULESLAWYER_SHARED to the folder with seeds/, inputs/, gold/)")
    return shared


def shared_file(shared: Path, relative: str) -> Path:
    """A file of ../shared by its relative path, or skip (fail under CI=true) when it is missing."""
    path = shared / relative
    if not path.exists():
        _skip_or_fail(f"{relative} is not in ../shared")
    return path


@pytest.fixture(scope="session")
def shared() -> Path:
    return require_shared()


@pytest.fixture(scope="session")
def e11_orks_store(shared, tmp_path_factory) -> Path:
    """A store of the real 11th edition Orks catalogue and Munitorum Field Manual points, made
    once for the tests that read current points (list check, list and unit cards)."""
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    e11 = shared / "realdata" / "e11"
    db = tmp_path_factory.mktemp("e11orks") / "store.sqlite"
    with Store(db) as store:
        ingest_paths(store, [e11 / "bsdata" / "Orks.json", e11 / "mfm"])
    return db


def seed_path(shared: Path, prefix: str, suffix: str = ".txt") -> Path:
    """The seed (suffix .txt) or input (.pdf/.html) file whose name starts with `prefix` ("000")."""
    folder = shared / ("seeds" if suffix == ".txt" else "inputs")
    matches = sorted(folder.glob(f"{prefix}_*{suffix}"))
    if not matches:
        pytest.fail(f"no {prefix}_*{suffix} in {folder}")
    return matches[0]


@pytest.fixture
def tmp_store(tmp_path):
    from ruleslawyer.store import Store

    with Store(tmp_path / "store.sqlite") as store:
        yield store


@pytest.fixture(scope="session")
def example_store(tmp_path_factory) -> Path:
    """A store holding just the shipped example corpus, made once; tests get copies."""
    from ruleslawyer.ingest.pipeline import ensure_corpus
    from ruleslawyer.store import Store

    path = tmp_path_factory.mktemp("example") / "example.sqlite"
    with Store(path) as store:
        ensure_corpus(store)
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


@pytest.fixture
def runner(tmp_path, monkeypatch, example_store):
    """A click CliRunner whose store is a temporary copy of a store seeded with the example
    corpus (what a new user's first command gives them)."""
    import shutil

    from click.testing import CliRunner

    shutil.copyfile(example_store, tmp_path / "cli.sqlite")
    monkeypatch.setenv("RULESLAWYER_DB", str(tmp_path / "cli.sqlite"))
    return CliRunner()


@pytest.fixture
def fresh_runner(tmp_path, monkeypatch):
    """A click CliRunner whose store does not exist yet (a new user's machine)."""
    from click.testing import CliRunner

    monkeypatch.setenv("RULESLAWYER_DB", str(tmp_path / "fresh.sqlite"))
    return CliRunner()


# Modules whose tests take seconds each (whole-document gold, fuzzing, kill -9 trials, PDF
# rendering, subprocesses): left out of the inner loop `pytest -m "not slow and not browser"`.
SLOW_MODULES = frozenset({
    "test_reliab_kill", "test_fuzz_loaders", "test_fuzz_structured", "test_gold_real", "test_sweep_core11",
    "test_search_relevance", "test_search_fields_real", "test_cards_real", "test_cards_lists",
    "test_datasheets_gold", "test_reference", "test_loader_pdf", "test_errata_realdata", "test_points_list",
    "test_stratagems_gold", "test_search_index", "test_reliab_site",
})

# Fixtures that read ../shared/realdata: a test using one is marked `realdata`.
_REALDATA_FIXTURES = frozenset({"shared", "e11_orks_store", "real_pile"})


def pytest_collection_modifyitems(config, items):
    """Mark the tiers from what a test uses: ../shared fixtures -> realdata, a browser module ->
    browser (and slow). `pytest -m "not slow and not browser"` is the inner loop."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        module = item.module.__name__ if getattr(item, "module", None) else ""
        if names & _REALDATA_FIXTURES or "realdata" in module or "gold" in module:
            item.add_marker(pytest.mark.realdata)
        if "real_pile" in names or module.rsplit(".", 1)[-1] in SLOW_MODULES:
            item.add_marker(pytest.mark.slow)
        if "browser" in module:
            item.add_marker(pytest.mark.browser)
            item.add_marker(pytest.mark.slow)


@pytest.fixture(scope="session")
def real_pile(shared, tmp_path_factory) -> Path:
    """A store of everything in ../shared/realdata, ingested once per test session (a few
    minutes): the pile a new user in November 2026 would hold. Tests must not write to it."""
    import shutil

    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    db = tmp_path_factory.mktemp("realpile") / "store.sqlite"
    reuse = os.environ.get("RULESLAWYER_REALDATA_DB")  # a store of the pile made earlier: no ingest
    if reuse and os.path.isfile(reuse):
        shutil.copyfile(reuse, db)
        return db
    with Store(db) as store:
        ingest_paths(store, [shared / "realdata"])
        store.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


@pytest.fixture(scope="session")
def small_site(tmp_path_factory) -> Path:
    """The site of the small hand-made corpus (tests/site_small.py), built once per session."""
    from tests.site_small import build_small

    out = tmp_path_factory.mktemp("small") / "site"
    build_small(out)
    return out


@pytest.fixture(scope="session")
def seeds_site(shared, tmp_path_factory) -> Path:
    """The site of seeds 000-003, ingested and built with the real pipeline, once per session."""
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.site.build import build_site
    from ruleslawyer.store import Store

    work = tmp_path_factory.mktemp("seeds")
    seeds = sorted((shared / "seeds").glob("00[0-3]_*.txt"))
    assert len(seeds) == 4
    with Store(work / "store.sqlite") as store:
        ingest_paths(store, seeds)
        build_site(store, work / "site", workers=1)
    return work / "site"


@pytest.fixture
def stand_in_parser(monkeypatch):
    """Ingest with one stand-in family parser (tests/factories.heading_rules: a rule per
    heading) instead of the registry's, for tests of the store and the CLI, not of parsing."""
    from ruleslawyer.ingest.parse import parsing
    from tests.factories import heading_rules

    monkeypatch.setattr(parsing, "family_parsers", lambda: [heading_rules])


def pytest_sessionfinish(session, exitstatus):
    """A run that collected no tests is a failure, not pytest's exit status 5."""
    if exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
