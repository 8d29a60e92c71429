"""The issue 29 checks on the real 11th edition pile (../shared/realdata/e11 ingested): the cards of
its army lists (and of an 11th edition Ork list) never end a text in "…", print no type under
7 pt and leave no face under 60% full unless the unit's content is short; 40 of its datasheets,
picked evenly by name, fit one poker card front and back nine times in ten."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "armylists"
MIN_FILL = 0.6


@pytest.fixture(scope="module")
def e11_store(shared, tmp_path_factory):
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    folder = shared / "realdata" / "e11"
    db = tmp_path_factory.mktemp("e11") / "store.sqlite"
    with Store(db) as store:
        ingest_paths(store, [folder])
    return db


def list_files(shared):
    lists = sorted((shared / "realdata" / "e11" / "lists").glob("11e_*.txt"))
    return lists + [FIXTURES / "e11_orks_app_old_points.txt"]


def texts(face):
    for b in face.blocks:
        yield str(b.data.get("text", ""))
        for _, text in b.data.get("lines", ()):
            yield str(text)


@pytest.mark.slow
@pytest.mark.realdata
def test_list_cards_are_never_cut_big_enough_and_full(e11_store, shared):
    from ruleslawyer.cards import CardError, CardOptions, make_cards
    from ruleslawyer.cards.render import face_fills
    from ruleslawyer.library.armylist_cards import list_card_records
    from ruleslawyer.store import Store

    printed = 0
    for path in list_files(shared):
        with Store(e11_store) as store:
            chosen = list_card_records(store, path)
        try:
            cards = make_cards(chosen.records, chosen.corpus_records, CardOptions(), verify=True)
        except CardError:  # no unit of the list is in these documents, and no detachment
            continue
        by_record = defaultdict(list)
        for face, fill in face_fills(cards.document, cards.sheets, cards.options):
            printed += 1
            by_record[face.key[0]].append((face, fill))
            assert face.font_pt >= 7.0, (path.name, face.title)
            assert not [t for t in texts(face) if t.rstrip().endswith("\u2026")], (path.name, face.title)
        for faces in by_record.values():
            content = sum(fill for _, fill in faces)  # in faces' worth: short when it cannot fill them all
            for face, fill in faces:
                assert fill >= MIN_FILL or content < len(faces) - 1 + MIN_FILL, (path.name, face.title, face.side, fill)
    assert printed >= 10


@pytest.mark.slow
@pytest.mark.realdata
def test_nine_in_ten_eleventh_edition_datasheets_fit_one_poker_card(e11_store):
    """With one card a unit (`one_card`); by default a unit whose rules in full do not fit
    takes a second card (bench/cards.py --issue29 counts them)."""
    from ruleslawyer.cards import CardOptions
    from ruleslawyer.cards.content import build_content
    from ruleslawyer.cards.fit import fit_cards
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    with Store(e11_store) as store:
        records = load_corpus(store).records
    units = sorted((r for r in records if r.kind == "datasheet" and r.edition == 11),
                   key=lambda r: (r.name, r.faction or ""))
    units = units[:: max(1, len(units) // 40)][:40]
    done = fit_cards(build_content(units, records), CardOptions(size="poker", one_card=True))
    one = [v for v in done.values() if v is not None]
    assert len(units) == 40 and len(one) / len(units) >= 0.9, f"{len(one)}/{len(units)} on one card"
    assert all(v[1] >= 7.0 for v in one)
