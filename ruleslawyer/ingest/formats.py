"""Format sniffing and the loader registry: which loader turns which file into a Document.

The format is chosen from the content (PDF magic bytes, HTML markup), never from the suffix,
so a PDF named `.txt` or an HTML page named `.pdf` still loads, and a binary file named `.txt`
is refused with a clear reason. Only regular files are read, up to a size limit.
"""
from __future__ import annotations

import hashlib
import re
from pathlib import Path

from .. import registry
from ..errors import LoadError
from .document import Document, DocumentOrigin

PDF, HTML, TEXT = "pdf", "html", "text"
SUFFIXES = {".pdf": PDF, ".html": HTML, ".htm": HTML, ".xhtml": HTML, ".txt": TEXT, ".md": TEXT,
            ".markdown": TEXT, ".text": TEXT}
# Suffixes of files that may hold a structured source (BattleScribe XML or JSON, points YAML):
# a folder walk offers them to the source detectors, which decide by content.
STRUCTURED_SUFFIXES = (".cat", ".gst", ".json", ".yaml", ".yml")
_HTML_SNIFF = re.compile(rb"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<div[\s>]|<table[\s>]|<p[\s>]", re.I)
_BINARY_MAGIC = {b"PK\x03\x04": "a ZIP archive", b"\x89PNG": "a PNG image", b"\xff\xd8\xff": "a JPEG image",
                 b"GIF8": "a GIF image", b"\x1f\x8b": "a gzip archive", b"7z\xbc\xaf": "a 7z archive",
                 b"Rar!": "a RAR archive", b"\x7fELF": "an executable"}

MAX_FILE_BYTES = 200 * 1024 * 1024


def sniff_format(data: bytes, path: str | Path) -> str:
    """Name the format of `data`: "pdf", "html" or "text"; raise LoadError for anything else.

    The content decides whatever the suffix: an HTML page named `.pdf` is HTML, UTF-16 markup
    is markup, and a page whose first tag comes after a long comment or XML prolog is still a
    page. Only what no loader can read is refused: empty files, known binary formats, and a
    `.pdf` that holds neither a PDF nor markup (a damaged download).
    """
    head = data[:4096]
    if not data.strip():
        raise LoadError(path, "the file is empty")
    if b"%PDF-" in data[:1024]:
        return PDF
    for magic, what in _BINARY_MAGIC.items():
        if head.startswith(magic):
            raise LoadError(path, f"unsupported format: {what}")
    text = sniff_text(data)
    if (_HTML_SNIFF.search(text[:4096].encode("utf-8", "replace")) or _starts_as_html(text)
            or (_wide(data) and _looks_like_html(data))):
        return HTML  # (also UTF-16 pages, and pages whose markup starts after the first 4 KB)
    if SUFFIXES.get(Path(path).suffix.lower()) == PDF:
        # Neither PDF nor markup: a damaged or half-downloaded PDF, not a text document.
        raise LoadError(path, "not a PDF: no %PDF header (corrupt or wrong suffix?)")
    return TEXT


_MAX_PROLOG = 1024 * 1024  # how far leading comments and whitespace are skipped to find the first tag
_PROLOG = re.compile(r"\s+|<\?xml[^>]*>|<!--.*?-->|<!\[CDATA\[.*?\]\]>", re.S)
_FIRST_TAG = re.compile(r"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]", re.I)


def sniff_text(data: bytes, limit: int = 65536) -> str:
    """The start of `data` decoded well enough to look for markup: by byte-order mark, as
    UTF-16 when every other byte is NUL (UTF-16 without a mark), else as Latin-1 (every byte
    is a character, so ASCII markup is found whatever the real encoding)."""
    sample = data[:limit]
    for bom, codec in ((b"\xef\xbb\xbf", "utf-8"), (b"\xff\xfe", "utf-16-le"), (b"\xfe\xff", "utf-16-be")):
        if sample.startswith(bom):
            return sample[len(bom):].decode(codec, "replace")
    codec = utf16_without_bom(sample)
    return sample.decode(codec or "latin-1", "replace")


