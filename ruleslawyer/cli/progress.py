"""A progress bar for long work, shown only on a terminal (stderr)."""
from __future__ import annotations

import contextlib
import sys
from pathlib import Path

import click


@contextlib.contextmanager
def progress_bar(enabled: bool = True):
    """Yield a `progress(done, total, label)` callback drawing a bar on stderr when it is a tty."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    state = {"bar": None, "done": 0}

    def progress(done: int, total: int, label: str) -> None:
        if state["bar"] is None:
            bar = click.progressbar(length=total, label="Ingesting", file=sys.stderr,
                                    item_show_func=lambda s: Path(s).name[:40] if s else "")
            state["bar"] = bar.__enter__()
        state["bar"].current_item = label
        state["bar"].update(done - state["done"])
        state["done"] = done

    try:
        yield progress
    finally:
        if state["bar"] is not None:
            state["bar"].__exit__(None, None, None)
