"""HTML loader: a web page (Wahapedia datasheets, faction pages, plain semantic HTML) -> Document.

The bytes are decoded by byte-order mark, then UTF-16 recognised by its NUL bytes, then
`<meta charset>`, then UTF-8, then Windows-1252 (as browsers do), and refused with a one-line reason when they are empty, binary, or not in
the encoding the page declares. lxml parses the text a chunk at a time as the walk needs it
(see `html_stream`); `html_walk` turns the tree into blocks in document order (scripts, styles, ads and navigation dropped; hidden popup
texts kept as role "tooltip" blocks). See `html_walk` for the roles and attrs emitted.
"""
from __future__ import annotations

import codecs
import re
from typing import Iterator

from ...errors import LoadError
from ...gcpause import gc_paused
from ..document import HEADING, Document, DocumentOrigin

MAX_HTML_BYTES = 64 * 1024 * 1024
_META_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)"""
                           rb"""|^\s*<\?xml[^>]*?encoding\s*=\s*["']([A-Za-z0-9_.:-]+)""", re.I)
_BOMS = ((codecs.BOM_UTF32_LE, "utf-32-le"), (codecs.BOM_UTF32_BE, "utf-32-be"),
         (codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"), (codecs.BOM_UTF16_BE, "utf-16-be"))
# Scripts and style sheets are most of a Wahapedia page's bytes (ad code); cutting them out
# before parsing saves parse time. Style sheets are read first for their bold classes. A match
# may not contain another "<script": a commented-out opening tag must not swallow the page
# up to the next real script (such scripts are left to the parser, which drops them too).
_SCRIPT = re.compile(r"<script\b[^>]*>(?:(?!<script\b).)*?</script\s*>", re.I | re.S)
_STYLE = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.I | re.S)
_TAG = re.compile(r"<[A-Za-z!/][^<>]*>")
_TOOLTIP = "data-tooltip-content"
_TOOLTIP_ATTR = re.compile(_TOOLTIP, re.I)
CHUNK_CHARS = 1 << 16  # characters of the page parsed at a time


_HTML_MARK = re.compile(r"<!doctype\s+html|<html[\s>]|<head[\s>]|<body[\s>]|<div[\s>]|<table[\s>]|<p[\s>]", re.I)
SNIFF_BYTES = 65536  # how far into a file the markers of a page are looked for


def utf16_without_bom(data: bytes) -> str | None:
    """"utf-16-le"/"utf-16-be" when the bytes read as UTF-16 text saved without a byte-order
    mark (ASCII markup leaves every other byte NUL), else None."""
    sample = data[:4096]
    if len(sample) < 16:
        return None
    even, odd = sample[0::2], sample[1::2]
    if odd.count(0) > 0.6 * len(odd) and even.count(0) < 0.05 * len(even):
        return "utf-16-le"
    if even.count(0) > 0.6 * len(even) and odd.count(0) < 0.05 * len(odd):
        return "utf-16-be"
    return None


def looks_like_html(data: bytes) -> bool:
    """Whether the bytes are a web page, whatever their encoding (UTF-8, cp1252, UTF-16 or
    UTF-32 with or without a byte-order mark) and however far in its first markup starts."""
    sample = data[:SNIFF_BYTES]
    encoding = next((enc for bom, enc in _BOMS if sample.startswith(bom)), None)
    if encoding:
        sample = sample[len(next(b for b, e in _BOMS if e == encoding)):]
    encoding = encoding or utf16_without_bom(sample)
    text = sample.decode(encoding, errors="ignore") if encoding else sample.decode("latin-1")
    return bool(_HTML_MARK.search(text))


def decode_html(data: bytes, path: str) -> str:
    """Decode page bytes to text, or raise LoadError saying why they are not a readable page."""
    if not data.strip():
        raise LoadError(path, "the file is empty")
    if len(data) > MAX_HTML_BYTES:
        raise LoadError(path, f"too large for an HTML page ({len(data) // (1024 * 1024)} MB; "
                              f"the limit is {MAX_HTML_BYTES // (1024 * 1024)} MB)")
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                text = data[len(bom):].decode(encoding)
            except UnicodeDecodeError as exc:
                raise LoadError(path, f"starts with a {encoding} byte-order mark but byte {exc.start + len(bom)} "
                                      f"is not valid {encoding}") from None
            return _check_text(text, path)
    bare_utf16 = utf16_without_bom(data)
    if bare_utf16:
        try:
            return _check_text(data.decode(bare_utf16), path)
        except UnicodeDecodeError as exc:
            raise LoadError(path, f"reads as {bare_utf16} without a byte-order mark, but byte {exc.start} "
                                  f"is not valid {bare_utf16}") from None
    if b"\x00" in data[:65536]:
        raise LoadError(path, "binary data, not an HTML page (NUL bytes)", hint="is this the right file?")
    text = None
    m = _META_CHARSET.search(data[:8192])
    if m:
        declared = (m.group(1) or m.group(2)).decode("ascii", "replace")
        try:
            encoding = codecs.lookup(declared).name
        except LookupError:
            raise LoadError(path, f"declares an unknown character encoding {declared!r} (meta charset)") from None
        # A page saved as bytes cannot be UTF-16/32 without NUL bytes: the label is stale.
        if not encoding.startswith(("utf-16", "utf-32")):
            try:
                text = data.decode(encoding)
            except UnicodeDecodeError as exc:
                try:
                    text = data.decode("utf-8")  # mislabelled UTF-8 is common and harmless
                except UnicodeDecodeError:
                    raise LoadError(path, f"declares charset {declared} but byte {exc.start} is not valid "
                                          f"{declared}") from None
    if text is None:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            text = data.decode("cp1252", errors="replace")
    return _check_text(text, path)


def _check_text(text: str, path: str) -> str:
    sample = text[:65536]
    controls = sum(1 for c in sample if ord(c) < 32 and c not in "\t\n\r\f")
    if controls > max(8, len(sample) // 200):
        raise LoadError(path, "binary data, not an HTML page (control characters)", hint="is this the right file?")
    if not _TAG.search(sample):
        raise LoadError(path, "no HTML markup found")
    return text


def _chunks(text: str, size: int = CHUNK_CHARS) -> Iterator[bytes]:
    """The page as UTF-8 chunks for the parser, scripts cut out (as `_SCRIPT.sub("", text)`
    would, without a second copy of the page)."""
    pos = 0
    for m in [*_SCRIPT.finditer(text), None]:
        end = m.start() if m else len(text)
        for i in range(pos, end, size):
            yield text[i:min(i + size, end)].encode("utf-8", "surrogatepass")
        if m:
            pos = m.end()


def load_html(data: bytes, origin: DocumentOrigin, chunk_chars: int = CHUNK_CHARS) -> Document:
    """Turn HTML bytes into a Document (see the module doc of `html_walk` for roles and attrs).

    The page is parsed while it is walked (see `html_stream`), `chunk_chars` characters at a time.
    """
    from . import html_classes as hc
    from .html_stream import Restart, Stream, attribute_values
    from .html_tree import text_of
    from .html_walk import Ctx, Page, Walker

    path = origin.path
    text = decode_html(data, path)
    bold, italic = hc.css_styled_classes(_STYLE.findall(text))
    tooltip_ids: frozenset[str] = frozenset()
    if _TOOLTIP_ATTR.search(text):  # popups a trigger points at, wherever they sit in the page
        tooltip_ids = frozenset(t.lstrip("#") for t in attribute_values(_chunks(text, chunk_chars), _TOOLTIP)
                                if t.startswith("#"))
    # The walk makes a few objects per element and keeps most of them (spans, blocks), which
    # Python's cycle collector would scan over and over as the page grows; it makes no
    # cycles worth collecting, so the collector rests until the walk is done.
    with gc_paused():
        for unlimited in (False, True):
            stream = Stream(_chunks(text, chunk_chars), unlimited=unlimited)
            walker = Walker(Page(tooltip_ids=tooltip_ids, css_bold=bold, css_italic=italic, tree=stream))
            try:
                walker.walk_children(stream.walk_root(), Ctx(), 0)
                walker.flush()
                stream.finish()
                break
            except Restart:  # nested deeper than libxml2 builds, or unparsable: the parser target reads it
                continue
            except RecursionError:  # a library below us recursing; the walk itself does not
                raise LoadError(path, "the HTML is nested too deeply to read (a broken or hostile page)") from None
    title = text_of(stream.title, " ", strip=True) if stream.title is not None else None
    blocks = tuple(walker.blocks)
    if not any(b.text.strip() for b in blocks):
        raise LoadError(path, "no readable text in the page (only markup, scripts or ads)")
    if not title:
        title = next((b.text for b in blocks if b.kind == HEADING and b.text.strip()), None)
    meta = {"tooltips": str(len({b.attrs.get("tooltip_id") for b in blocks if b.role == "tooltip"}))}
    if walker.page.warnings:
        meta["warnings"] = "\n".join(walker.page.warnings)  # what the page could not give
    return Document(origin=origin, blocks=blocks, title=title, meta=meta)
