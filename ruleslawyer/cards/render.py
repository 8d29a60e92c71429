"""Rendering cards: Jinja HTML from the shared templates, and PDF through WeasyPrint.

The HTML written for `--out cards.html` is the very document WeasyPrint turns into the PDF
(CSS inlined, `@page` sized to the card or sheet), so both outputs show the same cards.
WeasyPrint is imported only here and in `fit.py`, when cards are made (it takes about a
second to import).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from .impose import Sheet
from .options import CardOptions


@lru_cache(maxsize=1)
def _env():
    from ..render.templating import make_env

    return make_env()


@lru_cache(maxsize=1)
def card_css() -> str:
    """The card stylesheet (render/static/cards.css), marked safe: it is ours, not document text."""
    from markupsafe import Markup

    from ..render.templating import STATIC

    return Markup((STATIC / "cards.css").read_text(encoding="utf-8"))


def document_html(page: dict, sheets: Sequence[Sheet], opts: CardOptions, *, title: str = "Cards",
                  ids: bool = False) -> str:
    """The printable HTML page: one `.sheet` per printed page."""
    template = _env().get_template("cards/document.html")
    return template.render(title=title, css=card_css(), page=page, sheets=sheets,
                           pad=opts.padding_mm, ids=ids)


def layout(html: str):
    """The WeasyPrint Document (laid-out pages) of `html`."""
    from weasyprint import HTML

    from .measure import STATS

    STATS["final_layouts"] += 1
    return HTML(string=html).render()


def overflows(document, sheets: Sequence[Sheet], opts: CardOptions) -> dict[str, float]:
    """Faces whose content runs past the card's safe area: face id -> overflow in px."""
    from .boxes import PX_PER_MM, boxes_by_id

    boxes = boxes_by_id(document)
    limit_pad = opts.padding_mm * PX_PER_MM
    out: dict[str, float] = {}
    for sheet in sheets:
        for slot in sheet.slots:
            face, body = boxes.get(slot.fid), boxes.get(f"{slot.fid}-body")
            if face is None or body is None:
                continue
            bottom = body.position_y + body.margin_height()
            if body.children:  # the last block's bottom padding is spacing, not content
                bottom -= body.children[-1].padding_bottom
            limit = face.position_y + slot.height * PX_PER_MM - limit_pad
            if bottom > limit + 0.5:
                out[slot.fid] = bottom - limit
    return out


def face_fills(document, sheets: Sequence[Sheet], opts: CardOptions) -> list[tuple[object, float]]:
    """(face, fill) of every printed face with content: how much of its body room (below the
    header, inside the safe area) its blocks take, 0..1 (over 1: an overflow)."""
    from .boxes import PX_PER_MM, boxes_by_id

    boxes = boxes_by_id(document)
    out = []
    for sheet in sheets:
        for slot in sheet.slots:
            face, body = boxes.get(slot.fid), boxes.get(f"{slot.fid}-body")
            if face is None or body is None or slot.face.side == "blank" or not body.children:
                continue
            top = body.position_y + body.padding_top
            bottom = body.position_y + body.margin_height() - body.children[-1].padding_bottom
            limit = face.position_y + slot.height * PX_PER_MM - opts.padding_mm * PX_PER_MM
            out.append((slot.face, (bottom - top) / max(limit - top, 1.0)))
    return out
