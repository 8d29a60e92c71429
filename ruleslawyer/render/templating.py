"""The one Jinja environment the site and the print cards render with.

`make_env()` gives an environment with autoescaping ON for every template (the records hold text
from documents we do not control: a `<script>` in rules text must come out as text), the loader
pointing at `render/templates` (so `partials/` are shared by pages, cards and printable sheets),
and the filters the partials use:

- `rich(text, old=None, terms=None)`: rules text as paragraphs, bullet lists and line breaks;
  with `old` (the wording as printed) the changed words are marked `<ins>`/`<del>`; with `terms`
  (a mapping phrase -> Link) known phrases become links with hover text.
- `edition_label(n)`: "10th edition".
- `kind_label(kind)`: "Detachment rule".
- `costs_text(costs)`, `wargear_text(costs)`: unit and wargear points as one line (by tier);
  `points_text(points)` a whole points record (a detachment's DP and enhancement costs).

Jinja is imported here, so only the commands that render (site, cards) pay for it.
"""
from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Iterable, Mapping

from ..names import nth
from ..library.points import base_text, costs_text, points_text, wargear_text

TEMPLATES = Path(__file__).resolve().parent / "templates"
STATIC = Path(__file__).resolve().parent / "static"

KIND_LABELS = {
    "datasheet": ("Datasheet", "Datasheets"),
    "stratagem": ("Stratagem", "Stratagems"),
    "enhancement": ("Enhancement", "Enhancements"),
    "detachment_rule": ("Detachment rule", "Detachment rules"),
    "rule": ("Rule", "Rules"),
    "errata": ("Errata entry", "Errata"),
    "note": ("Designer's note", "Designer's notes"),
    "faq": ("FAQ", "FAQs"),
    "table": ("Table", "Tables"),
}


def make_env(extra_paths: Iterable[str | Path] = ()):
    """A Jinja Environment over `render/templates` (plus `extra_paths`), autoescape on everywhere.

    Templates are cached compiled in memory and, between processes, in Jinja's bytecode cache;
    `StrictUndefined` makes a misspelt variable an error instead of an empty string, so a
    renamed field cannot silently blank a page.
    """
    import jinja2

    paths = [str(TEMPLATES), *(str(p) for p in extra_paths)]
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(paths),
        autoescape=True,  # every template, whatever its extension
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
        cache_size=-1,
        # Compiled templates kept between processes (Jinja's own cache in the temp folder,
        # checked against each template's source): a rebuild that renders one page no longer
        # compiles the seven templates it uses (0.1-0.2 s).
        bytecode_cache=jinja2.FileSystemBytecodeCache(),
    )
    env.filters["rich"] = rich
    env.filters["edition_label"] = edition_label
    env.filters["kind_label"] = kind_label
    env.filters["kind_plural"] = kind_plural
    env.filters["costs_text"] = costs_text
    env.filters["base_text"] = base_text
    env.filters["wargear_text"] = wargear_text
    env.filters["points_text"] = points_text
    return env


def edition_label(edition: int | None) -> str:
    """'10th edition', or 'edition unknown'."""
    return "edition unknown" if edition is None else f"{nth(edition)} edition"


def kind_label(kind: str) -> str:
    return KIND_LABELS.get(kind, (kind.replace("_", " ").capitalize(),))[0]


def kind_plural(kind: str) -> str:
    labels = KIND_LABELS.get(kind)
    return labels[1] if labels else kind.replace("_", " ").capitalize() + "s"


# ---------------------------------------------------------------- rules text
BULLET = re.compile(r"^\s*(?:[-\u2022*\u25cf\u25aa]\s+)")
_TOKEN = re.compile(r"\n|[^\S\n]+|[^\s]+")


