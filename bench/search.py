"""Search benchmark: ruleslawyer's search against plain Whoosh doing the same work, in one run.

Usage: .venv/bin/python bench/search.py [--realdata ../shared/realdata] [--records 50000]
       [--queries 300] [--cold-runs 11] [--keep DIR]

Three ratios, each ours / plain Whoosh through its public API:
1. **Index ready** after ingesting the real pile (`--realdata`, ingested by `ingest_paths` into a
   temp store first): `ensure_index` (read the store, apply errata, make documents, write with
   Whoosh's writer) against a script that adds the same documents (made beforehand, untimed)
   with `ix.writer()` / `add_document` / `commit` into an index of the same schema.
2. **Cold search** on that store: a whole `ruleslawyer search Q` process against a Python
   process that opens the same index with `open_dir`, runs the Whoosh query ours compiles for Q
   (given as its repr) and prints the names (median of interleaved rounds). A second plain
   script parses Q's words with `MultifieldParser` over name, tags and text instead, for
   comparison: for a synonym such as "invuln" that query is much smaller than ours.
3. **Warm p95 at 50,000 records** (synthetic, from the seeds' gold records): `search_index`
   (parsing, synonyms, typo check, edition order, snippets) against a plain `ix.searcher()`
   running the very query objects ours compiles, `searcher.search(q, limit=10)` and the stored
   fields of the hits; for a mistyped word, Whoosh's own corrector (`searcher.corrector`,
   `suggest`) first, then the corrected query. Same index, interleaved query by query, each
   side going first on every other query.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KIND_SHARE = {"rule": 0.42, "datasheet": 0.18, "stratagem": 0.18, "enhancement": 0.09,
              "detachment_rule": 0.03, "errata": 0.07, "note": 0.02, "table": 0.01}
COLD_QUERIES = ["reanimation protocols", "deep strike", "invuln", "kind:stratagem fight"]


# ---------------------------------------------------------------- synthetic records and queries
class Vocabulary:
    """Words of the gold records (records.md dicts): synthetic records and player-like queries."""

    def __init__(self, records: list[dict], rng: random.Random):
        self.rng = rng
        self.records = records
        self.by_kind = defaultdict(list)
        for r in records:
            self.by_kind[r["kind"]].append(r)
        self.name_words = sorted({w for r in records for w in (r.get("name") or "").split() if w.isalpha()})
        self.factions = sorted({r["faction"] for r in records if r.get("faction")})
        self.factions += ["Aeldari", "Orks", "Tyranids", "Adeptus Custodes", "Death Guard", "T'au Empire"]
        self.groups = sorted({r["group"] for r in records if r.get("group")})
        self.keywords = sorted({k for r in records for k in r.get("keywords", []) + r.get("faction_keywords", [])})
        self.weapons = sorted({w["name"] for r in records for w in r.get("weapons", [])})
        self.bigrams = defaultdict(list)
        self.sentence_starts = []
        for r in records:
            for field in ("text", "effect", "when", "target"):
                words = (r.get(field) or "").split()
                if len(words) > 3:
                    self.sentence_starts.append(words[0])
                    for a, b in zip(words, words[1:]):
                        self.bigrams[a].append(b)
        self.text_words = sorted({w.lower() for ws in self.bigrams.values() for w in ws if w.isalpha() and len(w) > 3})

    def text(self, n_words: int) -> str:
        out = [self.rng.choice(self.sentence_starts)]
        while len(out) < n_words:
            nxt = self.bigrams.get(out[-1])
            out.append(self.rng.choice(nxt) if nxt else self.rng.choice(self.sentence_starts))
        return " ".join(out)

    def name(self) -> str:
        return " ".join(self.rng.choice(self.name_words) for _ in range(self.rng.randint(1, 4)))

    def record(self, n: int) -> dict:
        rng = self.rng
        kind = rng.choices(list(KIND_SHARE), weights=list(KIND_SHARE.values()))[0]
        base = dict(rng.choice(self.by_kind.get(kind) or self.by_kind["rule"]))
        base["source"] = {"file": f"synthetic-{n // 500}.txt", "page": n % 500}
        base["edition"] = rng.choice([9, 10, 10, 11])
        if kind == "errata":
            base.update(target=self.name(), text=self.text(rng.randint(15, 60)))
            return base
        base["name"] = self.name()
        if "faction" in base or kind in ("datasheet", "stratagem", "enhancement", "detachment_rule"):
            base["faction"] = rng.choice(self.factions)
        if "group" in base:
            base["group"] = rng.choice(self.groups)
        if kind == "stratagem":
            base.update(cp=rng.choice([0, 1, 1, 2]), when=self.text(rng.randint(3, 12)),
                        target=self.text(rng.randint(8, 25)), effect=self.text(rng.randint(15, 60)))
        elif kind == "datasheet":
            base["keywords"] = rng.sample(self.keywords, k=min(4, len(self.keywords)))
            base["abilities"] = [{"name": self.name(), "text": self.text(rng.randint(10, 40))} for _ in range(rng.randint(2, 5))]
            base["weapons"] = [dict(w, name=rng.choice(self.weapons)) for w in base.get("weapons", [])]
        elif "text" in base:
            base["text"] = self.text(rng.randint(20, 150))
        return base

    def queries(self, n: int) -> list[tuple[str, str]]:
        """(type, query) for n mixed queries: plain words (some as a question), fielded,
        phrases, and words with one letter dropped (typo correction)."""
        rng, out = self.rng, []
        kinds = ["plain", "plain", "fielded", "phrase", "typo"]
        while len(out) < n:
            t = kinds[len(out) % len(kinds)]
            if t == "plain":
                words = rng.sample(self.text_words, rng.randint(1, 3))
                q = " ".join((["how", "does"] if rng.random() < 0.3 else []) + words)
            elif t == "fielded":
                kind = rng.choice(["stratagem", "rule", "datasheet", "enhancement"])
                q = f"kind:{kind} faction:{rng.choice(self.factions).split()[0].lower()} {rng.choice(self.text_words)}"
            elif t == "phrase":
                words = [w.strip('.,;:()"\u2019\u2018') for w in self.text(rng.randint(2, 3)).split()]
                q = '"' + " ".join(w for w in words if w) + '"'
            else:
                word = rng.choice([w for w in self.text_words if len(w) >= 6])
                i = rng.randrange(1, len(word) - 1)
                q = word[:i] + word[i + 1:]
            out.append((t, q))
        return out


# ---------------------------------------------------------------- helpers
def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def live_folder(db: Path) -> Path:
    from ruleslawyer.index.lifecycle import index_root, read_current

    return index_root(db) / read_current(index_root(db))["dir"]


# ---------------------------------------------------------------- 1. index ready after ingest
def index_ready(realdata: Path, work: Path) -> dict:
    """Ingest `realdata` into a new store, then time ensure_index against a plain Whoosh build
    of the same documents."""
    from ruleslawyer.index import engine
    from ruleslawyer.index.documents import make_document
    from ruleslawyer.index.search import ensure_index
    from ruleslawyer.ingest.pipeline import ingest_paths
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    db = work / "real.sqlite"
    out: dict = {"db": db}
    with Store(db) as store:
        t0 = time.perf_counter()
        ingest_paths(store, [realdata])
        out["ingest_s"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        ensure_index(store)
        out["ours_s"] = time.perf_counter() - t0
        docs = [make_document(r) for r in load_corpus(store).records]
    out["documents"] = len(docs)
    from whoosh.index import create_in

    plain_dir = work / "plain-index"
    plain_dir.mkdir()
    t0 = time.perf_counter()
    ix = create_in(str(plain_dir), engine.schema())
    writer = ix.writer()
    for doc in docs:
        writer.add_document(**doc)
    writer.commit()
    out["plain_s"] = time.perf_counter() - t0
    shutil.rmtree(plain_dir)
    return out


# ---------------------------------------------------------------- 2. cold search
def cold(db: Path, runs: int) -> dict[str, dict[str, float]]:
    """query -> median ms of `ruleslawyer search Q` ("ours") and of two plain Whoosh scripts,
    interleaved: "same" opens the index and runs the very Whoosh query ours compiles for Q (its
    synonyms expanded: what the warm comparison runs too), "words" parses Q's words with
    `MultifieldParser` over name, tags and text (a smaller query for a synonym such as invuln)."""
    from ruleslawyer.index.engine import Index
    from ruleslawyer.index.query import parse_query

    folder = live_folder(db)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode cached, as installed
    env["RULESLAWYER_DB"] = str(db)
    exe = str(Path(sys.executable).with_name("ruleslawyer"))
    opening = f"import sys\nfrom whoosh.index import open_dir\nix = open_dir({str(folder)!r})\n"
    same = (opening + "from whoosh.query import And, Not, Or, Phrase, Term\n"
            "with ix.searcher() as s:\n"
            "    print([h['name'] for h in s.search(eval(sys.argv[1]), limit=10)])\n")
    words = (opening + "from whoosh.qparser import MultifieldParser\n"
             "with ix.searcher() as s:\n"
             "    q = MultifieldParser(['name', 'tags', 'text'], ix.schema).parse(sys.argv[1])\n"
             "    print([h['name'] for h in s.search(q, limit=10)])\n")
    out = {}
    with Index(folder) as index:
        compiled = {query: repr(index.whoosh_query(parse_query(query).node, parse_query(query).filters))
                    for query in COLD_QUERIES}
    for query in COLD_QUERIES:
        commands = {"ours": [exe, "search", query], "same": [sys.executable, "-c", same, compiled[query]],
                    "words": [sys.executable, "-c", words, query]}
        times: dict[str, list[float]] = {k: [] for k in commands}
        for argv in commands.values():  # untimed: bytecode written, files in the page cache
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        for _ in range(runs):
            for name, argv in commands.items():
                start = time.perf_counter()
                subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
                times[name].append((time.perf_counter() - start) * 1000)
        out[query] = {name: statistics.median(values) for name, values in times.items()}
    return out


# ---------------------------------------------------------------- 3. warm at 50,000 records
def synthetic_store(db: Path, shared: Path, n: int, rng: random.Random) -> tuple[Vocabulary, float]:
    """A store of `n` synthetic records and its live index (built unless it exists)."""
    from ruleslawyer.index.search import ensure_index
    from ruleslawyer.records_json import from_dict
    from ruleslawyer.store import Store

    gold = sorted((shared / "gold").glob("*.jsonl"))
    vocab = Vocabulary([json.loads(line) for f in gold for line in f.read_text(encoding="utf-8").splitlines() if line], rng)
    records = [vocab.record(i) for i in range(n)]  # drawn either way: the same queries follow
    with Store(db) as store:
        if store.is_empty():
            built = [from_dict(r) for r in records]
            for start in range(0, n, 5000):
                store.replace_file(path=f"synthetic-{start}", name=f"synthetic-{start}", sha256=str(start),
                                   format="text", size=0, records=built[start:start + 5000])
        t0 = time.perf_counter()
        ensure_index(store)  # instant when a kept index is fresh
        build_s = time.perf_counter() - t0
    return vocab, build_s


def warm(db: Path, queries: list[tuple[str, str]]) -> tuple[dict, dict]:
    """Per query type, ms of ours (search_index) and of a plain searcher on the same queries."""
    from whoosh.index import open_dir

    from ruleslawyer.index import engine
    from ruleslawyer.index.query import parse_query
    from ruleslawyer.index.search import search_index

    folder = live_folder(db)
    ours, plain = defaultdict(list), defaultdict(list)
    ix = open_dir(str(folder))
    with engine.Index(folder) as index, ix.searcher() as searcher:
        compiled = {q: index.whoosh_query(parse_query(q).node, parse_query(q).filters) for _, q in queries}
        corrector = searcher.corrector("words")

        def run_plain(t: str, q: str) -> None:
            query = compiled[q]
            if t == "typo":  # Whoosh's own spelling correction, then the corrected query
                fixed = corrector.suggest(q, limit=1, maxdist=1, prefix=1)
                if fixed:
                    parsed = parse_query(fixed[0])
                    query = index.whoosh_query(parsed.node, parsed.filters)
            [hit.fields() for hit in searcher.search(query, limit=10)]

        for t, q in queries[:30]:  # warm caches both ways
            search_index(index, q)
            run_plain(t, q)
        for n, (t, q) in enumerate(queries):
            # Whichever runs second finds the postings the first just read in the CPU's caches:
            # take turns going first.
            for side in (("ours", "plain") if n % 2 else ("plain", "ours")):
                start = time.perf_counter()
                search_index(index, q, limit=10) if side == "ours" else run_plain(t, q)
                (ours if side == "ours" else plain)[t].append((time.perf_counter() - start) * 1000)
    return ours, plain


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--realdata", type=Path, default=ROOT.parent / "shared" / "realdata")
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--records", type=int, default=50000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--cold-runs", type=int, default=11)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--keep", type=Path, help="Keep the synthetic store and index in this folder (reused by a later run).")
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="rl-bench-search-"))
    keep = args.keep or work
    keep.mkdir(parents=True, exist_ok=True)
    print(f"machine: {os.cpu_count()} CPUs, load average at start {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    try:
        ready = index_ready(args.realdata, work)
        print(f"1. index ready after ingesting {args.realdata} ({ready['documents']} records; ingest {ready['ingest_s']:.1f} s): "
              f"ensure_index {ready['ours_s']:.1f} s, plain Whoosh writer on the same documents {ready['plain_s']:.1f} s, "
              f"ratio {ready['ours_s'] / ready['plain_s']:.2f}")
        print(f"2. cold search on that store (median of {args.cold_runs} interleaved rounds; the check is the "
              "ratio to the plain script running the same Whoosh query):")
        for query, ms in cold(ready["db"], args.cold_runs).items():
            print(f"   {query!r:<24} ruleslawyer search {ms['ours']:4.0f} ms; plain script, same query "
                  f"{ms['same']:4.0f} ms, ratio {ms['ours'] / ms['same']:.2f}; plain script, the words "
                  f"through MultifieldParser {ms['words']:4.0f} ms, ratio {ms['ours'] / ms['words']:.2f}")
        db = keep / "synthetic.sqlite"
        vocab, build_s = synthetic_store(db, args.shared, args.records, random.Random(args.seed))
        built = f"ready in {build_s:.1f} s" + (f", kept in {keep}" if args.keep else "")
        ours, plain = warm(db, vocab.queries(args.queries))
        print(f"3. warm, {args.records} synthetic records (index {built}), {args.queries} queries:")
        print(f"   {'type':<14}{'ours p50':>10}{'ours p95':>10}{'plain p50':>11}{'plain p95':>11}{'ratio p95':>11}")
        for t in [*ours, "all"]:
            o = ours[t] if t != "all" else [v for vs in ours.values() for v in vs]
            b = plain[t] if t != "all" else [v for vs in plain.values() for v in vs]
            print(f"   {t + f' ({len(o)})':<14}{percentile(o, 50):>10.2f}{percentile(o, 95):>10.2f}"
                  f"{percentile(b, 50):>11.2f}{percentile(b, 95):>11.2f}{percentile(o, 95) / percentile(b, 95):>11.2f}")
        print(f"load average at end {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
