"""Where things live by default (kept apart from the store so the CLI can ask cheaply)."""
from __future__ import annotations

import os
from pathlib import Path


def default_db_path() -> Path:
    """`$RULESLAWYER_DB`, else `store.sqlite` in the per-user data directory."""
    env = os.environ.get("RULESLAWYER_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir  # small, and only needed when no path is given

    return Path(user_data_dir("ruleslawyer", appauthor=False)) / "store.sqlite"
