"""Print cards from the real seeds, read back with pdfplumber.

Cards are rendered once per session (WeasyPrint is slow: a few seconds for the 19 units):
all 18 datasheets of seed 000 and the Chronomancer of seed 001, as poker cards one a page,
then the same cards imposed on A4 with duplex backs. PNGs for a person to look at go to
tests/artifacts/ (git-ignored).
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess

import pytest

from .conftest import ROOT, seed_path

MM = 72 / 25.4  # PDF points per millimetre
ARTIFACTS = ROOT / "tests" / "artifacts"


def squash(text: str) -> str:
    """Text without whitespace, case-folded: names may wrap across lines on a card."""
    return re.sub(r"\s+", "", text).casefold()


@pytest.fixture(scope="session")
def corpus(shared, tmp_path_factory):
    """The records of seeds 000 and 001, parsed by the real parsers, errata applied."""
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    with Store(tmp_path_factory.mktemp("cards") / "store.sqlite") as store:
        ingest_paths(store, [seed_path(shared, "000"), seed_path(shared, "001")])
        return load_corpus(store).records


@pytest.fixture(scope="session")
def units(corpus):
    """The 18 datasheets of seed 000 and the Chronomancer of seed 001."""
    seed0 = [r for r in corpus if r.kind == "datasheet" and r.source.file.startswith("000_")]
    chrono = [r for r in corpus if r.kind == "datasheet" and r.name == "Chronomancer"]
    assert len(seed0) == 18 and len(chrono) == 1, "the datasheet parser should find 18 + 1 units"
    return seed0 + chrono


@pytest.fixture(scope="session")
def card_pdf(units, corpus, tmp_path_factory):
    """(CardSet, pdfplumber PDF) of the 19 units as poker cards, one face a page."""
    import pdfplumber

    from ruleslawyer.cards import make_cards

    cards = make_cards(units, corpus, {"size": "poker"})
    path = tmp_path_factory.mktemp("pdf") / "cards.pdf"
    cards.write_pdf(path)
    with pdfplumber.open(path) as pdf:
        yield cards, pdf, path


@pytest.fixture(scope="session")
def sheet_pdf(units, corpus, tmp_path_factory):
    """Cards on A4 sheets, duplex (the fits are cached from `card_pdf`'s run when it ran first)."""
    import pdfplumber

    from ruleslawyer.cards import make_cards

    # ten units (a full sheet of nine, then the Chronomancer's cards) keep this quick
    cards = make_cards(units[:9] + units[-1:], corpus, {"size": "poker", "sheet": "a4", "duplex": True})
    path = tmp_path_factory.mktemp("pdf") / "sheets.pdf"
    cards.write_pdf(path)
    with pdfplumber.open(path) as pdf:
        yield cards, pdf, path


_TEXTS: dict[int, list[str]] = {}


def page_texts(pdf) -> list[str]:
    """extract_text of every page, once per PDF (pdfplumber text extraction is slow)."""
    if id(pdf) not in _TEXTS:
        _TEXTS[id(pdf)] = [page.extract_text() or "" for page in pdf.pages]
    return _TEXTS[id(pdf)]


_WORDS: dict[tuple[int, int], list[dict]] = {}


def page_words(page) -> list[dict]:
    """The words of a page (tight x tolerance: table cells sit close), once per page."""
    key = (id(page.pdf), page.page_number)
    if key not in _WORDS:
        _WORDS[key] = page.extract_words(x_tolerance=1)
    return _WORDS[key]


def pages_of(pdf, name: str) -> list:
    """Pages whose header (the first two text lines) carries the unit's name."""
    return [page for page, text in zip(pdf.pages, page_texts(pdf))
            if squash(name) in squash("".join(text.split("\n")[:2]))]


def test_page_size_is_the_poker_card_to_a_tenth_of_a_mm(card_pdf):
    _, pdf, _ = card_pdf
    for page in pdf.pages:
        assert abs(page.width / MM - 63.5) < 0.1 and abs(page.height / MM - 88.9) < 0.1


def test_every_weapon_characteristic_and_ability_is_on_the_units_cards(card_pdf, units):
    _, pdf, _ = card_pdf
    for d in units:
        pages = pages_of(pdf, d.name)
        assert pages, f"no card for {d.name}"
        # word by word: a name wrapped inside a table cell is read interleaved with its row
        words = {squash(w["text"]).strip("[]:,") for p in pages for w in page_words(p)}
        wanted = [w.name for w in d.weapons] + [a.name for a in d.abilities]
        wanted += [v for p in d.profiles for v in p.stats.values()]
        wanted += [v for w in d.weapons for v in (w.range, w.type, w.A, w.skill, w.S, w.AP, w.D) if v]
        missing = [x for x in wanted if not all(printed(t, words) for t in x.split())]
        assert not missing, f"{d.name}: not on its cards: {missing}"


def printed(token: str, words: set[str]) -> bool:
    """The token is a word on the page, or its hyphenated parts are (wrapped after a hyphen)."""
    parts = [squash(p) for p in re.split(r"(?<=-)", token) if p]
    return squash(token) in words or all(p in words for p in parts)


def test_no_text_outside_the_trim_box(card_pdf):
    _, pdf, _ = card_pdf
    for page in pdf.pages:
        for c in page.chars:
            assert c["x0"] >= 0 and c["x1"] <= page.width + 0.01, (page.page_number, c["text"])
            assert c["top"] >= 0 and c["bottom"] <= page.height + 0.01, (page.page_number, c["text"])


def test_no_text_under_seven_points(card_pdf, sheet_pdf):
    for _, pdf, _ in (card_pdf, sheet_pdf):
        sizes = [c["size"] for page in pdf.pages for c in page.chars if c["text"].strip()]
        assert sizes and min(sizes) >= 6.9, min(sizes)


def test_a_unit_too_long_for_one_card_continues_on_cards_marked_k_of_n(units, corpus, tmp_path):
    import dataclasses

    import pdfplumber

    from ruleslawyer.cards import make_cards
    from ruleslawyer.records import Ability

    chrono = next(u for u in units if u.name == "Chronomancer")
    words = " ".join(f"Clause {i} of a very long unit rule." for i in range(160))
    huge = dataclasses.replace(chrono, abilities=chrono.abilities + (Ability("Long Rule", words, "unit"),))
    cards = make_cards([huge], corpus, {"size": "poker"})
    faces = [f for pair in cards.pairs for f in pair if f.side != "blank"]
    total = faces[0].total
    assert total >= 2 and len({f.font_pt for f in faces}) == 1 and faces[0].font_pt >= cards.options.floor_pt
    path = tmp_path / "long.pdf"
    cards.write_pdf(path)
    with pdfplumber.open(path) as pdf:
        texts = [page.extract_text() or "" for page in pdf.pages]
    marks = {m for t in texts for m in re.findall(r"\b(\d)/(\d)\b", t)}
    assert {(str(k), str(total)) for k in range(1, total + 1)} <= marks
    first = next(k for k, f in enumerate(faces) for b in f.blocks if b.kind == "text" and b.data["title"] == "Long Rule")
    parts = [next(b for b in faces[first].blocks if b.data.get("title") == "Long Rule").data["text"]]
    for f in faces[first + 1:]:  # a continuation opens the next face, untitled
        if not (f.blocks and f.blocks[0].kind == "text" and f.blocks[0].continued):
            break
        parts.append(f.blocks[0].data["text"])
    assert len(parts) >= 3 and squash("".join(parts)) == squash(words), "text lost where the rule was split"
    printed = squash(" ".join(texts))
    assert all(squash(p) in printed for p in parts)


def test_rules_in_full_on_the_card_never_cut(units, corpus, tmp_path):
    """Each named rule is on the card by its operative text in full, or, as a last resort, named
    there with its number and printed in full on the rules sheet; nothing ends in "…"."""
    from ruleslawyer.cards import make_cards
    from ruleslawyer.library.operative import operative_text

    chrono = [u for u in units if u.name == "Chronomancer"]
    cards = make_cards(chrono, corpus, {"size": "poker", "rules_sheet": True})
    unit_faces = [f for pair in cards.pairs for f in pair if f.kind == "datasheet"]
    texts = [b.data.get("text", "") for f in unit_faces for b in f.blocks]
    assert not [t for t in texts if t.rstrip().endswith("\u2026")]
    on_card = squash(" ".join(texts))
    named = " ".join(text for f in unit_faces for b in f.blocks if b.kind == "lines"
                     for label, text in b.data["lines"] if "rules sheet" in label)
    sheet = squash(" ".join(b.data.get("text", "") for pair in cards.pairs for f in pair if f.kind == "rules"
                            for b in f.blocks))
    leader = next(r for r in corpus if r.kind == "rule" and r.name == "Leader" and r.edition == 10)
    card_leader = next(a for a in chrono[0].abilities if a.name == "Leader")
    full = card_leader.text or leader.text
    on_leader = [b.data["text"] for f in unit_faces for b in f.blocks if b.data.get("title") == "Leader"]
    if "Leader" in named or (on_leader and "in full: rules sheet" in on_leader[0]):
        # by name or by the sentence saying what it does: in full on the rules sheet
        assert squash(full[:200]) in sheet and squash(full[-120:]) in sheet
        assert not on_leader or "you can select one of those Bodyguard units" in on_leader[0]
    else:
        assert squash(operative_text(full)) in on_card
    pointers = named or any("in full: rules sheet" in t for t in texts)
    assert bool(pointers) == bool(sheet)


def test_nine_poker_cards_on_a4_portrait_with_marks_outside_the_cuts(sheet_pdf):
    _, pdf, _ = sheet_pdf
    front = pdf.pages[0]
    assert abs(front.width / MM - 210) < 0.1 and abs(front.height / MM - 297) < 0.1
    cards = card_boxes(front)
    assert len(cards) == 9
    for x0, top, x1, _ in cards:
        assert abs((x1 - x0) / MM - 63.5) < 0.1
    marks = [r for r in front.rects if min(r["width"], r["height"]) < 1 and max(r["width"], r["height"]) > 5]
    assert len(marks) >= 4 * 4 * 2 - 8  # each cut line, both ends
    for m in marks:
        for x0, top, x1, bottom in cards:
            inside = m["x0"] < x1 - 0.1 and m["x1"] > x0 + 0.1 and m["top"] < bottom - 0.1 and m["bottom"] > top + 0.1
            assert not inside, f"crop mark {m['x0']:.1f},{m['top']:.1f} inside a card"


def card_boxes(page) -> list[tuple[float, float, float, float]]:
    """Card trim boxes from their header bands (full-width filled rects at a card's top)."""
    bands = [r for r in page.rects if abs(r["width"] / MM - 63.5) < 0.2 and r["height"] > 5]
    return sorted({(round(r["x0"], 1), round(r["top"], 1), round(r["x1"], 1), round(r["top"] + 88.9 * MM, 1))
                   for r in bands}, key=lambda b: (b[1], b[0]))


def face_label(page, box) -> str:
    """The title and k/n badge printed in the header of the card in `box`."""
    x0, top, x1, _ = box
    words = [w for w in page_words(page) if x0 <= w["x0"] and w["x1"] <= x1 and top <= w["top"] < top + 9 * MM]
    return squash("".join(w["text"] for w in sorted(words, key=lambda w: (round(w["top"]), w["x0"]))))


def test_duplex_backs_sit_mirrored_behind_their_fronts(sheet_pdf):
    cards, pdf, _ = sheet_pdf
    assert len(pdf.pages) % 2 == 0
    for i in range(0, len(pdf.pages), 2):
        front, back = pdf.pages[i], pdf.pages[i + 1]
        fronts = card_boxes(front)
        backs = {face_label(back, b): b for b in card_boxes(back)}
        sheet = cards.sheets[i]
        assert len(fronts) == len(sheet.slots) - sum(s.face.side == "blank" for s in sheet.slots)
        for f_slot, b_slot in zip(cards.sheets[i].slots, cards.sheets[i + 1].slots):
            if b_slot.face.side == "blank" or f_slot.face.side == "blank":
                continue
            label = squash(b_slot.face.title + (f"({b_slot.face.number}/{b_slot.face.total})" if b_slot.face.total > 1 else ""))
            fbox = next(b for b in fronts if abs(b[0] - f_slot.left * MM) < 1 and abs(b[1] - f_slot.top * MM) < 1)
            matches = [b for key, b in backs.items() if label in key]
            assert matches, f"back of {label} not found"
            bx0, btop, bx1, _ = matches[0]
            # flip on the long (vertical) edge: x mirrored about the sheet's centre, same height
            assert abs(bx0 - (front.width - fbox[2])) < 0.5 and abs(btop - fbox[1]) < 0.5, label


def test_bleed_grows_the_page_and_keeps_text_in_the_trim_box(units, corpus, tmp_path):
    import pdfplumber

    from ruleslawyer.cards import make_cards

    chrono = [u for u in units if u.name == "Chronomancer"]
    path = tmp_path / "bleed.pdf"
    make_cards(chrono, corpus, {"size": "poker", "bleed": 3}).write_pdf(path)
    with pdfplumber.open(path) as pdf:
        for page in pdf.pages:
            assert abs(page.width / MM - 69.5) < 0.1 and abs(page.height / MM - 94.9) < 0.1
            trim = [float(v) for v in page.page_obj.attrs["TrimBox"]]
            assert abs((trim[2] - trim[0]) / MM - 63.5) < 0.1 and abs((trim[3] - trim[1]) / MM - 88.9) < 0.1
            for c in page.chars:
                assert trim[0] <= c["x0"] and c["x1"] <= trim[2]
                assert page.height - trim[3] <= c["top"] and c["bottom"] <= page.height - trim[1]


def test_html_output_is_the_same_cards(card_pdf, units):
    cards, _, _ = card_pdf
    assert "size: 63.5mm 88.9mm" in cards.html
    for d in units:
        assert d.name in cards.html.replace("&#39;", "'")


def test_pngs_for_a_person_to_look_at(card_pdf, sheet_pdf):
    if not shutil.which("pdftoppm"):
        if os.environ.get("CI") == "true":
            pytest.fail("pdftoppm (poppler-utils) is not installed")
        pytest.skip("pdftoppm (poppler-utils) is not installed")
    ARTIFACTS.mkdir(exist_ok=True)
    for (_, _, path), name, page in ((sheet_pdf, "cards_sheet", 1), (card_pdf, "cards_card", 2)):
        subprocess.run(["pdftoppm", "-r", "100", "-png", "-singlefile", "-f", str(page), "-l", str(page),
                        str(path), str(ARTIFACTS / name)], check=True)
        assert (ARTIFACTS / f"{name}.png").stat().st_size > 10_000


def test_cards_command_writes_html_and_reports(runner, shared, tmp_path):
    from ruleslawyer.cli.main import cli

    seed = str(seed_path(shared, "001"))
    assert runner.invoke(cli, ["ingest", seed]).exit_code == 0
    out = tmp_path / "chrono.html"
    result = runner.invoke(cli, ["cards", "chronomancer", "--size", "tarot", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"Wrote {out}: 1 record(s), ")
    assert "70 x 120 mm" in result.output
    html = out.read_text(encoding="utf-8")
    assert "size: 70.0mm 120.0mm" in html and "Chronomancer" in html and "Aeonstave" in html
    bad = runner.invoke(cli, ["cards", "chronomancer", "--out", str(tmp_path / "x.txt")])
    assert bad.exit_code == 1 and bad.output.strip().count("\n") == 0 and "must end in .pdf or .html" in bad.output


def test_stratagem_card_carries_when_target_effect(corpus, tmp_path):
    import pdfplumber

    from ruleslawyer.cards import make_cards
    from ruleslawyer.cards.select import select_records

    chosen = select_records(corpus, ["Protocol of the Hungry Void"], stratagems=True).records
    assert [r.kind for r in chosen] == ["stratagem"]
    strat = chosen[0]
    path = tmp_path / "strat.pdf"
    make_cards(chosen, corpus, {"size": "tarot"}).write_pdf(path)
    with pdfplumber.open(path) as pdf:
        page = pdf.pages[0]
        assert abs(page.width / MM - 70) < 0.1 and abs(page.height / MM - 120) < 0.1
        text = squash(page.extract_text())
    for value in (strat.name, strat.when, strat.target, strat.effect):
        assert squash(value) in text
