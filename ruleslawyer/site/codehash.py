"""Which code the site's pages depend on, hashed: a change to it re-renders every page."""
from __future__ import annotations

import hashlib
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent


# The folders whose code shapes a page: the records as amended and looked up, the templates and
# the site itself. Parsers are not here: a parser change re-reads the file, which changes the store.
PAGE_CODE = ("amend", "library", "render", "site")


def code_files() -> list[Path]:
    """The files a site's pages depend on besides the store: the package's root modules (records,
    names), the errata and look-up stages, the templates and static files, and the site's own
    modules, in every subfolder."""
    files = [*PACKAGE.glob("*.py")]
    for folder in PAGE_CODE:
        files.extend(f for f in (PACKAGE / folder).rglob("*") if "__pycache__" not in f.parts)
    return sorted(f for f in files if f.is_file())


def code_hash() -> str:
    """Hash of every file in `code_files`: a change re-renders every page."""
    h = hashlib.sha1()
    for f in code_files():
        h.update(str(f.relative_to(PACKAGE)).encode())
        h.update(f.read_bytes())
    return h.hexdigest()
