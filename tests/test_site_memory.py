"""Rebuilds that reuse the last build's corpus-wide products (memory.py) give exactly a full build's bytes."""
from __future__ import annotations

import copy
import dataclasses

from ruleslawyer.records import Datasheet, Rule
from ruleslawyer.site.build import get_context
from ruleslawyer.site.incremental.facts import load_facts
from ruleslawyer.site.links import Linker, link_deps, link_requests
from ruleslawyer.site.incremental.memory import MEMORY
from ruleslawyer.site.pages import keyword_pages
from ruleslawyer.site.writer import write_site
from tests.test_site import SRC, small_corpus, tree_bytes


def _rebuild(corpus, out):
    ctx = get_context(corpus, facts=load_facts(out))
    return ctx, write_site(ctx, out, workers=1)


def _same_as_full(corpus, out, tmp_path):
    write_site(get_context(corpus), tmp_path / "full", force=True, workers=1)
    assert tree_bytes(out) == tree_bytes(tmp_path / "full")


def _replace(corpus, called, **changes):
    k = next(i for i, r in enumerate(corpus.records) if getattr(r, "name", None) == called)
    corpus.records[k] = dataclasses.replace(corpus.records[k], **changes)


def test_link_deps_name_every_linker_entry_a_page_looks_up():
    corpus = small_corpus()
    # "Characters" answers for CHARACTER through its "~character" entry
    records = [r for r in corpus.records if r.kind != "errata"] + [Rule("Characters", SRC, edition=10, text="C.")]
    keywords = keyword_pages(records)
    urls = {id(r): f"x/{n}.html" for n, r in enumerate(records)}
    linker = Linker(records, urls, {kw: (url, len(units)) for kw, (url, units) in keywords.items()})
    for r in records:
        requests = link_requests(r)
        deps = set(link_deps(requests))
        # A linker that knows only the entries named in deps resolves the page's links the same.
        narrow = copy.copy(linker)
        narrow._memo, narrow._links = {}, {}
        narrow.by_name = {k: v for k, v in linker.by_name.items() if k in deps}
        narrow.keywords = {k: v for k, v in linker.keywords.items() if "#" + k in deps}
        assert narrow.resolve(r, requests, "../").resolved == linker.resolve(r, requests, "../").resolved, r.name


def test_a_text_edit_reuses_list_pages_and_other_pages_links(tmp_path):
    out = tmp_path / "site"
    write_site(get_context(small_corpus()), out, workers=1)
    changed = small_corpus()
    _replace(changed, "../../etc/passwd", text="A hostile name, edited.")  # no page links this rule
    (out / "keyword" / "index.html").unlink()  # a list page to make again from its inputs

    ctx, report = _rebuild(changed, out)
    lists = [p for p in ctx.pages if p.template in ("list.html", "faction.html", "keyword.html", "keywords.html")]
    assert lists and all(p.fingerprint is not None for p in lists)  # known from the last build
    assert report.rendered == 2  # the edited rule's page and the deleted list page
    assert ctx.memory.reused == len([p for p in ctx.pages if p.template == "record.html"]) - 1
    _same_as_full(changed, out, tmp_path)


def test_renamed_and_added_records_relink_pages_and_equal_a_full_build(tmp_path):
    out = tmp_path / "site"
    write_site(get_context(small_corpus()), out, workers=1)
    before = next((out / "datasheet").glob("chronomancer*.html")).read_text("utf-8")
    changed = small_corpus()
    # The Chronomancer's ability no longer names a rule; INFANTRY gains a unit (its keyword
    # page and every "INFANTRY" link's hover text change); Blast is edited (its hover text).
    _replace(changed, "Reanimation Protocols", name="Reanimation Rites")
    _replace(changed, "Blast", text="Add 3 to the Attacks.")
    changed.records.append(Datasheet("Warrior", SRC, edition=10, faction="Necrons", keywords=("INFANTRY",)))
    changed.records.append(Rule("Characters", SRC, edition=10, text="Now CHARACTER links here."))

    ctx, report = _rebuild(changed, out)
    assert 0 < report.rendered < len(list(out.rglob("*.html"))) and ctx.memory.reused > 0
    _same_as_full(changed, out, tmp_path)
    after = next((out / "datasheet").glob("chronomancer*.html")).read_text("utf-8")
    assert after != before and "Add 3 to the Attacks." in after


