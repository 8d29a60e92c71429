"""Site builds survive damage and death: repaired output, damaged caches, builds stopped at any write,
workers that die with their parent, and a `site serve` that answers hostile requests in one line."""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.ingest.pipeline import corpus_dir, ingest_paths
from ruleslawyer.site import writer
from ruleslawyer.site.build import build_site
from ruleslawyer.store import Store
from tests.conftest import ROOT


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def corpus_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("store") / "s.sqlite"
    with Store(db) as store:
        ingest_paths(store, [corpus_dir()])
    return db


@pytest.fixture(scope="module")
def reference(corpus_db, tmp_path_factory) -> dict[str, bytes]:
    """The bytes of a full build of the corpus store into a new folder."""
    out = tmp_path_factory.mktemp("ref") / "site"
    with Store(corpus_db) as store:
        build_site(store, out, workers=1)
    return tree_bytes(out)


def _build(db: Path, out: Path, **kw):
    with Store(db) as store:
        return build_site(store, out, workers=1, **kw)


def test_a_rebuild_repairs_output_that_no_longer_matches(corpus_db, reference, tmp_path):
    out = tmp_path / "site"
    _build(corpus_db, out)
    (out / "index.html").write_bytes(b"")
    search = out / "static" / "search-index.js"
    search.write_bytes(search.read_bytes()[:100])
    page = next(p for p in sorted((out / "rule").iterdir()))
    data = bytearray(page.read_bytes())
    data[len(data) // 2] ^= 0x20  # same size, one byte changed
    page.write_bytes(bytes(data))
    report = _build(corpus_db, out)
    assert report.written >= 3
    assert tree_bytes(out) == reference
    assert _build(corpus_db, out).written == 0  # and then it is whole: nothing more to do


def test_a_touched_but_unchanged_file_is_not_rewritten(corpus_db, tmp_path):
    out = tmp_path / "site"
    _build(corpus_db, out)
    later = time.time() + 5
    os.utime(out / "index.html", (later, later))
    assert _build(corpus_db, out).written == 0


class Killed(BaseException):
    """Stands for SIGKILL: nothing after it runs, no cleanup (it is not an Exception)."""


def _dying_writes(monkeypatch, after: int) -> list[int]:
    """Make the site writer die at its `after`-th file write, leaving that file half written."""
    calls = [0]
    real_if_changed, real_atomic = writer.write_bytes_if_changed, writer.write_atomic

    def die_or(real, path: Path, data: bytes, *, atomic: bool):
        calls[0] += 1
        if calls[0] == after:
            target = path.with_name(path.name + ".tmp") if atomic else path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(data[: len(data) // 2])
            raise Killed()
        return real(path, data)

    monkeypatch.setattr(writer, "write_bytes_if_changed",
                        lambda path, data: die_or(real_if_changed, path, data, atomic=path.exists()))
    monkeypatch.setattr(writer, "write_atomic", lambda path, data: die_or(real_atomic, path, data, atomic=True))
    return calls


def _count_writes(db: Path, out: Path, monkeypatch) -> int:
    with monkeypatch.context() as m:
        calls = _dying_writes(m, after=-1)
        _build(db, out)
    return calls[0]


def test_a_first_build_stopped_at_any_write_is_completed_by_the_next(corpus_db, reference, tmp_path, monkeypatch):
    total = _count_writes(corpus_db, tmp_path / "count", monkeypatch)
    assert total > 50
    points = sorted({1, 2, 3, total // 4, total // 2, total - 12, total - 3, total - 1, total})
    for point in points:
        out = tmp_path / f"killed-{point}"
        with monkeypatch.context() as m:
            _dying_writes(m, after=point)
            with pytest.raises(Killed):
                _build(corpus_db, out)
        _build(corpus_db, out)  # accepted, not "folder is not empty and holds no ruleslawyer site"
        assert tree_bytes(out) == reference, f"stopped at write {point} of {total}"


def test_a_rebuild_stopped_at_any_write_is_completed_by_the_next(corpus_db, reference, tmp_path, monkeypatch):
    small_db = tmp_path / "small.sqlite"
    with Store(small_db) as store:
        ingest_paths(store, [corpus_dir() / "core-rules-summary.md"])
    _build(small_db, tmp_path / "count")
    total = _count_writes(corpus_db, tmp_path / "count", monkeypatch)  # the writes of such a rebuild
    for fraction in (0.1, 0.5, 0.9):
        out = tmp_path / f"re-{fraction}"
        _build(small_db, out)
        with monkeypatch.context() as m:
            _dying_writes(m, after=max(1, int(total * fraction)))
            with pytest.raises(Killed):
                _build(corpus_db, out)
        _build(corpus_db, out)
        assert tree_bytes(out) == reference, fraction


_SLOW_BUILD = """
import sys, time
from ruleslawyer.site import writer
from ruleslawyer.site.build import build_site
from ruleslawyer.store import Store
writer.PARALLEL_MIN_PAGES = 1
real = writer.render_page
def slow(env, page):
    time.sleep(0.2)
    return real(env, page)
writer.render_page = slow
with Store(sys.argv[1]) as store:
    build_site(store, sys.argv[2], workers=2, force=True)
"""


def _children(pid: int) -> list[int]:
    try:
        tasks = Path(f"/proc/{pid}/task").iterdir()
        return [int(c) for t in tasks for c in (t / "children").read_text().split()]
    except OSError:
        return []


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc to find the workers")
def test_render_workers_die_with_the_build(corpus_db, tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_BUILD, str(corpus_db), str(tmp_path / "site")],
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        deadline = time.monotonic() + 120
        workers: list[int] = []
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.1)
            workers = _children(proc.pid)
        assert len(workers) >= 2, "the build never started its workers"
        time.sleep(0.5)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(map(_alive, workers)):
            time.sleep(0.1)
        assert not any(map(_alive, workers)), "render workers outlived the killed build"
    finally:
        if proc.poll() is None:
            proc.kill()
    with Store(corpus_db) as store:  # and the folder it left is accepted and completed
        build_site(store, tmp_path / "site", workers=1)


# ---------------------------------------------------------------- site serve
@pytest.fixture(scope="module")
def served(corpus_db, tmp_path_factory):
    from ruleslawyer.site.serve import make_server

    out = tmp_path_factory.mktemp("served") / "site"
    _build(corpus_db, out)
    server = make_server(out, 0)
    import threading

    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def _status(port: int, path: str) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.putrequest("GET", path, skip_accept_encoding=True)
        conn.endheaders()
        return conn.getresponse().status
    finally:
        conn.close()


@pytest.mark.parametrize("path,status", [
    ("/", 200), ("/index.html", 200),
    ("/.ruleslawyer-site.json", 404), ("/.ruleslawyer-site-cache/", 404), ("/.ruleslawyer-site-cache/00.json", 404),
    ("/static/", 404), ("/rule/..%2f.ruleslawyer-site.json", 404), ("/%2e%2e/%2e%2e/etc/passwd", 404),
    ("/%00", 400), ("/index.html%00.js", 400), ("/%ff", 400),
])
def test_serve_answers_each_request_in_one_way(served, path, status):
    assert _status(served, path) == status


def test_serve_closes_idle_connections(corpus_db, tmp_path, monkeypatch):
    from ruleslawyer.site import serve

    monkeypatch.setattr(serve._SiteHandler, "timeout", 0.5)
    out = tmp_path / "site"
    _build(corpus_db, out)
    server = serve.make_server(out, 0)
    import threading

    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        idle = [socket.create_connection(("127.0.0.1", server.server_address[1])) for _ in range(20)]
        time.sleep(2)
        for s in idle:  # the server hung up on every one of them
            s.settimeout(5)
            assert s.recv(1) == b""
            s.close()
        assert _status(server.server_address[1], "/") == 200
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("port", ["70000", "-1"])
def test_serve_bad_port_is_one_line(corpus_db, tmp_path, port):
    out = tmp_path / "site"
    _build(corpus_db, out)
    result = CliRunner().invoke(cli, ["--db", str(corpus_db), "site", "serve", str(out), "--port", port])
    assert result.exit_code in (1, 2) and result.stderr.count("\n") <= 2
    assert "Traceback" not in result.output and "port" in result.stderr
