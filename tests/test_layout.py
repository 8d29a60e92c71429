"""The package layout keeps its promises: folders are stages, imports go one way, no private
names cross modules, and derived outputs notice code changes in every subfolder."""
from __future__ import annotations

import ast
from pathlib import Path

import ruleslawyer

PACKAGE = Path(ruleslawyer.__file__).resolve().parent
LATER_STAGES = ("amend", "library", "index", "site", "cards", "cli", "termview", "render")


def _modules() -> dict[str, Path]:
    out = {}
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = path
    return out


MODULES = _modules()


def _imports(name: str, path: Path):
    """(imported module, imported name or None) for every ruleslawyer import in a module."""
    is_pkg = path.name == "__init__.py"
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".") if is_pkg else name.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                yield (full, None) if full in MODULES else (target, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None


def _room(module: str) -> str:
    """A module's folder (a package is its own), or the module itself at the package root."""
    if (PACKAGE.parent / module.replace(".", "/")).is_dir():
        return module
    parts = module.split(".")
    return ".".join(parts[:-1]) if len(parts) > 2 else module


def _edges() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        for target, _ in _imports(name, path):
            while target and target not in MODULES:
                target = target.rpartition(".")[0]
            if not target.startswith("ruleslawyer.") or target == name:
                continue
            a, b = _room(name), _room(target)
            if a != b and not b.startswith(a + ".") and a != "ruleslawyer" and b != "ruleslawyer":
                edges.setdefault(a, set()).add(b)
    return edges


def test_no_import_cycle_between_folders():
    edges = _edges()

    def reaches(start: str, goal: str) -> bool:
        seen, todo = set(), [start]
        while todo:
            node = todo.pop()
            for nxt in edges.get(node, ()):
                if nxt == goal:
                    return True
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return False

    cycles = sorted(f"{a} <-> {b}" for a, bs in edges.items() for b in bs if reaches(b, a))
    assert not cycles, cycles


def test_no_private_names_cross_modules():
    crossing = [f"{name} <- {target}.{imported}" for name, path in MODULES.items()
                for target, imported in _imports(name, path)
                if imported and imported.startswith("_") and not imported.startswith("__") and target != name
                and target.startswith("ruleslawyer")]
    assert not crossing, crossing


def test_ingest_never_imports_a_later_stage():
    later = [f"{name} -> {target}" for name, path in MODULES.items() if name.startswith("ruleslawyer.ingest")
             for target, _ in _imports(name, path)
             if any(target == f"ruleslawyer.{s}" or target.startswith(f"ruleslawyer.{s}.") for s in LATER_STAGES)]
    assert not later, later


def test_the_library_never_imports_click():
    users = [name for name, path in MODULES.items() if not name.startswith("ruleslawyer.cli")
             and any(target == "click" or target.startswith("click.") for target, _ in _imports(name, path))]
    assert not users, users


def test_read_side_does_not_seed_the_example_corpus():
    """Whether a store gets the example corpus is the command line's decision."""
    for name in ("ruleslawyer.library.corpus", "ruleslawyer.index.search"):
        source = MODULES[name].read_text(encoding="utf-8")
        assert "ensure_corpus" not in source, name


def test_a_change_in_a_subfolder_triggers_reingest_and_site_rebuild(tmp_path, monkeypatch):
    from ruleslawyer.ingest import pipeline
    from ruleslawyer.site import codehash

    reader_before, site_before = pipeline.reader_version(), codehash.code_hash()
    parser = PACKAGE / "ingest" / "parse" / "tables.py"
    page_code = PACKAGE / "render" / "templates" / "partials" / "stratagem.html"
    real_read_bytes = Path.read_bytes

    def read_bytes(self):
        data = real_read_bytes(self)
        return data + b"\n# an edit" if self in (parser, page_code) else data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    pipeline.reader_version.cache_clear()
    try:
        assert pipeline.reader_version() != reader_before
        assert codehash.code_hash() != site_before
    finally:
        pipeline.reader_version.cache_clear()
