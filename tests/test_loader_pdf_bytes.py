"""The PDF loader on hand-built PDFs and bad input: minimal pages, corrupt, encrypted, truncated
and wrong-suffix files, hyphenation, and glyph-order fixtures taken from real files."""
from __future__ import annotations

from pathlib import Path

import pytest

from ruleslawyer.errors import LoadError
from ruleslawyer.ingest.formats import load_file
from tests.conftest import seed_path
from tests.pdf_helpers import frag as _frag, pages_pdf


def _one_page(content: bytes, extra: list[bytes] = (), trailer_extra: str = "") -> bytes:
    return pages_pdf([content], extra=list(extra), trailer_extra=trailer_extra)


HELLO = b"BT /F1 12 Tf 20 100 Td (Hello reader) Tj ET"


def test_minimal_pdf_loads():
    """The hand-made PDF the broken cases start from is itself valid."""
    from ruleslawyer.ingest.formats import load_bytes

    assert load_bytes(_one_page(HELLO), "hello.pdf").text == "Hello reader"


def _bad_cases(shared: Path | None) -> dict[str, tuple[bytes, str]]:
    real = _one_page(HELLO * 40)
    encrypt = b"<< /Filter /Standard /V 1 /R 2 /O <" + b"11" * 32 + b"> /U <" + b"22" * 32 + b"> /P -4 >>"
    return {
        "empty.pdf": (b"", "empty"),
        "truncated.pdf": (real[: len(real) // 2], "corrupt or truncated"),
        "garbage.pdf": (b"%PDF-1.4\n" + bytes((i * 97 + 13) % 256 for i in range(4000)), "corrupt or truncated"),
        "header-only.pdf": (b"%PDF-1.7\n", "corrupt or truncated"),
        "encrypted.pdf": (_one_page(HELLO, [encrypt], "/Encrypt 8 0 R /ID [<" + "33" * 16 + "> <" + "33" * 16 + ">] "),
                          "encrypted PDF (password required)"),
        "scanned.pdf": (_one_page(b"0 0 m 150 150 l S 20 20 100 60 re f"), "no text layer"),
        "not-a-pdf.pdf": (b"just some words, no PDF header at all", "not a PDF"),
    }


@pytest.mark.parametrize("name", list(_bad_cases(None)))
def test_bad_pdfs_raise_load_error_naming_the_file(tmp_path, name):
    data, reason = _bad_cases(None)[name]
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(LoadError) as err:
        load_file(path)
    assert err.value.path == str(path)
    assert reason in err.value.reason
    assert "\n" not in str(err.value)


def test_truncated_real_pdf_raises_load_error(shared, tmp_path):
    data = seed_path(shared, "003", ".pdf").read_bytes()
    for cut in (len(data) // 3, len(data) - 200):
        path = tmp_path / f"cut{cut}.pdf"
        path.write_bytes(data[:cut])
        try:
            doc = load_file(path)
        except LoadError as err:
            assert err.path == str(path) and err.reason
        else:
            # pdfminer can rebuild a lost cross-reference table; then the text must be real.
            assert "CORE BOOK" in doc.text


def test_loader_never_leaks_pdfminer_exceptions(tmp_path):
    rng = __import__("random").Random(7)
    good = _one_page(HELLO * 20)
    for n in range(25):
        data = bytearray(good)
        for _ in range(20):
            data[rng.randrange(20, len(data))] = rng.randrange(256)
        path = tmp_path / f"mangled{n}.pdf"
        path.write_bytes(bytes(data))
        try:
            load_file(path)
        except LoadError:
            pass


# ~10 s on its own: run in CI and on request, skipped in quick local runs.


def test_pdf_with_a_wrong_suffix_is_read_as_pdf(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_bytes(_one_page(HELLO))
    doc = load_file(path)
    assert doc.origin.format == "pdf" and doc.text == "Hello reader"


def _text_page(lines: list[tuple[float, str]]) -> bytes:
    """A one-page PDF with Helvetica 10 lines at (y, text), left-aligned at x=20."""
    ops = b"".join(b"BT /F1 10 Tf 20 %d Td (%s) Tj ET\n" % (int(y), t.encode("latin-1")) for y, t in lines)
    return _one_page(ops)


def test_hyphenated_line_ends_rejoin(tmp_path):
    path = tmp_path / "hyphens.pdf"
    path.write_bytes(_text_page([
        (180, "Roll once for every single charac-"), (168, "teristic of the model."),
        (144, "A characteristic is a number; a minimum-"), (132, "sized unit is fine."),
    ]))
    texts = [b.text for b in load_file(path).blocks]
    # "characteristic" occurs whole elsewhere, so the break was a soft hyphen; "minimumsized" does not.
    assert "Roll once for every single characteristic of the model." in texts
    assert "A characteristic is a number; a minimum-sized unit is fine." in texts


def test_space_glyph_overlapping_the_next_letter_stays_before_it():
    """Fixture from the Armageddon Orks PDF: "KEYWORDS:" then three space glyphs, drawn a
    hair right of the left edge of the "I" that starts the next run (another font, 1.8 pt
    lower). Ordered by left edge the space fell inside the word: "I NFANTRY"."""
    from ruleslawyer.ingest.load.pdf_layout import Char, build_fragments, chars_text

    def char(text, x0, x1, top, size):
        return Char(text, x0, x1, top, top + size, size, False, False, None)

    label = [char(t, 40.0 + 3.2 * i, 42.9 + 3.2 * i, 334.05, 6.5) for i, t in enumerate("KEYWORDS:")]
    spaces = [char(" ", 66.69, 67.83, 334.05, 6.5), char(" ", 67.83, 68.97, 334.05, 6.5),
              char(" ", 67.83, 68.97, 334.05, 6.5)]
    word = [char(t, 67.77 + 3.07 * i, 70.96 + 3.07 * i, 335.83, 6.0) for i, t in enumerate("INFANTRY;")]
    fragments = build_fragments(label + spaces + word)
    assert [chars_text(f.chars) for f in fragments] == ["KEYWORDS: INFANTRY;"]


def test_drawn_dice_faces_become_digits():
    """A die drawn as a filled square with pips of another colour reads as its pip count; a
    square with scattered or unequal dots, or a big panel, does not."""
    from ruleslawyer.ingest.load.pdf_dice import drawn_dice

    dark, light = (0.1, 0.1, 0.1), (0.8, 0.8, 0.9)

    def shape(x0, top, side, colour):
        return {"x0": x0, "x1": x0 + side, "top": top, "bottom": top + side, "fill": True,
                "non_stroking_color": colour}

    def die(x0, top, cells):
        # cells: (column, row) on the 3x3 grid of a face
        return [shape(x0, top, 11.0, dark)] + [shape(x0 + 1.3 + 3.3 * c, top + 1.3 + 3.3 * r, 2.2, light)
                                               for c, r in cells]

    three = die(100, 200, [(0, 0), (1, 1), (2, 2)])
    six = die(100, 220, [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)])
    odd = [shape(100, 240, 11.0, dark), shape(101, 241, 2.2, light), shape(105, 245, 4.0, light)]
    panel = [shape(0, 0, 200.0, dark), shape(10, 10, 2.2, light)]
    glyphs = sorted(drawn_dice(three + six + odd + panel), key=lambda c: c.top)
    assert [(g.text, g.x0, g.top) for g in glyphs] == [("3", 100, 200), ("6", 100, 220)]


def test_a_chapter_title_in_one_column_opens_a_new_band():
    """Two columns of a section, then a chapter-size title in the left column with the right
    column blank beside it: the right column's text above the title is read before it."""
    from ruleslawyer.ingest.load.pdf_columns import layout_page

    frags = []
    for k in range(8):  # the end of one section, both columns
        frags.append(_frag("the left column text of the earlier section goes on", 40, 60 + 12 * k, 8))
        frags.append(_frag("the right column text of the earlier section ends", 320, 60 + 12 * k, 8))
    frags.append(_frag("CHARGE PHASE", 40, 200, 36))
    for k in range(8):  # the new section, both columns
        frags.append(_frag("the left column text of the new section starts here", 40, 250 + 12 * k, 8))
        frags.append(_frag("the right column text of the new section goes on", 320, 250 + 12 * k, 8))
    lines = [ln.text for ln in layout_page(frags, 1, 600, 800).lines]
    title = lines.index("CHARGE PHASE")
    assert all("earlier" in t for t in lines[:title]) and all("new section" in t for t in lines[title + 1:])


def test_drawn_bullet_squares_lead_their_lines():
    """Small filled squares drawn just left of a line of text are its bullet marks."""
    from ruleslawyer.ingest.load.pdf_dice import drawn_bullets
    from ruleslawyer.ingest.load.pdf_layout import Char

    def square(x0, top, side=7.5):
        return {"x0": x0, "x1": x0 + side, "top": top, "bottom": top + side, "fill": True,
                "non_stroking_color": (1, 0, 0)}

    line = [Char(ch, 105 + 4 * k, 109 + 4 * k, 582, 591, 9.0, False, False, None) for k, ch in enumerate("Select")]
    far = [Char(ch, 300 + 4 * k, 304 + 4 * k, 602, 611, 9.0, False, False, None) for k, ch in enumerate("Away")]
    marks = drawn_bullets([square(94, 583), square(94, 603), square(200, 700)], line + far)
    assert [(m.text, m.x0) for m in marks] == [("\u25aa", 94)]
    # A pip inside a drawn die just left of "+" is part of the die, not a bullet.
    plus = [Char("+", 110, 114, 582, 591, 9.0, False, False, None)]
    assert drawn_bullets([square(97, 581, 11.0), square(101, 585, 2.2)], plus) == []
