"""The current answer, asked the natural way, on everything in ../shared/realdata (issue 27).

One store of the whole pile is made per session (a few minutes); set RULESLAWYER_REALDATA_DB to
a store already made with `ruleslawyer --db X ingest ../shared/realdata` to reuse it (it is
copied, never written). Expected answers are read from the source documents' own files here
(the 11th edition rule numbers and distances, the points lists), not from the output under test.
"""
from __future__ import annotations

import json
import re
import shutil

import pytest
from click.testing import CliRunner

from ruleslawyer.cli.main import cli
from ruleslawyer.library.corpus import load_corpus
from ruleslawyer.store import Store

pytestmark = [pytest.mark.realdata, pytest.mark.slow]

_STORE: dict[str, object] = {}


@pytest.fixture(scope="module")
def pile(real_pile, tmp_path_factory):
    """A copy of the session's store of all of ../shared/realdata (conftest `real_pile`); set
    RULESLAWYER_REALDATA_DB to an existing store of the pile to skip the ingest."""
    db = tmp_path_factory.mktemp("pile") / "all.sqlite"
    shutil.copyfile(real_pile, db)
    return db


@pytest.fixture(scope="module")
def corpus(pile):
    with Store(pile) as store:
        return load_corpus(store)


def run(pile, *args):
    result = CliRunner().invoke(cli, ["--db", str(pile), *args])
    return result


def _mfm_points(shared, faction_file: str, unit: str) -> list[int]:
    """The points a Munitorum Field Manual YAML file lists for `unit` (read as text)."""
    text = (shared / "realdata" / "e11" / "mfm" / faction_file).read_text(encoding="utf-8")
    block = text.split(f"  - name: {unit}\n", 1)[1].split("\n  - name:", 1)[0]
    return [int(n) for n in re.findall(r"points: (\d+)", block)]


def test_engagement_range_is_the_11th_edition_rule(pile, shared):
    moving = (shared / "realdata" / "e11" / "pdf" / "core11_03_Moving.pdf")
    assert moving.is_file()
    result = run(pile, "show", "engagement range")
    assert result.exit_code == 0, result.output
    assert "03.04 Engagement" in result.output and '2" horizontally' in result.output
    assert "11th edition" in result.output and "core11_03_Moving.pdf" in result.output
    assert "Engagement Range (10th ed., 9th ed.)" in result.output  # the older rule named in one line


def test_oath_of_moment_shows_the_current_printing(pile):
    result = run(pile, "show", "oath of moment")
    assert result.exit_code == 0, result.output
    assert "11th edition" in result.output
    also = next(line for line in result.output.splitlines() if line.startswith("also:"))
    assert "10th ed." in also


