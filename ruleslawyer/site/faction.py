"""A faction's page, read like a codex: each edition (the newest first) gives its datasheets by
role, each with its points and key line (M, T, Sv, W), then each detachment as one block (its
rule, its enhancements with cost and text, its stratagems with their full text), then the rest.

Legends datasheets and variants of a datasheet (the same name with a tag or a bracketed
addition, "Boyz (Armageddon)", printed beside the plain one) go in a group of their own, shown
collapsed. Roles come from the keywords a datasheet carries (EPIC HERO, CHARACTER, BATTLELINE,
DEDICATED TRANSPORT), else from the role its source gives (Wahapedia and BattleScribe give
battlefield roles), else from its unit-type keyword.
"""
from __future__ import annotations

import functools
import re
from collections import defaultdict
from typing import Any, Callable, Iterable

from ..library.reconcile import identity
from ..names import title_case
from ..records import Datasheet, DetachmentRule, Enhancement, Record, Stratagem, record_name
from .search_index import fold

# Keyword roles, in the order a codex lists them; the first a datasheet carries is its role.
KEYWORD_ROLES = (("EPIC HERO", "Epic Hero"), ("CHARACTER", "Character"), ("BATTLELINE", "Battleline"),
                 ("DEDICATED TRANSPORT", "Dedicated Transport"))
# Unit types, for a datasheet without a keyword role or a role from its source.
TYPE_KEYWORDS = ("MONSTER", "VEHICLE", "MOUNTED", "BEAST", "SWARM", "FORTIFICATION", "INFANTRY")
OTHER_ROLE = "Other datasheets"
_NO_ROLE = frozenset({"other", "other datasheets", "none"})  # a source's role that says nothing
VARIANTS = "Legends and variants"
KEY_STATS = ("M", "T", "Sv", "W")
DETACHMENT_KINDS = ("detachment_rule", "enhancement", "stratagem")
_TAG = re.compile(r"\s*(?:\[[^\]]*\]|\([^)]*\))\s*$")  # "Boyz (Armageddon)", "Anrakyr [Legends]"
PHASES = ("command", "movement", "psychic", "shooting", "charge", "fight", "morale")


def datasheet_role(r: Datasheet) -> str:
    """The group of a faction page `r` is listed under (see the module docstring)."""
    keywords = {k.upper() for k in r.keywords}
    for kw, role in KEYWORD_ROLES:
        if kw in keywords:
            return role
    if r.role and fold(r.role) not in _NO_ROLE:
        return title_case(r.role)
    for kw in TYPE_KEYWORDS:
        if kw in keywords:
            return title_case(kw)
    return OTHER_ROLE


def is_legends(r: Record) -> bool:
    """True for a record its source marks as Legends (name tag, keyword or file name)."""
    words = [record_name(r), r.source.file or "", *getattr(r, "keywords", ())]
    return any("legends" in fold(w).split() for w in words)


def key_line(r: Datasheet) -> str:
    """'M 6" · T 5 · Sv 4+ · W 6' from the first profile that gives them ('' when none does)."""
    for profile in r.profiles:
        stats = {k.casefold(): v for k, v in (profile.stats or {}).items()}
        found = [(name, stats.get(name.casefold())) for name in KEY_STATS]
        if any(v for _, v in found):
            return " \u00b7 ".join(f"{name} {v}" for name, v in found if v)
    return ""


def costs_line(costs: Iterable[Any]) -> str:
    """Unit costs on one short line: "5: 65 · 10: 130 pts", tiers after a semicolon
    ("10: 75 · 20: 160; 4th+: 85 · 170 pts"); '' without a priced size."""
    tiers: dict[str | None, list] = {}
    for c in costs:
        if c.points is not None:
            tiers.setdefault(c.tier, []).append(c)
    parts = []
    for n, (tier, group) in enumerate(tiers.items()):
        if len(group) == 1 and not n and len(tiers) == 1:
            parts.append(f"{group[0].points}")
            continue
        sizes = " \u00b7 ".join(f"{c.points}" if n else f"{c.models}: {c.points}" for c in group)
        parts.append(f"{tier}: {sizes}" if tier and n else sizes)
    return "; ".join(parts) + " pts" if parts else ""


