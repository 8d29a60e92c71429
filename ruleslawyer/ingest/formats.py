"""Format sniffing and the loader registry: which loader turns which file into a Document.

The format is chosen from the content (PDF magic bytes, HTML markup), the suffix only breaks
ties, so a PDF named `.txt` or an HTML page named `.pdf` still loads, and a binary file named
`.txt` is refused with a clear reason.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .. import lazy
from ..errors import LoadError
from .document import Document, DocumentOrigin

PDF, HTML, TEXT = "pdf", "html", "text"
# format -> "module:function"; imported lazily so the CLI starts without pdfplumber or bs4.
LOADERS = {
    PDF: "ruleslawyer.ingest.load.pdf:load_pdf",
    HTML: "ruleslawyer.ingest.load.html:load_html",
    TEXT: "ruleslawyer.ingest.load.text:load_text",
}
SUFFIXES = {".pdf": PDF, ".html": HTML, ".htm": HTML, ".xhtml": HTML, ".txt": TEXT, ".md": TEXT,
            ".markdown": TEXT, ".text": TEXT}
_HTML_SNIFF = re.compile(rb"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<div[\s>]|<table[\s>]|<p[\s>]", re.I)
_BINARY_MAGIC = {b"PK\x03\x04": "a ZIP archive", b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image",
                 b"GIF8": "a GIF image", b"\x1f\x8b": "a gzip archive", b"7z\xbc\xaf": "a 7z archive",
                 b"Rar!": "a RAR archive", b"\x7fELF": "an executable"}

MAX_FILE_BYTES = 200 * 1024 * 1024


def sniff_format(data: bytes, path: str | Path) -> str:
    """Name the format of `data`: "pdf", "html" or "text"; raise LoadError for anything else."""
    head = data[:4096]
    if not data.strip():
        raise LoadError(path, "the file is empty")
    if b"%PDF-" in data[:1024]:
        return PDF
    for magic, what in _BINARY_MAGIC.items():
        if head.startswith(magic):
            raise LoadError(path, f"unsupported format: {what}")
    suffix_fmt = SUFFIXES.get(Path(path).suffix.lower())
    if suffix_fmt == PDF:
        raise LoadError(path, "not a PDF: no %PDF header (corrupt or wrong suffix?)")
    if _HTML_SNIFF.search(head) or lazy.load("ruleslawyer.ingest.load.html:looks_like_html")(data):
        return HTML  # (also UTF-16 pages, and pages whose markup starts after the first 4 KB)
    return TEXT


def origin_for(path: str | Path, data: bytes, fmt: str, sha256: str | None = None) -> DocumentOrigin:
    """The DocumentOrigin of `data` read from `path`: name, format and sha256 (computed
    unless the caller already has it)."""
    p = Path(path)
    return DocumentOrigin(path=str(p), name=p.name, format=fmt, sha256=sha256 or hashlib.sha256(data).hexdigest(),
                          size=len(data))


def load_bytes(data: bytes, path: str | Path, fmt: str | None = None, *, sha256: str | None = None) -> Document:
    """Load already-read bytes into a Document, sniffing the format unless given.

    `sha256` is the content hash when the caller computed it already (ingest does, to skip
    unchanged files before loading).
    """
    fmt = fmt or sniff_format(data, path)
    loader = lazy.load(LOADERS[fmt])
    origin = origin_for(path, data, fmt, sha256)
    try:
        return loader(data, origin)
    except LoadError:
        raise
    except RecursionError:
        raise LoadError(path, f"the {fmt} structure is too deeply nested to read") from None
    except MemoryError:
        raise LoadError(path, "the file is too large to load in memory") from None


def read_file(path: str | Path) -> bytes:
    """Read a file's bytes with errors that name the file."""
    p = Path(path)
    try:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise LoadError(p, f"too large ({size // (1024 * 1024)} MB; the limit is {MAX_FILE_BYTES // (1024 * 1024)} MB)")
        return p.read_bytes()
    except LoadError:
        raise
    except IsADirectoryError:
        raise LoadError(p, "is a folder, not a file") from None
    except FileNotFoundError:
        raise LoadError(p, "no such file") from None
    except PermissionError:
        raise LoadError(p, "permission denied") from None
    except OSError as exc:
        raise LoadError(p, f"cannot read: {exc.strerror or exc}") from None


def load_file(path: str | Path, fmt: str | None = None) -> Document:
    """Read and load one file into a Document."""
    return load_bytes(read_file(path), path, fmt)
