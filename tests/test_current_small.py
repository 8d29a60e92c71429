"""Current answers on small stores: names of every script, as-of dates, what changed, detachments."""
from __future__ import annotations

import json
import unicodedata

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.names import fold, name_key, title_case


@pytest.mark.parametrize("printed, expected", [
    ("WARBOSS IN MEGA ARMOUR", "Warboss in Mega Armour"), ("Warboss In Mega Armour", "Warboss in Mega Armour"),
    ("KHÂRN THE BETRAYER", "Khârn the Betrayer"), ("LION EL'JONSON", "Lion El'Jonson"),
    ("Lion El'jonson", "Lion El'Jonson"), ("RE-ROLL", "Re-roll"), ("GAIN CP", "Gain CP"), ("Gain Cp", "Gain CP"),
    ("WHAT IS DEAD", "What Is Dead"), ("T'AU EMPIRE", "T'au Empire"), ("ORK'S", "Ork's")])
def test_title_case(printed, expected):
    assert title_case(printed) == expected


def test_fold_keeps_every_script():
    names = ["Быстрый воин", "Медленный воин", "Ἀχιλλεύς", "速い戦士", "遅い戦士"]
    assert all(fold(n) for n in names)
    assert len({fold(n) for n in names}) == len(names)
    assert fold("Café") == fold(unicodedata.normalize("NFD", "Café")) == fold("Ca\u200bfé") == "cafe"
    assert fold("Khârn") == "kharn" and name_key("Быстрые воины") != name_key("Медленные воины")


def _store(tmp_path, files: dict[str, str], dated: dict[str, str] | None = None):
    db = tmp_path / "s.sqlite"
    runner = CliRunner()
    for name, text in files.items():
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        args = ["--db", str(db), "--create", "ingest", "-q", str(path)]
        if dated and name in dated:
            args += ["--dated", dated[name]]
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, result.output
    return lambda *a: runner.invoke(cli, ["--db", str(db), *a])


def test_pick_a_name_in_cyrillic():
    from ruleslawyer.library.corpus import Corpus
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.records import Rule, Source

    records = [Rule(name=n, source=Source(file="ru.md"), text=t, edition=11)
               for n, t in (("Быстрый воин", "быстро"), ("Медленный воин", "медленно"), ("速い戦士", "速い"))]
    corpus = Corpus(records=records, originals=records)
    assert pick_record(corpus, "быстрый воин").record.text == "быстро"
    assert pick_record(corpus, "速い戦士").record.text == "速い"


def test_as_of_uses_the_printing_of_that_date(tmp_path):
    run = _store(tmp_path, {"a.md": "# Overwatch\n\nShoot at the charger, hitting on 6s.\n",
                            "b.md": "# Overwatch\n\nShoot at the charger, hitting on 5s and 6s.\n"},
                 dated={"a.md": "2026-01-10", "b.md": "2026-08-01"})
    now = run("show", "overwatch")
    assert "5s and 6s" in now.output and "b.md" in now.output
    then = run("show", "overwatch", "--as-of", "2026-03-01")
    assert then.exit_code == 0, then.output
    assert "hitting on 6s" in then.output and "As of 2026-03-01" in then.output
    assert json.loads(run("show", "overwatch", "--json", "--as-of", "2026-03-01").output)["answer"]["as_of"] \
        == "2026-03-01"
    bad = run("show", "overwatch", "--as-of", "March")
    assert bad.exit_code != 0 and "YYYY-MM-DD" in bad.output


