"""The datasheet parser's shortcuts (cheap tests that skip a costly one) change no answer.

Each shortcut rests on a claim about text or Unicode; these tests check the claim itself
(over every code point where it is about characters) and compare the shortcut with the
slow definition it stands in for on generated lines, odd characters included.
"""
from __future__ import annotations

import random
import re
import sys

from ruleslawyer.ingest.document import Block
from ruleslawyer.ingest.parse.datasheet_steps import BASE, FACTION_KEYWORDS, KEYWORD_FIRST, KEYWORDS
from ruleslawyer.ingest.parse.lines import Line, cells_text
from ruleslawyer.ingest.parse.datasheet_lines import (_D_NEAR, _D_WORD, M_WORD, anchor_candidates,
                                                      has_m_word, label_key, norm_text, stat_header, weapon_header)


def _all_chars():
    return (chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF)


def test_only_m_and_d_fold_to_m_and_d():
    # An "M" (or "D") in a label's folded form can only come from an m or a d.
    for c in _all_chars():
        up = c.upper()
        assert ("M" in up) == (c in "mM") and ("D" in up) == (c in "dD"), hex(ord(c))


def test_keyword_labels_open_only_on_the_listed_characters():
    first = set(KEYWORD_FIRST)
    for pattern in (KEYWORDS, FACTION_KEYWORDS):
        letter = re.compile(pattern.pattern[1], re.I)  # the pattern's first letter, case folded as it is
        for c in _all_chars():
            if letter.match(c):
                assert c in first, hex(ord(c))
    damaged = re.compile("D", re.I)
    assert {c for c in _all_chars() if damaged.match(c)} == {"d", "D"}
    assert BASE.pattern.startswith(r"\(")


def _cells_line(index, cells, kind, block, virtual=False):
    return Line(index, cells_text(cells), kind, block, cells=cells, virtual=virtual)


def _line(cells, kind="paragraph"):
    return _cells_line(0, tuple(cells), kind, None)


_ALPHABET = ["M", "m", "x", " ", "-", "(", ")", "+", "1", "é", "ſ", "'", "a", "D", ".", "\u00ad", "\u2011"]


def test_anchor_candidates_are_the_lines_a_header_can_start_at():
    rng = random.Random(1)
    for _ in range(5000):
        texts = [" ".join("".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 6))).split()) or "q"
                 for _ in range(rng.randint(1, 6))]
        lines = [_line([t]) for t in texts]
        want = [k for k, line in enumerate(lines) if M_WORD.search(line.text) or len(line.text) <= 3]
        assert anchor_candidates(lines) == want, texts


def _slow_fold_has(line: Line, key: str) -> bool:
    return key in {label_key(t) for t in line.tokens}


def test_header_tests_skip_only_lines_without_an_m_or_d_cell():
    rng = random.Random(2)
    for _ in range(40000):
        cells = ["".join(rng.choice(_ALPHABET) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 3))]
        if not any(c.strip() for c in cells):
            continue
        line = _line(cells, "row" if len(cells) > 1 else "paragraph")
        text = line.text
        assert has_m_word(text) == bool(M_WORD.search(text)), cells
        assert bool(_D_NEAR.search(" " + text) and _D_WORD.search(text)) == bool(_D_WORD.search(text)), cells
        if _slow_fold_has(line, "M"):
            assert M_WORD.search(text), cells
        if _slow_fold_has(line, "D"):
            assert _D_WORD.search(text), cells


def test_headers_with_punctuated_labels_are_still_found():
    assert stat_header(_line(["(M)", "T", "SV.", "W", "LD", "OC"], "row")) is not None
    assert stat_header(_line(["M\u00ad T Sv W Ld OC"])) is not None
    assert weapon_header(_line(["RANGED WEAPONS", "RANGE", "A", "BS", "S", "AP", "D."], "row")) is not None
    assert stat_header(_line(["Move T Sv W Ld OC"])) is None


def test_row_text_from_normalised_cells_is_the_text_line_makes():
    rng = random.Random(3)
    alphabet = ["a", " ", "\u00ad", "\u2011", "\u00a0", "\t", "x", "\u2009", "-"]
    for _ in range(20000):
        row = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 4))) for _ in range(rng.randint(1, 4))]
        cells = tuple(map(norm_text, row))
        assert cells_text(cells) == " ".join([c for c in cells if c]), row


def test_line_equality_and_hash_follow_its_fields():
    block = Block(kind="paragraph")
    a, b = _cells_line(1, ("A  b",), "paragraph", block), _cells_line(1, ("A  b",), "paragraph", block)
    assert a == b and a.text == "A b"
    assert hash(_cells_line(1, ("x",), "row", None)) == hash(_cells_line(1, ("x",), "row", None))
    assert a != _cells_line(1, ("A  b",), "paragraph", block, virtual=True)
    assert a != _cells_line(2, ("A  b",), "paragraph", block)
    a.claimed = True  # what a later parser learns of a line changes neither
    assert a == b
    assert a.piece("c").virtual and a.piece("c").text == "c"
    assert not hasattr(a, "__dict__")  # no per-line dictionary: a big page makes many lines
