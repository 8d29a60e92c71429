"""PDF reading order on layouts of whole document families: columns under a title band (detachment
sheets), a tilted card over straight text (core rules examples), words cut by the page edge, and
a paragraph that ends in a closing quote at a page break (faction pack rules updates)."""
from __future__ import annotations

import math

import pytest

from ruleslawyer.ingest.formats import load_bytes
from tests.pdf_helpers import frag, pages_pdf


def _left_then_right(lines: list[str], left: str, right: str) -> bool:
    """Every line holding `left` comes before every line holding `right`, and none holds both."""
    lefts = [i for i, t in enumerate(lines) if left in t]
    rights = [i for i, t in enumerate(lines) if right in t]
    return bool(lefts and rights) and max(lefts) < min(rights) and not any(left in t and right in t for t in lines)


def test_columns_start_below_a_title_band():
    """A sheet's large title and its subtitle run across the gutter above two columns: the
    page is still read column by column."""
    from ruleslawyer.ingest.load.pdf_columns import layout_page

    frags = [frag("EQUATORIAL HORDES OF THE JUNGLE", 57, 150, 18),
             frag("COUNTLESS ORKS INFEST THE JUNGLES IN RAVENING HORDES AND MORE", 57, 194, 9)]
    for k in range(12):
        frags.append(frag("left column words of the detachment rule go on", 57, 230 + 11 * k, 8.5))
        frags.append(frag("right column stratagem text runs on to the far end", 310, 230 + 11 * k, 8.5))
        if k % 4 == 0:  # a stratagem's cost badge at the right edge
            frags.append(frag("1CP", 515, 228 + 11 * k, 12))
    layout = layout_page(frags, 1, 595, 842)
    lines = [ln.text for ln in layout.lines]
    assert layout.columns == 2
    assert lines[0].startswith("EQUATORIAL") and _left_then_right(lines, "left column", "right column")


def test_one_column_page_with_a_title_stays_one_column():
    """A title over one column of text: no gutter is invented below it."""
    from ruleslawyer.ingest.load.pdf_columns import layout_page

    frags = [frag("A TITLE SET LARGE ACROSS THE TOP", 57, 150, 18)]
    frags += [frag("one column of running text with words that fill the whole line", 57, 200 + 11 * k, 8.5)
              for k in range(14)]
    assert layout_page(frags, 1, 595, 842).columns == 1


def _tilted(x: float, y: float, text: str, size: float = 7, degrees: float = -4) -> bytes:
    """A text line whose baseline is tilted by `degrees`, placed so that, turned level about the
    page origin as the loader does, it starts at (x, y)."""
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)
    e, f = x * cos - y * sin, x * sin + y * cos
    return (b"BT /F1 1 Tf %.4f %.4f %.4f %.4f %.4f %.4f Tm (%s) Tj ET\n"
            % (size * cos, size * sin, -size * sin, size * cos, e, f, text.encode("latin-1")))


def _straight(x: float, y: float, text: str, size: float = 7) -> bytes:
    return b"BT /F1 %d Tf %.2f %.2f Td (%s) Tj ET\n" % (size, x, y, text.encode("latin-1"))


CARD = ["In close-quarters combat, the slightest", "hesitation can leave an opening for a swift",
        "foe to exploit."]
CAPTION = ["Stratagems are presented as shown above. Some", "conditions that carry an additional CP cost.",
           "This can depend on the effect you select."]


def test_a_tilted_card_over_straight_text_keeps_both_texts_whole():
    """Issue 27: a card set at an angle, turned level, lands on the baselines of a straight
    caption; its lines were merged with the caption's and sorted by x into gibberish."""
    content = b"".join(_tilted(20, 200 - 8 * k, t) for k, t in enumerate(CARD))
    content += b"".join(_straight(20, 199 - 8 * k, t) for k, t in enumerate(CAPTION))
    doc = load_bytes(pages_pdf([content], size=(300, 300)), "tilted.pdf")
    # However the lines make paragraphs, the card reads whole, then the caption.
    assert " ".join(b.text for b in doc.blocks) == " ".join(CARD + CAPTION)


