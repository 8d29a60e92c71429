"""Sanity checks: a record that fails its kind's check becomes a warning, not a record."""
from __future__ import annotations

from ruleslawyer.ingest.parse.sanity import CHECKS, screen
from ruleslawyer.records import ItemCost, Points, RefTable, Rule, Source, Stratagem, TableRow, UnitCost

SRC = Source(file="f.pdf", page=3)


def run(records):
    warnings = []
    kept = screen(records, lambda message, page: warnings.append((message, page)))
    return kept, warnings


def test_good_records_pass():
    good = [Rule(name="Deep Strike", source=SRC, text="Set it up anywhere."),
            Stratagem(name="Command Re-roll", source=SRC, cp=1),
            Points(name="Warboss", source=SRC, costs=(UnitCost("1", 75),)),
            RefTable(name="Wound Roll", source=SRC, columns=("S", "T"), rows=(TableRow("x", ("2+", "3+")),
                                                                             TableRow("y", ("4+", "5+"))))]
    kept, warnings = run(good)
    assert kept == good and warnings == []


def test_each_junk_shape_becomes_a_named_warning():
    prices = " ".join(f"Unit {i} 5 models 90 pts" for i in range(8))
    junk = [Rule(name="each time a model in", source=SRC),
            Rule(name="Space Wolves", source=SRC, text=prices),
            Stratagem(name="Khorne Daemonkin Detachment", source=SRC, cp=None),
            Points(name=" ", source=SRC, wargear_costs=(ItemCost("Banner", 10),)),
            RefTable(name="Ase.", source=SRC, rows=(TableRow(None, ("a",)),)),
            RefTable(name="Either player's turn", source=SRC, rows=(TableRow(None, ("x",)),))]
    kept, warnings = run(junk)
    assert kept == []
    tags = [m.rsplit("[", 1)[1].rstrip("]") for m, _ in warnings]
    assert tags == ["rule-name-fragment", "rule-price-list", "stratagem-without-cost", "points-without-unit",
                    "table-without-shape", "table-without-shape"]
    assert all(page == 3 for _, page in warnings)


def test_checks_are_an_ordered_table_of_named_checks():
    names = [name for name, _, _ in CHECKS]
    assert len(names) == len(set(names)) and all(kind for _, kind, _ in CHECKS)
