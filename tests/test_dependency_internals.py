"""No module of the package reads the private internals of the libraries it builds on.

Whoosh, pdfplumber, WeasyPrint and Jinja are used through their public API only: an upgrade
must not fail hard or silently change what we compute. A static check over the package's
source (`ast`) flags:
- `from whoosh... import _x`, `import whoosh._x`, a `_`-prefixed module in the path;
- an attribute chain that starts at a name bound to one of those libraries and reaches a
  `_`-prefixed attribute (`whoosh.codec._x`, `q.Or._matcher`);
- the names of Whoosh internals the removed fast paths used (`fieldwriter`, `_finalize_segment`,
  `_commit_toc`, `W3Segment`, `_MAIN_`, `._segment`, ...), wherever they appear;
- `gc.freeze` anywhere in `ruleslawyer/index/`.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "ruleslawyer"
LIBRARIES = ("whoosh", "pdfplumber", "weasyprint", "jinja2")
# Internals of Whoosh (and its on-disk format) that only a re-implementation would name.
KNOWN_INTERNALS = frozenset({
    "_segment", "fieldwriter", "perdocwriter", "_finalize_segment", "_commit_toc", "_codec",
    "_tindex", "_postfile", "_fieldid", "_blocklimit", "W3Segment", "W3TermInfo", "_MAIN_", "_lk",
    "deleted_docs_set", "WHOOSH3_HEADER_MAGIC",
})


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _from_library(module: str | None) -> bool:
    return bool(module) and module.split(".")[0] in LIBRARIES


def violations(source: str, where: str = "<source>", *, index_module: bool = False) -> list[str]:
    """Every use of a dependency's internals in `source` (one line each: where, line, what)."""
    tree = ast.parse(source)
    bound: set[str] = set()  # local names that refer to a library or something taken from it
    found: list[str] = []

    def flag(node: ast.AST, what: str) -> None:
        found.append(f"{where}:{getattr(node, 'lineno', '?')}: {what}")

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if _from_library(alias.name):
                    bound.add(alias.asname or alias.name.split(".")[0])
                    if any(_private(part) for part in alias.name.split(".")):
                        flag(node, f"import {alias.name}")
        elif isinstance(node, ast.ImportFrom) and _from_library(node.module):
            if any(_private(part) for part in node.module.split(".")):
                flag(node, f"from {node.module} import ...")
            for alias in node.names:
                bound.add(alias.asname or alias.name)
                if _private(alias.name):
                    flag(node, f"from {node.module} import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            chain, base = [node.attr], node.value
            while isinstance(base, ast.Attribute):
                chain.append(base.attr)
                base = base.value
            if isinstance(base, ast.Name) and base.id in bound and any(_private(a) for a in chain):
                flag(node, f"{base.id}.{'.'.join(reversed(chain))}")
            elif node.attr in KNOWN_INTERNALS:
                flag(node, f".{node.attr}")
            if index_module and node.attr == "freeze" and isinstance(base, ast.Name) and base.id == "gc":
                flag(node, "gc.freeze")
        elif isinstance(node, ast.Name) and node.id in KNOWN_INTERNALS:
            flag(node, node.id)
        elif isinstance(node, ast.keyword) and node.arg in KNOWN_INTERNALS:
            flag(node, f"{node.arg}=")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in KNOWN_INTERNALS:
            flag(node, repr(node.value))
        elif (index_module and isinstance(node, ast.keyword) and node.arg == "freeze_after"
              and not (isinstance(node.value, ast.Constant) and node.value.value is False)):
            flag(node, "gc_paused(freeze_after=...)")
    return found


def _modules() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def test_the_package_uses_only_the_public_api_of_its_libraries():
    found = []
    for path in _modules():
        relative = path.relative_to(PACKAGE.parent)
        found += violations(path.read_text(encoding="utf-8"), str(relative),
                            index_module=relative.parts[:2] == ("ruleslawyer", "index"))
    assert not found, "private internals of a dependency used:\n" + "\n".join(found)


@pytest.mark.parametrize("source, what", [
    ("from whoosh.writing import _finish", "from whoosh.writing import _finish"),
    ("import whoosh.codec._base", "import whoosh.codec._base"),
    ("from pdfplumber._typing import T_num", "from pdfplumber._typing import ..."),
    ("import whoosh\nwhoosh.codec._x", "whoosh.codec._x"),
    ("from whoosh import query as q\nq.Or._matcher", "q.Or._matcher"),
    ("from jinja2 import Environment\nEnvironment._load_template", "Environment._load_template"),
    ("w.writer._finalize_segment()", "._finalize_segment"),
    ("w.fieldwriter.add_postings = f", ".fieldwriter"),
    ("r._segment.doc_count()", "._segment"),
    ("classes = {'W3Segment': Stand}", "'W3Segment'"),
    ("SegmentWriter(ix, _lk=False)", "_lk="),
    ("import gc\ngc.freeze()", "gc.freeze"),
])
def test_the_check_finds_each_kind_of_use(source, what):
    found = violations(source, index_module=True)
    assert any(line.endswith(f": {what}") for line in found), found


def test_public_use_and_our_own_private_names_pass():
    source = ("from whoosh import query as q\nfrom whoosh.index import open_dir\n"
              "ix = open_dir('x')\nwith ix.searcher() as s:\n    s.search(q.Term('name', 'x'), limit=3)\n"
              "class Index:\n    def __init__(self):\n        self._vocab = {}\n"
              "import whoosh\nprint(whoosh.__version__)\n")
    assert violations(source, index_module=True) == []
