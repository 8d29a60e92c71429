"""The store as the MCP server reads it: opened once, read only, the corpus kept between calls.

Every library call the server makes goes through `Reference`, so when a library signature
changes (the points resolver, `as_of`, the index's search), only this module changes.
"""
from __future__ import annotations

from pathlib import Path
from ..errors import NotFoundError, StoreError
from ..records import Record, record_name


def store_path(db: str | Path | None) -> Path:
    """The store the CLI would use: `db`, else $RULESLAWYER_DB, else the per-user default."""
    from ..paths import default_db_path

    return Path(db).expanduser() if db else default_db_path()


class Reference:
    """An open store and its reference (records with errata applied), refreshed only when the
    store's generation changes (an ingest by another process). Never writes the store.

    Raises StoreError when the store is missing, empty or damaged (the CLI's messages).
    """

    def __init__(self, db: str | Path | None = None, *, as_of: str | None = None):
        from ..library.corpus import open_store
        from ..storefile import check_location

        path = store_path(db)
        if db is not None:
            check_location(path, create=False)
        if not path.exists():
            # The CLI would make a new store here; a read-only server must not.
            hint = (f"ingest your documents first: ruleslawyer --db {path} ingest FILES" if db is not None else
                    "ingest your documents first (ruleslawyer ingest FILES), or run `ruleslawyer search` once "
                    "to start with the example corpus")
            raise StoreError(f"{path}: no store here", hint=hint)
        self.store = open_store(path, read_only=True)
        self.path = Path(self.store.path)
        self.as_of = as_of  # the rules frozen at this date (`mcp --as-of`), else the newest
        self._generation: int | None = None
        self._corpus = None
        self._files: dict[str, object] = {}
        self._faqs: list[tuple[Record, str]] | None = None
        self._editions: list[int] | None = None
        self._tables: dict[str, dict] = {}
        self._factions: list[str] | None = None

    def close(self) -> None:
        self.store.close()

    def __enter__(self) -> "Reference":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # ------------------------------------------------------------ the cached reference
    def refresh(self) -> None:
        """Reload the corpus when the store changed since the last call (one SQL read)."""
        generation = self.store.generation
        if generation == self._generation and self._corpus is not None:
            return
        from ..library.corpus import load_corpus

        self._corpus = load_corpus(self.store, as_of=self.as_of)
        files = {}
        by_path = {f.path: f for f in self.store.files()}
        for f in by_path.values():
            files.setdefault(f.name, f)
            files.setdefault(Path(f.path).name, f)
        # A folder read as one export (a CSV export, the points YAML) is one stored file whose
        # records name their member file: cite the folder's document for them.
        # Two exports (of two editions) may both have a Stratagems.csv: the member's hash, else
        # the record's edition, tells them apart.
        for path, member, sha, edition in self.store.conn.execute(
                "SELECT DISTINCT file_path, json_extract(data, '$.source.file'), json_extract(data, '$.source.sha256'),"
                " edition FROM records"):
            if member and path in by_path:
                files.setdefault((member, sha or edition), by_path[path])
                files.setdefault(member, by_path[path])
        self._files = files
        self._faqs = None
        self._editions = None
        self._tables = {}
        self._factions = None
        self._generation = generation

    @property
    def corpus(self):
        """The records with errata applied (library.corpus.Corpus), as of the last `refresh`
        (the server refreshes once per tool call; the first use loads it)."""
        self._ensure_loaded()
        return self._corpus

    def _ensure_loaded(self) -> None:
        if self._corpus is None:
            self.refresh()

    @property
    def records(self) -> list[Record]:
        return self.corpus.records

    def stored_file(self, source, edition: int | None = None):
        """The StoredFile a record's Source comes from (a folder's for a member file), or None."""
        self._ensure_loaded()  # the file table comes with the corpus
        return self._files.get((source.file, source.sha256 or edition)) or self._files.get(source.file)

    def faqs(self) -> list[Record]:
        """The FAQ answers and designer's notes of the store (what `answer` shows beside a record)."""
        return [r for r, _ in self.faqs_folded()]

    def faqs_folded(self) -> list[tuple[Record, str]]:
        """The FAQ answers and designer's notes with their question and answer folded (names.fold)."""
        if self._faqs is None:
            from ..names import fold

            self._faqs = [(r, fold(f"{record_name(r)} {getattr(r, 'answer', '') or getattr(r, 'text', '')}"))
                          for r in self.records if r.kind in ("faq", "note")]
        return self._faqs

    # ------------------------------------------------------------ library calls
    def search(self, query: str, *, kind=None, faction=None, edition=None, limit: int = 10):
        """index.search.search: ranked hits (SearchResult) over the amended records."""
        from ..index.search import search

        return search(self.store, query, kind=kind, faction=faction, edition=edition, limit=limit)

    def check_faction(self, faction: str | None) -> None:
        """library.factions: NotFoundError naming close factions when `faction` is not stored."""
        if faction is None:
            return
        from ..library.factions import check_faction_among, stored_factions

        self._ensure_loaded()
        if self._factions is None:
            self._factions = stored_factions(self.store)
        check_faction_among(faction, self._factions)

    def pick(self, name: str, *, kind=None, faction=None, edition=None):
        """library.pick.pick_record: the record meant (newest edition), printings, points."""
        from ..library.pick import pick_record

        self.check_faction(faction)
        return pick_record(self.corpus, name, kind=kind, edition=edition, faction=faction)

    def printings_of(self, record: Record):
        """The Printings of `record` when several files print it, else None."""
        from ..library.reconcile import identity

        return self._derived("printings").get(identity(record))

    def by_number(self, number: str) -> list[Record]:
        """Rules and stratagems printed with this number ("24.12"), newest edition first."""
        return self._derived("numbers").get(number.strip().rstrip("."), [])

    def _derived(self, what: str) -> dict:
        """Look-up tables made once per loaded corpus: "printings" (library.pick.printings_index)
        and "numbers" (rule number -> records, newest edition first)."""
        self._ensure_loaded()
        table = self._tables.get(what)
        if table is None:
            if what == "printings":
                from ..library.pick import printings_index

                table = printings_index(self._corpus)
            else:
                table = {}
                for r in sorted(self._corpus.records, key=lambda r: -(r.edition or 0)):
                    if getattr(r, "number", None):
                        table.setdefault(r.number.rstrip("."), []).append(r)
            self._tables[what] = table
        return table

    def stratagems(self, **filters):
        """library.queries.filter_stratagems over the cached reference."""
        from ..library.queries import filter_stratagems

        self.check_faction(filters.get("faction"))
        edition = filters.get("edition")
        if edition is not None:
            known = sorted({r.edition for r in self.records if r.kind == "stratagem" and r.edition})
            if edition not in known:
                raise NotFoundError(f"no stratagems of edition {edition}", suggestions=[str(e) for e in known])
        return filter_stratagems(self.records, **filters)

    def points(self, unit: str, faction: str | None = None) -> list[Record]:
        """library.points.find_points: the current points entries naming `unit`."""
        from ..library.points import find_points

        return find_points(self.store, unit, faction=faction)

    def points_line(self, points: Record) -> str:
        from ..library.points import points_text

        return points_text(points)

    def outcomes(self) -> list:
        """What became of every erratum (amend.apply.Outcome), for the cached reference."""
        return self.corpus.outcomes

    def conflicts(self, *, kind=None, faction=None) -> list:
        """library.files.find_conflicts: records whose printings disagree."""
        from ..library.files import find_conflicts

        return find_conflicts(self.store, kind=kind, faction=faction)

    def check_list_text(self, text: str) -> dict:
        """An army list given as text, checked as `list check --json` checks a file."""
        from ..ingest.sources.armylists import parse_list
        from ..library.armylist import check_list

        return check_list(parse_list(text, name="the pasted list"), self.records).to_json()

    def editions(self) -> list[int]:
        """The editions of the stored records, newest first."""
        if self._editions is None:
            self._editions = sorted({r.edition for r in self.records if r.edition}, reverse=True)
        return self._editions