def test_changes_between_two_versions_and_since(tmp_path):
    run = _store(tmp_path, {"pack_v1.0.md": "BLOOD TITHE\n\nEach kill gains one point for the army.\n\nOLD RULE\n\n"
                                            "This rule is printed only in the first version.\n",
                            "pack_v1.1.md": "BLOOD TITHE\n\nEach kill gains two points for the army.\n\nNEW RULE\n\n"
                                            "This rule is printed only in the second version.\n"},
                 dated={"pack_v1.0.md": "2026-06-10", "pack_v1.1.md": "2026-07-22"})
    result = run("changes", "--document", "pack", "--json")
    assert result.exit_code == 0, result.output
    found = {(c["status"], c["name"]) for c in map(json.loads, result.output.splitlines())}
    assert found == {("changed", "Blood Tithe"), ("added", "New Rule"), ("removed", "Old Rule")}
    since = run("changes", "--since", "2026-07-01")
    assert "Blood Tithe" in since.output and "New Rule" in since.output and "Old Rule" not in since.output
    assert run("changes").exit_code != 0


def test_names_that_collide_are_reported_and_both_kept():
    from ruleslawyer.library.reconcile import FileInfo, reconcile
    from ruleslawyer.records import Rule, Source

    a = Rule(name="Café Rule", source=Source(file="a.md"), text="One text.")
    b = Rule(name="Cafe Rule", source=Source(file="b.md"), text="One text.")
    c = Rule(name="CAFÉ RULE", source=Source(file="c.md"), text="One text.")
    merged = reconcile([(a, FileInfo("a.md", "a.md", "2026-01-01")), (b, FileInfo("b.md", "b.md", "2026-01-02")),
                        (c, FileInfo("c.md", "c.md", "2026-01-03"))])
    (entry,) = merged.conflicts
    assert {r.name for r in [entry.chosen, *(r for r, _ in entry.others)]} == {"Café Rule", "Cafe Rule", "CAFÉ RULE"}
    assert [d.field for d in entry.differences] == ["name"]


def test_units_named_in_other_scripts_stay_apart():
    from ruleslawyer.library.reconcile import FileInfo, identity, reconcile
    from ruleslawyer.records import Datasheet, Source

    names = ["Быстрый воин", "Медленный воин", "速い戦士", "遅い戦士", "Ταχύς πολεμιστής"]
    sheets = [Datasheet(name=n, source=Source(file="units.cat"), edition=10, faction="Test") for n in names]
    assert len({identity(d) for d in sheets}) == len(names)
    merged = reconcile((d, FileInfo("units.cat", "units.cat", "2026-01-01")) for d in sheets)
    assert [d.name for d in merged.records] == names and not merged.conflicts


def test_initials_name_a_rule_when_one_rule_has_them():
    from ruleslawyer.errors import NotFoundError
    from ruleslawyer.library.corpus import Corpus
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.records import Rule, Source

    records = [Rule(name=n, source=Source(file="r.md"), text="t", edition=11)
               for n in ("Feel No Pain", "Fights First", "Foe's Fate")]
    corpus = Corpus(records=records, originals=records)
    assert pick_record(corpus, "fnp").record.name == "Feel No Pain"
    with pytest.raises(NotFoundError):  # two rules are "ff": no guess
        pick_record(corpus, "ff")


def _pack_versions():
    """Two versions of a made-up faction pack: an erratum kept, one changed, one added, an FAQ dropped."""
    from ruleslawyer.library.corpus import Corpus
    from ruleslawyer.library.reconcile import FileInfo
    from ruleslawyer.records import Faq
    from tests.factories import erratum, source

    old, new = source("pack_v1.0.pdf"), source("pack_v1.1.pdf")

    def version(src, v, entries, faqs):
        return ([erratum(t, x, document="Pack", version=v, page="7", edition=11, src=src) for t, x in entries]
                + [Faq(question=q, answer="No.", source=src, document="Pack", version=v, edition=11) for q in faqs])

    records = (version(old, "1.0", [("Kept Rule", "Roll a D6."), ("Moved Rule", "Move 6\".")], ["Can I charge twice?"])
               + version(new, "1.1", [("Kept Rule", "Roll a D6."), ("Moved Rule", "Move 8\"."),
                                      ("Lord Enhancement", "INFANTRY model only.")], []))
    infos = {"pack_v1.0.pdf": FileInfo("pack_v1.0.pdf", "pack_v1.0.pdf", "2026-06-10", "pdf", 0, "1.0", "2026-06-10"),
             "pack_v1.1.pdf": FileInfo("pack_v1.1.pdf", "pack_v1.1.pdf", "2026-07-22", "pdf", 0, "1.1", "2026-07-22")}
    return Corpus(records=records, originals=records, files=infos)


