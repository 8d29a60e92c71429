"""What each MCP tool returns, without the SDK: `(data, text)` where `data` is the structured
result (every record in it carries its `citation`) and `text` the same in words, ending with
the citation in words. `server.py` wraps these for the SDK; the benchmark calls them too.

Arguments are bounded here (query length, result counts, list size); bad arguments and library
errors raise RuleslawyerError, which the server turns into a one-line tool error.
"""
from __future__ import annotations

from ..errors import NotFoundError, QueryError
from ..records import Record, record_name
from ..records_json import to_dict
from .answer import rank, touching
from .citation import cite
from .passages import PASSAGE_CHARS

MAX_QUERY_CHARS = 500
MAX_LIMIT = 25
MAX_LIST = 50  # records in one points/errata/conflicts/rule answer
MAX_STRATAGEMS = 25  # stratagems are long: an assistant narrows by detachment or phase
MAX_TEXT_CHARS = 12_000
MAX_LIST_TEXT = 200_000  # a pasted army list (a real one is a few KB)
TextResult = tuple[dict, str]


def bounded(text: str, what: str, limit: int = MAX_QUERY_CHARS) -> str:
    """`text` stripped, refused when empty or longer than `limit` characters."""
    text = (text or "").strip()
    if not text:
        raise QueryError(f"give a {what}")
    if len(text) > limit:
        raise QueryError(f"the {what} is {len(text)} characters long; at most {limit}")
    return text


def _limit(limit: int | None, default: int, most: int = MAX_LIMIT) -> int:
    if limit is None:
        return default
    if limit < 1 or limit > most:
        raise QueryError(f"limit must be between 1 and {most} (got {limit})")
    return limit


def _summary(record: Record) -> dict:
    """The fields that say which record this is."""
    return {k: v for k, v in (("kind", record.kind), ("name", record_name(record)),
                              ("faction", getattr(record, "faction", None)), ("group", getattr(record, "group", None)),
                              ("edition", record.edition)) if v is not None}


