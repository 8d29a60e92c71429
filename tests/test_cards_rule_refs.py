"""The one resolver from a printed name to its rule (library.rule_refs), as the site and the cards use it."""
from __future__ import annotations

from ruleslawyer.library.rule_refs import RuleRefs, query_keys, rule_key
from ruleslawyer.records import Rule, Source

SRC = Source(file="test.txt")


def rule(name, edition=10, faction=None):
    return Rule(name=name, source=SRC, edition=edition, text=f"text of {name}", faction=faction)


def refs_of(rules):
    refs = RuleRefs()
    for r in rules:
        refs.add(r.name, r, edition=r.edition, faction=r.faction)
    return refs


def test_names_resolve_tolerantly_but_not_fuzzily():
    refs = refs_of([rule("Blast Weapons", 9), rule("Rapid Fire", 9), rule("Anti-X"), rule("Sustained Hits"),
                    rule("Deep Strike"), rule("Leader"), rule("Blast"), rule("Feel No Pain"), rule("Characters"),
                    rule("Nurgle's Gift")])
    name = lambda n, e=10: (refs.find(n, e) or Rule("-", SRC)).name  # noqa: E731
    assert name("Blast", 9) == "Blast Weapons" and name("blast") == "Blast"
    assert name("Rapid fire 2", 9) == "Rapid Fire"
    assert name("anti-infantry 4+") == "Anti-X"
    assert name("Sustained Hits D3") == "Sustained Hits" and name("Feel No Pain 5+") == "Feel No Pain"
    assert name("CHARACTER") == "Characters" and name("Nurgle\u2019s Gift (Aura)") == "Nurgle's Gift"
    assert name("Deep Strikes") == "Deep Strike" and refs.find("Deep Strike", 9) is None
    assert refs.find("Living Metal", 10) is None and refs.find("Blasted", 10) is None
    assert query_keys("a sentence with far too many words to be a rule name") == []
    assert rule_key("Scouts 6\"") == "scouts"


def test_exact_name_beats_a_variant_and_same_faction_beats_another():
    refs = refs_of([rule("Blast Weapons"), rule("Blast"), rule("Oath", faction="Space Marines"), rule("Oath")])
    assert refs.find("blast", 10).name == "Blast"
    assert refs.find("Oath", 10, "Space Marines").faction == "Space Marines"
    assert refs.find("Oath", 10, "Necrons").faction is None


def test_site_and_cards_resolve_every_name_on_the_seeds_alike(shared, tmp_path):
    """Every weapon keyword and ability name of the seeds' datasheets: the site's link goes to
    the page of the very rule whose text the card prints."""
    from ruleslawyer.cards.content import build_content
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.library.rule_refs import named_on_datasheet
    from ruleslawyer.site.links import Linker
    from ruleslawyer.store import Store

    with Store(tmp_path / "s.sqlite") as store:
        ingest_paths(store, sorted((shared / "seeds").glob("*.txt")))
        records = load_corpus(store).records
    rules = [r for r in records if r.kind == "rule"]
    urls = {id(r): f"rule/{i}.html" for i, r in enumerate(rules)}
    linker = Linker(rules, urls, {})
    card_refs = refs_of(rules)
    checked = resolved = 0
    for d in (r for r in records if r.kind == "datasheet"):
        for n in named_on_datasheet(d):
            checked += 1
            target = linker.rule(n, d.edition, d.faction)
            card = card_refs.find(n, d.edition, d.faction)
            assert (target.url if target else None) == (urls[id(card)] if card else None), (d.name, n)
            resolved += card is not None
    assert checked >= 40 and resolved >= 20
    assert build_content([r for r in records if r.kind == "datasheet"], records)  # cards build on the same
