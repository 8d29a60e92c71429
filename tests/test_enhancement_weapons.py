"""An enhancement that gives its bearer a weapon prints the weapon's name and profile table under
its rules text: both belong to the enhancement, and the profile is no table record of its own."""
from __future__ import annotations

import pytest

from tests.conftest import shared_file
from ruleslawyer.ingest.formats import load_file
from ruleslawyer.ingest.parse.parsing import ParseContext, guess_edition, parse_document

pytestmark = pytest.mark.realdata


def test_the_weapon_an_enhancement_gives_stays_in_its_text(shared):
    doc = load_file(shared_file(shared, "realdata/nov26/det11_space_marines_vengeful_hosts.pdf"))
    records = list(parse_document(doc, ParseContext(doc=doc, edition=guess_edition(doc))))
    (orksbane,) = [r for r in records if r.kind == "enhancement" and r.name == "Orksbane"]
    lines = [line for line in orksbane.text.splitlines() if line.strip()]
    assert lines[-3:] == ["Orksbane [CLEAVE 2]", "RANGE\tA\tWS\tS\tAP\tD", "Melee\t4\t2+\t8\t-2\t3"]
    assert not [r for r in records if r.kind == "table"]