def _escape(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&#34;").replace("'", "&#39;"))


def rich(text: str | None, old: str | None = None, terms: Mapping[str, object] | None = None):
    """Rules text as HTML (a Markup): paragraphs on blank lines, bullets as lists, line breaks.

    With `old` and `old != text`, words are diffed (difflib over word tokens) and the
    changes marked `<ins>` (new wording) and `<del>` (wording as printed). With `terms`, the
    phrases it maps (case-sensitive, whole words) become `<a href title>` links; terms are not
    applied to a diffed text, whose markup already carries meaning.
    """
    from markupsafe import Markup

    text = text or ""
    if old is not None and old != text:
        lines = _diff_lines(old, text)
    else:
        lines = [[(line, "same")] for line in text.split("\n")]
    pattern = _term_pattern(terms) if terms and (old is None or old == text) else None
    return Markup(_blocks(lines, terms, pattern))


def _diff_lines(old: str, new: str) -> list[list[tuple[str, str]]]:
    """Word-diff `old` -> `new`; return lines of (token, status) with status same/ins/del."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    stream: list[tuple[str, str]] = []
    for op, i1, i2, j1, j2 in _merge_slivers(matcher.get_opcodes(), a):
        if op == "equal":
            stream.extend((t, "same") for t in b[j1:j2])
            continue
        if op in ("delete", "replace"):
            stream.extend((t, "del") for t in a[i1:i2])
        if op in ("insert", "replace"):
            stream.extend((t, "ins") for t in b[j1:j2])
    lines: list[list[tuple[str, str]]] = [[]]
    for token, status in stream:
        if token == "\n":
            if status == "del":  # a removed line break: keep the words on one line
                continue
            lines.append([])
        else:
            lines[-1].append((token, status))
    return lines


def _merge_slivers(opcodes, a: list[str]):
    """Fold a sliver of equal text (a space, or one short word) between two changes into them.

    "shoot a unit containing" -> "target a unit that contains" reads better as one change
    than as four alternating marks around a lone "a".
    """
    ops = [list(op) for op in opcodes]
    merged: list[list] = []
    for k, op in enumerate(ops):
        if (op[0] == "equal" and merged and merged[-1][0] != "equal" and k + 1 < len(ops)
                and ops[k + 1][0] != "equal" and _is_sliver(a[op[1]:op[2]])):
            prev = merged[-1]
            prev[0], prev[2], prev[4] = "replace", op[2], op[4]
            continue
        if merged and op[0] != "equal" and merged[-1][0] != "equal":
            prev = merged[-1]
            prev[0], prev[2], prev[4] = "replace", op[2], op[4]
            continue
        merged.append(op)
    return [tuple(op) for op in merged]


def _is_sliver(tokens: list[str]) -> bool:
    words = [t for t in tokens if t.strip()]
    return "\n" not in tokens and len(words) <= 1 and all(len(w) <= 3 for w in words)


def _term_pattern(terms: Mapping[str, object]):
    names = sorted(terms, key=len, reverse=True)
    if not names:
        return None
    return re.compile(r"(?<![\w\-])(" + "|".join(re.escape(n) for n in names) + r")(?![\w\-])")


def _render_tokens(tokens: list[tuple[str, str]], terms, pattern) -> str:
    out: list[str] = []
    run: list[str] = []
    status = None

    def flush():
        if not run:
            return
        body = "".join(run)
        if status == "same":
            out.append(_linkify(body, terms, pattern))
        else:  # spaces at the edges stay outside the mark, so "that CHARACTER" does not read "that_CHARACTER"
            core = body.strip()
            lead, trail = body[: len(body) - len(body.lstrip())], body[len(body.rstrip()):]
            out.append(_escape(lead) + (f"<{status}>{_escape(core)}</{status}>" if core else "") + _escape(trail))
        run.clear()

    for token, st in tokens:
        if st != status:
            # whitespace between two changes of the same kind stays inside the mark
            flush()
            status = st
        run.append(token)
    flush()
    return "".join(out)


def _linkify(text: str, terms, pattern) -> str:
    if not pattern:
        return _escape(text)
    out, last = [], 0
    for m in pattern.finditer(text):
        link = terms[m.group(1)]
        out.append(_escape(text[last:m.start()]))
        title = f' title="{_escape(link.title)}"' if getattr(link, "title", None) else ""
        out.append(f'<a class="xref" href="{_escape(link.href)}"{title}>{_escape(m.group(1))}</a>')
        last = m.end()
    out.append(_escape(text[last:]))
    return "".join(out)


def _blocks(lines: list[list[tuple[str, str]]], terms, pattern) -> str:
    """Group token lines into <p> (blank-line separated, single breaks as <br>) and <ul>."""
    html: list[str] = []
    para: list[str] = []
    items: list[str] = []

    def end_para():
        if para:
            html.append("<p>" + "<br>\n".join(para) + "</p>")
            para.clear()

    def end_list():
        if items:
            html.append("<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>")
            items.clear()

    for tokens in lines:
        plain = "".join(t for t, _ in tokens)
        if not plain.strip():
            end_para()
            end_list()
            continue
        bullet = BULLET.match(plain)
        if bullet:
            end_para()
            tokens = _strip_prefix(tokens, bullet.end())
            items.append(_render_tokens(tokens, terms, pattern))
        else:
            end_list()
            para.append(_render_tokens(_strip_prefix(tokens, len(plain) - len(plain.lstrip())), terms, pattern))
    end_para()
    end_list()
    return "\n".join(html)


def _strip_prefix(tokens: list[tuple[str, str]], n: int) -> list[tuple[str, str]]:
    """Drop the first `n` characters (a bullet glyph, indentation) from a token line."""
    out = []
    for token, st in tokens:
        if n <= 0:
            out.append((token, st))
        elif len(token) <= n:
            n -= len(token)
        else:
            out.append((token[n:], st))
            n = 0
    return out
