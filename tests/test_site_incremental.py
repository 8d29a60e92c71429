"""Incremental site builds: reusing the last build's per-record facts gives exactly a full build's bytes."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import ruleslawyer

from ruleslawyer.site.build import build_site, get_context
from ruleslawyer.site.incremental.facts import CACHE, CACHE_VERSION, load_facts, record_fingerprint
from ruleslawyer.site.writer import write_site
from tests.test_site import small_corpus, tree_bytes


def _incremental(corpus, out):
    facts = load_facts(out)
    report = write_site(get_context(corpus, facts=facts), out, workers=1)
    return report, facts


def test_incremental_rebuild_equals_a_full_build_of_the_changed_records(tmp_path):
    out = tmp_path / "site"
    write_site(get_context(small_corpus()), out, workers=1)
    changed = small_corpus(blast_text="Add 2 to the Attacks for every five models.")
    # one more record edited and one dropped, as when a re-ingested file changed
    changed.records = [r for r in changed.records if getattr(r, "name", "") != "Leader"]
    k = next(i for i, r in enumerate(changed.records) if r.kind == "stratagem")
    changed.records[k] = dataclasses.replace(changed.records[k], effect="Until the end of the phase, re-roll it.")

    report, facts = _incremental(changed, out)
    assert 0 < len(facts.computed) <= 3  # only the edited records were derived afresh
    assert report.removed == 1 and report.rendered < report.pages // 2

    write_site(get_context(changed), tmp_path / "full", force=True, workers=1)
    assert tree_bytes(out) == tree_bytes(tmp_path / "full")


def test_facts_cache_is_reused_keyed_by_content_and_ignored_when_unreadable(tmp_path):
    out = tmp_path / "site"
    corpus = small_corpus()
    write_site(get_context(corpus), out, workers=1)
    cached = {}
    for shard in sorted((out / CACHE).glob("*.json")):
        cached.update(json.loads(shard.read_text("utf-8"))["records"])
    pages = [r for r in corpus.records if r.kind != "errata"]
    assert set(cached) == {record_fingerprint(r) for r in pages}

    _, facts = _incremental(corpus, out)
    assert not facts.computed and not facts.changed_shards()

    (out / CACHE / "00.json").write_text('{"version": 1, "records": [', "utf-8")
    report, facts = _incremental(corpus, out)
    assert facts.computed == set(cached) and report.rendered == 0
    assert json.loads((out / CACHE / "00.json").read_text("utf-8"))["version"] == CACHE_VERSION  # rewritten whole


def test_store_rebuild_after_an_faq_file_equals_a_forced_full_build(shared, tmp_store, tmp_path):
    from ruleslawyer.ingest.pipeline import ingest_paths

    seeds = sorted((shared / "seeds").glob("00[0-3]_*.txt"))
    faq = next(p for p in seeds if p.name.startswith("003_"))  # its errata amend rules of the other files
    ingest_paths(tmp_store, [p for p in seeds if p != faq])
    build_site(tmp_store, tmp_path / "site", workers=1)
    ingest_paths(tmp_store, [faq])
    again = build_site(tmp_store, tmp_path / "site", workers=1)
    full = build_site(tmp_store, tmp_path / "full", force=True, workers=1)
    assert 0 < again.rendered < full.rendered
    assert tree_bytes(tmp_path / "site") == tree_bytes(tmp_path / "full")


def test_list_rows_edited_rerender_their_lists_and_equal_a_full_build(tmp_path):
    out = tmp_path / "site"
    write_site(get_context(small_corpus()), out, workers=1)
    changed = small_corpus()
    k = next(i for i, r in enumerate(changed.records) if r.kind == "stratagem" and r.faction == "Necrons")
    # the phase and the detachment show in the faction page's and the stratagem list's rows
    changed.records[k] = dataclasses.replace(changed.records[k], when="Your Shooting phase.", group="Other Dynasty")

    report, _ = _incremental(changed, out)
    assert report.rendered >= 3  # the stratagem's page, the stratagem list, the faction page

    write_site(get_context(changed), tmp_path / "full", force=True, workers=1)
    assert tree_bytes(out) == tree_bytes(tmp_path / "full")
    faction = next((out / "faction").glob("necrons*.html")).read_text("utf-8")
    assert 'data-phases="shooting"' in faction and 'data-phases="movement" data-category="Strategic Ploy"' not in faction


def test_deleted_pages_are_rendered_again_though_nothing_changed(tmp_path):
    out = tmp_path / "site"
    corpus = small_corpus()
    write_site(get_context(corpus), out, workers=1)
    gone = [out / "index.html", next((out / "stratagem").glob("*.html")), out / "faction" / "index.html"]
    for page in gone:
        page.unlink()

    report, _ = _incremental(corpus, out)
    assert report.rendered == len(gone) and all(p.is_file() for p in gone)

    write_site(get_context(corpus), tmp_path / "full", force=True, workers=1)
    assert tree_bytes(out) == tree_bytes(tmp_path / "full")


def test_site_code_covers_what_makes_the_records_it_shows():
    """A new version that applies errata differently must not leave a site built by the old one
    standing: the errata and record modules are part of the code every page's key holds."""
    from ruleslawyer.site.incremental.codehash import code_files

    package = Path(ruleslawyer.__file__).resolve().parent
    names = {f.relative_to(package).as_posix() for f in code_files()}
    assert {"amend/apply.py", "amend/weapons.py", "amend/datasheet.py", "records.py", "names.py",
            "library/corpus.py", "site/build.py", "site/incremental/patch.py",
            "render/templates/record.html"} <= names
