"""Where things live by default (kept apart from the store so the CLI can ask cheaply)."""
from __future__ import annotations

import os
from pathlib import Path


# The names of what ruleslawyer writes beside the store and into a site folder, in one place:
# the writers (index/lifecycle, site/writer) use them, and the ingest walk and the output guard
# recognise ruleslawyer's own output by them.
INDEX_SUFFIX = ".index"  # the search index: `<db>.index/`
INDEX_POINTER = "CURRENT"  # the index folder's pointer to its live build
SITE_MANIFEST = ".ruleslawyer-site.json"  # what a built site holds
SITE_PENDING = ".ruleslawyer-site-pending.json"  # exists only while a build writes (or after one was killed)


def default_db_path() -> Path:
    """`$RULESLAWYER_DB`, else `store.sqlite` in the per-user data directory."""
    env = os.environ.get("RULESLAWYER_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir  # small, and only needed when no path is given

    return Path(user_data_dir("ruleslawyer", appauthor=False)) / "store.sqlite"


def index_root(db_path: str | Path) -> Path:
    """Where the index of the store at `db_path` lives: `<db>.index/` beside it."""
    return Path(str(db_path) + INDEX_SUFFIX)
