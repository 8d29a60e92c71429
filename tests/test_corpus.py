"""The shipped corpus: every supported format and every record kind, and a new user's first run."""
from __future__ import annotations

from collections import Counter

from ruleslawyer.cli.main import cli
from ruleslawyer.ingest.pipeline import corpus_dir, ingest_paths
from ruleslawyer.records import KINDS


def test_corpus_covers_every_format_and_kind(tmp_store):
    files = sorted(p.suffix for p in corpus_dir().iterdir() if p.is_file())
    assert {".pdf", ".html", ".md"} <= set(files)
    report = ingest_paths(tmp_store, [corpus_dir()])
    assert not report.failed, [f.error for f in report.failed]
    formats = Counter(f.format for f in tmp_store.files())
    assert {"pdf", "html", "text"} <= set(formats)  # and the points list (structured YAML)
    kinds = tmp_store.counts_by_kind()
    assert set(kinds) == set(KINDS), f"missing kinds: {set(KINDS) - set(kinds)}"


def test_query_on_empty_store_ingests_the_corpus(runner):
    result = runner.invoke(cli, ["show", "royal warden"])
    assert result.exit_code == 0, result.output
    assert "Royal Warden" in result.output and "Relic gauss blaster" in result.output


def test_corpus_errata_all_apply(runner):
    result = runner.invoke(cli, ["errata"])
    assert result.exit_code == 0, result.output
    assert result.output.strip().splitlines()[-1] == "4 entries: 4 applied, 0 not applied"