def test_a_few_tilted_glyphs_stay_with_the_straight_text():
    """A short tilted stamp is not a layer of its own: it is read where it stands."""
    from ruleslawyer.ingest.load.pdf_glyphs import split_layers
    from ruleslawyer.ingest.load.pdf_layout import Char

    straight = [Char(ch, 20 + 4 * k, 24 + 4 * k, 100, 108, 8, False, False, None) for k, ch in enumerate("x" * 60)]
    stamp = [Char(ch, 20 + 4 * k, 24 + 4 * k, 120, 128, 8, False, False, None, -4) for k, ch in enumerate("NEW")]
    card = [Char(ch, 20 + 4 * k, 24 + 4 * k, 140, 148, 8, False, False, None, 3) for k, ch in enumerate("y" * 50)]
    assert split_layers(straight + stamp) == [straight + stamp]
    layers = split_layers(straight + stamp + card)
    assert layers == [straight + stamp, card]


def test_a_word_cut_by_the_page_edge_is_left_out():
    """Text running off the page (a strip of cards cropped by the page): the visible end or
    start of a cut word is no word; the whole words beside it are kept."""
    content = _straight(-12, 150, "system check", size=10) + _straight(150, 120, "check system", size=10)
    doc = load_bytes(pages_pdf([content], size=(200, 200)), "cut.pdf")
    words = doc.text.split()
    assert words == ["check", "check"]


def _courier_page(lines: list[str], top: int = 170) -> bytes:
    return b"".join(b"BT /F2 10 Tf 20 %d Td (%s) Tj ET\n" % (top - 12 * k, t.encode("latin-1"))
                    for k, t in enumerate(lines))


def test_a_closing_quote_after_the_full_stop_ends_the_paragraph_at_a_page_break():
    """A quoted replacement text ends a page (".'"); the next page opens with the next entry's
    header, which must not be glued onto the quote."""
    first = ["'In your opponent's Movement phase, if an", "enemy unit ends a move within 8 inches of",
             "this unit, this unit can make a Normal move", "of up to six inches, then it stops there.'"]
    second = ["Khorne Berzerkers - Icon of Khorne Ability", "Change to: the bearer's unit gains one point",
              "each time it destroys an enemy unit, and so", "on until the end of the battle as printed."]
    doc = load_bytes(pages_pdf([_courier_page(first), _courier_page(second)], size=(300, 200)), "quote.pdf")
    texts = [b.text for b in doc.blocks]
    ends = [t for t in texts if t.endswith(("stops there.'", "stops there.’"))]
    assert ends and all("Khorne" not in t for t in ends)
    assert any(t.startswith("Khorne Berzerkers") for t in texts)


def test_a_sentence_running_on_across_the_page_break_stays_one_paragraph():
    """The counterpart: no full stop at the foot of the page, the paragraph carries on."""
    first = ["the quoted rule goes on and on across the", "page with words that fill every line of it",
             "right to the end of the column and then it", "carries on with more words on the next one"]
    second = ["Page two starts mid sentence and it should", "not be split from the text of the page one",
              "because the sentence did not end on it yet", "and only here it ends with a full stop now."]
    doc = load_bytes(pages_pdf([_courier_page(first), _courier_page(second)], size=(300, 200)), "runon.pdf")
    assert any("next one Page two" in b.text for b in doc.blocks)


@pytest.mark.realdata
def test_real_detachment_sheet_under_a_title_band_reads_its_two_columns(shared):
    """The 11th edition detachment sheet printed in two columns under a full-width title: the
    rule, the enhancements and the stratagems come out whole, each where it is printed."""
    from ruleslawyer.ingest.formats import load_file
    from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
    from tests.conftest import shared_file

    path = shared_file(shared, "realdata/nov26/det11_orks_equatorial_hordes.pdf")
    doc = load_file(path)
    assert doc.meta["columns"] == "2"
    records = list(parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc))))
    kinds = sorted(r.kind for r in records if r.kind in ("stratagem", "enhancement", "detachment_rule"))
    assert kinds == ["detachment_rule", "enhancement", "enhancement", "stratagem", "stratagem", "stratagem"]
    for r in records:
        if r.kind == "stratagem":
            assert r.cp and r.when and r.target and r.effect, r
            assert "model only" not in (r.fluff or "") + r.effect  # no enhancement text ran in
        if r.kind == "enhancement":
            # The keyword restriction ("A/B C model only.") is split from the rules text.
            assert r.restriction and r.restriction.endswith("model only.") and "/" in r.restriction
            assert not r.text.startswith(r.restriction)


