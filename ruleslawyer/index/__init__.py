"""Full-text search over the amended records (Whoosh), kept up to date beside the store."""
from __future__ import annotations


def update_after_ingest(db_path, progress=None, notice=None):
    """Bring the search index of the store at `db_path` up to date (see search.update_after_ingest)."""
    from .search import update_after_ingest as update

    return update(db_path, progress=progress, notice=notice)
