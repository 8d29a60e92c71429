"""PDF loader: pdfplumber characters -> a Document in reading order.

Each page's characters are read once (`page.chars`) and grouped into fragments
(`pdf_layout`); drawn grids become table blocks (`pdf_tables`, only on pages that draw lines or
rectangles); running headers, footers and bare page numbers are dropped; columns are found per
page from the gutters between fragments; the lines, in reading order, become headings,
paragraphs, list items and tables (`pdf_blocks`). Broken, encrypted, empty and image-only PDFs
raise `LoadError` with a one-line reason; no pdfminer exception escapes.
"""
from __future__ import annotations

import io
import logging
import re
from collections import Counter

from ...errors import LoadError
from ..document import Document, DocumentOrigin
from .pdf_columns import MARGIN as _MARGIN, PageLayout, layout_page
from .pdf_glyphs import page_chars, split_layers
from .pdf_layout import Fragment, build_fragments

_PAGE_NUMBER = re.compile(r"^[-–]?\s*\d{1,4}\s*[-–]?(?:\s*(?:of|/)\s*\d{1,4})?$", re.I)


def load_pdf(data: bytes, origin: DocumentOrigin) -> Document:
    """Load PDF bytes into a Document (blocks in reading order with page and column).

    Raises LoadError naming `origin.path` for empty, corrupt, truncated, encrypted or
    image-only files.
    """
    path = origin.path
    if not data or not data.strip():
        raise LoadError(path, "the file is empty")
    if b"%PDF-" not in data[:1024]:
        raise LoadError(path, "not a PDF: no %PDF header")
    # pdfminer reports recoverable damage through logging; the loader decides what is fatal.
    logging.getLogger("pdfminer").setLevel(logging.ERROR)
    try:
        import pdfplumber
    except ImportError:  # pragma: no cover - a declared dependency
        raise LoadError(path, "pdfplumber is not installed (pip install pdfplumber)") from None
    try:
        with pdfplumber.open(io.BytesIO(data)) as pdf:
            n_pages = len(pdf.pages)
            if n_pages == 0:
                raise LoadError(path, "corrupt PDF: no pages found")
            if _outlined(pdf.pages):
                raise LoadError(path, NO_TEXT)
            pages = []
            vertical: list[str] = []
            for number, page in enumerate(pdf.pages, start=1):
                pages.append(_read_page(page, number))
                vertical.extend(f"{number}\t{size:.0f}\t{text}" for size, text in vertical_runs(page.chars))
                # Release the page's parsed objects now: pdfplumber keeps every page's chars,
                # layout and content stream otherwise, and memory would grow with the page count.
                page.close()
            meta = {k: str(v) for k, v in (pdf.metadata or {}).items() if isinstance(v, (str, int, float))}
            if vertical:
                meta["vertical_titles"] = "\n".join(vertical)
    except LoadError:
        raise
    except Exception as exc:  # pdfminer raises many unrelated types for damaged files
        raise LoadError(path, _reason(exc, data)) from None
    if not any(frags for frags, _ in pages):
        raise LoadError(path, NO_TEXT)
    _drop_running_lines(pages)
    layouts = [layout_page(frags, number, w, h) for number, (frags, (w, h)) in enumerate(pages, start=1)]
    return _document(layouts, origin, meta, n_pages)


NO_TEXT = "no text layer (scanned or outlined text); OCR is not supported"


def _outlined(pages) -> bool:
    """Text drawn as outlines: pages with only a line or two of real text (browser furniture)
    beside hundreds of vector curves. Judged on the first pages, before the rest are read."""
    if len(pages[0].chars) >= 200 or len(pages[0].curves) < 100:
        return False
    sample = pages[:3]
    return sum(len(p.chars) for p in sample) < 200 * len(sample) and sum(len(p.curves) for p in sample) > 100 * len(sample)


def _read_page(page, number: int) -> tuple[list[Fragment], tuple[float, float]]:
    """One page's fragments, with drawn tables standing in for the text inside them."""
    from .pdf_tables import find_ruled_tables, table_fragment

    chars = page_chars(page.chars, float(page.width), float(page.height))
    if chars and (page.curves or page.rects):
        from .pdf_dice import drawn_bullets, drawn_dice

        dice = drawn_dice(page.curves, page.rects) if page.curves else []
        chars.extend(dice + drawn_bullets(list(page.curves) + list(page.rects), chars))
    frags: list[Fragment] = []
    if chars and (page.lines or page.rects):
        tables = find_ruled_tables(page, chars)
        if tables:
            taken = set()
            for t in tables:
                taken.update(id(c) for c in t.chars)
                frags.append(table_fragment(t))
            chars = [c for c in chars if id(c) not in taken]
    for layer, part in enumerate(split_layers(chars)):
        for f in build_fragments(part):
            f.layer = layer
            frags.append(f)
    return frags, (float(page.width), float(page.height))