@pytest.mark.realdata
def test_real_faction_pack_rules_update_after_a_page_break_is_its_own_erratum(shared):
    """The rules updates run from page 7 onto page 8: the header at the top of page 8 follows a
    quoted text that ends with ".'" and opens its own erratum."""
    from ruleslawyer.ingest.formats import load_file
    from tests.conftest import shared_file

    path = shared_file(shared, "realdata/nov26/fp11_world_eaters_v1.1_2026-07-22.pdf")
    doc = load_file(path)
    page8 = [b for b in doc.blocks if b.page == 8 and b.kind != "table"]
    assert page8 and page8[0].column == 1
    first = page8[0].text
    # The first block of page 8 is a header line of its own, not the tail of page 7's last quote.
    previous = [b for b in doc.blocks if b.page == 7][-1].text
    assert previous.rstrip().endswith("'") and first not in previous
    assert not first.startswith(("'", "‘"))


@pytest.mark.realdata
def test_real_faction_pack_marks_untagged_enhancements_as_no_upgrade(shared):
    """The pack tags its upgrades "... UPGRADE": the enhancements without the tag are not
    upgrades, and a "X unit only." restriction is split from the text like "model only."."""
    from ruleslawyer.ingest.formats import load_file
    from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
    from tests.conftest import shared_file

    path = shared_file(shared, "realdata/nov26/fp11_world_eaters_v1.1_2026-07-22.pdf")
    doc = load_file(path)
    enh = [r for r in parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc))) if r.kind == "enhancement"]
    assert any(r.upgrade for r in enh) and all(r.upgrade in (True, False) for r in enh)
    for r in enh:
        assert r.restriction and r.restriction.endswith(("model only.", "unit only.")), r.name
        assert not r.text.startswith(r.restriction)


def test_a_line_of_bold_keywords_that_runs_on_is_not_a_title():
    """10th edition packs set keywords in bold, a size above the body: "Adeptus Astartes
    Terminator model only. Each" / "time an enemy unit ..." is one sentence, not a heading."""
    body = b"".join(b"BT /F1 7 Tf 20 %d Td (%s) Tj ET\n" % (280 - 9 * k, b"plain body text of the page set small")
                    for k in range(8))
    mixed = (b"BT /F3 8.5 Tf 20 190 Td (Adeptus Astartes Terminator) Tj /F1 8.5 Tf (  model only. Each) Tj ET\n"
             b"BT /F1 8.5 Tf 20 180 Td (time an enemy unit falls back, it takes a test.) Tj ET\n")
    title = b"BT /F3 8.5 Tf 20 150 Td (FANGRUNE PENDANT) Tj ET\nBT /F1 8.5 Tf 20 140 Td (the pendant text follows.) Tj ET\n"
    doc = load_bytes(pages_pdf([body + mixed + title], size=(300, 300)), "keywords.pdf")
    kinds = {b.text: b.kind for b in doc.blocks}
    assert not any(t.startswith("Adeptus") and k == "heading" for t, k in kinds.items())
    assert any("model only. Each time an enemy unit" in t for t in kinds)
    assert kinds.get("FANGRUNE PENDANT") == "heading"


def test_a_strip_of_cost_badges_joins_the_cards_it_is_printed_beside():
    """Two columns of stratagem cards with each card's cost badge printed just left of it: the
    badges of the right-hand cards sit in a strip nearer the right column than the left."""
    from ruleslawyer.ingest.load.pdf_columns import layout_page

    frags = []
    for card in range(3):
        top = 80 + 150 * card
        frags.append(frag("1CP", 161, top + 70, 10))  # each badge level with its own card's middle
        frags.append(frag("1CP", 355, top + 40, 10))
        for k in range(10):
            frags.append(frag("left card text set in lines", 188, top + 9 * k, 7.5))
            frags.append(frag("right card text set in lines", 382, top + 9 * k, 7.5))
    lines = layout_page(frags, 1, 609, 793).lines
    right = {ln.column for ln in lines if "right card" in ln.text}
    badges = [ln for ln in lines if ln.text.startswith("1CP") and ln.x0 > 300]
    assert len(badges) == 3 and {b.column for b in badges} == right
    assert not any(ln.text.endswith("1CP") for ln in lines if "left card" in ln.text)


