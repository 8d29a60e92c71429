"""Army lists are hostile input: bad numbers, deep nesting, huge files give a list problem with
its line or one refusal line (LoadError), never OverflowError/ValueError/RecursionError."""
from __future__ import annotations

import io
import zipfile

import pytest

from ruleslawyer.errors import LoadError
from ruleslawyer.ingest.sources.armylists import MAX_LIST_BYTES, MAX_UNITS, load_list, parse_list

HEAD = ('<?xml version="1.0" encoding="UTF-8"?>\n'
        '<roster name="Hostile" xmlns="http://www.battlescribe.net/schema/rosterSchema">\n'
        '<forces><force catalogueName="Orks"><selections>\n')
TAIL = "</selections></force></forces></roster>\n"


def unit(cost="85", number="1", name="Boyz", inner=""):
    return (f'<selection name="{name}" type="unit" number="1">\n'
            f'<costs><cost name="pts" value="{cost}"/></costs>\n'
            f'<selections><selection name="Boy" type="model" number="{number}"/>{inner}</selections>\n'
            '</selection>\n')


def roster(*units: str) -> bytes:
    return (HEAD + "".join(units) + TAIL).encode()


@pytest.mark.parametrize("cost", ["inf", "-inf", "NaN", "lots", "1e999", "9" * 5000])
def test_a_bad_cost_is_a_problem_with_its_line(cost):
    army = parse_list(roster(unit("85", name="Good"), unit(cost)))
    assert [u.name for u in army.units] == ["Good", "Boyz"]
    bad = [n for n in army.notes if n.kind == "bad number"]
    assert len(bad) == 1 and bad[0].line is not None and bad[0].line > 4
    assert f"line {bad[0].line}" in bad[0].message and "Boyz" in bad[0].message
    assert army.units[0].points == 85


def test_a_bad_number_is_a_problem_and_counts_one():
    army = parse_list(roster(unit(number="four")))
    boyz = army.units[0]
    assert boyz.model_lines == [("Boy", 1)]
    assert any(n.kind == "bad number" and "'four'" in n.message and n.line for n in army.notes)


def test_a_bad_limit_or_total_is_a_problem():
    text = roster(unit()).decode().replace('<forces>', '<costs><cost name="pts" value="NaN"/></costs>'
                                           '<costLimits><costLimit name="pts" value="inf"/></costLimits><forces>')
    army = parse_list(text.encode())
    assert army.points_listed is None and army.points_limit is None
    assert sum(n.kind == "bad number" for n in army.notes) == 2


def nested(depth: int) -> bytes:
    inner = '<selection name="Slugga" type="upgrade" number="1"><selections>' * depth \
        + "</selections></selection>" * depth
    return roster(unit(inner=inner))


def test_selections_are_walked_iteratively():
    army = parse_list(nested(2000))  # far past Python's recursion limit
    assert len(army.units[0].wargear) == 2000


def test_nesting_50000_deep_is_one_refusal_line():
    data = nested(50000)
    with pytest.raises(LoadError) as exc:
        parse_list(data, name="deep.ros")
    assert "deep.ros" in str(exc.value) and "\n" not in str(exc.value)


def test_the_same_in_a_rosz():
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("x.ros", roster(unit("lots")))
    army = parse_list(buf.getvalue())
    assert any(n.kind == "bad number" for n in army.notes)


def test_unit_count_is_capped():
    with pytest.raises(LoadError) as exc:
        parse_list(roster(*[unit(name=f"Boyz {i}") for i in range(MAX_UNITS + 1)]), name="many.ros")
    assert "units" in str(exc.value)
    text = "Big (2,000 Points)\n\nOrks\n\n" + "Boyz (85 Points)\n  • 10x Boy\n\n" * (MAX_UNITS + 1)
    with pytest.raises(LoadError):
        parse_list(text)


def test_huge_points_in_a_text_list_are_not_a_crash():
    text = "Big (2,000 Points)\n\nOrks\n\nBoyz (" + "9" * 400 + " Points)\n  • " + "9" * 5000 + "x Boy\n"
    army = parse_list(text)
    assert army.units[0].name == "Boyz"


@pytest.mark.parametrize("payload", ['{"cost": Infinity, "number": "four"}', "[" * 50000 + "]" * 50000])
def test_a_json_list_is_one_refusal_line(payload):
    with pytest.raises(LoadError) as exc:
        parse_list(payload, name="list.json")
    assert "\n" not in str(exc.value)


def test_the_size_limit_fits_in_memory(tmp_path):
    # a real export is a few KB and a roster a few hundred; parsing costs some 40 times the bytes
    assert MAX_LIST_BYTES <= 8 * 1024 * 1024
    big = tmp_path / "big.txt"
    with big.open("w") as fh:
        fh.write("Big (2,000 Points)\n\nOrks\n\n")
        line = "  • 1x Slugga\n"
        fh.write("Boyz (85 Points)\n" + line * (60 * 1024 * 1024 // len(line)))
    with pytest.raises(LoadError) as exc:
        load_list(big)
    assert "too large" in str(exc.value)
