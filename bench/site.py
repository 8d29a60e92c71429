"""Benchmark the static site build: the seeds, and a 50,000-record synthetic corpus.

For each corpus it prints, side by side: gathering (get_context), rendering every page without
writing anything, the full build into an empty folder, a rebuild with nothing changed, and a
rebuild after one source file changed (one record's text edited, as a re-ingested file would).
Target: full build of 50,000 records under 60 s on 2 cores. A rebuild gathers everything again
(one way to build, issue 28) and renders and writes only the pages whose content changed; the
old target of a one-file rebuild under 10% of a full build is withdrawn.

    .venv/bin/python bench/site.py               # seeds + 50,000 synthetic records
    .venv/bin/python bench/site.py --records 5000 --workers 1
    .venv/bin/python bench/site.py --store       # also `site build` itself: a store of the synthetic corpus

With --store the synthetic records are also put in a temporary store (one stored file per
source file) and `build_site` (what `ruleslawyer site build` calls) is timed: a full build, a
rebuild with nothing changed, and a rebuild after one stored file was replaced with one record
edited. Unlike the rows above these include reading the store and applying errata (load_corpus).
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruleslawyer.amend.apply import Outcome  # noqa: E402
from ruleslawyer.library.corpus import Corpus, load_corpus  # noqa: E402
from ruleslawyer.records import (Ability, Change, Datasheet, Enhancement, DetachmentRule, Erratum, Faq, Note, Profile, RefTable, Rule, Source, Stratagem, TableRow, UnitCost, Weapon)
from ruleslawyer.site.build import get_context  # noqa: E402
from ruleslawyer.site.writer import render_all, write_site  # noqa: E402

WORDS = ("void blade storm iron tomb reaper crypt star flayer gauss solar eternal wrath ghost dread shard "
         "phase aeon doom night vengeful royal canoptek warden lord spyder scarab tesla plasma hunger").split()
PHASES = ("Your Command phase.", "Your Movement phase.", "Your Shooting phase.", "Fight phase.",
          "Your opponent's Shooting phase.", "Any phase.", "Your Charge phase.")
KEYWORDS = ("INFANTRY", "CHARACTER", "VEHICLE", "MONSTER", "FLY", "BATTLELINE", "PSYKER", "WALKER", "EPIC HERO")
WEAPON_KW = ("blast", "lethal hits", "sustained hits 1", "anti-infantry 4+", "devastating wounds", "torrent", "melta 2")
SENTENCE = ("Each time a model in this unit makes an attack that targets an enemy unit within 9\", "
            "add 1 to the Hit roll and re-roll a Wound roll of 1 until the end of the phase.")


def _text(rng: random.Random, sentences: int = 1) -> str:
    """Rules-like text that differs from record to record (no cache can answer for it)."""
    out = []
    for _ in range(sentences):
        words = SENTENCE.split()
        for k in rng.sample(range(len(words)), 4):
            words[k] = rng.choice(WORDS)
        out.append(" ".join(words))
    return " ".join(out)


def _name(rng: random.Random, n: int) -> str:
    return " ".join(rng.choice(WORDS).capitalize() for _ in range(n))


def synthetic_corpus(count: int, seed: int = 7) -> Corpus:
    """`count` records shaped like the parsers' output, over 30 factions and 60 source files."""
    rng = random.Random(seed)
    factions = [f"{_name(rng, 1)} {_name(rng, 1)} Legion {i}" for i in range(30)]
    records = []
    originals = []
    outcomes = []
    core = [Rule(kw, Source("core.txt"), edition=10, text=SENTENCE) for kw in
            ("Blast", "Lethal Hits", "Sustained Hits", "Anti", "Devastating Wounds", "Torrent", "Melta", "Leader",
             "Deep Strike", "Infantry", "Characters")]
    records.extend(core)
    for i in range(count - len(core)):
        src = Source(f"file{i % 60:02d}.txt", page=1 + i % 300, format="text")
        faction = factions[i % len(factions)]
        name = f"{_name(rng, rng.randint(1, 3))} {i}" if i % 9 else _name(rng, 2)  # some names collide
        edition = 10 if i % 4 else 9
        roll = i % 100
        if roll < 20:
            tenth = edition == 10
            weapons = tuple(
                Weapon(f"{_name(rng, 2)} gun", range='24"', A="D6" if tenth else None, skill="3+" if tenth else None,
                       type=None if tenth else "Assault 2", S="5", AP="-1", D="2",
                       abilities=(rng.choice(WEAPON_KW),) if tenth else ())
                for _ in range(3)) + (Weapon("Close combat weapon", range="Melee", A="3" if tenth else None,
                                             skill="3+" if tenth else None, type=None if tenth else "Melee",
                                             S="User", AP="0", D="1"),)
            stats = ({"M": '6"', "T": "4", "Sv": "3+", "W": "5", "Ld": "6+", "OC": "1"} if tenth else
                     {"M": '6"', "WS": "3+", "BS": "3+", "S": "4", "T": "4", "W": "5", "A": "4", "Ld": "9", "Sv": "3+"})
            r = Datasheet(name, src, edition=edition, faction=faction, points=(UnitCost("1", 90),) if tenth else None,
                          power=None if tenth else 5, keywords=tuple(rng.sample(KEYWORDS, 3)) + (name.upper(),),
                          faction_keywords=(faction.upper(),), profiles=(Profile(name, stats),), weapons=weapons,
                          abilities=(Ability("Leader"), Ability("Deep Strike"), Ability(_name(rng, 2), _text(rng))),
                          composition=("1 model",))
        elif roll < 50:
            r = Stratagem(name, src, edition=10, faction=faction, cp=rng.choice((1, 1, 2)),
                          category=rng.choice(("Battle Tactic", "Strategic Ploy", "Epic Deed")),
                          group=f"{_name(rng, 2)} Detachment", when=rng.choice(PHASES),
                          target=f"One {rng.choice(KEYWORDS)} unit from your army.", effect=_text(rng))
        elif roll < 85:
            r = Rule(name, src, edition=edition, section=(f"{_name(rng, 1)} Phase", _name(rng, 2))[: 1 + i % 2],
                     text=_text(rng, 1 + i % 4), faction=faction if i % 5 == 0 else None)
        elif roll < 90:
            r = Enhancement(name, src, edition=10, faction=faction, points=20, group="Some Detachment", text=_text(rng))
        elif roll < 93:
            r = DetachmentRule(name, src, edition=10, faction=faction, group="Some Detachment", text=_text(rng))
        elif roll < 96:
            r = RefTable(name, src, edition=edition, columns=tuple(str(c) for c in range(1, 11)),
                         rows=tuple(TableRow(str(n), tuple("4+" for _ in range(10))) for n in range(1, 11)))
        elif roll < 98:
            r = Faq(f"Does {name} apply?", "Yes, " + _text(rng), src, document="Core Book", version="1.7", page="12")
        else:
            r = Note(name, src, document="Core Book", version="1.7", text=_text(rng))
        originals.append(r)
        if isinstance(r, Rule) and i % 50 == 0:  # every 50th rule is amended by an erratum
            new = r.text.replace("add 1", "add 2", 1)
            err = Erratum("Core Book", "1.7", str(i), r.name, Source("faq.txt"), text=new, edition=edition)
            r = dataclasses.replace(r, text=new, changes=(Change("Core Book", "1.7", str(i), "replace", None,
                                                                   originals[-1].text, new),))
            outcomes.append(Outcome(err, True, r.name))
            originals.append(err)
            records.append(err)
        records.append(r)
    return Corpus(records=records, originals=core + originals, outcomes=outcomes)