def test_keyword_dropped_and_rule_added_equal_a_full_build(tmp_path):
    out = tmp_path / "site"
    write_site(get_context(small_corpus()), out, workers=1)
    changed = small_corpus()
    _replace(changed, "Chronomancer", keywords=("INFANTRY", "CHARACTER"))  # CRYPTEK's page goes
    changed.records.append(Rule("Cryptek", SRC, edition=10, text="A new rule the keyword now finds."))

    _, report = _rebuild(changed, out)
    assert report.removed >= 1
    _same_as_full(changed, out, tmp_path)


def test_unreadable_or_foreign_memory_is_ignored(tmp_path):
    out = tmp_path / "site"
    corpus = small_corpus()
    write_site(get_context(corpus), out, workers=1)
    for name, text in (("tokens-3.json", '{"version": 1, "data": ['), ("lists.json", '{"version": 1, "code": "x"}')):
        (out / MEMORY / name).write_text(text, "utf-8")
        ctx, report = _rebuild(corpus, out)
        assert report.rendered == 0 and all(p.fingerprint is None for p in ctx.pages)
        _same_as_full(corpus, out, tmp_path)


def test_each_listed_field_edited_alone_equals_a_full_build(tmp_path):
    # One field at a time, so that a field left out of pages.list_projection shows as stale lists.
    edits = [("Protocol of the Sudden Storm", {"group": "Other Dynasty"}),
             ("Protocol of the Sudden Storm", {"cp": 2}),
             ("Protocol of the Sudden Storm", {"category": "Battle Tactic"}),
             ("Protocol of the Sudden Storm", {"when": "Your Shooting phase."}),
             ("Protocol of the Sudden Storm", {"faction": "Aeldari"}),
             ("Chronomancer", {"faction_keywords": ("DYNASTY",)}),
             ("Chronomancer", {"edition": 9}),
             ("Leader", {"section": ("Core Concepts",)}),
             ("Blast and Multiple Dice Rolls", {"version": "1.8"})]
    for n, (called, change) in enumerate(edits):
        out = tmp_path / f"site{n}"
        write_site(get_context(small_corpus()), out, workers=1)
        changed = small_corpus()
        _replace(changed, called, **change)
        ctx, _ = _rebuild(changed, out)
        assert all(p.fingerprint is None for p in ctx.pages), change  # the list state moved
        write_site(get_context(changed), tmp_path / f"full{n}", force=True, workers=1)
        assert tree_bytes(out) == tree_bytes(tmp_path / f"full{n}"), change


def test_search_index_fast_writer_gives_json_dumps_bytes():
    import json

    from ruleslawyer.site.search_index import IndexEntry, fold, render_index

    entries = [IndexEntry('Odd "name" </script> \u2028 caf\u00e9', "rule", "Necrons", 10, "rule/a.html", "s\\n\n", "t"),
               IndexEntry("Plain", "datasheet", None, None, "datasheet/p.html", "", ""),
               IndexEntry("Ninth", "rule", "Orks", 9, "rule/n.html", "x" * 10, "a <!-- b")]
    ordered = sorted(entries, key=lambda e: (e.kind, fold(e.name), e.url))
    payload = {"version": 1, "kinds": ["datasheet", "rule"], "factions": ["Necrons", "Orks"], "editions": [9, 10],
               "docs": [[e.name, ["datasheet", "rule"].index(e.kind), ["Necrons", "Orks"].index(e.faction)
                         if e.faction else -1, e.edition or 0, e.url, e.snippet, e.terms] for e in ordered]}
    expected = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    expected = expected.replace("</", "<\\/").replace("<!--", "<\\!--")
    assert render_index(entries) == "window.RULESLAWYER_INDEX = " + expected + ";\n"


