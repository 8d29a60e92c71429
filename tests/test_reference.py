"""One reference from overlapping documents: identity, precedence, errata in time, own factions."""
from __future__ import annotations

import pytest

from ruleslawyer.ingest.pipeline import Dating, ingest_paths
from ruleslawyer.library.corpus import load_corpus
from ruleslawyer.library.files import find_conflicts, remove_files
from ruleslawyer.library.reconcile import FileInfo, identity, rank, reconcile
from ruleslawyer.records import Datasheet, Profile, Rule, Stratagem
from ruleslawyer.store import Store
from tests.conftest import require_shared
from tests.factories import erratum, rule, sheet, source


def _info(name, date, fmt="text", published=None, preference=0):
    return FileInfo(name, name, date, fmt, preference, None, published)


def test_identity_uses_kind_name_faction_edition_and_group():
    a = Stratagem("Command Re-roll", source("a.txt"), edition=10, group="Core")
    b = Stratagem("COMMAND RE-ROLL", source("b.txt"), edition=10, group="core")
    c = Stratagem("Command Re-roll", source("c.txt"), edition=10, group="Boarding Actions")
    assert identity(a) == identity(b) != identity(c)
    assert identity(rule("Deep Strike", edition=10)) != identity(rule("Deep Strike", edition=9))


def test_newest_stated_date_wins_and_a_structured_export_beats_a_page_of_that_date():
    page = _info("page.html", "2025-01-01", "html", published="2025-01-01")
    export = _info("export", "2025-01-01", "wahapedia-csv", published="2025-01-01")
    newer = _info("new.pdf", "2025-06-01", "pdf", published="2025-06-01")
    undated = _info("cat", "2026-11-25", "battlescribe")
    assert rank(export) > rank(page)
    assert rank(newer) > rank(export)
    assert rank(newer) > rank(undated)  # an ingest day is not a publication date
    assert rank(_info("x", "2020-01-01", preference=1)) > rank(newer)


def test_printings_merge_and_their_differences_are_listed():
    old = sheet("Canoptek Reanimator", profiles=(Profile("Canoptek Reanimator", {"Ld": "8+", "T": "6"}),),
                faction="Necrons", src=source("cat"))
    new = sheet("Canoptek Reanimator", profiles=(Profile("Canoptek Reanimator", {"Ld": "7+", "T": "6"}),),
                faction="Necrons", src=source("csv"))
    result = reconcile([(old, _info("cat", "2026-01-01")), (new, _info("csv", "2025-11-14", published="2025-11-14"))])
    assert result.records == [new]
    entry = result.printings[id(new)]
    assert [i.name for _, i in entry.others] == ["cat"]
    assert [(d.field, d.values) for d in entry.differences] == [
        ("Ld (Canoptek Reanimator)", (("csv", "7+"), ("cat", "8+")))]


def test_a_rule_shown_on_another_factions_page_keeps_its_defining_faction():
    defined = rule("Code Chivalric", "Knights do knightly things.", edition=10, faction="Imperial Knights")
    popup = rule("Code Chivalric", "Knights do knightly things.", edition=10, faction="Necrons")
    result = reconcile([(defined, _info("Abilities.csv", "2025-01-01", "wahapedia-csv")),
                        (popup, _info("necrons.html", "2025-01-01", "html"))])
    assert [r.faction for r in result.records] == ["Imperial Knights"]