def faction_sections(items: list, points: dict[tuple, Any], row: Callable[[Any], dict[str, Any]],
                     kind_order: tuple[str, ...]) -> list[dict]:
    """One section per edition of a faction's entries (newest first), for faction.html.

    `items` are the faction's site entries (record and URL), `points` the current points by
    record identity (`gather.current_points`), `row(entry)` a list row (name, url, meta, ...),
    `kind_order` the order of the other kinds' lists.
    """
    by_edition: dict[int, list] = defaultdict(list)
    for e in items:
        by_edition[e.record.edition or 0].append(e)
    sections = []
    for n, edition in enumerate(sorted(by_edition, reverse=True)):
        entries = by_edition[edition]
        suffix = "" if n == 0 else f"-{edition}"  # the newest edition keeps the plain ids
        sections.append({
            "label": f"{edition}th edition" if edition else "Edition not stated",
            "anchor": f"ed{edition}" if edition else "ed-none",
            "current": n == 0,
            "suffix": suffix,
            "roles": _datasheet_groups([e for e in entries if e.record.kind == "datasheet"], points, row),
            "detachments": _detachments([e for e in entries if e.record.kind in DETACHMENT_KINDS], points, row),
            "others": _other_kinds([e for e in entries if e.record.kind not in ("datasheet", *DETACHMENT_KINDS)],
                                   row, kind_order),
        })
    return sections


def _datasheet_groups(entries: list, points: dict[tuple, Any], row) -> list[tuple[str, list[dict]]]:
    """(role, rows) in codex order, Legends and variants last."""
    plain = {fold(record_name(e.record)) for e in entries}
    groups: dict[str, list[dict]] = defaultdict(list)
    for e in entries:
        r: Datasheet = e.record
        base = _TAG.sub("", record_name(r))
        variant = base != record_name(r) and fold(base) in plain
        found = points.get(identity(r))
        costs = costs_line(found.costs if found is not None and found.costs else (r.points or ()))
        item = dict(row(e), points=costs, stats=key_line(r))
        groups[VARIANTS if variant or is_legends(r) else datasheet_role(r)].append(item)
    known = [role for _, role in KEYWORD_ROLES]
    order = sorted(groups, key=lambda g: (g == VARIANTS, g == OTHER_ROLE,
                                          known.index(g) if g in known else len(known), fold(g)))
    return [(g, groups[g]) for g in order]


def _detachments(entries: list, points: dict[tuple, Any], row) -> list[dict[str, Any]]:
    """One block per detachment (a record's `group`), in name order; records of no detachment
    make a last block with no name."""
    blocks: dict[str, dict[str, Any]] = {}
    for e in entries:
        r = e.record
        name = getattr(r, "group", None) or ""
        block = blocks.setdefault(name, {"name": name, "rules": [], "enhancements": [], "stratagems": [],
                                         "dp": None, "disposition": None})
        found = points.get(identity(r))
        if isinstance(r, DetachmentRule):
            block["rules"].append({"row": row(e), "text": r.text})
            block["dp"] = block["dp"] or r.detachment_points or (found.detachment_points if found else None)
            block["disposition"] = block["disposition"] or r.force_disposition
        elif isinstance(r, Enhancement):
            cost = r.points
            if cost is None and found is not None:
                cost = next((c.points for c in found.wargear_costs if fold(c.name) == fold(r.name)), None)
            block["enhancements"].append({"row": row(e), "cost": cost, "text": r.text,
                                          "restriction": r.restriction, "upgrade": r.upgrade})
        elif isinstance(r, Stratagem):
            block["stratagems"].append({"row": row(e), "record": r, "phases": " ".join(stratagem_phases(r.when)),
                                        "category": r.category or "", "cp": "" if r.cp is None else str(r.cp)})
    return [blocks[k] for k in sorted(blocks, key=lambda k: (k == "", fold(k)))]


def _other_kinds(entries: list, row, kind_order: tuple[str, ...]) -> list[tuple[str, list[dict]]]:
    """Army rules, notes, FAQs and tables of the faction: (kind, rows)."""
    by_kind: dict[str, list[dict]] = defaultdict(list)
    for e in entries:
        by_kind[e.record.kind].append(row(e))
    return [(k, by_kind[k]) for k in kind_order if by_kind.get(k)]


_PHASE_WORDS = tuple((p, re.compile(rf"\b{p}\b")) for p in PHASES)
_ANY_PHASE = re.compile(r"\bany phase\b|\bany\b.*\bphase\b")


@functools.lru_cache(maxsize=4096)
def stratagem_phases(when: str | None) -> tuple[str, ...]:
    """The phases a stratagem's WHEN names ("any" for "any phase"), for the page's phase filter;
    memoised (few distinct texts over thousands of stratagems)."""
    text = (when or "").lower()
    found = tuple(p for p, word in _PHASE_WORDS if word.search(text))
    if not found and _ANY_PHASE.search(text):
        return ("any",)
    return found