def test_record_fingerprint_follows_every_nested_field():
    from ruleslawyer.records import Ability, Weapon
    from ruleslawyer.site.incremental.facts import record_fingerprint

    chrono = next(r for r in small_corpus().records if getattr(r, "name", None) == "Chronomancer")
    again = next(r for r in small_corpus().records if getattr(r, "name", None) == "Chronomancer")
    assert chrono is not again and record_fingerprint(chrono) == record_fingerprint(again)
    weapon = dataclasses.replace(chrono.weapons[0], abilities=("blast", "torrent"))
    variants = [dataclasses.replace(chrono, weapons=(weapon, *chrono.weapons[1:])),
                dataclasses.replace(chrono, abilities=(*chrono.abilities, Ability("Extra"))),
                dataclasses.replace(chrono, source=dataclasses.replace(chrono.source, page=2)),
                dataclasses.replace(chrono, profiles=(dataclasses.replace(chrono.profiles[0],
                                                                          stats={"M": '6"'}),)),
                dataclasses.replace(chrono, edition=None), dataclasses.replace(chrono, keywords=("INFANTRY",)),
                Rule("Chronomancer", chrono.source, edition=10)]
    prints = {record_fingerprint(r) for r in [chrono, *variants]}
    assert len(prints) == len(variants) + 1
    # A value marshal cannot write (here a Weapon where a string is expected) still hashes, by repr.
    odd = dataclasses.replace(chrono, keywords=(Weapon("Gun"),))
    assert record_fingerprint(odd) == record_fingerprint(dataclasses.replace(chrono, keywords=(Weapon("Gun"),)))
    assert record_fingerprint(odd) not in prints


def _reference_tuples(value):
    """What facts._as_tuples must give, written the plain way: every dataclass, however nested in tuples."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__qualname__, *(_reference_tuples(getattr(value, f.name))
                                             for f in dataclasses.fields(value)))
    if type(value) is tuple:
        return tuple(map(_reference_tuples, value))
    return value


def test_compiled_record_converters_give_the_plain_conversion():
    from ruleslawyer.records import Leader, UnitCost, Weapon
    from ruleslawyer.site.incremental.facts import _as_tuples

    records = small_corpus().records
    chrono = next(r for r in records if getattr(r, "name", None) == "Chronomancer")
    records += [dataclasses.replace(chrono, leader=Leader(("Warriors",)), points=(UnitCost("1", 65),)),
                dataclasses.replace(chrono, weapons=(Weapon("Gun"), "not a weapon"), points=None)]
    for r in records:
        assert _as_tuples(r) == _reference_tuples(r), r


def test_index_written_by_kind_equals_render_index_and_reuses_unchanged_kinds():
    from ruleslawyer.site.incremental.index_parts import index_bytes
    from ruleslawyer.site.search_index import IndexEntry, render_index

    entries = [IndexEntry(f"Name {n} </b> <!-- caf\u00e9", kind, faction, edition, f"{kind}/{n}.html", f"s{n}", "t u")
               for n, (kind, faction, edition) in enumerate([("rule", "Orks", 10), ("datasheet", None, 9),
                                                             ("rule", "", None), ("stratagem", "Necrons", 10),
                                                             ("datasheet", "Orks", 10), ("rule", None, 9)])]
    fps = [f"{n:040x}" for n in range(len(entries))]
    data, layout = index_bytes(entries, fps)
    assert data == render_index(entries).encode("utf-8")

    edited = list(entries)
    edited[2] = edited[2]._replace(snippet="edited", terms="new words")
    new_fps = fps[:2] + ["f" * 40] + fps[3:]
    again, new_layout = index_bytes(edited, new_fps, (data, layout))
    assert again == render_index(edited).encode("utf-8")
    same = [old[1] == new[1] for old, new in zip(layout["chunks"], new_layout["chunks"])]
    assert same == [True, False, True]  # datasheet, rule, stratagem: only the rules' run is written again
    # A file that is not the one the layout describes is not reused.
    tampered = data.replace(b"s1", b"s9")
    assert index_bytes(edited, new_fps, (tampered, layout))[0] == again
    # Editions that are not numbers take the general writer.
    odd = [entries[0]._replace(edition="10th")]
    assert index_bytes(odd, fps[:1])[0] == render_index(odd).encode("utf-8")
