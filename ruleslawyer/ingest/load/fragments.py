"""HTML fragments inside structured data (Wahapedia CSV cells) -> the loaders' span model.

The CSV export keeps rules text as small HTML fragments (`<b>WHEN:</b>`, keyword spans, links,
`<br>`, lists, tables). `fragment_lines` turns one into lines of `Span`s with bold/italic kept;
`fragment_text` into plain text with no tags left. The stdlib HTMLParser is used instead of
BeautifulSoup because an export has tens of thousands of these and it is ~10x faster here.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

from ..document import Span

_BLOCK_TAGS = {"p", "div", "br", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6"}
_BOLD_TAGS = {"b", "strong"}
_ITALIC_TAGS = {"i", "em"}
_BOLD_CLASSES = {"kwb", "kwbu", "kwb2", "h_bold"}
_SKIP_TAGS = {"script", "style"}
_TAG = re.compile(r"<[^>]*>")


class _FragmentParser(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[list[Span]] = [[]]
        self.stack: list[tuple[str, bool, bool]] = []
        self.skip = 0
        self.cell_index = 0

    def _style(self) -> tuple[bool, bool]:
        bold = any(b for _, b, _ in self.stack)
        italic = any(i for _, _, i in self.stack)
        return bold, italic

    def _newline(self) -> None:
        if self.lines[-1]:
            self.lines.append([])

    def handle_starttag(self, tag, attrs):
        if tag in _SKIP_TAGS:
            self.skip += 1
            return
        if tag == "br":
            self._newline()
            return
        if tag in _BLOCK_TAGS:
            self._newline()
        if tag == "li":
            self.lines[-1].append(Span("- "))
        if tag in ("td", "th"):
            if self.cell_index:
                self.lines[-1].append(Span("\t"))
            self.cell_index += 1
        if tag == "tr":
            self.cell_index = 0
        classes = set((dict(attrs).get("class") or "").split())
        bold = tag in _BOLD_TAGS or bool(classes & _BOLD_CLASSES)
        italic = tag in _ITALIC_TAGS
        if tag not in ("img", "hr", "input", "meta", "link"):
            self.stack.append((tag, bold, italic))

    def handle_endtag(self, tag):
        if tag in _SKIP_TAGS:
            self.skip = max(0, self.skip - 1)
            return
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break
        if tag in _BLOCK_TAGS:
            self._newline()

    def handle_data(self, data):
        if self.skip or not data:
            return
        data = re.sub(r"[ \t\r\n\u00a0]+", " ", data)
        bold, italic = self._style()
        line = self.lines[-1]
        if not line:
            data = data.lstrip()
            if not data:
                return
        if line and line[-1].bold == bold and line[-1].italic == italic:
            line[-1] = Span(line[-1].text + data, bold, italic)
        else:
            line.append(Span(data, bold, italic))


def fragment_lines(fragment: str | None) -> list[list[Span]]:
    """The fragment as lines of styled spans (blank lines dropped, spaces collapsed)."""
    if not fragment:
        return []
    if "<" not in fragment and "&" not in fragment:
        text = re.sub(r"\s+", " ", fragment).strip()
        return [[Span(text)]] if text else []
    parser = _FragmentParser()
    parser.feed(fragment)
    parser.close()
    out = []
    for spans in parser.lines:
        text = "".join(s.text for s in spans).strip()
        if text:
            # trim the edges of the first and last span
            first, last = spans[0], spans[-1]
            spans = list(spans)
            spans[0] = Span(first.text.lstrip(), first.bold, first.italic)
            spans[-1] = Span(spans[-1].text.rstrip(), last.bold, last.italic)
            out.append([s for s in spans if s.text])
    return out


def fragment_text(fragment: str | None) -> str:
    """Plain text of an HTML fragment: lines joined by newlines, no tags, entities decoded."""
    text = "\n".join("".join(s.text for s in line) for line in fragment_lines(fragment))
    # Entities are already decoded (by HTMLParser, and the fast path only takes text with no
    # "&"), so nothing is unescaped twice. Belt and braces: a stray "<" that HTMLParser kept as
    # data must not look like a tag.
    return _TAG.sub("", text)


def link_texts(fragment: str | None) -> list[str]:
    """Texts of the comma-separated items of a keyword list such as `<a>blast</a>, <a>pistol</a>`."""
    text = fragment_text(fragment)
    return [t.strip() for t in re.split(r",\s*", text) if t.strip()]
