"""A web page's heading levels give a rule its section path (h2 "Army Rules" over the h3 rule),
without the page title (h1); a PDF's guessed levels and popups give none."""
from __future__ import annotations

from ruleslawyer.ingest.formats import load_bytes
from ruleslawyer.ingest.parse.parsing import parse_document

PAGE = """<html><body><h1>Necrons</h1>
<h2>Army Rules</h2>
<h3>Reanimation Protocols</h3>
<p>If your Army Faction is NECRONS, at the end of your Command phase, each unit from your army with this
ability activates its Reanimation Protocols and reanimates D3 wounds.</p>
<h2>Crusade Rules</h2>
<h3>Harvest</h3>
<p>Each time a unit from your army destroys an enemy unit, that unit gains 1 experience point at the end
of the battle round in which it did so.</p>
</body></html>"""


def _rules(html: str):
    doc = load_bytes(html.encode(), "page.html", sha256="0" * 64)
    return {r.name: r for r in parse_document(doc) if r.kind == "rule"}


def test_heading_levels_make_the_section_path():
    rules = _rules(PAGE)
    assert rules["Reanimation Protocols"].section == ("Army Rules",)
    assert rules["Reanimation Protocols"].faction == "Necrons"


def test_heading_path_walks_up_the_levels_and_skips_popups():
    from ruleslawyer.ingest.parse.parsing import ParseContext
    from ruleslawyer.ingest.parse.stratagem_lines import build_lines, heading_path

    html = PAGE.replace("<h3>Harvest</h3>", "<h3>Agendas</h3><h4>Harvest</h4>")
    doc = load_bytes(html.encode(), "page.html", sha256="0" * 64)
    lines = build_lines(doc, ParseContext(doc=doc))
    at = {ln.text.strip(): j for j, ln in enumerate(lines)}
    assert heading_path(lines, at["Harvest"]) == ("Crusade Rules", "Agendas")
    assert heading_path(lines, at["Army Rules"]) == ()
    assert heading_path(lines, at["Necrons"]) == ()


def test_heading_paths_match_a_walk_back_up_the_page_on_a_deep_irregular_outline():
    """The one-pass HeadingPaths gives, for every heading, what walking back from it finds:
    the nearest earlier heading of a lower level, then the nearest one lower than that, ..."""
    import random

    from ruleslawyer.ingest.parse.parsing import ParseContext
    from ruleslawyer.ingest.document import HEADING
    from ruleslawyer.ingest.parse.stratagem_lines import HeadingPaths, build_lines

    rnd = random.Random(7)
    parts = ["<html><body><h1>Page</h1>"]
    for i in range(300):
        level = rnd.choice([2, 3, 3, 4, 4, 5, 1])
        parts.append(f"<h{level}>Heading {i}</h{level}><p>Some words of rule {i} follow here.</p>")
    html = "".join(parts) + "</body></html>"
    doc = load_bytes(html.encode(), "page.html", sha256="0" * 64)
    lines = build_lines(doc, ParseContext(doc=doc))
    paths = HeadingPaths(lines)

    def walked(j):
        level, path = lines[j].block.level, []
        for line in reversed(lines[:j]):
            if line.kind == HEADING and 2 <= line.block.level < level and line.text.strip():
                path.insert(0, line.text.strip())
                level = line.block.level
        return tuple(path)

    headings = [j for j, ln in enumerate(lines) if ln.kind == HEADING and ln.block.level >= 2
                and "section" in (ln.block.attrs or {})]
    assert len(headings) > 200
    assert sum(1 for j in headings if walked(j)) > 100  # the outline really nests
    for j in headings:
        assert paths(j) == walked(j), lines[j].text