def utf16_without_bom(data: bytes) -> str | None:
    """"utf-16-le"/"utf-16-be" when the bytes look like UTF-16 with no byte-order mark (a NUL
    beside nearly every ASCII character), else None."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return None
    probe = data[:1024]
    if len(probe) >= 8:
        even, odd = probe[0::2], probe[1::2]
        if odd.count(0) > len(odd) * 0.8 and even.count(0) < len(even) * 0.2:
            return "utf-16-le"
        if even.count(0) > len(even) * 0.8 and odd.count(0) < len(odd) * 0.2:
            return "utf-16-be"
    return None


def _starts_as_html(text: str) -> bool:
    """True when the first tag after the prolog (whitespace, XML declaration, comments) opens an HTML page."""
    pos = 0
    while pos < min(len(text), _MAX_PROLOG):
        m = _PROLOG.match(text, pos)
        if not m or m.end() == pos:
            break
        pos = m.end()
    return bool(_FIRST_TAG.match(text, pos))


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
    loader = registry.load_named(registry.LOADERS, fmt)  # the `ruleslawyer.loaders` entry of the format
    origin = origin_for(path, data, fmt, sha256)
    codec = utf16_without_bom(data) if fmt == TEXT else None
    if codec:  # text saved as UTF-16 with no mark: the text loader is given it with one (as UTF-8)
        data = b"\xef\xbb\xbf" + data.decode(codec, "replace").encode("utf-8")
    try:
        return loader(data, origin)
    except LoadError:
        raise
    except RecursionError:
        raise LoadError(path, f"the {fmt} structure is too deeply nested to read") from None
    except MemoryError:
        raise LoadError(path, "the file is too large to load in memory") from None


def read_file(path: str | Path, limit: int | None = None) -> bytes:
    """Read a regular file's bytes (at most `limit`, default MAX_FILE_BYTES) with errors that name it.

    A FIFO, a device or a socket is refused before it is opened (reading one may block forever
    or never end), and the size limit counts the bytes actually read, not what stat says.
    """
    import os

    p = Path(path)
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        kind = _not_regular(os.stat(p).st_mode)
        if kind:
            raise LoadError(p, f"{kind}, not a regular file; skipped")
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
        with os.fdopen(fd, "rb") as f:
            kind = _not_regular(os.fstat(f.fileno()).st_mode)  # replaced between the two looks
            if kind:
                raise LoadError(p, f"{kind}, not a regular file; skipped")
            data = f.read(limit + 1)
        if len(data) > limit:
            raise LoadError(p, f"too large (over {_amount(limit)}; the limit is {_amount(limit)})")
        return data
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
    except (ValueError, RuntimeError) as exc:  # a NUL in the name, a symlink loop
        raise LoadError(p, f"cannot read: {exc}") from None


def _amount(size: int) -> str:
    """A byte count as people say it: "200 MB", or "900 bytes" when under a megabyte."""
    return f"{size // (1024 * 1024)} MB" if size >= 1024 * 1024 else f"{size} bytes"


def _not_regular(mode: int) -> str | None:
    """What a non-regular file is ("a FIFO", ...), or None for a regular file."""
    import stat

    for test, what in ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return what
    return None if stat.S_ISREG(mode) else "not a file"


def load_file(path: str | Path, fmt: str | None = None) -> Document:
    """Read and load one file into a Document."""
    return load_bytes(read_file(path), path, fmt)


def _wide(data: bytes) -> bool:
    """Whether the bytes look UTF-16/32 encoded (a byte-order mark, or NULs between letters):
    such a page is asked of the HTML loader's own sniffing, which decodes it first."""
    return data[:4].startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in data[:200]


def _looks_like_html(data: bytes) -> bool:
    # Imported here: the HTML loader (and BeautifulSoup) only for the rare wide-text file.
    from .load.html import looks_like_html

    return looks_like_html(data)
