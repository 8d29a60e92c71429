"""Run a search and print its hits: the work of `ruleslawyer search` (`search.py`)."""
from __future__ import annotations

import json
import sys

from .context import echo, style


def run_search(app, query: tuple[str, ...], *, kind=None, faction=None, edition=None, limit: int = 10,
               as_json: bool = False, as_of: str | None = None) -> int:
    """Search the store of `app` (a context.AppContext) and print the hits; returns the exit
    status (1 when nothing matched). Library errors are raised for the caller to report."""
    from ..index.search import search_db
    from .progress import index_progress

    app.ensure_seeded()
    if faction:  # a mistyped faction is an error with suggestions, not "no results"
        from ..library.factions import check_faction

        check_faction(app.db, faction)
    with index_progress() as progress:
        # frozen at a date: ask for more, then leave out what was published after it
        result = search_db(app.db, " ".join(query), kind=kind, faction=faction, edition=edition,
                           limit=limit * 4 if as_of else limit, progress=progress, notice=notice, as_of=as_of)
    note = None
    if as_of:  # each hit as the reference of that date has it: an older printing, or left out
        from ..index.search import as_printing
        from ..library.corpus import as_of_printings, file_infos, open_store

        with open_store(app.db, read_only=True) as store:
            frozen = as_of_printings(store, [h.data for h in result.hits], as_of)
            dates = {info.name: info.published for info in file_infos(store).values()}
        result.hits = [h if data is h.data else as_printing(h, data, result.query,
                                                            dates.get((data.get("source") or {}).get("file")))
                       for h, data in zip(result.hits, frozen) if data is not None][:limit]
        note = f"As of {as_of}: only documents published on or before that date"
    if as_json:
        echo(json.dumps({"query": result.query, "corrected": result.corrected, "as_of": note,
                         "hits": [h.to_json() for h in result.hits]}, ensure_ascii=False, indent=2))
    else:
        if note:
            echo(note)
        color = sys.stdout.isatty()
        if result.corrected:
            echo(f"Showing results for: {result.corrected}")
        for hit in result.hits:
            echo(f"{_label(hit, color)} {_highlight(hit.snippet, hit.highlights, color)}")
    if not result.hits:
        tips = "; ".join(result.suggestions) or "fewer or other words"
        echo(f"No results for {result.query!r}. Try: {tips}", err=True)
        return 1
    return 0


def notice(line: str) -> None:
    """One line on stderr about index work (a damaged index rebuilt)."""
    echo(f"Notice: {line}", err=True)


def edition_label(edition) -> str:
    """ "11th ed." (the editions of the game's rules are 4th to 11th); "no edition" for a record
    that names none."""
    from ..names import nth

    return f"{nth(edition)} ed." if isinstance(edition, int) else "no edition"


def source_label(hit) -> str:
    """Where a hit was printed: "core11_03_Moving.pdf (2026-06-08)", the date when known, and
    "superseded by World Eaters v1.1" for an FAQ entry or erratum a newer version replaced."""
    where = " ".join(p for p in (hit.file, hit.date and f"({hit.date})") if p)
    return "; ".join(p for p in (where, hit.superseded_by and f"superseded by {hit.superseded_by}") if p)


def _label(hit, color: bool) -> str:
    d = hit.data
    faction = d.get("faction")
    if faction and hit.name.endswith(faction):  # "Base Sizes: Orks" says its faction already
        faction = None
    where = " / ".join(p for p in (faction, d.get("group") or d.get("document")) if p)
    source = source_label(hit)
    parts = [f"[{hit.kind}]", style(hit.name, bold=True) if color else hit.name, where, edition_label(hit.edition),
             source and f"· {source}"]
    return " ".join(p for p in parts if p) + " —"


def _highlight(snippet: str, spans: list[tuple[int, int]], color: bool) -> str:
    if not color:
        return snippet
    out, pos = [], 0
    for start, end in spans:
        out += [snippet[pos:start], style(snippet[start:end], fg="yellow", bold=True)]
        pos = end
    return "".join(out) + snippet[pos:]