def test_changes_compare_errata_and_faq_entries_of_two_document_versions():
    from ruleslawyer.library.changes import changes_since

    found = {(c.status, c.kind, c.name, c.fields) for c in changes_since(_pack_versions(), "2026-07-01")}
    assert found == {("changed", "errata", "Moved Rule", ("text",)), ("added", "errata", "Lord Enhancement", ()),
                     ("removed", "faq", "Can I charge twice?", ())}
    assert not changes_since(_pack_versions(), "2026-08-01")


def _one_name_corpus(records, dates=None):
    from ruleslawyer.library.corpus import Corpus
    from ruleslawyer.library.reconcile import FileInfo

    dates = dates or {}
    files = {r.source.file: FileInfo(r.source.file, r.source.file, dates.get(r.source.file, "2026-01-01"),
                                     "html", 0, None, dates.get(r.source.file)) for r in records}
    return Corpus(records=list(records), originals=list(records), files=files)


def test_one_rule_filed_under_a_faction_by_a_page_is_one_answer():
    from ruleslawyer.library.pick import pick_record
    from tests.factories import rule, source

    words = "While a model is within 1 inch horizontally and 5 inches vertically of an enemy model, they are close."
    core = rule("Close Range", words, edition=10, src=source("core_page.html"))
    page = rule("Close Range", words + " Stealth: some warriors hide.", edition=10, faction="Rats",
                src=source("rats_page.html"))
    picked = pick_record(_one_name_corpus([page, core]), "close range", edition=10)
    assert picked.record is core and picked.also == [page]
    assert pick_record(_one_name_corpus([page, core]), "close range", source="rats_page.html").record is page


def test_a_chapter_stratagem_filed_under_the_parent_faction_is_one_answer():
    from ruleslawyer.errors import AmbiguousNameError
    from ruleslawyer.library.pick import pick_record
    from tests.factories import sheet, source, stratagem

    pack = stratagem("Cold Howl", faction="Ice Wolves", group="Champions", cp=1, effect="Enemies test.",
                     src=source("pack.pdf"))
    export = stratagem("Cold Howl", faction="Star Marines", group="CHAMPIONS", cp=1, effect="Each enemy tests.",
                       src=source("export.csv"))
    wolf = sheet("Wolf Guard", faction="Star Marines", faction_keywords=("ICE WOLVES",), src=source("export.csv"))
    dates = {"pack.pdf": "2025-10-01", "export.csv": "2025-11-14"}
    picked = pick_record(_one_name_corpus([pack, export, wolf], dates), "cold howl")
    assert picked.record is export and picked.also == [pack]
    stranger = stratagem("Cold Howl", faction="Bone Kings", group="Champions", effect="Something else.",
                         src=source("bones.pdf"))
    with pytest.raises(AmbiguousNameError):  # another faction's namesake is another thing
        pick_record(_one_name_corpus([pack, stranger, wolf], dates), "cold howl")


def test_detachment_view_prints_each_enhancement_whole_with_its_restriction():
    """A detachment's enhancements are printed with their restriction and every paragraph: a
    rule cut after its first line ("... roll one D6:") would say nothing of what happens."""
    from ruleslawyer.library.detachments import Detachment
    from ruleslawyer.records import Enhancement, Source
    from ruleslawyer.termview.answer import format_detachment

    enhancement = Enhancement(name="Stubborn Hide", source=Source(file="made-up.pdf"), edition=11, faction="Orks",
                              points=20, group="Made-up Mob", restriction="WARBOSS model only.",
                              text="When this model is destroyed, roll one D6:\nOn a 4+, it stays on the battlefield.")
    shown = " ".join(format_detachment(Detachment("Made-up Mob", "Orks", 11, enhancements=[enhancement])).split())
    assert "Stubborn Hide (20 pts): WARBOSS model only. When this model is destroyed, roll one D6: On a 4+, it stays" \
        in shown


