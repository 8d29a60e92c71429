"""Progress bars for long work, shown only on a terminal (stderr)."""
from __future__ import annotations

import contextlib
import sys
import time
from pathlib import Path


@contextlib.contextmanager
def _bar(label: str, *, delay: float = 0.0, named: bool = False):
    """Yield `progress(done, total, item=None)`, drawing a bar on stderr when it is a terminal,
    once the work has run for `delay` seconds (short work stays silent)."""
    if not sys.stderr.isatty():
        yield None
        return
    started = time.monotonic()
    state = {"bar": None, "done": 0}

    def progress(done: int, total: int, item: str | None = None) -> None:
        if state["bar"] is None:
            if time.monotonic() - started < delay:
                return
            import click  # only once a bar is drawn: a quick search never imports it

            show = (lambda s: Path(s).name[:40] if s else "") if named else None
            state["bar"] = click.progressbar(length=total, label=label, file=sys.stderr,
                                             item_show_func=show).__enter__()
        if named:
            state["bar"].current_item = item
        state["bar"].update(done - state["done"])
        state["done"] = done

    try:
        yield progress
    finally:
        if state["bar"] is not None:
            state["bar"].__exit__(None, None, None)


@contextlib.contextmanager
def progress_bar(enabled: bool = True):
    """Yield a `progress(done, total, label)` callback for ingesting, with the file's name."""
    if not enabled:
        yield None
        return
    with _bar("Ingesting", named=True) as progress:
        yield progress


@contextlib.contextmanager
def index_progress(delay: float = 1.0):
    """Yield a `progress(done, total)` callback for index work, shown after `delay` seconds."""
    with _bar("Indexing", delay=delay) as progress:
        yield progress
