"""Base-size lists (tournament companions) read as one `table` per faction, in every layout a
text extraction prints them in; the real companion's answers are read from the file itself."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.load.text import load_text
from ruleslawyer.ingest.parse.base_sizes import COLUMNS, ROW_HEADER, split_row
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
from ruleslawyer.names import title_case
from ruleslawyer.records import RefTable

from .conftest import shared_file

COMPANION = "realdata/nov26/tournament10_chapter_approved_companion_v1.2_extracted.md"

# Units and sizes the synthetic samples are written from (made-up names: no real list).
ORKISH = [("Stompa Boyz", "32mm"), ("Big Grot Tank", "Hull"), ("Zoomy Kopta", "75x42mm Oval Base"),
          ("Weirdboy: Minder", "28.5mm"), ("Fly Grotz", "Large Flying Base"), ("Gargant", "Unique")]
ELVISH = [("Spirit Host", "40mm"), ("Sky Sled", "Small Flying Base"), ("Grav Walker", "60mm"),
          ("Star Hawk", "120x92mm Oval Base")]


def _parse(text: str, edition: int | None = None) -> tuple[list, list[str]]:
    data = text.encode()
    doc = load_text(data, DocumentOrigin("mem.md", "mem.md", "markdown", "0" * 64, len(data)))
    ctx = ParseContext(doc=doc, edition=edition if edition is not None else guess_edition(doc))
    return parse_document(doc, ctx), ctx.warnings


def _tables(records) -> dict[str, RefTable]:
    return {r.name: r for r in records if isinstance(r, RefTable) and r.name.startswith("Base Sizes: ")}


def _rows(table: RefTable) -> list[tuple[str, str]]:
    return [(r.label, *r.cells) for r in table.rows]


def _page(faction: str, rows, layout: str, number: int) -> str:
    """One printed page of a base-size list in `layout`, its page number at the foot."""
    lines = [f"## {faction}", ""] if faction else []
    if layout == "pipes":
        lines += ["UNIT | BASE SIZE", ""] + [f"{u} | {s}\n" for u, s in rows]
    elif layout == "columns":
        lines += ["UNIT" + " " * 70 + "BASE SIZE", ""] + [f"{u.ljust(74)}{s}" for u, s in rows]
    elif layout == "alternating":
        lines += ["UNIT", "BASE SIZE", ""] + [f"{u}\n{s}\n" for u, s in rows]
    elif layout == "headings":
        lines += ["UNIT       BASE SIZE", ""] + [f"## {u}\n{s}\n" for u, s in rows]
    elif layout == "single space":
        lines += ["UNIT", "BASE SIZE", ""] + [f"{u} {s}\n" for u, s in rows]
    elif layout == "continued":
        lines += ["## UNIT    BASE SIZE", ""] + [f"{u}    {s}  " for u, s in rows]
    elif layout == "markdown table":
        lines += ["| UNIT | BASE SIZE |", "|---|---|"] + [f"| {u} | {s} |" for u, s in rows]
    return "\n".join(lines + ["", str(number), "", "---", ""])


INTRO = "# TOURNAMENT COMPANION\n\nOrganisers should check that every model is on the base it was sold with.\n\n---\n\n"


@pytest.mark.parametrize("layout", ["pipes", "columns", "alternating", "headings", "single space", "markdown table"])
def test_each_layout_reads_as_one_table_per_faction(layout):
    text = INTRO + _page("ORKISH HORDES", ORKISH, layout, 12) + _page("SPACE ELVES", ELVISH, layout, 13)
    records, warnings = _parse(text, edition=10)
    tables = _tables(records)
    assert set(tables) == {f"Base Sizes: {title_case('ORKISH HORDES')}", f"Base Sizes: {title_case('SPACE ELVES')}"}
    orks = tables["Base Sizes: Orkish Hordes"]
    assert _rows(orks) == ORKISH  # every row, in printed order
    assert _rows(tables["Base Sizes: Space Elves"]) == ELVISH
    assert (orks.row_header, orks.columns, orks.edition) == (ROW_HEADER, COLUMNS, 10)
    assert orks.source.file == "mem.md"
    assert warnings == []


def test_a_page_with_only_the_header_continues_the_previous_faction():
    text = INTRO + _page("ORKISH HORDES", ORKISH[:3], "columns", 20) + _page("", ORKISH[3:], "continued", 21)
    records, warnings = _parse(text)
    assert _rows(_tables(records)["Base Sizes: Orkish Hordes"]) == ORKISH
    assert warnings == []


def test_a_continuation_after_a_missing_page_is_left_out_with_a_warning():
    # Page 21 is not in the file: the list on page 22 may be another faction's.
    text = INTRO + _page("ORKISH HORDES", ORKISH[:3], "columns", 20) + _page("", ELVISH, "continued", 22)
    records, warnings = _parse(text)
    assert _rows(_tables(records)["Base Sizes: Orkish Hordes"]) == ORKISH[:3]
    assert any("missing" in w and str(len(ELVISH)) in w for w in warnings)
    # The page after that one is of the same unknown faction.
    records, warnings = _parse(text.rstrip("-\n") + "\n---\n" + _page("", ORKISH[3:], "continued", 23))
    assert _rows(_tables(records)["Base Sizes: Orkish Hordes"]) == ORKISH[:3]
    assert len(warnings) == 2 and str(len(ORKISH[3:])) in warnings[1]


def test_a_repeated_header_and_a_part_heading_stay_in_the_faction_table():
    page = "\n".join(["## ORKISH HORDES", "UNIT | BASE SIZE", "UNIT | BASE SIZE",
                      *(f"{u} | {s}" for u, s in ORKISH[:3]), "## FORGE WORLD", "FORGE WORLD",
                      *(f"{u}    {s}" for u, s in ORKISH[3:]), "", "5", "---"])
    records, warnings = _parse(INTRO + page)
    assert _rows(_tables(records)["Base Sizes: Orkish Hordes"]) == ORKISH
    assert warnings == []


def test_a_line_that_is_not_a_unit_and_a_size_is_left_out_with_a_warning():
    bad = "Ask your organiser | about bases."
    page = "\n".join(["## ORKISH HORDES", "UNIT | BASE SIZE", *(f"{u} | {s}" for u, s in ORKISH[:2]), bad,
                      *(f"{u} | {s}" for u, s in ORKISH[2:]), "", "5", "---"])
    records, warnings = _parse(INTRO + page)
    assert _rows(_tables(records)["Base Sizes: Orkish Hordes"]) == ORKISH
    assert any(bad in w for w in warnings)


def test_a_header_with_too_few_rows_gives_a_warning_and_no_table():
    page = "\n".join(["## ORKISH HORDES", "UNIT | BASE SIZE", *(f"{u} | {s}" for u, s in ORKISH[:2]),
                      "", "The rest of this page is about terrain and how to set it up."])
    records, warnings = _parse(INTRO + page)
    assert _tables(records) == {}
    assert any("Orkish Hordes" in w and "2 readable rows" in w for w in warnings)


def test_other_tables_are_not_base_sizes():
    text = "# REFERENCE\n\n## BATTLE SIZE\n\n| SIZE | POINTS |\n|---|---|\n| Incursion | 1000 |\n| Strike Force | 2000 |\n"
    records, warnings = _parse(text)
    assert _tables(records) == {}
    assert any(isinstance(r, RefTable) for r in records)  # the chart is still read as before


@pytest.mark.parametrize("line, expected", [
    ("Castigator | Hull", ("Castigator", "Hull")),
    ("Falcon    Large Flying Base", ("Falcon", "Large Flying Base")),
    ("Abaddon the Despoiler 60mm", ("Abaddon the Despoiler", "60mm")),
    ("Foetid Bloat-drone with Heavy Blight Launcher 60mm", ("Foetid Bloat-drone with Heavy Blight Launcher", "60mm")),
    ("Attilan Rough Riders\t60x35.5mm Oval Base", ("Attilan Rough Riders", "60x35.5mm Oval Base")),
    ("Sister Repentia | 28.5mm", ("Sister Repentia", "28.5mm")),
    ("UNIT | BASE SIZE", None),
    ("Place it within 3\" of the 40mm", None),  # no unit before the size: a sentence
    ("Models use the base they come with.", None),
    ("A | B | 32mm", None),
])
def test_split_row(line, expected):
    assert split_row(line) == expected


# ---------------------------------------------------------------- the real companion
def _sizes_printed(lines: list[str], unit: str) -> list[tuple[int, str]]:
    """Where `unit` is printed as a row's name, and the size printed after it on that line or
    on the next non-blank line, read straight from the file (a unit may be in several lists)."""
    found = []
    for n, raw in enumerate(lines):
        text = raw.strip().lstrip("#").strip()
        if text == unit or re.match(rf"{re.escape(unit)}(\s*\|\s*|\s{{2,}}|\s)\S", text):
            rest = text[len(unit):].strip().strip("|").strip()
            found.append((n, rest or next(line.strip() for line in lines[n + 1:] if line.strip())))
    assert found, f"{unit} is not in the companion"
    return found


def _faction_above(lines: list[str], n: int) -> str:
    """The faction heading of the list printed at line `n`: the nearest heading above whose
    next line is a UNIT ... BASE SIZE header."""
    for k in range(n, 0, -1):
        following = next((line.strip() for line in lines[k + 1:] if line.strip()), "")
        if lines[k].startswith("## ") and re.fullmatch(r"UNIT\b.*BASE SIZE|UNIT", following):
            return lines[k][3:].strip()
    raise AssertionError("no faction heading above")


@pytest.fixture(scope="module")
def companion(shared) -> tuple[list[str], dict[str, RefTable], list[str]]:
    path = shared_file(shared, COMPANION)
    text = path.read_text(encoding="utf-8")
    records, warnings = _parse(text)
    return text.split("\n"), _tables(records), warnings


@pytest.mark.realdata
@pytest.mark.parametrize("unit", ["Deff Dread", "Burna-bommer", "Castigator", "Abaddon the Despoiler", "Aleya"])
def test_the_companion_gives_a_units_size_under_its_faction(companion, unit):
    lines, tables, _ = companion
    n, size = _sizes_printed(lines, unit)[0]
    faction = title_case(_faction_above(lines, n))
    table = tables[f"Base Sizes: {faction}"]
    assert (unit, size) in _rows(table)
    assert table.edition == 10


@pytest.mark.realdata
def test_every_faction_heading_over_a_header_gives_its_table(companion):
    lines, tables, _ = companion
    headers = [k for k, line in enumerate(lines) if re.fullmatch(r"UNIT\s*\|?\s*BASE SIZE|UNIT", line.strip())]
    above = [next(line for line in reversed(lines[:k]) if line.strip()) for k in headers]
    factions = {title_case(line[3:].strip()) for line in above if line.startswith("## ") and "UNIT" not in line}
    assert len(factions) > 10 and {f"Base Sizes: {f}" for f in factions} == set(tables)
    for table in tables.values():
        assert len(table.rows) >= 3
        for unit, size in _rows(table):  # every row is a unit printed in the file with its size
            assert size in [printed for _, printed in _sizes_printed(lines, unit)]


@pytest.mark.realdata
def test_the_companion_warns_of_its_pages_whose_faction_is_lost(companion):
    _, _, warnings = companion
    # The extraction skips pages (its front matter says so): continuations after a gap are warned.
    assert all("missing" in w for w in warnings) and warnings


@pytest.mark.realdata
def test_search_finds_the_base_size_of_a_unit(shared, tmp_path: Path):
    from ruleslawyer.index.search import search
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    lines = shared_file(shared, COMPANION).read_text(encoding="utf-8").split("\n")
    faction = title_case(_faction_above(lines, _sizes_printed(lines, "Deff Dread")[0][0]))
    with Store(tmp_path / "store.sqlite") as store:
        ingest_paths(store, [shared_file(shared, COMPANION)])
        hits = search(store, "deff dread base size").hits
    assert f"Base Sizes: {faction}" in [h.name for h in hits[:3]]


@pytest.mark.realdata
def test_the_search_snippet_shows_the_row(shared, tmp_path: Path):
    from ruleslawyer.index.search import search
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    with Store(tmp_path / "store.sqlite") as store:
        ingest_paths(store, [shared_file(shared, COMPANION)])
        hit = next(h for h in search(store, "deff dread base size").hits if h.name.startswith("Base Sizes"))
    assert "Deff Dread" in hit.snippet
