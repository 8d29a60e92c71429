"""The record model: every kind round-trips through the records.md JSON shape."""
from __future__ import annotations

import dataclasses
import json

import pytest

from ruleslawyer.records import KINDS, Ability, Change, Datasheet, Erratum, Leader, Profile, RefTable, Rule, Source, Stratagem, TableRow, UnitCost, Weapon
from ruleslawyer.records_json import from_dict, to_dict

SRC = Source(file="x.txt", page=3, format="text", sha256="ab" * 32)


def sample_records():
    return [
        Datasheet(name="Necron Warriors", source=SRC, edition=9, faction="Necrons", power=5,
                  faction_keywords=("NECRONS", "<DYNASTY>"), keywords=("INFANTRY",),
                  profiles=(Profile("Necron Warrior", {"M": '5"', "WS": "3+"}, models="10-20"),),
                  weapons=(Weapon("Gauss flayer", range='24"', type="Rapid Fire 1", S="4", AP="-1", D="1"),),
                  abilities=(Ability("Reanimation Protocols", ""),), points=(UnitCost("10", 90),),
                  leader=Leader("Attach me", ("A", "B"))),
        Stratagem(name="Fire Overwatch", source=SRC, edition=10, cp=1, group="Core", when="Your turn."),
        Rule(name="Look Out, Sir", source=SRC, edition=9, section=("Shooting Phase",), text="t",
             changes=(Change("Core Book", "1.7", "219", "replace", None, "old", "new"),)),
        Erratum(document="Core Book", version="1.7", page="219", target="Look Out, Sir", source=SRC,
                text="new", bullets=("b",)),
        RefTable(name="To Wound", source=SRC, edition=5, columns=("1", "2"),
                 rows=(TableRow("1", ("4+", "5+")),), row_header="Strength", column_header="Toughness"),
    ]


@pytest.mark.parametrize("record", sample_records(), ids=lambda r: r.kind)
def test_round_trip(record):
    data = json.loads(json.dumps(to_dict(record, include_changes=True)))
    assert data["kind"] == record.kind
    assert data["source"]["file"] == "x.txt" and data["source"]["page"] == 3
    assert from_dict(data) == record


@pytest.mark.parametrize("record", sample_records(), ids=lambda r: r.kind)
def test_rebuilt_record_is_what_init_makes(record):
    # from_dict skips __init__ for speed: it must still give the same fields in the same order,
    # still frozen, with nested parts rebuilt as their classes.
    rebuilt = from_dict(json.loads(json.dumps(to_dict(record, include_changes=True))))
    assert type(rebuilt) is type(record) and list(vars(rebuilt)) == list(vars(record))
    assert all(type(getattr(rebuilt, f.name)) is type(getattr(record, f.name)) for f in dataclasses.fields(record))
    assert type(rebuilt.source) is Source and list(vars(rebuilt.source)) == list(vars(record.source))
    with pytest.raises(dataclasses.FrozenInstanceError):
        rebuilt.name = "x"


def test_defaults_fill_what_the_json_leaves_out():
    rule = from_dict({"kind": "rule", "name": "Blast", "source": {"file": "f"}})
    assert rule == Rule(name="Blast", source=Source(file="f"))
    assert rule.section == () and rule.changes == () and rule.source.page is None


def test_missing_required_field_is_a_type_error():
    with pytest.raises(TypeError, match="source"):
        from_dict({"kind": "rule", "name": "Blast"})


def test_profile_is_flat_in_json():
    ds = sample_records()[0]
    prof = to_dict(ds)["profiles"][0]
    assert prof == {"name": "Necron Warrior", "models": "10-20", "M": '5"', "WS": "3+"}
    assert to_dict(ds)["points"] == [{"models": "10", "points": 90}]


def test_changes_left_out_of_plain_export():
    rule = sample_records()[2]
    assert "changes" not in to_dict(rule)
    assert to_dict(rule, include_changes=True)["changes"][0]["new_text"] == "new"


def test_records_are_frozen():
    with pytest.raises(dataclasses.FrozenInstanceError):
        sample_records()[1].name = "x"


def test_every_kind_has_a_class():
    assert set(KINDS) == {"datasheet", "stratagem", "enhancement", "detachment_rule", "rule", "errata", "note",
                          "faq", "table", "points"}
    for kind in KINDS:
        assert from_dict({"kind": kind, "name": "n", "question": "q", "answer": "a", "document": None,
                          "version": None, "page": None, "target": None,
                          "source": {"file": "f", "page": None}}).kind == kind