def test_kasrkin_is_the_astra_militarum_unit(pile):
    result = run(pile, "show", "kasrkin", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["faction"] == "Astra Militarum"
    assert any(a["faction"] == "Genestealer Cults" for a in data["also"])


def test_warbos_is_the_11th_edition_warboss(pile):
    result = run(pile, "show", "warbos", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["name"] == "Warboss" and data["edition"] == 11
    assert data["answer"]["edition"] == 11 and data["answer"]["file"]
    assert "Warboss in Mega Armour" in {a["name"] for a in data["also"]}


def test_wound_rolls_asks_between_the_table_and_the_rule(pile):
    result = run(pile, "show", "wound rolls")
    assert result.exit_code == 1
    assert "--kind table" in result.output and "--kind rule" in result.output


def test_rule_number_is_a_name(pile, corpus):
    numbered = next(r for r in corpus.records if getattr(r, "number", None) == "05.02")
    result = run(pile, "show", "05.02")
    assert result.exit_code == 0, result.output
    assert numbered.name in result.output and "11th edition" in result.output


def test_detachment_view(pile, shared):
    result = run(pile, "show", "awakened dynasty")
    assert result.exit_code == 0, result.output
    text = (shared / "realdata" / "e11" / "mfm" / "necrons.yaml").read_text(encoding="utf-8")
    block = text.split("  - name: Awakened Dynasty\n", 1)[1].split("\n  - name:", 1)[0]
    dp = re.search(r"dp: (\d+)", block).group(1)
    assert f"{dp} DP" in result.output
    for name, pts in re.findall(r"\{ name: ([^,]+), points: (\d+) \}", block):
        assert f"{name} ({pts} pts)" in result.output


@pytest.mark.parametrize("unit, faction_file", [("Warboss", "orks.yaml"), ("Doomsday Ark", "necrons.yaml")])
def test_show_header_and_current_points_agree(pile, shared, corpus, unit, faction_file):
    from ruleslawyer.library.prices import current_price, price_sources

    result = run(pile, "show", unit, "--edition", "11")
    assert result.exit_code == 0, result.output
    header = result.output.splitlines()[0]
    # a "Current points" line when the price comes from another source than the card's own
    current = next((line for line in result.output.splitlines() if line.startswith("Current points")), header)
    price = current_price(corpus, unit, None, 11)
    for c in price.costs:  # the header and the points line give the same numbers
        assert f"{c.points} pts" in header and f"{c.points} pts" in current
    sources = price_sources(corpus, unit, None, 11)
    dated = [p.date for p in sources if p.date]
    assert price.date == max(dated)  # the newest dated source
    assert set(_mfm_points(shared, faction_file, unit)) <= {c.points for p in sources for c in p.costs}


def test_points_lists_disagreeing_sources_with_dates(pile):
    result = run(pile, "points", "warboss", "--faction", "orks", "--edition", "11")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0].startswith("Orks | Warboss (unit, 11th ed.)")
    others = [line for line in lines if line.startswith("    other source:")]
    assert others and all(re.search(r"\[.+, (\d{4}-\d{2}-\d{2}|undated)\]$", line) for line in others)
    assert any(re.search(r"\d{4}-\d{2}-\d{2}\]$", line) for line in others)


def test_core_stratagems_of_the_11th_edition(pile):
    result = run(pile, "stratagems", "--edition", "11", "--faction", "none", "--json")
    assert result.exit_code == 0, result.output
    names = [json.loads(line)["name"] for line in result.output.splitlines()]
    folded = [re.sub(r"[^a-z]", "", n.lower()) for n in names]
    assert len(folded) == len(set(folded)), names  # no Counter-offensive beside Counteroffensive
    assert "Go to Ground" not in names


def test_as_of_leaves_out_later_points(pile, corpus):
    from ruleslawyer.library.prices import price_sources

    later = max(p.date for p in price_sources(corpus, "Warboss", "Orks", 11) if p.date)
    before = (later[:8] + "01") if later[8:] != "01" else "2026-01-01"
    result = run(pile, "points", "warboss", "--faction", "orks", "--edition", "11", "--as-of", before)
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"As of {before}")
    assert later not in result.output.splitlines()[1]
    shown = run(pile, "show", "warboss", "--edition", "11", "--as-of", before)
    assert f"As of {before}" in shown.output


def test_bsdata_core_abilities_are_not_detachment_rules(corpus):
    core = {"hazardous", "sustained hits", "lethal hits", "assault"}  # "Keywords" is a rule of Dread Mob
    bad = [r for r in corpus.records if r.kind == "detachment_rule" and r.edition == 11
           and r.name.casefold() in core]
    assert not bad, [(r.name, r.group) for r in bad]


def test_royal_warden_keeps_its_relic_gauss_blaster(shared):
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.find import find_by_name

    path = shared / "realdata" / "e11" / "bsdata" / "Necrons.json"
    assert "Relic gauss blaster" in path.read_text(encoding="utf-8") or "relic gauss blaster" in \
        path.read_text(encoding="utf-8").lower()
    with Store(":memory:") as store:
        ingest_paths(store, [path])
        records = list(store.records("datasheet"))
    warden = find_by_name(records, "Royal Warden", kinds=["datasheet"])[0]
    assert any("relic gauss blaster" in w.name.lower() for w in warden.weapons), [w.name for w in warden.weapons]


def test_names_are_title_cased(corpus):
    names = {r.name for r in corpus.records if r.kind == "datasheet" and r.edition == 11}
    assert "Warboss in Mega Armour" in names and "Warboss In Mega Armour" not in names


def test_changes_between_the_world_eaters_pack_versions(pile):
    result = run(pile, "changes", "--document", "world eaters")
    assert result.exit_code == 0, result.output
    head = result.output.splitlines()[0]
    assert "fp11_world_eaters_v1.0" in head and "fp11_world_eaters_v1.1" in head
    since = run(pile, "changes", "--since", "2026-07-01", "--json")
    assert since.exit_code == 0
    dates = {json.loads(line)["date"] for line in since.output.splitlines()}
    assert dates and min(dates) >= "2026-07-01"


