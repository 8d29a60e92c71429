"""Rebuilds made by patching the last build (patch.py) write exactly a full build's bytes, and
refuse (falling back to the full gather) whenever they could not."""
from __future__ import annotations

import dataclasses
import json
import random

import pytest

from ruleslawyer.records import Rule
from ruleslawyer.site.build import get_context
from ruleslawyer.site.incremental.facts import load_facts
from ruleslawyer.site.incremental.memory import MEMORY
from ruleslawyer.site.writer import write_site
from tests.test_site import SRC, small_corpus, tree_bytes


def _built(tmp_path, corpus=None):
    out = tmp_path / "site"
    write_site(get_context(corpus or small_corpus()), out, workers=1)
    return out


def _rebuild(corpus, out):
    ctx = get_context(corpus, facts=load_facts(out))
    return ctx, write_site(ctx, out, workers=1)


def _same_as_full(corpus, out, tmp_path, name="full"):
    write_site(get_context(corpus), tmp_path / name, force=True, workers=1)
    assert tree_bytes(out) == tree_bytes(tmp_path / name)


def _edit(corpus, called, edition=None, **changes):
    k = next(i for i, r in enumerate(corpus.records)
             if getattr(r, "name", None) == called and (edition is None or r.edition == edition))
    corpus.records[k] = dataclasses.replace(corpus.records[k], **changes)
    return corpus


def test_a_stratagem_edit_patches_one_page(tmp_path):
    out = _built(tmp_path)
    changed = _edit(small_corpus(), "Fire Overwatch", effect="Shoot that unit twice.")
    ctx, report = _rebuild(changed, out)
    assert ctx.memory.patched, ctx.memory.refused
    assert report.rendered == 1  # its page; the search index is an asset
    _same_as_full(changed, out, tmp_path)


def test_a_linked_rule_edit_remakes_the_pages_showing_it(tmp_path):
    out = _built(tmp_path)
    # The Chronomancer links [blast] with Blast's text as hover; the FAQ and the note name Blast.
    changed = _edit(small_corpus(), "Blast", edition=10, text="Roll one more D6 against big units.")
    ctx, report = _rebuild(changed, out)
    assert ctx.memory.patched, ctx.memory.refused
    remade = {p.path for p in ctx.pages if p.template == "record.html" and p.key is not None}
    assert {"datasheet/chronomancer.html", "faq/does-blast-apply-to-overwatch.html",
            "note/blast-and-multiple-dice-rolls.html"} <= remade
    assert report.rendered == len(remade) < 10
    _same_as_full(changed, out, tmp_path)


def test_a_rule_sharing_its_name_is_patched_when_urls_hold(tmp_path):
    out = _built(tmp_path)
    changed = _edit(small_corpus(), "Blast", edition=5, text="Place the large marker.")  # 5th and 10th share a name
    ctx, _ = _rebuild(changed, out)
    assert ctx.memory.patched, ctx.memory.refused
    _same_as_full(changed, out, tmp_path)


@pytest.mark.parametrize("change, reason", [
    (lambda c: _edit(c, "Fire Overwatch", name="Fire Overwatch Again"), "moved"),
    (lambda c: c.records.append(Rule("New Rule", SRC, edition=10, text="New.")), "added or dropped"),
    (lambda c: _edit(c, "Chronomancer", keywords=("INFANTRY", "CHARACTER")), "moved"),
    (lambda c: _edit(c, "Leader", edition=10, source=dataclasses.replace(SRC, file="moved.txt")), "moved"),
])
def test_changes_that_move_records_gather_everything(tmp_path, change, reason):
    out = _built(tmp_path)
    changed = small_corpus()
    change(changed)
    ctx, _ = _rebuild(changed, out)
    assert not ctx.memory.patched and reason in ctx.memory.refused
    _same_as_full(changed, out, tmp_path)


def test_a_rule_a_keyword_page_shows_gathers_everything(tmp_path):
    corpus = small_corpus()
    corpus.records.append(Rule("Infantry", SRC, edition=10, text="Models on foot."))
    out = _built(tmp_path, corpus)
    _edit(corpus, "Infantry", text="Models on foot, walking.")
    ctx, _ = _rebuild(corpus, out)
    assert not ctx.memory.patched and "keyword page" in ctx.memory.refused
    _same_as_full(corpus, out, tmp_path)


