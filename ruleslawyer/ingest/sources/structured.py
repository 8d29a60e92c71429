"""Folder- and XML-shaped sources that hold records already (a CSV export, BattleScribe data).

They skip the Document stage: the data is structured, so a source maps its tables or elements
straight to records. Like a file, a source is ingested as one unit in one transaction, keyed by
a hash over all its files, so an unchanged export is not read again.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

from ...records import Record


@dataclass
class StructuredSource:
    """Base class: `files` are hashed together; subclasses implement `records()`."""

    path: Path
    files: tuple[Path, ...]
    format: str = "structured"
    title: str | None = None
    edition: int | None = None
    date: str | None = None  # the export's or catalogue's own date (ISO), where it gives one
    version: str | None = None  # its own version or revision
    # Problems met while reading (a bad value, a missing column, a file that could not be read):
    # the source is still ingested, and each problem is reported and kept with the file.
    warnings: list[str] = field(default_factory=list)

    @property
    def key(self) -> str:
        return str(self.path.resolve())

    @property
    def name(self) -> str:
        return self.path.name

    @property
    def size(self) -> int:
        total = 0
        for f in self.files:
            try:
                total += f.stat().st_size
            except OSError:  # gone or unreadable since it was found: records() has said so
                pass
        return total

    def sha256(self) -> str:
        digest = hashlib.sha256()
        for f in sorted(self.files):
            digest.update(f.name.encode() + b"\0")
            try:
                with open(f, "rb") as fh:
                    for chunk in iter(lambda: fh.read(1 << 20), b""):
                        digest.update(chunk)
            except OSError as exc:  # a companion file that cannot be read is reported by records()
                digest.update(f"unreadable: {exc.strerror}".encode())
        return digest.hexdigest()

    def records(self) -> Iterator[Record]:  # pragma: no cover - abstract
        raise NotImplementedError

    def __str__(self) -> str:
        return str(self.path)