def test_an_enhancement_a_catalogue_lists_without_its_detachment_is_the_same_enhancement():
    from ruleslawyer.errors import AmbiguousNameError
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.records import Enhancement
    from tests.factories import source

    sheet = Enhancement(name="Stubborn Hide", source=source("sheet.pdf"), edition=11, faction="Orks", points=25,
                        group="Made-up Mob", text="When this model is destroyed, roll one D6.")
    catalogue = Enhancement(name="Stubborn Hide", source=source("catalogue.json"), edition=11, faction="Orks",
                            text="When destroyed, roll a D6.")
    dates = {"sheet.pdf": "2026-07-06", "catalogue.json": "2026-06-10"}
    picked = pick_record(_one_name_corpus([catalogue, sheet], dates), "stubborn hide")
    assert picked.record is sheet and picked.also == [catalogue]
    other = Enhancement(name="Stubborn Hide", source=source("other.pdf"), edition=11, faction="Orks",
                        group="Another Mob", text="Something else entirely.")
    with pytest.raises(AmbiguousNameError):  # two detachments' namesakes are two things
        pick_record(_one_name_corpus([sheet, other], dates), "stubborn hide")


def test_a_detachment_of_the_current_edition_answers_before_an_older_namesake():
    """An 11th edition detachment named like a 9th edition stratagem: the detachment view answers
    (its DP and enhancement costs), the stratagem is named under "also"; with --edition 9 the
    stratagem answers."""
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.records import Enhancement, ItemCost, Points
    from ruleslawyer.termview.answer import format_detachment
    from tests.factories import source, stratagem

    old = stratagem("Claws of the Throne", edition=9, faction="Gold Guard", cp=1, effect="Add 1.",
                    src=source("old.csv"))
    part = Enhancement(name="Shiny Shield", source=source("det.csv"), edition=11, faction="Gold Guard", points=20,
                       group="Claws of the Throne", text="Ignore damage once.")
    price = Points(name="Claws of the Throne", source=source("mfm.yaml"), edition=11, faction="Gold Guard",
                   version="1.1", target_kind="detachment", detachment_points=3,
                   wargear_costs=(ItemCost("Shiny Shield", 20), ItemCost("Bright Cloak", 30)))
    corpus = _one_name_corpus([old, part, price], {"old.csv": "2022-01-01", "mfm.yaml": "2026-07-22"})
    picked = pick_record(corpus, "claws of the throne")
    assert picked.detachment is not None and picked.detachment.edition == part.edition
    assert picked.detachment.detachment_points == price.detachment_points
    assert picked.detachment.also == [old]
    shown = format_detachment(picked.detachment)
    assert "also: stratagem 9th edition (old.csv)" in shown and "--edition 9" in shown
    assert pick_record(corpus, "claws of the throne", edition=9).record is old
    tenth = Enhancement(name="Dull Shield", source=source("det10.csv"), edition=10, faction="Gold Guard",
                        group="Claws of the Throne", text="Ignore damage.")
    asked = pick_record(_one_name_corpus([old, part, price, tenth]), "claws of the throne", edition=10)
    assert asked.detachment is not None and asked.detachment.enhancements == [tenth]
    newer = stratagem("Claws of the Throne", edition=11, faction="Gold Guard", cp=1, effect="Add 2.",
                      src=source("new.csv"))  # a current namesake of another kind: that record is meant
    assert pick_record(_one_name_corpus([old, part, price, newer]), "claws of the throne").detachment is None