@pytest.mark.realdata
def test_real_10th_edition_pack_reads_enhancement_restrictions_and_card_costs(shared):
    """Space Wolves pack (10th edition): title-case keyword restrictions, every enhancement of the
    list (none lost to a keyword line read as a heading), and every stratagem's cost badge."""
    from ruleslawyer.ingest.formats import load_file
    from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document
    from tests.conftest import shared_file

    path = shared_file(shared, "realdata/nov26/fp10_space_wolves_v1.0_2025-10-08.pdf")
    doc = load_file(path)
    records = [r for r in parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc)))
               if getattr(r, "source", None) and r.source.page in (2, 3)]
    enh = [r for r in records if r.kind == "enhancement"]
    listed = [b.text.strip() for b in doc.blocks if b.page == 2 and b.kind == "heading" and b.text.isupper()]
    assert len(enh) == len(listed) - listed.index("ENHANCEMENTS") - 1
    assert all(r.restriction and r.restriction.endswith("model only.") for r in enh)
    strats = [r for r in records if r.kind == "stratagem"]
    assert strats and all(r.cp for r in strats)


def test_a_large_heading_one_gutter_after_a_line_does_not_join_it():
    """Points lists: "1 model ..... 85 pts" ends a column and "DETACHMENT ENHANCEMENTS", set
    larger, starts the next one on the same baseline; a gutter narrower than the heading's
    size still parts them (the gap is measured against the smaller type)."""
    from ruleslawyer.ingest.load.pdf_layout import Char, build_fragments, chars_text

    def run(text, x0, size, top):
        w = 0.5 * size
        return [Char(ch, x0 + k * w, x0 + (k + 1) * w, top, top + size, size, False, False, None)
                for k, ch in enumerate(text)]

    line = run("1 model ..... 85 pts", 235, 8, 582.8)
    heading = run("DETACHMENT ENHANCEMENTS", line[-1].x1 + 11, 12, 581.4)
    # (each column is its own run of the content stream: the next column's heading comes first)
    assert sorted(chars_text(f.chars) for f in build_fragments(heading + line)) == \
        ["1 model ..... 85 pts", "DETACHMENT ENHANCEMENTS"]
    # A word set a size larger on the same line keeps to it when the space is a normal one.
    word = run("BIG", line[-1].x1 + 3, 12, 581.4)
    assert [chars_text(f.chars) for f in build_fragments(word + line)] == ["1 model ..... 85 pts BIG"]


SIDEBAR = ["Leader and support", "units often have", "abilities that make", "the models they", "are leading more",
           "powerful. In the same", "way, some bodyguard", "units can enhance", "the power of those", "leading them."]


def test_a_narrow_sidebar_in_a_wide_column_reads_as_one_paragraph():
    """A sidebar set in a short measure beside a wider box of the same column (core rules): its
    lines are full for the sidebar's width, not the column's, so its paragraph stays whole;
    a short line that ends a sentence still ends it."""
    wide = b"BT /F3 9 Tf 20 280 Td (A BOX HEADING SET ACROSS THE WHOLE WIDTH OF THE COLUMN) Tj ET\n"
    lines = SIDEBAR + ["A new paragraph starts", "here and it goes on", "for a line or two."]
    side = b"".join(b"BT /F1 7 Tf 20 %d Td (%s) Tj ET\n" % (240 - 8 * k, t.encode("latin-1"))
                    for k, t in enumerate(lines))
    doc = load_bytes(pages_pdf([wide + side], size=(360, 300)), "sidebar.pdf")
    texts = [b.text for b in doc.blocks if b.kind == "paragraph"]
    assert texts[:2] == [" ".join(SIDEBAR), " ".join(lines[len(SIDEBAR):])]
