"""Registries of formats and commands, as entry points a plugin package can join.

ruleslawyer's own loaders, family parsers, structured sources, army-list formats and commands
are declared in its `pyproject.toml` under these groups; a plugin declares more under the same
groups in its own, and they are found once both are installed:

    [project.entry-points."ruleslawyer.lists"]
    "50-mylist" = "my_plugin.lists:MY_FORMAT"

Nothing is imported until it is used (`load`), so a command that never reads a PDF never
imports pdfplumber. Where order matters (parsers, sources and list formats are tried in turn),
entries run in the order of their names, hence the number each name starts with.
"""
from __future__ import annotations

import functools
from importlib import metadata
from typing import Any

LOADERS = "ruleslawyer.loaders"  # format name -> load(data: bytes, origin) -> Document
PARSERS = "ruleslawyer.parsers"  # ordered: parse(doc, ctx) -> Iterable[Record]
SOURCES = "ruleslawyer.sources"  # ordered: detect(path) -> StructuredSource | None
LISTS = "ruleslawyer.lists"      # ordered: an object with looks_like(text) and parse(text) -> ArmyList
COMMANDS = "ruleslawyer.commands"  # command name -> a click command
GROUPS = (LOADERS, PARSERS, SOURCES, LISTS, COMMANDS)


class RegistryError(RuntimeError):
    """A registry is empty: the package's own metadata is missing (it was not installed)."""


@functools.lru_cache(maxsize=None)
def entries(group: str) -> tuple[metadata.EntryPoint, ...]:
    """Every entry point of `group` from every installed distribution, ordered by name
    (the first of two with the same name wins, ruleslawyer's own first)."""
    own = _own_entries(group)
    names = {ep.name for ep in own}
    others = [ep for ep in metadata.entry_points(group=group) if ep.name not in names]
    found = sorted((*own, *others), key=lambda ep: ep.name)
    if not found and group != COMMANDS:
        raise RegistryError(f"no {group} entry points: install ruleslawyer (pip install -e .) so its "
                            "registries are known")
    return tuple(found)


@functools.lru_cache(maxsize=None)
def _own_entries(group: str) -> tuple[metadata.EntryPoint, ...]:
    """ruleslawyer's own entries of `group`, read from its own metadata only (no scan of every
    installed package: a command looked up by name stays fast)."""
    try:
        return tuple(ep for ep in metadata.distribution("ruleslawyer").entry_points if ep.group == group)
    except metadata.PackageNotFoundError:
        return ()


def load_all(group: str) -> list[Any]:
    """The objects of every entry of `group`, in order, imported now."""
    return [ep.load() for ep in entries(group)]


def load_named(group: str, name: str) -> Any | None:
    """The object registered under `name` in `group` (ruleslawyer's own looked up first, without
    scanning other packages), or None."""
    for ep in _own_entries(group):
        if ep.name == name:
            return ep.load()
    for ep in entries(group):
        if ep.name == name:
            return ep.load()
    return None


def names(group: str) -> list[str]:
    """The names registered in `group`, in order (nothing is imported)."""
    return [ep.name for ep in entries(group)]


def clear_cache() -> None:
    """Forget what was found (a test that installs a plugin on sys.path calls this)."""
    entries.cache_clear()
    _own_entries.cache_clear()
