"""kill -9 at random moments during ingest, index builds and site builds, and everything at once.

After each kill the store passes SQLite's integrity check, and the next run completes with the
same result a run that was never interrupted gives: the same export, the same search output, the
same site bytes. Commands running at the same time on one store (ingests, searches, exports and
site builds) all succeed. The moments are random with a fixed seed.
"""
from __future__ import annotations

import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import ROOT

SEED = 9


def _cli(db: Path, *args: str, check: bool = True, timeout: float = 600) -> subprocess.CompletedProcess:
    result = subprocess.run([sys.executable, "-m", "ruleslawyer", "--db", str(db), *args], capture_output=True,
                            text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": str(ROOT)})
    if check:
        assert result.returncode == 0, (args, result.stderr)
    return result


def _killed_after(db: Path, seconds: float, *args: str) -> int | None:
    """Start the command, SIGKILL it (and its process group) after `seconds`; its exit code if it ended first."""
    proc = subprocess.Popen([sys.executable, "-m", "ruleslawyer", "--db", str(db), *args],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        return proc.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the process and any worker it forked
        proc.wait()
        return None


def _integrity(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    try:
        return [row[0] for row in conn.execute("PRAGMA integrity_check")]
    finally:
        conn.close()


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def documents(shared) -> list[str]:
    return [str(shared / "seeds"), str(shared / "inputs")]


@pytest.fixture(scope="module")
def clean(documents, tmp_path_factory) -> dict:
    """What uninterrupted runs give: the export, a search and the site of the documents."""
    folder = tmp_path_factory.mktemp("clean")
    db = folder / "s.sqlite"
    _cli(db, "ingest", "-q", *documents)
    site = folder / "site"
    _cli(db, "site", "build", str(site))
    return {"db": db, "export": _cli(db, "export").stdout, "search": _cli(db, "search", "overwatch").stdout,
            "site": tree_bytes(site)}


def test_ingest_killed_at_random_moments(documents, clean, tmp_path):
    rnd = random.Random(SEED)
    db = tmp_path / "s.sqlite"
    for _ in range(3):
        _killed_after(db, rnd.uniform(0.5, 6.0), "ingest", "-q", *documents)
        if db.exists():
            assert _integrity(db) == ["ok"]
    _cli(db, "ingest", "-q", *documents)
    assert _cli(db, "export").stdout == clean["export"]


def test_index_build_killed_at_random_moments(clean, tmp_path):
    rnd = random.Random(SEED + 1)
    db = tmp_path / "s.sqlite"
    shutil.copy(clean["db"], db)  # a store whose index was never built here
    for _ in range(3):
        _killed_after(db, rnd.uniform(0.3, 4.0), "search", "overwatch")
    assert _cli(db, "search", "overwatch").stdout == clean["search"]


def test_site_build_killed_at_random_moments(clean, tmp_path):
    rnd = random.Random(SEED + 2)
    out = tmp_path / "site"
    for _ in range(4):
        code = _killed_after(clean["db"], rnd.uniform(0.3, 5.0), "site", "build", str(out))
        assert code in (None, 0)  # killed, or done: never refused
    result = _cli(clean["db"], "site", "build", str(out))
    assert "Built" in result.stdout
    assert tree_bytes(out) == clean["site"]


def test_everything_at_once_on_one_store(documents, clean, tmp_path):
    db = tmp_path / "s.sqlite"
    shutil.copy(clean["db"], db)
    commands = [["ingest", "-q", "--force", documents[0]], ["ingest", "-q", "--force", documents[0]],
                ["search", "overwatch"], ["export"], ["site", "build", str(tmp_path / "a")],
                ["site", "build", str(tmp_path / "b")]]
    failures: list[str] = []

    def run(args: list[str]) -> None:
        for _ in range(2):
            result = _cli(db, *args, check=False)
            if result.returncode != 0:
                failures.append(f"{args}: {result.stderr.strip()}")

    threads = [threading.Thread(target=run, args=(c,)) for c in commands]
    start = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=900)
    assert not failures, failures
    assert time.monotonic() - start < 900
    assert _integrity(db) == ["ok"]
    assert _cli(db, "export").stdout == clean["export"]
    _cli(db, "site", "build", str(tmp_path / "a"))
    # Every file the same; the manifest names the store's change counter, which the ingests moved on.
    manifest = ".ruleslawyer-site.json"
    assert {k: v for k, v in tree_bytes(tmp_path / "a").items() if k != manifest} == \
        {k: v for k, v in clean["site"].items() if k != manifest}