def _pdf_text(path) -> str:
    import pdfplumber

    with pdfplumber.open(path) as pdf:
        return " ".join((page.extract_text() or "") for page in pdf.pages)


def test_changes_of_the_world_eaters_pack_name_its_rules_updates_and_faq(pile, shared):
    """v1.1 adds two enhancement rules updates and drops the FAQ on Summoned by Slaughter in the
    first battle round: what the two PDFs print, read here."""
    nov26 = shared / "realdata" / "nov26"
    v10 = _pdf_text(nov26 / "fp11_world_eaters_v1.0_2026-06-10.pdf")
    v11 = _pdf_text(nov26 / "fp11_world_eaters_v1.1_2026-07-22.pdf")
    def heading(name, text):  # an entry's heading starts a line; a question mentions it mid-sentence
        return re.search(rf"(^|\n){name}", text) is not None

    added = [n for n in ("Butcher Lord Enhancement", "Disciple of Khorne Enhancement")
             if heading(n, v11) and not heading(n, v10)]
    dropped = "Summoned by Slaughter Stratagem to deploy"
    assert len(added) == 2 and dropped in " ".join(v10.split()) and dropped not in " ".join(v11.split())
    result = run(pile, "changes", "-d", "world eaters", "--json")
    assert result.exit_code == 0, result.output
    found = [json.loads(line) for line in result.output.splitlines()]
    assert {n for n in added} <= {c["name"] for c in found if (c["status"], c["kind"]) == ("added", "errata")}
    assert any(dropped in c["name"] for c in found if (c["status"], c["kind"]) == ("removed", "faq"))
    assert all(c["from"].startswith("fp11_world_eaters_v1.0") and c["to"].startswith("fp11_world_eaters_v1.1")
               for c in found)


def test_heroic_intervention_keeps_its_mode_cost(pile):
    result = run(pile, "show", "heroic intervention", "--edition", "11", "--kind", "stratagem")
    assert "+1CP" in result.output


def test_counteroffensive_flavour_reads_as_printed(corpus):
    found = [r for r in corpus.records if r.kind == "stratagem" and r.name.casefold() == "counteroffensive"]
    assert found and all((r.fluff or "").startswith("In close") and "slightest" in r.fluff for r in found)


@pytest.mark.parametrize("query, renamed", [("fall back", "Fall-back Move"), ("overwatch", "Fire Overwatch")])
def test_an_older_rule_name_gives_the_11th_edition_rule_that_took_it_over(pile, corpus, query, renamed):
    assert any(getattr(r, "name", None) == renamed and r.edition == 11 for r in corpus.records)
    result = run(pile, "show", query, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["name"], data["edition"]) == (renamed, 11)
    assert any(a["edition"] < 11 for a in data["also"])


def test_one_element_read_as_two_kinds_is_one_answer(pile):
    result = run(pile, "show", "command protocols", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["kind"], data["edition"]) == ("detachment_rule", 11)