def change_one_file(corpus: Corpus) -> Corpus:
    """The corpus after one source file was re-ingested with one record's text edited."""
    records = list(corpus.records)
    # A rule from an ordinary file, not one of the core rules every datasheet links to (editing
    # Blast rightly re-renders every page whose [blast] link shows its text on hover).
    candidates = [k for k, r in enumerate(records) if isinstance(r, Rule) and not r.changes and r.text]
    k = candidates[len(candidates) // 2]
    records[k] = dataclasses.replace(records[k], text=records[k].text + " Then roll one more D6.")
    # The other records are the same objects, read from the same stored rows: same stored hashes.
    return Corpus(records=records, originals=corpus.originals, outcomes=corpus.outcomes,
                  stored_hashes=corpus.stored_hashes)


CPU = {"last": 0.0}


def _cpu() -> float:
    import resource

    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(fn):
    """(wall seconds, value); the CPU seconds it took (worker processes included) go to CPU['last']."""
    start, cpu = time.perf_counter(), _cpu()
    value = fn()
    CPU["last"] = _cpu() - cpu
    return time.perf_counter() - start, value


def bench(label: str, corpus: Corpus, workers: int) -> dict:
    tmp = Path(tempfile.mkdtemp(prefix="ruleslawyer-site-bench-"))
    try:
        cpu = {}
        t_gather, ctx = timed(lambda: get_context(corpus))
        cpu["gather"] = CPU["last"]
        t_render, total = timed(lambda: sum(len(b) for _, b in render_all(ctx)))
        cpu["render"] = CPU["last"]
        t_full, report = timed(lambda: write_site(get_context(corpus), tmp / "site", workers=workers))
        cpu["full"] = CPU["last"]
        # Rebuilds do what `site build` does: gather everything, render and write what changed.
        t_noop, noop = timed(lambda: write_site(get_context(corpus), tmp / "site", workers=workers))
        cpu["noop"] = CPU["last"]
        changed = change_one_file(corpus)
        t_one, one = timed(lambda: write_site(get_context(changed), tmp / "site", workers=workers))
        cpu["one"] = CPU["last"]
        size = sum(p.stat().st_size for p in (tmp / "site").rglob("*") if p.is_file())
        index = (tmp / "site" / "static" / "search-index.js").stat().st_size
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"label": label, "records": len(corpus.records), "pages": report.pages, "gather": t_gather,
            "render": t_render, "full": t_full, "noop": t_noop, "one": t_one, "one_rendered": one.rendered,
            "one_written": one.written, "noop_written": noop.written, "mb": size / 1e6, "index_mb": index / 1e6,
            "html_mb": total / 1e6, "cpu": cpu}