def vertical_runs(raw_chars: list[dict]) -> list[tuple[float, str]]:
    """Text set sideways (a chapter title printed down the page edge), as (size, text) runs.

    The block loader drops rotated glyphs (they would break the lines they cross); their words
    are kept here so parsers can still read a chapter title. Glyphs of one run share their x
    position and their scale; runs come in content order.
    """
    runs: dict[tuple[int, int], list[str]] = {}
    for c in raw_chars:
        m = c.get("matrix")
        if c.get("upright", True) or not m or not c.get("text"):
            continue
        scale = abs(m[1]) or abs(m[0])
        runs.setdefault((round(m[4]), round(scale)), []).append(c["text"])
    out = []
    for (_, scale), texts in runs.items():
        text = re.sub(r"\s+", " ", "".join(texts)).strip()
        if len(text) >= 3 and re.search(r"[A-Za-z]{3}", text):
            out.append((float(scale), text))
    return out


def _sideways_title(meta: dict) -> str | None:
    """The largest sideways text on the first page that has any (a chapter title down the edge)."""
    rows = [r.split("\t", 2) for r in meta.get("vertical_titles", "").splitlines()]
    rows = [(int(p), -float(s), t) for p, s, t in rows if p.isdigit()]
    if not rows:
        return None
    first = min(p for p, _, _ in rows)
    return min(r for r in rows if r[0] == first)[2]


def _reason(exc: Exception, data: bytes) -> str:
    name = type(exc).__name__
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else name
    if "Password" in name or "Encrypt" in name or "password" in text.lower() or b"/Encrypt" in data[-4096:]:
        return "encrypted PDF (password required)"
    if b"%%EOF" not in data[-2048:]:
        return f"corrupt or truncated PDF: {text[:120]} (no end-of-file marker)"
    return f"corrupt or truncated PDF: {text[:120]}"


def _running_key(f: Fragment, height: float) -> tuple | None:
    if f.table is not None or not f.chars:
        return None
    if f.bottom > height * (1 - _MARGIN):
        zone = "foot"
    elif f.top < height * _MARGIN:
        zone = "head"
    else:
        return None
    text = re.sub(r"\d+", "#", f.text.strip().lower())
    return zone, text, round(f.x0 / 6), round((f.top if zone == "head" else height - f.bottom) / 6)


def _drop_running_lines(pages: list[tuple[list[Fragment], tuple[float, float]]]) -> None:
    """Remove text repeated at the same place on most pages, and bare page numbers in the margins."""
    counts: Counter = Counter()
    for frags, (_, h) in pages:
        counts.update({k for k in (_running_key(f, h) for f in frags) if k is not None})
    n = len(pages)
    repeated = {k for k, c in counts.items() if n >= 2 and c >= max(2, 0.5 * n)}
    for frags, (_, h) in pages:
        running = set()
        for i, f in enumerate(frags):
            key = _running_key(f, h)
            if key is not None and (key in repeated or _PAGE_NUMBER.match(f.text.strip())):
                running.add(i)
        content = [f for i, f in enumerate(frags) if i not in running]
        # Furniture stands apart; repeated text level with the page's own text (a keywords box
        # printed on every datasheet) is content.
        drop = {i for i in running
                if not any(g.top < frags[i].bottom + 0.5 * frags[i].size and g.bottom > frags[i].top - 0.5 * frags[i].size
                           for g in content)}
        frags[:] = [f for i, f in enumerate(frags) if i not in drop]


def _document(layouts: list[PageLayout], origin: DocumentOrigin, meta: dict, n_pages: int) -> Document:
    from .pdf_blocks import Stats, build_blocks

    lines = [line for layout in layouts for line in layout.lines]
    stats = Stats(lines)
    blocks = build_blocks(lines, stats)
    meta = dict(meta)
    meta["pages"] = str(n_pages)
    meta["columns"] = ",".join(str(layout.columns) for layout in layouts)
    # The title: a chapter title printed sideways, else the first short heading (an intro
    # paragraph set large is no title).
    title = _sideways_title(meta) or next(
        (b.text for b in blocks[:8] if b.kind == "heading" and b.text.strip() and len(b.text.split()) <= 12), None)
    return Document(origin=origin, blocks=tuple(blocks), title=title, meta=meta)