def test_errata_apply_only_to_printings_older_than_their_document(tmp_path):
    rules = tmp_path / "rules.md"
    rules.write_text("# Deep Strike\n\nSet it up anywhere more than 9\" away from enemy models.\n", "utf-8")
    faq = tmp_path / "faq.txt"
    faq.write_text("CORE BOOK\n\nIndomitus Version 1.1\n\nERRATA\n\nPage 1 – Deep Strike\n\n"
                   "Change this rule to read: 'Set it up anywhere more than 12\" away from enemy models.'\n\n"
                   "Page 2 – Advance\n\nChange the first sentence to read: 'Add D6\" to the Move characteristic.'\n",
                   "utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        ingest_paths(store, [faq], dating=Dating(date="2024-01-01"))
        ingest_paths(store, [rules], dating=Dating(date="2025-01-01"))
        corpus = load_corpus(store)
        [outcome] = [o for o in corpus.outcomes if o.erratum.target == "Deep Strike"]
        assert not outcome.applied and "rules.md (dated 2025-01-01) is newer than" in outcome.reason
        deep_strike = next(r for r in corpus.records if isinstance(r, Rule) and r.name == "Deep Strike")
        assert '9"' in deep_strike.text and not deep_strike.changes
        ingest_paths(store, [rules], dating=Dating(date="2023-01-01"))  # now printed before the FAQ
        corpus = load_corpus(store)
        assert [o.applied for o in corpus.outcomes if o.erratum.target == "Deep Strike"] == [True]
        deep_strike = next(r for r in corpus.records if isinstance(r, Rule) and r.name == "Deep Strike")
        assert '12"' in deep_strike.text


def test_remove_drops_a_file_and_refuses_unknown_names(tmp_path):
    from ruleslawyer.errors import NotFoundError

    doc = tmp_path / "rules.md"
    doc.write_text("# Deep Strike\n\nSet it up anywhere more than 9\" away from enemy models.\n", "utf-8")
    with Store(tmp_path / "s.sqlite") as store:
        ingest_paths(store, [doc])
        with pytest.raises(NotFoundError):
            remove_files(store, ["rulez.md", "rules.md"])
        assert store.files()  # nothing removed when one name is unknown
        assert remove_files(store, ["rules.md"]) == [str(doc.resolve())]
        assert not store.files() and store.is_empty()


# ---------------------------------------------------------------- the real pile
@pytest.fixture(scope="module")
def pile(tmp_path_factory):
    shared = require_shared()
    real = shared / "realdata"
    db = tmp_path_factory.mktemp("pile") / "pile.sqlite"
    with Store(db) as store:
        report = ingest_paths(store, [real / "wahadumper__wahadumper", real / "AndrewDeWitt__GrimLog",
                                      real / "Overcharged-Plasma__warhammer-pdfs" / "index_card_errata_v1.2_YRK9ZpspblzJHLb7.pdf",
                                      real / "BSData__wh40k-10e"])
        assert not report.failed, [f.error for f in report.failed]
        yield store, load_corpus(store)


def test_pile_has_one_hive_tyrant_of_10th_edition(pile):
    _, corpus = pile
    found = [r for r in corpus.records if isinstance(r, Datasheet) and r.name == "Hive Tyrant" and r.edition == 10
             and r.faction == "Tyranids"]
    assert len(found) == 1


def test_pile_lists_each_necrons_stratagem_once(pile):
    _, corpus = pile
    keys = [(r.name, r.group) for r in corpus.records if isinstance(r, Stratagem) and r.faction == "Necrons"]
    assert keys and len(keys) == len(set(keys))


def test_pile_obelisk_keeps_the_export_wording_and_the_older_erratum_is_reported(pile):
    _, corpus = pile
    obelisk = next(r for r in corpus.records if isinstance(r, Datasheet) and r.name == "Obelisk" and r.edition == 10)
    assert obelisk.source.file == "Datasheets.csv"
    assert not obelisk.changes
    gravitic = [o for o in corpus.outcomes if "Gravitic Pulse" in (o.erratum.target or "")]
    assert gravitic and not gravitic[0].applied and "is newer than Index Cards" in gravitic[0].reason


def test_pile_code_chivalric_is_an_imperial_knights_rule(pile):
    _, corpus = pile
    factions = {r.faction for r in corpus.records if isinstance(r, Rule) and r.name == "Code Chivalric"}
    assert factions == {"Imperial Knights"}


def test_pile_conflicts_name_the_canoptek_reanimators_leadership(pile):
    store, _ = pile
    found = [c for c in find_conflicts(store, kind="datasheet", faction="necrons") if c.name == "Canoptek Reanimator"]
    assert found
    ld = [d for d in found[0].differences if d.field.startswith("Ld")]
    assert ld and {v for _, v in ld[0].values} == {"7+", "8+"}
