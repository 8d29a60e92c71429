"""Search benchmark: a 50,000-record synthetic corpus or a real export, index build, warm and cold query times.

Usage: .venv/bin/python bench/search.py [--records 50000] [--queries 500] [--shared ../shared]
       .venv/bin/python bench/search.py --real ../shared/realdata/wahadumper__wahadumper [--keep DIR]
       .venv/bin/python bench/search.py --cold-only STORE.sqlite [--cold-runs N]

With `--real FOLDER` the corpus is whatever `ingest_paths` makes of FOLDER (e.g. the 10th
edition Wahapedia export) and the queries are drawn at run time from those records' names
and texts (phrases are runs of consecutive words of a real text) instead of the synthetic ones.

The corpus is generated at run time from the vocabulary of the seed documents' gold records
(names, factions, groups, keywords, and a word-bigram model of their rules text), with the
kinds in the proportions of the seeds. Prints, side by side:
- index build time and size;
- warm latency p50/p95 over mixed queries (plain, fielded, phrase, fuzzy) through
  `ruleslawyer.index.search.search_index` and through a bare Whoosh searcher (QueryParser +
  search + stored fields) on the same index (the index keeps positions in names only, so a bare
  phrase is the name phrase or every word pair in the `pairs` field, as ours);
- the cold wall time of a whole `ruleslawyer search` process next to `python -c "import whoosh"`.
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
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruleslawyer.records import from_dict  # noqa: E402

KIND_SHARE = {"rule": 0.42, "datasheet": 0.18, "stratagem": 0.18, "enhancement": 0.09,
              "detachment_rule": 0.03, "errata": 0.07, "note": 0.02, "table": 0.01}


# ---------------------------------------------------------------- vocabulary from the gold records
class Vocabulary:
    """Words of a set of record dicts (records.md shape), for synthetic records and queries.

    `real` draws queries the way a player would ask about these very records: plain queries
    are half words of a record's name, phrases are consecutive words of a real text, and
    factions are only the records' own.
    """

    def __init__(self, records: list[dict], rng: random.Random, *, real: bool = False):
        self.rng = rng
        self.real = real
        self.records = records
        self.by_kind = defaultdict(list)
        for r in self.records:
            self.by_kind[r["kind"]].append(r)
        self.name_words = sorted({w for r in self.records for w in (r.get("name") or "").split() if w.isalpha()})
        self.factions = sorted({r["faction"] for r in self.records if r.get("faction")})
        if not real:
            self.factions += ["Aeldari", "Orks", "Tyranids", "Adeptus Custodes", "Death Guard", "T'au Empire"]
        self.kinds = sorted({r["kind"] for r in self.records})
        self.names = sorted({r["name"] for r in self.records if r.get("name")})
        self.texts = []  # real texts long enough to take a phrase from
        self.groups = sorted({r["group"] for r in self.records if r.get("group")})
        self.keywords = sorted({k for r in self.records for k in r.get("keywords", []) + r.get("faction_keywords", [])})
        self.weapons = sorted({w["name"] for r in self.records for w in r.get("weapons", [])})
        self.bigrams = defaultdict(list)
        self.sentence_starts = []
        for r in self.records:
            for field in ("text", "effect", "when", "target"):
                words = (r.get(field) or "").split()
                if len(words) > 3:
                    self.texts.append(words)
                    self.sentence_starts.append(words[0])
                    for a, b in zip(words, words[1:]):
                        self.bigrams[a].append(b)
        self.text_words = sorted({w.strip('.,;:()"').lower() for ws in self.bigrams.values() for w in ws if w.isalpha() and len(w) > 3})

    @classmethod
    def from_gold(cls, gold_files: list[Path], rng: random.Random) -> "Vocabulary":
        return cls([json.loads(line) for f in gold_files for line in f.read_text(encoding="utf-8").splitlines() if line], rng)

    def phrase_words(self, n: int) -> list[str]:
        """n words for a phrase query: a run of a real text, or a bigram chain (synthetic)."""
        if not self.real:
            return self.text(n).split()
        while True:
            words = [w.strip('.,;:()"\u2019\u2018') for w in self.rng.choice(self.texts)]
            start = self.rng.randrange(0, len(words) - n + 1)
            run = words[start:start + n]
            if all(w.isalpha() for w in run):  # no numbers, dice or dashes inside a phrase
                return run

    def real_fielded(self) -> tuple[str, str, str]:
        """A fielded query about one real record: its kind, its faction's first word and a
        word of its own name or text (so it has at least one hit, as a player's would)."""
        rng = self.rng
        candidates = [r for r in self.records if r.get("faction") and r["kind"] in ("stratagem", "datasheet", "enhancement", "detachment_rule")]
        while True:
            r = rng.choice(candidates)
            texts = [r.get(f) or "" for f in ("name", "text", "effect", "when", "target")]
            texts += [a.get("text") or "" for a in r.get("abilities", [])]
            words = [w.strip('.,;:()"').lower() for t in texts for w in t.split()]
            words = [w for w in words if w.isalpha() and len(w) > 3]
            if words:
                break
        kind = "detachment" if r["kind"] == "detachment_rule" else r["kind"]
        faction = r["faction"].split()[0].lower()
        word = rng.choice(words)
        return ("fielded", f"kind:{kind} faction:{faction} {word}", f"kind:{r['kind']} AND faction:{faction} AND {word}")

    def plain_words(self) -> list[str]:
        """1-3 words of a plain query: from the text, or (real mode, half the time) a name."""
        if self.real and self.rng.random() < 0.5:
            name_words = [w for w in self.rng.choice(self.names).split() if w.isalpha()]
            if name_words:
                return name_words[:3]
        return self.rng.sample(self.text_words, self.rng.randint(1, 3))

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
        base["edition"] = rng.choice([5, 9, 10, 10])
        if kind in ("errata",):
            base["target"] = self.name()
            base["text"] = self.text(rng.randint(15, 60))
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

    def queries(self, n: int) -> list[tuple[str, str, str]]:
        """(type, our query, bare-Whoosh query) for n mixed queries."""
        rng, out = self.rng, []
        kinds = ["plain", "plain", "fielded", "phrase", "fuzzy"]
        while len(out) < n:
            t = kinds[len(out) % len(kinds)]
            if t == "plain":
                words = self.plain_words()
                if rng.random() < 0.3:
                    words = ["how", "does"] + words
                q = " ".join(words)
                out.append((t, q, q))
            elif t == "fielded" and self.real:
                out.append(self.real_fielded())
            elif t == "fielded":
                kind = rng.choice([k for k in ["stratagem", "rule", "datasheet", "enhancement"]
                                   if not self.real or k in self.kinds])
                faction = rng.choice(self.factions).split()[0].lower()
                word = rng.choice(self.text_words)
                q = f"kind:{kind} faction:{faction} {word}"
                out.append((t, q, f"kind:{kind} AND faction:{faction} AND {word}"))
            elif t == "phrase":
                words = self.phrase_words(rng.randint(2, 3))
                phrase = " ".join(w.strip('.,;:()"\u2019\u2018') for w in words)
                q = f'"{phrase}"'
                out.append((t, q, bare_phrase(phrase)))
            else:
                word = rng.choice([w for w in self.text_words if len(w) >= 6])
                i = rng.randrange(1, len(word) - 1)
                typo = word[:i] + word[i + 1:]
                out.append((t, typo, f"{typo}~1"))
        return out


def bare_phrase(phrase: str) -> str:
    """A phrase as bare Whoosh can run it on this index: positions are kept in names only, so
    in the text it is every word pair of the phrase in the `pairs` field (as ours does)."""
    from ruleslawyer.index.analysis import terms

    stems = terms(phrase)
    pairs = " AND ".join(f"pairs:{a}|{b}" for a, b in zip(stems, stems[1:]))
    return f'name:"{phrase}" OR ({pairs})' if pairs else f'"{phrase}"'


def percentile(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def dir_size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


# argv (joined) -> median CPU ms of its runs in timed_process (user + system of the child)
CPU_MS: dict[str, float] = {}


def cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished children (a forked build
    writer, subprocesses): what a loaded machine does not inflate as much as wall time."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def timed_process(argv: list[str], env: dict, runs: int) -> float:
    """Median wall time (ms) of running `argv` to completion (after one untimed run); the
    median CPU time goes to CPU_MS."""
    import resource

    subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    times, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append((time.perf_counter() - start) * 1000)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    CPU_MS[" ".join(argv)] = statistics.median(cpus)
    return statistics.median(times)


def yardstick() -> tuple[float, float]:
    """(wall s, CPU s) of `python3 -c "sum(range(10**8))"`: a fixed CPU loop (about 1 s on an
    idle core) that says how loaded the machine was during the run."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "sum(range(10**8))"], check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime


def timed_build(store) -> tuple[float, float, float, float, Path, dict]:
    """Build the live index of `store` through the real lifecycle (`ensure_index`), timed; then
    time `load_corpus` and `make_document` again alone, so the rest is Whoosh writing.

    Returns (total, load_corpus, make documents, Whoosh writing) in seconds, the index folder,
    and CPU seconds: of the whole build (this process and the forked writer), and of the
    load and documents steps.
    """
    import resource

    from ruleslawyer.index.documents import make_document
    from ruleslawyer.index.search import ensure_index
    from ruleslawyer.library.corpus import load_corpus

    cpu = {}
    t0, c0 = time.perf_counter(), time.process_time()
    k0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    index_dir = ensure_index(store)
    lifecycle_s = time.perf_counter() - t0
    k1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu["build_parent"] = time.process_time() - c0
    cpu["build_child"] = k1.ru_utime + k1.ru_stime - k0.ru_utime - k0.ru_stime
    t0, c0 = time.perf_counter(), time.process_time()
    corpus = load_corpus(store)
    load_s = time.perf_counter() - t0
    cpu["load"] = time.process_time() - c0
    t0, c0 = time.perf_counter(), time.process_time()
    for r in corpus.records:
        make_document(r)
    docs_s = time.perf_counter() - t0
    cpu["documents"] = time.process_time() - c0
    return lifecycle_s, load_s, docs_s, lifecycle_s - load_s - docs_s, index_dir, cpu


def side_builds(store, index_dir: Path, work: Path, skip_bare: bool) -> dict[str, float]:
    """Time, on the same documents as the live index: a bare Whoosh build (its own writer and
    analyzers, one process), and SQLite FTS5 (name, tags, text) as a yardstick; then an
    incremental update (one file of 50 records added, then removed) through the lifecycle."""
    import sqlite3

    from ruleslawyer.index import engine
    from ruleslawyer.index.documents import make_document, with_pairs
    from ruleslawyer.index.search import ensure_index
    from ruleslawyer.library.corpus import load_corpus

    out: dict[str, float] = {}
    docs = [make_document(r) for r in load_corpus(store).records]
    if not skip_bare:
        t0 = time.perf_counter()
        ix = engine.create_index_dir(work / "bare-whoosh")
        writer = ix.writer(limitmb=256)
        for doc in docs:
            writer.add_document(**with_pairs(doc))
        writer.commit()
        out["bare_whoosh_s"] = time.perf_counter() - t0
        shutil.rmtree(work / "bare-whoosh", ignore_errors=True)
    t0 = time.perf_counter()
    conn = sqlite3.connect(work / "fts5.sqlite")
    conn.execute("CREATE VIRTUAL TABLE docs USING fts5(name, tags, text, tokenize='porter')")
    conn.executemany("INSERT INTO docs VALUES (?, ?, ?)", ((d["name"], d["tags"], d["text"]) for d in docs))
    conn.commit()
    conn.close()
    out["fts5_s"] = time.perf_counter() - t0
    (work / "fts5.sqlite").unlink()
    extra = [from_dict({**r, "name": r["name"] + " Extra"}) for r in
             (json.loads(row) for (row,) in store.conn.execute("SELECT data FROM records WHERE kind IN ('rule', 'stratagem', 'datasheet') LIMIT 50"))]
    store.replace_file(path="bench-extra", name="bench-extra", sha256="extra", format="text", size=0, records=extra)
    t0 = time.perf_counter()
    ensure_index(store)
    out["add_file_s"] = time.perf_counter() - t0
    store.remove_file("bench-extra")
    t0 = time.perf_counter()
    ensure_index(store)
    out["remove_file_s"] = time.perf_counter() - t0
    return out


def cold_only(db: Path, runs: int) -> None:
    """`--cold-only DB`: the cold start of `ruleslawyer search` on the existing store DB (its
    index already fresh), interleaved round by round with its yardsticks, so that load changes
    hit every command alike: `python -c pass`, the same search through the Whoosh index (our
    search_index on engine.Index, no CLI), a bare Whoosh search script, and a phrase query
    (a phrase over names: answered by the Whoosh index, opened on demand)."""
    import resource

    from ruleslawyer.index.lifecycle import index_root, read_current

    folder = index_root(db) / read_current(index_root(db))["dir"]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(RULESLAWYER_DB=str(db))  # bytecode cached as on a normal install
    exe = str(Path(sys.executable).with_name("ruleslawyer"))
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "ruleslawyer search reanimation protocols": [exe, "search", "reanimation protocols"],
        "ruleslawyer search kind:stratagem faction:necrons fight": [exe, "search", "kind:stratagem faction:necrons fight"],
        "ruleslawyer search '\"end of the phase\"' (phrase: Whoosh)": [exe, "search", '"end of the phase"'],
        "same search through the Whoosh index (engine.Index)": [sys.executable, "-c", (
            "from ruleslawyer.index import engine; from ruleslawyer.index.search import search_index\n"
            f"with engine.Index({str(folder)!r}) as ix: print([h.name for h in search_index(ix, 'reanimation protocols').hits])")],
        "bare Whoosh search script (open_dir, QueryParser, search)": [sys.executable, "-c", (
            "from whoosh.index import open_dir; from whoosh.qparser import QueryParser; "
            f"ix = open_dir({str(folder)!r}); s = ix.searcher(); "
            "print([h['name'] for h in s.search(QueryParser('text', ix.schema).parse('reanimation protocols'))])")],
    }
    walls: dict[str, list[float]] = {k: [] for k in commands}
    cpus: dict[str, list[float]] = {k: [] for k in commands}
    for argv in commands.values():  # one untimed run each: bytecode written, files cached
        subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    for _ in range(runs):
        for name, argv in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            walls[name].append((time.perf_counter() - start) * 1000)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpus[name].append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000)
    base_wall, base_cpu = statistics.median(walls["python -c pass"]), statistics.median(cpus["python -c pass"])
    print(f"cold start, {runs} interleaved rounds, store {db}; machine: {os.cpu_count()} CPUs, "
          f"load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    print(f"{'command':<62}{'wall ms':>9}{'x pass':>8}{'CPU ms':>9}{'x pass':>8}")
    for name in commands:
        wall, cpu = statistics.median(walls[name]), statistics.median(cpus[name])
        print(f"{name:<62}{wall:>9.0f}{wall / base_wall:>8.2f}{cpu:>9.0f}{cpu / base_cpu:>8.2f}")
    warm_compare(folder)


def warm_compare(folder: Path, seed: int = 5) -> None:
    """Warm `search_index` on the same folder opened both ways (fastsearch.FastIndex, what the
    CLI uses, and engine.Index), alternating, over record names, 3 words of their texts and a
    few common-word and fielded queries."""
    import re

    from ruleslawyer.index import engine, fastsearch
    from ruleslawyer.index.rawread import RawIndex
    from ruleslawyer.index.search import search_index

    rng = random.Random(seed)
    with fastsearch.FastIndex(folder) as fast, engine.Index(folder) as slow, RawIndex(folder) as raw:
        count = fast.doc_count
        queries = ["unit", "the unit", "models within 6 inches", "kind:stratagem fight", "faction:necrons protocol"]
        for docnum in range(0, count, max(1, count // 300)):
            try:
                data = json.loads(raw.stored_fields(docnum)["data"])
            except (KeyError, ValueError):
                continue
            queries.append(data["name"])
            words = re.findall(r"[A-Za-z]{4,}", data.get("text") or data["name"])
            if len(words) > 2:
                queries.append(" ".join(rng.sample(words, 3)))
        for label, index in (("FastIndex", fast), ("engine.Index", slow)) * 2:
            times = []
            for q in queries:
                start = time.perf_counter()
                search_index(index, q)
                times.append((time.perf_counter() - start) * 1000)
            print(f"warm {label:<13} {len(times)} queries: p50 {percentile(times, 50):.2f} ms, "
                  f"p95 {percentile(times, 95):.2f} ms, mean {statistics.mean(times):.2f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=50000)
    ap.add_argument("--queries", type=int, default=500)
    ap.add_argument("--shared", type=Path, default=ROOT.parent / "shared")
    ap.add_argument("--cold-runs", type=int, default=15)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--real", type=Path, metavar="FOLDER",
                    help="Benchmark on what `ingest_paths` makes of FOLDER (a real export) instead of synthetic records.")
    ap.add_argument("--no-bare-build", action="store_true", help="Skip the bare Whoosh build (minutes at 50,000).")
    ap.add_argument("--keep", type=Path, help="Build the store and index in this folder and keep them; "
                    "a later run with the same folder reuses them (no build figures then).")
    ap.add_argument("--cold-only", type=Path, metavar="DB",
                    help="Only time cold `ruleslawyer search` processes on the existing store DB, with yardsticks.")
    args = ap.parse_args()
    if args.cold_only:
        cold_only(args.cold_only, args.cold_runs)
        return

    from ruleslawyer.index import engine
    from ruleslawyer.index.search import search_index, ensure_index
    from ruleslawyer.library.corpus import load_corpus
    from ruleslawyer.store import Store

    rng = random.Random(args.seed)
    work = args.keep or Path(tempfile.mkdtemp(prefix="rl-bench-search-"))
    db = work / "store.sqlite"
    reuse = args.keep is not None and db.exists()
    gen_s = lifecycle_s = load_s = docs_s = build_s = 0.0
    build_cpu: dict = {}
    yard_before = yardstick()
    try:
        if args.real:
            from ruleslawyer.ingest.pipeline import ingest_paths
            from ruleslawyer.records import to_dict

            work.mkdir(parents=True, exist_ok=True)
            with Store(db) as store:
                if not reuse:
                    t0 = time.perf_counter()
                    report = ingest_paths(store, [args.real])
                    gen_s = time.perf_counter() - t0
                    failed = [r for r in report.results if r.status == "failed"]
                    if failed:
                        sys.exit(f"ingest of {args.real} failed: {failed[0].error}")
                    lifecycle_s, load_s, docs_s, build_s, index_dir, build_cpu = timed_build(store)
                else:
                    index_dir = ensure_index(store)
                real_records = load_corpus(store).records
            vocab = Vocabulary([to_dict(r) for r in real_records], rng, real=True)
            corpus_line = (f"corpus: {len(real_records)} records ingested from {args.real} by ingest_paths "
                           f"(ingest {gen_s:.1f} s; kinds {dict(Counter(r.kind for r in real_records))}), "
                           f"{args.queries} queries drawn from their names and texts")
        else:
            vocab = Vocabulary.from_gold(sorted((args.shared / "gold").glob("*.jsonl")), rng)
            corpus_line = None
            if not reuse:
                work.mkdir(parents=True, exist_ok=True)
                t0 = time.perf_counter()
                records = [from_dict(vocab.record(n)) for n in range(args.records)]
                gen_s = time.perf_counter() - t0
            else:
                for n in range(args.records):  # same random stream as the build, so the same queries
                    vocab.record(n)
            # The store the CLI reads, and its index built through the real lifecycle.
            with Store(db) as store:
                if not reuse:
                    for start in range(0, len(records), 5000):
                        store.replace_file(path=f"synthetic-{start}", name=f"synthetic-{start}", sha256=str(start),
                                           format="text", size=0, records=records[start:start + 5000])
                    lifecycle_s, load_s, docs_s, build_s, index_dir, build_cpu = timed_build(store)
                else:
                    index_dir = ensure_index(store)
        size_mb = dir_size(index_dir) / 1e6
        side = {}
        if not reuse:
            with Store(db) as store:
                side = side_builds(store, index_dir, work, args.no_bare_build)
                index_dir = ensure_index(store)

        queries = vocab.queries(args.queries)
        ours, bare = defaultdict(list), defaultdict(list)
        with engine.Index(index_dir) as index:
            from whoosh.qparser import FuzzyTermPlugin, MultifieldParser, OrGroup

            parser = MultifieldParser(["name", "text"], index._ix.schema, group=OrGroup)
            parser.add_plugin(FuzzyTermPlugin())
            searcher = index._searcher
            for t, q, _ in queries[:50]:  # warm both paths (caches, stemmer, lexicons)
                search_index(index, q)
            for t, q, bq in queries:
                start = time.perf_counter()
                search_index(index, q, limit=10)
                ours[t].append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                results = searcher.search(parser.parse(bq), limit=10)
                [hit.fields() for hit in results]
                bare[t].append((time.perf_counter() - start) * 1000)

        # Cold runs as on a normal install: bytecode cached (this environment may set
        # PYTHONDONTWRITEBYTECODE, which recompiles the project's modules on every start);
        # the cache goes to a folder of the bench, not into the source tree.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(RULESLAWYER_DB=str(db), PYTHONPYCACHEPREFIX=str(work / "pycache"))
        exe = str(Path(sys.executable).with_name("ruleslawyer"))
        cli_ms = timed_process([exe, "search", "reanimation protocols"], env, args.cold_runs)
        cli_fielded_ms = timed_process([exe, "search", "kind:stratagem faction:necrons fight"], env, args.cold_runs)
        import_ms = timed_process([sys.executable, "-c", "import whoosh"], env, args.cold_runs)
        python_ms = timed_process([sys.executable, "-c", "pass"], env, args.cold_runs)
        modules_ms = timed_process([sys.executable, "-c", "import whoosh.index, whoosh.searching, whoosh.query"], env, args.cold_runs)
        # The floor of any search that opens a Whoosh index: the module `open_dir` lives in.
        floor_ms = timed_process([sys.executable, "-c", "import whoosh.index"], env, args.cold_runs)
        click_ms = timed_process([sys.executable, "-c", "import click"], env, args.cold_runs)
        bare_script = ("from whoosh.index import open_dir; from whoosh.qparser import QueryParser; "
                       f"ix = open_dir({str(index_dir)!r}); s = ix.searcher(); "
                       "print([h['name'] for h in s.search(QueryParser('text', ix.schema).parse('reanimation protocols'))])")
        bare_cold_ms = timed_process([sys.executable, "-c", bare_script], env, args.cold_runs)
        help_ms = timed_process([exe, "--help"], env, args.cold_runs)
        cli_cpu, pass_cpu = CPU_MS[f"{exe} search reanimation protocols"], CPU_MS[f"{sys.executable} -c pass"]
        yard_after = yardstick()
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)

    all_ours = [v for vs in ours.values() for v in vs]
    all_bare = [v for vs in bare.values() for v in vs]
    if reuse:
        print(f"(store and index reused from {work}: build figures are those of the run that made them)")
    print(corpus_line or f"corpus: {args.records} synthetic records from {len(vocab.records)} gold records "
          f"(generated in {gen_s:.1f} s), {args.queries} queries")
    print(f"index build (store -> live index, ensure_index): {lifecycle_s:.1f} s = load_corpus {load_s:.1f} s"
          f" + make documents {docs_s:.1f} s + analysis and writing {build_s:.1f} s; size {size_mb:.1f} MB")
    if build_cpu:
        print(f"index build CPU: {build_cpu['build_parent']:.1f} s in this process + {build_cpu['build_child']:.1f} s in "
              f"the forked writer (load_corpus {build_cpu['load']:.1f} s, make documents {build_cpu['documents']:.1f} s)")
    if side:
        bare_line = f"bare Whoosh build of the same documents {side['bare_whoosh_s']:.1f} s (ours {build_s / side['bare_whoosh_s']:.2f}x of it); " if "bare_whoosh_s" in side else ""
        print(f"side by side: {bare_line}SQLite FTS5 (name, tags, text; porter) {side['fts5_s']:.1f} s; "
              f"incremental update: a 50-record file added {side['add_file_s']:.2f} s, removed {side['remove_file_s']:.2f} s")
    print(f"machine: {os.cpu_count()} CPUs, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}; "
          f"yardstick `python -c 'sum(range(10**8))'` {yard_before[0]:.2f} s wall / {yard_before[1]:.2f} s CPU at the "
          f"start, {yard_after[0]:.2f} s / {yard_after[1]:.2f} s at the end")
    print(f"{'warm latency (ms)':<22}{'ours p50':>10}{'ours p95':>10}{'bare p50':>10}{'bare p95':>10}{'ratio p50':>11}")
    for t in ["plain", "fielded", "phrase", "fuzzy"]:
        o, b = ours[t], bare[t]
        print(f"{t + f' ({len(o)})':<22}{percentile(o, 50):>10.2f}{percentile(o, 95):>10.2f}"
              f"{percentile(b, 50):>10.2f}{percentile(b, 95):>10.2f}{percentile(o, 50) / percentile(b, 50):>11.2f}")
    print(f"{'all':<22}{percentile(all_ours, 50):>10.2f}{percentile(all_ours, 95):>10.2f}"
          f"{percentile(all_bare, 50):>10.2f}{percentile(all_bare, 95):>10.2f}"
          f"{percentile(all_ours, 50) / percentile(all_bare, 50):>11.2f}")
    print(f"mean: ours {statistics.mean(all_ours):.2f} ms, bare {statistics.mean(all_bare):.2f} ms "
          f"(ratio {statistics.mean(all_ours) / statistics.mean(all_bare):.2f})")
    print(f"cold process (median of {args.cold_runs}): `ruleslawyer search` {cli_ms:.0f} ms "
          f"(fielded {cli_fielded_ms:.0f} ms); `python -c 'import whoosh'` {import_ms:.0f} ms "
          f"(ratio {cli_ms / import_ms:.2f}); `python -c pass` {python_ms:.0f} ms (ratio {cli_ms / python_ms:.2f}); "
          f"`import whoosh.index` alone {floor_ms:.0f} ms (ratio to `import whoosh` {floor_ms / import_ms:.2f}); "
          f"`import click` {click_ms:.0f} ms; "
          f"import whoosh.index+searching+query {modules_ms:.0f} ms; a bare Whoosh search script "
          f"(open_dir, QueryParser, search) {bare_cold_ms:.0f} ms (ratio {cli_ms / bare_cold_ms:.2f}); "
          f"`ruleslawyer --help` {help_ms:.0f} ms")
    print(f"cold process CPU (median): `ruleslawyer search` {cli_cpu:.0f} ms, `python -c pass` {pass_cpu:.0f} ms "
          f"(ratio {cli_cpu / pass_cpu:.2f})")


if __name__ == "__main__":
    main()