def seeds_corpus(shared: Path) -> tuple[Corpus, float]:
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.store import Store

    tmp = Path(tempfile.mkdtemp(prefix="ruleslawyer-site-seeds-"))
    try:
        with Store(tmp / "store.sqlite") as store:
            ingest_paths(store, sorted((shared / "seeds").glob("00[0-3]_*.txt")))
            t_load, corpus = timed(lambda: load_corpus(store))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return corpus, t_load


def bench_store(corpus: Corpus, workers: int) -> dict:
    """`build_site` on a store holding `corpus`'s originals, one stored file per source file."""
    import hashlib
    from collections import defaultdict

    from ruleslawyer.site.build import build_site
    from ruleslawyer.store import Store

    by_file = defaultdict(list)
    for r in corpus.originals:
        by_file[r.source.file].append(r)
    tmp = Path(tempfile.mkdtemp(prefix="ruleslawyer-site-store-"))

    def put(store, path, records):
        digest = hashlib.sha256(repr(records).encode()).hexdigest()
        store.replace_file(path=path, name=path, sha256=digest, format="text", size=1, records=records)

    try:
        with Store(tmp / "store.sqlite") as store:
            for path, records in sorted(by_file.items()):
                put(store, path, records)
            t_load, _ = timed(lambda: load_corpus(store))
            t_full, full = timed(lambda: build_site(store, tmp / "site", workers=workers))
            t_noop, noop = timed(lambda: build_site(store, tmp / "site", workers=workers))
            path = sorted(by_file)[len(by_file) // 2]
            records = list(by_file[path])
            k = next(i for i, r in enumerate(records) if isinstance(r, Rule) and r.text)
            records[k] = dataclasses.replace(records[k], text=records[k].text + " Then roll one more D6.")
            put(store, path, records)
            t_one, one = timed(lambda: build_site(store, tmp / "site", workers=workers))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"load": t_load, "full": t_full, "noop": t_noop, "noop_rendered": noop.rendered, "one": t_one,
            "one_rendered": one.rendered, "one_written": one.written, "pages": full.pages}


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=50_000)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--store", action="store_true", help="also time build_site on a store of the synthetic corpus")
    args = ap.parse_args(argv)
    rows = []
    print(f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}", flush=True)
    if (args.shared / "seeds").is_dir():
        corpus, t_load = seeds_corpus(args.shared)
        print(f"seeds: load_corpus (errata applied) {t_load:.2f}s")
        rows.append(bench("seeds 000-003", corpus, args.workers))
        print(rows[-1], flush=True)
    t_make, synth = timed(lambda: synthetic_corpus(args.records))
    print(f"synthetic: {len(synth.records)} records generated in {t_make:.1f}s", flush=True)
    rows.append(bench(f"synthetic {args.records:,}", synth, args.workers))
    print(rows[-1], flush=True)
    if args.store:
        st = bench_store(synth, args.workers)
        print(f"store ({args.records:,} synthetic records): load_corpus {st['load']:.2f}s; build_site full "
              f"{st['full']:.2f}s ({st['pages']:,} pages); no-op {st['noop']:.2f}s ({st['noop_rendered']} rendered); "
              f"one file replaced {st['one']:.2f}s ({st['one_rendered']} rendered, {st['one_written']} written) "
              f"= {st['one'] / st['full']:.1%} of full", flush=True)
    print(f"\n{os.cpu_count()} CPUs, {args.workers} render workers; "
          f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print("wall seconds (CPU seconds, render workers included)")
    head = ("corpus", "records", "pages", "gather", "render only", "full build", "no-op rebuild",
            "one-file rebuild", "one-file / full", "site MB", "index MB")
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for r in rows:
        c = r["cpu"]
        print(f"| {r['label']} | {r['records']:,} | {r['pages']:,} | {r['gather']:.2f} ({c['gather']:.1f}) | "
              f"{r['render']:.2f} ({c['render']:.1f}) | {r['full']:.2f} ({c['full']:.1f}) | "
              f"{r['noop']:.2f} ({c['noop']:.1f}) | {r['one']:.2f} ({c['one']:.1f}); {r['one_rendered']} rendered, "
              f"{r['one_written']} written | {r['one'] / r['full']:.1%} ({c['one'] / c['full']:.1%}) | "
              f"{r['mb']:.1f} | {r['index_mb']:.1f} |")


if __name__ == "__main__":
    main()
