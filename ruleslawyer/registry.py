"""Registries of formats and commands, as entry points a plugin package can join.

ruleslawyer's own loaders, family parsers, structured sources, army-list formats and commands
are declared in its `pyproject.toml` under these groups; a plugin declares more under the same
groups in its own, and they are found once both are installed:

    [project.entry-points."ruleslawyer.lists"]
    "50-mylist" = "my_plugin.lists:MY_FORMAT"

Nothing is imported until it is used (`Entry.load`), so a command that never reads a PDF never
imports pdfplumber. Where order matters (parsers, sources and list formats are tried in turn),
entries run in the order of their names, hence the number each name starts with.

The entry points are read with `importlib.metadata`, and the table found is kept in a small
file beside this module's bytecode (`__pycache__`), with the modification time of every
`sys.path` folder it was found under (as stevedore keeps its entry-point cache). Installing or
removing a package changes its folder's time, so the table is read again; while nothing
changed, a command starts without importing `importlib.metadata` (about 12 ms of `search`).
"""
from __future__ import annotations

import functools
import json
import os
import sys
from importlib import import_module
from pathlib import Path
from typing import Any

LOADERS = "ruleslawyer.loaders"  # format name -> load(data: bytes, origin) -> Document
PARSERS = "ruleslawyer.parsers"  # ordered: parse(doc, ctx) -> Iterable[Record]
SOURCES = "ruleslawyer.sources"  # ordered: detect(path) -> StructuredSource | None
LISTS = "ruleslawyer.lists"      # ordered: an object with looks_like(text) and parse(text) -> ArmyList
COMMANDS = "ruleslawyer.commands"  # command name -> a click command
GROUPS = (LOADERS, PARSERS, SOURCES, LISTS, COMMANDS)

CACHE_FILE = Path(__file__).resolve().parent / "__pycache__" / "entry_points.json"
KEPT_ENVIRONMENTS = 4


class RegistryError(RuntimeError):
    """A registry is empty: the package's own metadata is missing (it was not installed)."""


class Entry(tuple):
    """One entry point, (name, value): `value` is "module:attribute" (the attribute may be dotted).
    A plain tuple subclass: this module is imported by every command, so it stays cheap."""

    __slots__ = ()

    def __new__(cls, name: str, value: str) -> "Entry":
        return super().__new__(cls, (name, value))

    @property
    def name(self) -> str:
        return self[0]

    @property
    def value(self) -> str:
        return self[1]

    def load(self) -> Any:
        """The object the entry names, its module imported now."""
        module, _, attribute = self.value.partition(":")
        found = import_module(module.strip())
        for part in filter(None, attribute.strip().split(".")):
            found = getattr(found, part)
        return found


def entries(group: str) -> tuple[Entry, ...]:
    """Every entry point of `group` from every installed distribution, ordered by name
    (the first of two with the same name wins, ruleslawyer's own first)."""
    found = _table().get(group, ())
    if not found and group != COMMANDS:
        raise RegistryError(f"no {group} entry points: install ruleslawyer (pip install -e .) so its "
                            "registries are known")
    return found


def load_all(group: str) -> list[Any]:
    """The objects of every entry of `group`, in order, imported now."""
    return [entry.load() for entry in entries(group)]


def load_named(group: str, name: str) -> Any | None:
    """The object registered under `name` in `group`, or None."""
    for entry in _table().get(group, ()):
        if entry.name == name:
            return entry.load()
    return None


def names(group: str) -> list[str]:
    """The names registered in `group`, in order (nothing is imported)."""
    return [entry.name for entry in entries(group)]


def clear_cache() -> None:
    """Forget what was found in this process (a test that puts a plugin on sys.path calls this;
    the file beside the bytecode is checked against sys.path again on the next use)."""
    _table.cache_clear()


@functools.lru_cache(maxsize=1)
def _table() -> dict[str, tuple[Entry, ...]]:
    """group -> its entries: from the cache file while sys.path is as it was, else from the
    installed packages' metadata (and the file is written again)."""
    key = _environment_key()
    kept = _read_cache()
    for table in kept:
        if table.get("key") == key:
            try:
                return {group: tuple(Entry(*pair) for pair in pairs) for group, pairs in table["groups"].items()}
            except TypeError:  # not a table this version wrote: read the metadata
                break
    found = _read_metadata()
    groups = {group: [list(entry) for entry in entries] for group, entries in found.items()}
    # A few environments are kept (a console script and `python -m` see different sys.paths).
    _write_cache([{"key": key, "groups": groups}, *kept][:KEPT_ENVIRONMENTS])
    return found


def _environment_key() -> list:
    """What the table depends on: this interpreter, and every sys.path folder with its time."""
    def mtime(folder: str) -> int | None:
        try:
            return os.stat(folder or ".").st_mtime_ns
        except OSError:
            return None

    return [sys.executable, sys.version, [[folder, mtime(folder)] for folder in sys.path]]


def _read_metadata() -> dict[str, tuple[Entry, ...]]:
    from importlib import metadata

    try:
        own = [ep for ep in metadata.distribution("ruleslawyer").entry_points if ep.group in GROUPS]
    except metadata.PackageNotFoundError:
        own = []
    table = {}
    for group in GROUPS:
        mine = [Entry(ep.name, ep.value) for ep in own if ep.group == group]
        taken = {entry.name for entry in mine}
        others = [Entry(ep.name, ep.value) for ep in metadata.entry_points(group=group) if ep.name not in taken]
        table[group] = tuple(sorted((*mine, *others), key=lambda entry: entry.name))
    return table


def _read_cache() -> list[dict]:
    try:
        kept = json.loads(CACHE_FILE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []  # no file yet, or a damaged one: the metadata is read
    return [t for t in kept if isinstance(t, dict) and isinstance(t.get("groups"), dict)] \
        if isinstance(kept, list) else []


def _write_cache(tables: list[dict]) -> None:
    """Keep `tables` for the next process; a folder that cannot be written only costs speed."""
    if sys.dont_write_bytecode:  # asked not to write beside the code
        return
    temporary = CACHE_FILE.with_name(f"{CACHE_FILE.name}.{os.getpid()}.tmp")
    try:
        CACHE_FILE.parent.mkdir(exist_ok=True)
        temporary.write_text(json.dumps(tables), encoding="utf-8")
        os.replace(temporary, CACHE_FILE)  # atomic: a concurrent reader sees the old or the new
    except OSError:
        temporary.unlink(missing_ok=True)
