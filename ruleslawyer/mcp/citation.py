"""Where a record comes from, for an assistant to quote: a structured citation and its words.

    {"document": "Core Rules", "file": "core11_24_abilities.pdf", "page": 81, "edition": 11,
     "number": "24.12", "date": "2026-06-01", "version": null,
     "printing": {"chosen": "...", "why": "...", "others": [...]},
     "errata": [{"document": ..., "version": ..., "page": ..., "operation": ..., "location": ...}],
     "words": "Core Rules 11th ed., 24.12, p. 81"}
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from ..names import nth, version_label
from ..records import Record


def ordinal(edition: int | None) -> str | None:
    """"11th ed." for 11 (every edition ruleslawyer reads ends in "th")."""
    return f"{nth(edition)} ed." if edition else None


def cite(record: Record, ref, *, picked=None, edition_note: str | None = None) -> dict:
    """The citation of `record` read through `ref` (a reference.Reference).

    `picked` (library.pick.Picked) adds the printings and the other editions; without it the
    printings are looked up. `edition_note` says why this edition was chosen.
    """
    source = record.source
    stored = ref.stored_file(source, record.edition)
    document = getattr(record, "document", None) or (title_of(stored.title) if stored is not None else None) \
        or Path(source.file).stem
    date = source.date or (stored.date if stored is not None else None)
    version = getattr(record, "version", None) if record.kind in ("faq", "note", "errata", "points") else None
    version = version or source.version or (stored.version if stored is not None else None)
    printings = picked.printings if picked is not None else ref.printings_of(record)
    data = {
        "document": document,
        "file": source.file,
        "page": source.page,
        "edition": record.edition,
        "number": getattr(record, "number", None),
        "date": date,
        "version": version,
        "printing": printing(record, printings, picked, edition_note),
        "errata": [{"document": c.document, "version": c.version, "page": c.page, "operation": c.operation,
                    "location": c.location} for c in getattr(record, "changes", ()) or ()],
    }
    data["words"] = words(data)
    return data


@lru_cache(maxsize=4096)
def title_of(title: str | None) -> str | None:
    """A stored file's title as a document name: a PDF's first heading in capitals is set in
    title case."""
    if title and title.isupper():
        from ..names import title_case

        return title_case(title.casefold())
    return title or None


def printing(record: Record, printings, picked=None, edition_note: str | None = None) -> dict:
    """Which printing is shown and why: the only one, the preferred, the newest dated, ..."""
    others = [info.name for _, info in printings.others] if printings else []
    if printings:
        why = _why(printings.chosen_file, [info for _, info in printings.others])
    else:
        why = "the only printing in the store"
    other_editions = list(picked.other_editions) if picked is not None else []
    if other_editions:
        why += f"; newest edition in the store (also in edition {', '.join(map(str, other_editions))})"
    if edition_note:
        why += f"; {edition_note}"
    return {"chosen": record.source.file, "why": why, "others": others, "other_editions": other_editions}


def _why(chosen, others) -> str:
    """The first precedence rule (library.reconcile.rank) that set the chosen file above the
    best of the others."""
    best = max(others, key=lambda i: (i.preference, i.published is not None, i.date, i.structured))
    if chosen.preference != best.preference:
        return "the preferred file (ingest --prefer or ruleslawyer.toml)"
    if (chosen.published is not None) != (best.published is not None):
        return f"its document states its date ({chosen.published}); {best.name} does not"
    if chosen.date != best.date:
        dated = "dated" if chosen.published else "ingested"
        return f"the newest printing ({dated} {chosen.date}; {best.name} {best.date})"
    if chosen.structured != best.structured:
        return "a structured export beats a scraped page of the same date"
    return "the first ingested of printings with the same date"


def words(data: dict) -> str:
    """The citation in words: "Core Rules 11th ed., 24.12, p. 81 (v1.1, 2026-06-01); errata:
    Core FAQ v1.1 p. 3"."""
    parts = [" ".join(p for p in (data["document"], ordinal(data["edition"])) if p)]
    if data.get("number"):
        parts.append(str(data["number"]))
    if data.get("page"):
        parts.append(f"p. {data['page']}")
    if data["document"] != Path(data["file"]).stem:
        parts.append(data["file"])
    text = ", ".join(parts)
    dating = ", ".join(p for p in (version_label(data.get("version")), data.get("date")) if p)
    if dating:
        text += f" ({dating})"
    if data["errata"]:
        text += "; errata: " + ", ".join(
            " ".join(p for p in (e["document"] or "FAQ", version_label(e["version"]),
                                 f"p. {e['page']}" if e["page"] else None) if p) for e in data["errata"])
    return text
