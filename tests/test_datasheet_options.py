"""Wargear options of a datasheet card: a choice printed as a sub-bullet stays with its option."""
from __future__ import annotations

from ruleslawyer.ingest.document import LIST_ITEM, Block, Span
from ruleslawyer.ingest.parse.datasheet_text import add_option
from ruleslawyer.ingest.parse.lines import Line


def _item(text: str, marker: str) -> Line:
    block = Block(LIST_ITEM, spans=(Span(text=text),), attrs={"marker": marker})
    return Line(0, text, LIST_ITEM, block)


def test_a_long_sub_bullet_choice_joins_its_option():
    """The Defiler's "◦ 1 electroscourge (a model cannot be equipped with more than one
    electroscourge)" has a verb and many words, but its sub-bullet makes it a choice."""
    options: list[str] = []
    lead = "This model’s heavy baleflamer can be replaced with one of the following:"
    choices = ["1 Hades lascannon", "1 electroscourge (a model cannot be equipped with more than one electroscourge)"]
    open_ = add_option(options, _item(lead, "■"), False)
    for choice in choices:
        open_ = add_option(options, _item(choice, "◦"), open_)
    open_ = add_option(options, _item("This model’s Hades battle cannon can be replaced with 1 magma cutter.", "■"),
                       open_)
    assert options == [lead + "".join(f"\n- {c}" for c in choices),
                       "This model’s Hades battle cannon can be replaced with 1 magma cutter."]


def test_a_main_bullet_after_the_choices_opens_a_new_option():
    """"1 model can be equipped with ..." under its own main bullet is an option of its own."""
    options: list[str] = []
    open_ = add_option(options, _item("This model’s pistol can be replaced with one of the following:", "■"), False)
    open_ = add_option(options, _item("1 plasma pistol", "◦"), open_)
    add_option(options, _item("1 model can be equipped with 1 icon of Khorne.", "■"), open_)
    assert len(options) == 2 and options[1] == "1 model can be equipped with 1 icon of Khorne."