def _clip(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    return text if len(text) <= limit else text[:limit].rsplit("\n", 1)[0] + "\n[... cut: ask `show` for one record]"


def _cited_lines(items: list[tuple[str, dict]], limit: int = MAX_TEXT_CHARS) -> str:
    """One block per item: its line(s), then "Source: <citation in words>"; whole blocks only,
    as many as fit in `limit` characters (the structured result has them all)."""
    blocks: list[str] = []
    size = 0
    for line, c in items:
        block = f"{line}\nSource: {c['words']}"
        if blocks and size + len(block) > limit:
            break
        blocks.append(block)
        size += len(block) + 2
    return "\n\n".join(blocks)


# ---------------------------------------------------------------- tools
def search_tool(ref, query: str, kind=None, faction=None, edition=None, limit=None) -> TextResult:
    """Ranked records with snippets (index search, errata applied)."""
    query = bounded(query, "query")
    ref.check_faction(faction)
    result = ref.search(query, kind=kind, faction=faction, edition=edition, limit=_limit(limit, 10))
    hits = []
    for h in result.hits:
        record = h.record
        hits.append({**_summary(record), "score": round(h.score, 3), "snippet": h.snippet,
                     "citation": cite(record, ref)})
    data = {"query": query, "corrected": result.corrected, "hits": hits, "suggestions": result.suggestions}
    if not hits:
        tips = "; ".join(result.suggestions) or "fewer or other words"
        return data, f"No results for {query!r}. Try: {tips}"
    head = f"Showing results for: {result.corrected}\n\n" if result.corrected else ""
    return data, head + _cited_lines([(f"[{h['kind']}] {h['name']} — {h['snippet']}", h["citation"]) for h in hits])


def show_tool(ref, name: str, kind=None, faction=None, edition=None) -> TextResult:
    """One record in full, errata applied, with its other printings and editions."""
    from ..termview import format_printings, format_record

    name = bounded(name, "name")
    picked = ref.pick(name, kind=kind, faction=faction, edition=edition)
    record = picked.record
    note = f"edition {edition} asked for" if edition else None
    citation = cite(record, ref, picked=picked, edition_note=note)
    data = {"record": to_dict(record, include_changes=True), "citation": citation}
    if picked.points is not None:
        data["current_points"] = {"text": ref.points_line(picked.points), "citation": cite(picked.points, ref)}
    lines = [format_record(record, 100)]
    lines += [line.replace(" (choose one with --source FILE)", "").replace(" (show one with --edition N)", "")
              for line in format_printings(picked.printings, picked.other_editions, record, picked.points)]
    return data, _clip("\n".join(lines)) + f"\nCitation: {citation['words']}"


def rule_tool(ref, number: str) -> TextResult:
    """The rule (or core stratagem) printed with this number, newest edition first."""
    from ..termview import format_record

    number = bounded(number, "rule number", 20)
    found = ref.by_number(number)
    if not found:
        raise NotFoundError(f"no rule numbered {number!r}", hint="rule numbers look like 24.12 (11th edition)")
    items = [(record, cite(record, ref)) for record in found[:MAX_LIST]]
    data = {"number": number, "rules": [{**_summary(r), "text": getattr(r, "text", None) or getattr(r, "effect", None),
                                         "citation": c} for r, c in items]}
    return data, _cited_lines([(format_record(r, 100), c) for r, c in items])


def stratagems_tool(ref, faction=None, detachment=None, phase=None, edition=None) -> TextResult:
    """Stratagems by faction, detachment, phase and edition."""
    found = ref.stratagems(faction=faction, group=detachment, phase=phase, edition=edition)
    shown = found[:MAX_STRATAGEMS]
    items = [(s, cite(s, ref)) for s in shown]
    data = {"count": len(found), "truncated": len(found) > len(shown),
            "stratagems": [{**_summary(s), "cp": s.cp, "category": s.category, "when": s.when, "target": s.target,
                            "effect": s.effect, "restrictions": s.restrictions, "citation": c} for s, c in items]}
    if not found:
        return data, "No stratagem matches these filters."
    lines = [(f"{s.name} ({s.cp if s.cp is not None else '?'} CP{', ' + s.group if s.group else ''}) — "
              + " ".join(f"{k.upper()}: {v}" for k, v in (("when", s.when), ("target", s.target), ("effect", s.effect),
                                                         ("restrictions", s.restrictions)) if v), c) for s, c in items]
    # Said first, so that the text still ends with a citation.
    more = (f"{len(found)} stratagems match; the first {len(shown)} follow (narrow with faction, detachment, "
            "phase or edition)\n\n" if data["truncated"] else "")
    return data, more + _cited_lines(lines)


def points_tool(ref, unit: str, faction=None) -> TextResult:
    """The current points of a unit (or detachment) and the points list they come from."""
    unit = bounded(unit, "unit name")
    found = ref.points(unit, faction)[:MAX_LIST]
    items = [(p, cite(p, ref)) for p in found]
    data = {"points": [{**_summary(p), "version": p.version, "target_kind": p.target_kind,
                        "text": ref.points_line(p), "citation": c} for p, c in items]}
    return data, _cited_lines([(f"{p.faction or ''} | {ref.points_line(p)}" + (f" (v{p.version})" if p.version else ""), c)
                               for p, c in items])


def errata_tool(ref, name: str) -> TextResult:
    """Every FAQ/errata entry about a record (by the record's name), and what became of it."""
    from ..names import fold

    name = bounded(name, "name")
    want = fold(name)
    chosen = [o for o in ref.outcomes() if want in fold(o.target_name or "") or want in fold(o.erratum.target or "")
              or want in fold(o.erratum.title or "")][:MAX_LIST]
    if not chosen:
        raise NotFoundError(f"no errata entry about {name!r}", hint="the `show` tool says which errata a record carries")
    items = []
    for o in chosen:
        e = o.erratum
        c = cite(e, ref)
        status = f"applied to {o.target_name}" if o.applied else f"not applied: {o.reason}"
        items.append(({"target": e.target, "operation": e.operation, "location": e.location, "text": e.text,
                       "applied": o.applied, "applied_to": o.target_name, "reason": o.reason, "citation": c},
                      f"{e.target or e.title} [{e.operation}] {status}\n{e.text}".rstrip()))
    return {"errata": [d for d, _ in items]}, _cited_lines([(t, d["citation"]) for d, t in items])


def conflicts_tool(ref, name: str) -> TextResult:
    """Where the printings of a record disagree (which file says what)."""
    from ..names import fold

    name = bounded(name, "name")
    want = fold(name)
    found = [c for c in ref.conflicts() if want in fold(c.name)][:MAX_LIST]
    data = {"conflicts": [c.to_json() for c in found]}
    if not found:
        return data, f"The printings of {name!r} agree (or only one file prints it)."
    lines = []
    for c in found:
        lines.append(f"{c.name} ({c.kind}, {c.faction or 'no faction'}, edition {c.edition}): uses {c.chosen_file}")
        for d in c.differences[:8]:
            lines.append(f"  {d.field}: " + "; ".join(f"{v} in {f}" for f, v in d.values))
    return data, _clip("\n".join(lines))


def check_list_tool(ref, text: str) -> TextResult:
    """An army list pasted as text, checked as `ruleslawyer list check --json` checks a file."""
    text = bounded(text, "army list", MAX_LIST_TEXT)
    data = ref.check_list_text(text)
    resolved = sum(1 for u in data["units"] if u["resolved"])
    lines = [f"{len(data['units'])} units, {resolved} resolved; {data['points_total']} points"
             + (f" (the list says {data['points_listed']})" if data["points_listed"] is not None else "")]
    if data.get("points_current") is not None:
        lines.append(f"At the current points: {data['points_current']}")
    lines += [f"  {'ok' if u['resolved'] else '??'} {u['name']} -> {u['datasheet'] or 'NOT FOUND'}" for u in data["units"]]
    lines += [f"  [{p['kind']}] {p['message']}" for p in data["problems"]]
    return data, _clip("\n".join(lines))


def answer_tool(ref, question: str, limit=None) -> TextResult:
    """The passages that answer a natural question, with the FAQ entries and errata about them."""
    question = bounded(question, "question")
    ranked = rank(ref, question, _limit(limit, 3, 5))
    results, blocks = [], []
    for c in ranked:
        citation = cite(c.record, ref)
        faqs = [{"question": record_name(f), "answer": getattr(f, "answer", None) or getattr(f, "text", ""),
                 "citation": cite(f, ref)} for f in touching(ref, c.record)]
        results.append({**_summary(c.record), "part": c.label, "passage": c.passage[:PASSAGE_CHARS + 8],
                        "faqs": faqs, "errata": citation["errata"], "citation": citation})
        block = f"{record_name(c.record)} ({c.record.kind}{', ' + c.label if c.label else ''}):\n{c.passage}"
        for f in faqs:
            block += f"\n  FAQ: {f['question']} — {f['answer']} (Source: {f['citation']['words']})"
        blocks.append((block, citation))
    return {"question": question, "results": results}, _cited_lines(blocks)