def test_an_enhancement_of_an_older_edition_gives_its_own_current_cost():
    """A 10th edition enhancement whose detachment an 11th edition points list prices: the line
    gives this enhancement's cost from that list and says both editions, never the other
    enhancements of an older list."""
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.records import Enhancement, ItemCost, Points
    from ruleslawyer.termview.answer import answer_lines
    from tests.factories import source

    text = Enhancement(name="Long Blade", source=source("export.csv"), edition=10, faction="Gold Guard", points=25,
                       group="Host", text="Add 1 to Strength.")
    tenth = Points(name="Host", source=source("mfm10.pdf"), edition=10, faction="Gold Guard", version="1.2",
                   target_kind="detachment", wargear_costs=(ItemCost("Other Thing", 30),))
    eleventh = Points(name="Host", source=source("mfm11.yaml"), edition=11, faction="Gold Guard", version="1.1",
                      target_kind="detachment", detachment_points=2,
                      wargear_costs=(ItemCost("Long Blade", 20), ItemCost("Other Thing", 10)))
    dates = {"export.csv": "2025-11-14", "mfm10.pdf": "2023-06-27", "mfm11.yaml": "2026-07-22"}
    picked = pick_record(_one_name_corpus([text, tenth, eleventh], dates), "long blade")
    assert [(c.name, c.points) for c in picked.price.wargear_costs] == [("Long Blade", 20)]
    assert picked.price.file == "mfm11.yaml"
    line = next(line for line in answer_lines(picked) if line.startswith("Current points"))
    assert "10th edition text; 11th edition points: 20, mfm11.yaml v1.1" in line and "Other Thing" not in line
    unnamed = pick_record(_one_name_corpus([text, tenth], dates), "long blade")
    assert unnamed.price is None  # no list names it: its printed cost stands


def test_a_unit_filed_under_a_chapter_and_its_parent_faction_is_one_unit():
    """A faction pack files a unit under the chapter (keywords not read); an export files it under
    the parent faction with the chapter's faction keyword: one unit, the newest dated printing
    answers. Units of factions that name neither stay apart."""
    from ruleslawyer.errors import AmbiguousNameError
    from ruleslawyer.library.pick import pick_record
    from tests.factories import sheet, source

    pack = sheet("Frost Rider", faction="Ice Wolves", src=source("pack.pdf"))
    export = sheet("Frost Rider", faction="Star Marines", faction_keywords=("STAR ASTARTES", "ICE WOLVES"),
                   src=source("export.csv"))
    dates = {"pack.pdf": "2025-10-08", "export.csv": "2025-11-14"}
    picked = pick_record(_one_name_corpus([pack, export], dates), "frost rider")
    assert picked.record is export and picked.also == [pack]
    later = {"pack.pdf": "2025-12-01", "export.csv": "2025-11-14"}
    assert pick_record(_one_name_corpus([pack, export], later), "frost rider").record is pack
    legion = sheet("Frost Rider", faction="Bone Legion", faction_keywords=("BONE LEGION",), src=source("bones.csv"))
    with pytest.raises(AmbiguousNameError):
        pick_record(_one_name_corpus([pack, legion], dates), "frost rider")


def test_a_datasheet_no_list_of_its_edition_prices_names_the_older_price_as_such():
    from ruleslawyer.library.pick import pick_record
    from ruleslawyer.records import UnitCost
    from ruleslawyer.termview.answer import answer_lines
    from tests.factories import sheet, source

    old = sheet("Hell Wyrm", edition=10, faction="Blood Host", points=(UnitCost("1", 200),), src=source("old.csv"))
    new = sheet("Hell Wyrm", edition=11, faction="Blood Host", src=source("pack.pdf"))
    picked = pick_record(_one_name_corpus([old, new], {"old.csv": "2025-10-08", "pack.pdf": "2026-07-22"}),
                         "hell wyrm")
    assert picked.record is new and picked.price.edition == old.edition
    line = next(line for line in answer_lines(picked) if line.startswith("Points"))
    assert line.startswith("Points (10th edition, old.csv") and "no 11th edition points" in line
