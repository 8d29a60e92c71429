"""The snippet of a hit is the sentence that answers the query (index/snippets.py)."""
from __future__ import annotations

from ruleslawyer.index.analysis import terms
from ruleslawyer.index.snippets import asks_for_number, make_snippet, passages, term_weights

RULE = ("ELIGIBLE IF: Your unit is unengaged and did not make an\n"
        "advance move this turn.\n"
        "AFTER SHOOTING: Until the end of the phase, your unit is\n"
        "not eligible to start an action.")


def test_lines_wrapped_mid_sentence_are_one_passage():
    assert passages(RULE) == ["ELIGIBLE IF: Your unit is unengaged and did not make an advance move this turn.",
                              "AFTER SHOOTING: Until the end of the phase, your unit is not eligible to start an action."]


def test_the_rare_word_of_a_question_picks_the_passage():
    query = set(terms("can a unit shoot after advancing"))
    frequency = {"unit": 900, "shoot": 300, "after": 400, "advanc": 40}
    weights = term_weights(lambda t: frequency.get(t, 0), 1000, query)
    snippet, _ = make_snippet(RULE, query, weights=weights, shown={"shoot"})
    assert snippet.startswith("ELIGIBLE IF") and "advance move" in snippet


def test_a_bullet_keeps_the_line_leading_into_it():
    text = ("A unit is eligible to start an action unless one or more of the following apply to that unit:\n"
            "- It is battle-shocked.\n- It is engaged.")
    query = set(terms("can a battle-shocked unit start an action"))
    snippet, spans = make_snippet(text, query, shown={"action"})
    assert snippet.endswith("apply to that unit: - It is battle-shocked.")
    assert "battle" in [snippet[a:b].lower() for a, b in spans]


def test_a_question_asking_how_far_shows_the_number():
    text = ("Once the first battle round has started, a friendly unit can embark within a friendly TRANSPORT "
            "model after making a normal, advance or fall-back move, if all of the following conditions apply:\n"
            '- Each model in that unit is within 3" of that TRANSPORT.')
    query = "how close does a unit need to be to embark in a transport"
    assert asks_for_number(query) and not asks_for_number("can a unit embark")
    snippet, _ = make_snippet(text, set(terms(query)), wants_number=True)
    assert '3"' in snippet
    early = ('A unit can embark within a TRANSPORT model if every model of the unit is within 3" of it, '
             "and the unit must not have disembarked this turn; once embarked, the unit is removed from the "
             "battlefield and set up again only when it disembarks from that transport later in the battle.")
    assert '3"' in make_snippet(early, set(terms(query)), wants_number=True)[0]
    assert '3"' not in make_snippet(early, set(terms(query)))[0]  # without it: the cut showing the end


def test_a_long_passage_is_cut_to_show_how_it_ends():
    text = ("Each time a unit with this ability makes a normal, advance or fall-back move, models in that unit "
            "can move through models (excluding TITANIC models) and can move horizontally through sections "
            'of terrain features that are 4" or less in height.')
    snippet, _ = make_snippet(text, set(terms("move through terrain")))
    assert snippet.startswith("... ") and snippet.endswith('4" or less in height.')


def test_room_left_is_filled_with_the_sentences_that_follow_in_the_paragraph():
    """The answer is often the sentence after the one holding the question's words."""
    text = ("To arrive on the battlefield, each reserve unit must make an ingress move. Unless otherwise "
            "stated, they can only do so from the second battle round onwards.\nIngress moves are described below.")
    snippet, spans = make_snippet(text, set(terms("when can reserves arrive")))
    assert snippet.endswith("from the second battle round onwards.")  # not the next paragraph
    assert [snippet[a:b] for a, b in spans] == ["arrive", "reserve"]
    long_next = "To arrive, a unit makes an ingress move. Then " + "it does one thing and another, " * 8 + "done."
    assert make_snippet(long_next, set(terms("arrive")))[0] == "To arrive, a unit makes an ingress move."