def test_a_detachment_priced_in_a_newer_edition_than_its_rules(pile, shared):
    text = (shared / "realdata" / "e11" / "mfm" / "adeptus-custodes.yaml").read_text(encoding="utf-8")
    block = text.split("  - name: Auric Champions\n", 1)[1].split("\n  - name:", 1)[0]
    dp = int(re.search(r"dp: (\d+)", block).group(1))
    result = run(pile, "show", "auric champions", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["kind"] == "detachment" and data["rules"]
    assert data["newer_points"]["detachment_points"] == dp


@pytest.mark.parametrize("query, name, faction", [("ork boyz", "Boyz", "Orks"),
                                                  ("custodes shield host", "Shield Host", "Adeptus Custodes")])
def test_a_faction_word_before_the_name(pile, corpus, query, name, faction):
    result = run(pile, "show", query, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["name"], data["faction"]) == (name, faction)


def test_a_faq_answer_dropped_by_the_newer_pack_is_not_current(pile, corpus, shared):
    """The World Eaters pack v1.1 no longer prints the v1.0 answer on Summoned by Slaughter in the
    first battle round: the current reference has no such answer; the reference of a date before
    v1.1 still has it."""
    nov26 = shared / "realdata" / "nov26"
    v11 = " ".join(_pdf_text(nov26 / "fp11_world_eaters_v1.1_2026-07-22.pdf").split())
    dropped = [r for r in corpus.originals if r.kind == "faq" and r.source.file.startswith("fp11_world_eaters_v1.0")
               and " ".join(r.question.split())[:60] not in v11]
    assert len(dropped) == 1 and "Summoned by Slaughter" in dropped[0].question
    assert not [r for r in corpus.records if r.kind == "faq" and r.question == dropped[0].question]
    assert [r for r in corpus.records if r.kind == "faq" and r.source.file.startswith("fp11_world_eaters_v1.1")]
    assert not [r for r in corpus.records if r.kind in ("faq", "errata")
                and r.source.file.startswith("fp11_world_eaters_v1.0")]
    assert run(pile, "show", dropped[0].question).exit_code != 0
    then = run(pile, "show", dropped[0].question, "--as-of", "2026-07-01")
    assert then.exit_code == 0 and "version 1.0" in then.output, then.output


@pytest.mark.parametrize("name, words", [
    ("butcher lord", ("WORLD EATERS INFANTRY model only", "has the Infiltrators ability")),
    ("disciple of khorne", ("LORD ON JUGGERNAUT model only", "has the Deep Strike ability"))])
def test_a_faction_pack_rules_update_is_the_current_enhancement(pile, shared, name, words):
    """The World Eaters pack v1.1 (11th edition) changes two enhancements the store holds only as
    10th edition printings: `show` gives the update's wording as an 11th edition printing from
    the pack and names the 10th edition one under "also"."""
    pack = shared / "realdata" / "nov26" / "fp11_world_eaters_v1.1_2026-07-22.pdf"
    printed = " ".join(_pdf_text(pack).split())
    assert all(w in printed for w in words)
    result = run(pile, "show", name, "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    wording = " ".join(f"{data.get('restriction') or ''} {data['text']}".split())
    assert all(w in wording for w in words)
    assert (data["edition"], data["answer"]["file"]) == (11, pack.name)
    assert data["changes"] and data["changes"][0]["version"] == "1.1"
    assert [(a["kind"], a["edition"]) for a in data["also"]] == [("enhancement", 10)]


def test_a_core_rule_reprinted_on_a_faction_page_is_one_answer(pile, corpus):
    """Q08: the 10th edition Engagement Range, faction-less on most saved pages and filed under
    Necrons by the Necrons faction page: one rule, the core printing first, the command for the
    other printing works."""
    printings = [r for r in corpus.records if r.kind == "rule" and r.name == "Engagement Range" and r.edition == 10]
    assert {bool(r.faction) for r in printings} == {False, True}
    result = run(pile, "show", "engagement range", "--edition", "10", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["faction"] is None and '1" horizontally' in data["text"]
    other = next(a for a in data["also"] if a["faction"])
    again = run(pile, "show", "Engagement Range", "--source", other["file"])
    assert again.exit_code == 0 and other["file"] in again.output, again.output


def test_a_chapter_stratagem_printed_by_its_pack_and_an_export_is_one_answer(pile, corpus):
    """Q16: Chilling Howl, filed under Space Wolves by the pack and under Space Marines by the
    Wahapedia export: one stratagem, the newest dated printing, the others under "also"."""
    printings = [r for r in corpus.records if r.kind == "stratagem" and r.name == "Chilling Howl"]
    assert len({r.faction for r in printings}) > 1
    newest = max(printings, key=lambda r: corpus.date_of(r) or "")
    result = run(pile, "show", "chilling howl", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["answer"]["file"] == newest.source.file and data["cp"] == 1
    assert {a["file"] for a in data["also"]} == {r.source.file for r in printings} - {newest.source.file}


def test_the_current_rule_whose_name_holds_the_asked_name_wins(pile, corpus):
    """Q11: "starting strength" is, in 11th edition, defined by a rule whose name holds it; the
    10th edition rule of that exact name is named under "also"."""
    newer = [r for r in corpus.records if r.kind == "rule" and r.edition == 11
             and "starting strength" in r.name.casefold()]
    older = [r for r in corpus.records if r.kind == "rule" and r.name.casefold() == "starting strength"]
    assert len({r.name for r in newer}) == 1 and older and all(r.edition < 11 for r in older)
    result = run(pile, "show", "starting strength", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["name"], data["edition"]) == (newer[0].name, 11)
    assert any(a["name"].casefold() == "starting strength" and a["edition"] < 11 for a in data["also"])


def test_a_unit_with_only_an_older_datasheet_is_priced_by_the_current_points_list(pile, corpus, shared):
    """Q28: Custodian Guard has only 10th edition datasheets here, and an 11th edition price in the
    Munitorum Field Manual v1.1 YAML: show gives that price (as points does), names its edition
    and source, and does not print the 10th edition points as current."""
    sheets = [r for r in corpus.records if r.kind == "datasheet" and r.name == "Custodian Guard"]
    assert sheets and max(r.edition for r in sheets) == 10
    expected = _mfm_points(shared, "adeptus-custodes.yaml", "Custodian Guard")
    result = run(pile, "show", "custodian guard", "--json")
    assert result.exit_code == 0, result.output
    price = json.loads(result.output)["current_points"]
    assert (price["edition"], price["file"]) == (11, "adeptus-custodes.yaml")
    assert sorted(c["points"] for c in price["costs"]) == sorted(expected)
    text = run(pile, "show", "custodian guard").output
    assert "Current points (11th edition, adeptus-custodes.yaml" in text
    head = text.splitlines()[0]
    own = next(r for r in sheets if r.edition == 10).points
    assert own and not any(f"{c.points} pts" in head for c in own)  # the 10th edition price is not the header's
    points = run(pile, "points", "custodian guard").output
    assert all(str(n) in points for n in expected)


def test_a_detachment_view_lists_the_enhancements_its_points_list_names(pile, shared):
    """Q31: the MFM v1.1 YAML lists Shield Host's enhancements with their costs; the detachment
    view gives each, with "no text in your documents" where no record describes it, and says
    where its parts were read."""
    text = (shared / "realdata" / "e11" / "mfm" / "adeptus-custodes.yaml").read_text(encoding="utf-8")
    block = text.split("  - name: Shield Host\n", 1)[1].split("\n  - name:", 1)[0]
    listed = dict(re.findall(r"\{ name: (.+?), points: (\d+) \}", block))
    assert len(listed) == 4
    result = run(pile, "show", "shield host", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    costs = {e["name"]: e["current_points"] for e in data["enhancements"]}
    costs.update({e["name"]: e["points"] for e in data["listed_enhancements"]})
    assert costs == {name: int(points) for name, points in listed.items()}
    assert data["sources"] and all(s["file"] and s["date"] for s in data["sources"])
    view = run(pile, "show", "shield host").output
    assert "no text in your documents" in view and "Source: " in view


def test_a_pack_detachment_is_a_detachment_view_not_its_introduction(pile, corpus):
    """Q32: the Space Wolves pack's Champions of Fenris: its introduction is stored as a rule of
    that name, its rule, enhancements and stratagems as parts naming it; `show` gives the
    detachment, each part once, with its sources."""
    parts = [r for r in corpus.records if r.kind in ("detachment_rule", "enhancement", "stratagem")
             and (getattr(r, "group", None) or "").casefold() == "champions of fenris"]
    names = {k: {r.name.replace("’", "'") for r in parts if r.kind == k} for k in ("detachment_rule", "enhancement",
                                                                                  "stratagem")}
    assert all(names.values())
    result = run(pile, "show", "champions of fenris", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["kind"] == "detachment"
    for key, kind in (("rules", "detachment_rule"), ("enhancements", "enhancement"), ("stratagems", "stratagem")):
        shown = [r["name"].replace("’", "'") for r in data[key]]
        assert sorted(shown) == sorted(names[kind]), key  # each part once
    assert data["sources"] and data["also_printed_in"]


def test_an_faq_answer_as_of_a_date_is_the_version_current_then(pile, corpus):
    """A search hit on an answer the World Eaters pack v1.1 repeats, frozen at a date before
    v1.1, is the same answer of v1.0; the answer v1.1 dropped is kept aside as superseded."""
    from ruleslawyer.library.corpus import as_of_printings
    from ruleslawyer.records_json import to_dict

    repeated = [r for r in corpus.records if r.kind == "faq" and r.source.file.startswith("fp11_world_eaters_v1.1")]
    assert repeated
    with Store(pile) as store:
        then = as_of_printings(store, [to_dict(r) for r in repeated], "2026-07-01")
    assert all(d is not None and d["source"]["file"].startswith("fp11_world_eaters_v1.0") for d in then)
    assert [d["question"] for d in then] == [r.question for r in repeated]
    assert any("Summoned by Slaughter" in r.question for r in corpus.superseded if r.kind == "faq")


def _mfm_detachment(shared, faction_file: str, detachment: str) -> dict:
    """A detachment's entry in a Munitorum Field Manual YAML file (dp, enhancements with points)."""
    import yaml

    data = yaml.safe_load((shared / "realdata" / "e11" / "mfm" / faction_file).read_text(encoding="utf-8"))

    def entries(node):
        if isinstance(node, dict):
            if str(node.get("name", "")).lower() == detachment.lower() and "enhancements" in node:
                yield node
            for value in node.values():
                yield from entries(value)
        elif isinstance(node, list):
            for value in node:
                yield from entries(value)

    return next(entries(data))


def test_a_detachment_named_like_an_older_stratagem_is_the_detachment_view(pile, shared):
    entry = _mfm_detachment(shared, "adeptus-custodes.yaml", "Talons of the Emperor")
    result = run(pile, "show", "talons of the emperor")
    assert result.exit_code == 0, result.output
    assert "(detachment)" in result.output and "11th edition" in result.output
    assert f"{entry['dp']} DP" in result.output
    for item in entry["enhancements"]:
        assert f"{item['name']} ({item['points']} pts)" in result.output
    also = next(line for line in result.output.splitlines() if line.startswith("also:"))
    assert "stratagem 9th edition" in also
    older = run(pile, "show", "talons of the emperor", "--kind", "stratagem", "--edition", "9")
    assert older.exit_code == 0 and "9th edition" in older.output


def test_an_older_enhancement_gives_its_current_cost_from_the_points_list(pile, shared):
    entry = _mfm_detachment(shared, "adeptus-custodes.yaml", "Shield Host")
    (cost,) = [i["points"] for i in entry["enhancements"] if i["name"] == "From the Hall of Armouries"]
    result = run(pile, "show", "from the hall of armouries")
    assert result.exit_code == 0, result.output
    line = next(line for line in result.output.splitlines() if line.startswith("Current points"))
    assert f"11th edition points: {cost}, adeptus-custodes.yaml v1.1" in line
    assert not any(i["name"] in line for i in entry["enhancements"] if i["name"] != "From the Hall of Armouries")


def test_a_chapter_unit_filed_under_two_factions_is_one_answer(pile, corpus):
    sheets = [r for r in corpus.records if r.kind == "datasheet" and r.name == "Harald Deathwolf" and r.edition == 10]
    assert len({r.faction for r in sheets}) == 2
    newest = max(sheets, key=lambda r: corpus.date_of(r) or "")
    result = run(pile, "show", "harald deathwolf", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["faction"] == newest.faction and data["answer"]["file"] == newest.source.file
    assert {a["faction"] for a in data["also"]} >= {r.faction for r in sheets if r is not newest}


def test_a_faction_pack_profile_update_reaches_the_older_datasheet(pile, shared):
    import pdfplumber

    pack = shared / "realdata" / "nov26" / "fp11_world_eaters_v1.1_2026-07-22.pdf"
    with pdfplumber.open(pack) as pdf:
        text = " ".join((page.extract_text() or "") for page in pdf.pages)
    move, oc = re.search(r"Change M to (\S+) and OC to '(\S+)'", text).groups()
    removed = re.search(r"Keywords: Remove '([A-Z]+)'", text).group(1)
    errata = run(pile, "errata")
    lines = [line for line in errata.output.splitlines() if line.startswith("(no page) Heldrake,")]
    assert sum("-> applied to Heldrake" in line for line in lines) == 3
    result = run(pile, "show", "heldrake", "--faction", "world eaters", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["edition"] == 11 and data["answer"]["file"] == pack.name
    (profile,) = data["profiles"]
    assert profile["M"] == move and profile["OC"] == oc
    assert removed not in data["keywords"]
    assert any(c["document"] == "World Eaters Faction Pack" for c in data["changes"])
    shown = run(pile, "show", "heldrake", "--faction", "world eaters")
    assert "Errata applied" in shown.output and "10th ed." in shown.output