def test_a_deleted_page_the_patch_reuses_is_made_again(tmp_path):
    out = _built(tmp_path)
    (out / "datasheet" / "chronomancer.html").unlink()
    (out / "keyword" / "index.html").unlink()
    changed = _edit(small_corpus(), "Fire Overwatch", effect="Shoot that unit twice.")
    ctx, report = _rebuild(changed, out)
    assert ctx.memory.patched, ctx.memory.refused
    assert report.rendered == 3
    _same_as_full(changed, out, tmp_path)


@pytest.mark.parametrize("damage", ["{not json", '{"version": 1, "code": "other", "data": {}}', "[]"])
def test_an_unreadable_shape_gathers_everything(tmp_path, damage):
    out = _built(tmp_path)
    (out / MEMORY / "shape.json").write_text(damage, "utf-8")
    changed = _edit(small_corpus(), "Fire Overwatch", effect="Shoot that unit twice.")
    ctx, _ = _rebuild(changed, out)
    assert not ctx.memory.patched and "no shape" in ctx.memory.refused
    _same_as_full(changed, out, tmp_path)


def test_a_shape_with_the_wrong_lengths_is_not_trusted(tmp_path):
    out = _built(tmp_path)
    path = out / MEMORY / "shape.json"
    data = json.loads(path.read_text("utf-8"))
    data["data"]["urls"] = data["data"]["urls"].rsplit("\0", 1)[0]  # one URL fewer than hashes
    path.write_text(json.dumps(data), "utf-8")
    ctx, _ = _rebuild(small_corpus(), out)
    assert not ctx.memory.patched
    _same_as_full(small_corpus(), out, tmp_path)


def test_random_edits_patch_or_gather_to_a_full_build(tmp_path):
    """Rounds of random wording edits (one to three records each), each rebuild compared with a full build."""
    rng = random.Random(11)
    corpus = small_corpus()
    out = _built(tmp_path, corpus)
    fields = ("text", "effect", "answer", "when")
    patched = 0
    for round_ in range(12):
        for k in rng.sample(range(len(corpus.records)), rng.randint(1, 3)):
            r = corpus.records[k]
            field = next((f for f in fields if isinstance(getattr(r, f, None), str)), None)
            if field and r.kind != "errata":
                words = getattr(r, field).split() + [rng.choice(["Blast", "LEADER", "roll", "Reanimation Protocols"])]
                rng.shuffle(words)
                corpus.records[k] = dataclasses.replace(r, **{field: " ".join(words)})
        ctx, _ = _rebuild(corpus, out)
        patched += ctx.memory.patched
        _same_as_full(corpus, out, tmp_path, name=f"full{round_}")
    assert patched >= 6  # most rounds are patched (an amended record edited is not)


def test_a_store_rebuild_after_one_file_is_patched(tmp_store, tmp_path):
    """`site build` after one stored file changed: fingerprints come from the stored rows, the
    build patches the last one, and the site equals a forced full build."""
    import hashlib
    from collections import defaultdict

    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.site.build import build_site

    def put(path, records):
        tmp_store.replace_file(path=path, name=path, sha256=hashlib.sha256(repr(records).encode()).hexdigest(),
                               format="text", size=1, records=records)

    by_file = defaultdict(list)
    for r in small_corpus().originals:
        by_file[r.source.file].append(r)
    for path, records in by_file.items():
        put(path, records)
    build_site(tmp_store, tmp_path / "site", workers=1)
    put(SRC.file, [dataclasses.replace(r, effect="Shoot that unit twice.") if getattr(r, "name", "") == "Fire Overwatch"
                   else r for r in by_file[SRC.file]])
    corpus = load_corpus(tmp_store)
    assert len(corpus.stored_hashes) == len(corpus.originals)
    again = build_site(tmp_store, tmp_path / "site", workers=1)
    assert again.patched and again.rendered == 1
    build_site(tmp_store, tmp_path / "full", force=True, workers=1)
    assert tree_bytes(tmp_path / "site") == tree_bytes(tmp_path / "full")


@pytest.mark.parametrize("damage", ["[]", "{broken", '{"version": 1, "pages": []}'])
def test_a_damaged_manifest_means_a_full_rebuild(tmp_path, damage):
    from ruleslawyer.site.writer import MANIFEST

    out = _built(tmp_path)
    (out / MANIFEST).write_text(damage, "utf-8")
    ctx, report = _rebuild(small_corpus(), out)
    assert not ctx.memory.patched and report.rendered == report.pages
    _same_as_full(small_corpus(), out, tmp_path)
