"""The HTML walk's fast paths give what the plain ways they replace give: white space collapsed
by `str.split` as by the regex, a paragraph of one run tidied as the general loop tidies it,
an element read whole when its content is text alone as when it is walked piece by piece."""
from __future__ import annotations

import random
import re

from ruleslawyer.ingest.document import DocumentOrigin
from ruleslawyer.ingest.load.html import load_html
from ruleslawyer.ingest.load.html_parts import clean, collapse_space, tidy

_WS = re.compile(r"[\s\u00a0\u2009\u202f\u200b]+")  # what the loader collapses, as a regex
_ALPHABET = "ab ,.[]\t\n\r\f\v\x1c\x1f\x85\u00a0\u1680\u2000\u2009\u200a\u200b\u2028\u202f\u3000\ufeffé"


def _strings(n: int, seed: int = 7) -> list[str]:
    rnd = random.Random(seed)
    return [""] + ["".join(rnd.choice(_ALPHABET) for _ in range(rnd.randint(1, 12))) for _ in range(n)]


def test_collapse_space_is_the_regex():
    for text in _strings(20000):
        assert collapse_space(text) == _WS.sub(" ", text), repr(text)


def test_clean_is_the_regex_stripped():
    for text in _strings(20000, seed=8):
        assert clean(text) == _WS.sub(" ", text).strip(), repr(text)


def _slow_tidy(runs):
    """The general loop of `tidy` with no shortcut for one run (merge, then strip)."""
    merged: list[list] = []
    for text, style in runs:
        if merged and merged[-1][1] == style:
            merged[-1][0] += text
        else:
            merged.append([text, style])
    out, prev_space = [], True
    for text, style in merged:
        if prev_space:
            text = text.lstrip(" ")
        if not text:
            continue
        prev_space = text.endswith(" ")
        out.append((text, style))
    while out and not out[-1][0].strip():
        out.pop()
    if out:
        out[-1] = (out[-1][0].rstrip(), out[-1][1])
    return [(t, *style) for t, style in out]


def test_tidy_of_one_run_or_many_is_the_general_loop():
    rnd = random.Random(3)
    styles = [(False, False, None), (True, False, None), (False, True, "#x")]
    for _ in range(3000):
        runs = []
        for k in range(rnd.randint(1, 4)):
            text = collapse_space("".join(rnd.choice("ab  ") for _ in range(rnd.randint(1, 5))))
            if k == 0 and text == " ":
                text = "a "  # the walk never starts a paragraph with a blank run
            runs.append((text, rnd.choice(styles)))
        got = [(s.text, s.bold, s.italic, s.link) for s in tidy(runs)]
        assert got == _slow_tidy(runs), runs


def _blocks(data: bytes, chunk: int):
    doc = load_html(data, DocumentOrigin("p.html", "p.html", "html", "0"), chunk_chars=chunk)
    return [repr(b) for b in doc.blocks]


def test_text_alone_elements_read_the_same_at_any_chunk_size():
    """An element holding text alone is read at once only when the parser has finished it;
    cut into tiny chunks (so elements are often still open), the page reads the same."""
    page = ("<html><body><main>" + "".join(
        f"<section><h2>Part {n}</h2><p>Text <b>bold {n}</b> and <a href='#p{n}'>a link</a>"
        f"<i> slanted</i>.</p><pre>one\n<b>two {n}</b>\nthree</pre><ul><li>item {n}</li></ul>"
        f"<p>Filter <span style='display:none'>A{n}</span><span style='display:none'>B{n}</span> end</p>"
        f"<table><tr><th>Roll</th><th>Result</th></tr><tr><td>{n}</td><td>x <span class='kwb2'>lethal hits</span></td></tr></table>"
        "</section>" for n in range(60)) + "</main></body></html>").encode()
    whole = _blocks(page, len(page) + 1)
    assert len(whole) > 300
    for chunk in (7, 61, 1000):
        assert _blocks(page, chunk) == whole
