"""Ingest pauses Python's cycle collector for each file (its full passes over a big page's
blocks and lines freed nothing and cost a sixth of the parse). That is only sound while
loading and parsing leave no reference cycles holding what they made: such a cycle would keep
a page's blocks, or what is left of its parser tree, alive until the file is stored (300 MB on
a 60 MB page). These tests load and parse pages with the collector off and count what a
collection then finds."""
from __future__ import annotations

import gc
import hashlib
from pathlib import Path

import pytest

from ruleslawyer.ingest.document import Block
from ruleslawyer.ingest.formats import load_bytes
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document

_SECTION = """<section><h2>Rules section {n}</h2><p>Each time a model in unit {n} makes an attack,
re-roll the <b>Hit roll</b> (see <a href="#s{n}">section {n}</a>).</p><ul><li>It ends at the end of
the phase.</li><li>Unless stated otherwise.</li></ul>
<table><tr><th>Roll</th><th>Result</th></tr><tr><td>1-2</td><td>Nothing {n}</td></tr>
<tr><td>3-6</td><td>One mortal wound</td></tr></table>
<article class="datasheet"><h2>Warrior Band {n}</h2><div class="profile">
<div class="stat"><span class="name">M</span><span class="value">6"</span></div>
<div class="stat"><span class="name">T</span><span class="value">4</span></div>
<div class="stat"><span class="name">Sv</span><span class="value">3+</span></div>
<div class="stat"><span class="name">W</span><span class="value">2</span></div>
<div class="stat"><span class="name">Ld</span><span class="value">6+</span></div>
<div class="stat"><span class="name">OC</span><span class="value">2</span></div></div>
<p>KEYWORDS: INFANTRY, WARRIOR BAND {n}</p><p>FACTION KEYWORDS: IMPERIUM</p></article></section>
"""


def _page(sections: int, deep: int = 0) -> bytes:
    body = "".join(_SECTION.format(n=n) for n in range(sections))
    nest = "<div>" * deep + "<p>Deep text.</p>" + "</div>" * deep
    return f"<html><head><title>Cycles</title></head><body><main>{body}{nest}</main></body></html>".encode()


def _cyclic_garbage(make) -> list:
    """What a collection finds after `make()` ran with the collector off (and its result is gone)."""
    gc.collect()
    was = gc.isenabled()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        make()
        gc.collect()
        found = list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if was:
            gc.enable()
    return found


def _load(data: bytes, name: str):
    return load_bytes(data, Path(name), sha256=hashlib.sha256(data).hexdigest())


@pytest.mark.parametrize("deep", [0, 3000], ids=["plain", "deeper than libxml2 builds"])
def test_loading_a_page_leaves_no_cycle_holding_its_blocks(deep):
    data = _page(60, deep)
    found = _cyclic_garbage(lambda: _load(data, "page.html"))
    assert not [o for o in found if isinstance(o, Block)]
    # lxml's parser keeps a few small objects in a cycle of its own; nothing grows with the page.
    assert len(found) < 100, sorted({type(o).__name__ for o in found})


def test_parsing_a_page_leaves_no_cycles():
    small = _load(_page(1), "small.html")
    parse_document(small)  # the parsers' modules are imported now (making a slotted class leaves a cycle)
    doc = _load(_page(60), "page.html")
    records = []
    found = _cyclic_garbage(lambda: records.extend(parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc)))))
    assert len(records) >= 60 * 3  # a rule, a table and a datasheet per section at least
    assert found == []
