"""Rules-book chapters laid out as numbered rules (11th edition core rules and the like).

A chapter prints its title down the page edge, a short intro, then rule headings in one large
size, each with its number ("MOVING UNITS 03.01"; a heading may wrap over two lines with the
number on the last). Around the rules sit:

- sub-headings (bold, larger than the body, smaller than a rule heading) inside a rule: they
  stay in its text as lines of their own;
- a bar heading (white on colour) that cites other chapters' rule numbers over text of its own
  ("LEADER 24.22 / SUPPORT 24.34"): a rule of this chapter with no number, named without them;
- sidebars: a narrow column of small print level with the rules it explains; a sidebar goes to
  the rule whose heading is nearest above it in the other column of its page;
- diagram pages with no rule heading: each captioned panel goes to the rule whose words its
  title shares most (the rule open at that point when none does);
- navigation boxes ("SEE ALSO" lists of cross-references "Frame 17.02"), figure labels (3", A,
  ½"), page numbers, the chapter tab number and running "++ … ++" lines: none is rule text.

A chapter without numbers (a rules appendix) is read the same way when its headings of one size,
repeated, stand over the text and the loader found a sideways chapter title.

Only the structure is relied on (sizes, columns, numbering, positions), never one book's words.
Blocks that cannot be placed are left out with a warning.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from ...names import title_case
from ...records import Rule
from ..document import HEADING, LIST_ITEM, PARAGRAPH
from .parsing import ParseContext
from .rule_chapter_parts import CP, ChapterRule, size, top
from .rule_chapter_titles import (FOOTER as _FOOTER, NUMBER_END, NUMBER_START, chapter_title, claimed_numbered,
                                  claimed_numbers, heading_above, other_part_pages, rule_name)
from .rule_chapter_walk import Walk, walk
from .rule_text import BRACKETED
from .stratagem_lines import Line

_STEP = re.compile(r"^\d{1,2}[.)]\s")


def _heading_runs(lines: Sequence[Line]) -> list[list[int]]:
    """Consecutive heading lines of one size, page and column (a wrapped heading)."""
    runs: list[list[int]] = []
    for i, line in enumerate(lines):
        # A running "++ … ++" line is no part of the title below it (a text dump sets the page's
        # footer straight above the next page's first heading).
        if line.claimed or line.junk or line.kind != HEADING or _FOOTER.match(line.text.strip()):
            continue
        if runs:
            prev = lines[runs[-1][-1]]
            # A line opening with a step number ("2. MOVE UNITS") starts a heading of its own.
            if runs[-1][-1] == i - 1 and size(prev) == size(line) and prev.block.page == line.block.page \
                    and prev.block.column == line.block.column and not NUMBER_END.match(prev.text.strip()) \
                    and not _STEP.match(line.text.strip()):
                runs[-1].append(i)
                continue
        runs.append([i])
    return runs


def find_rule_heads(lines: Sequence[Line], has_title: bool, eleventh: bool = False) -> list[ChapterRule]:
    """The rule headings: numbered ones when two or more are printed (or one, "NN.01", in an
    11th edition document: a one-rule chapter); else, in a chapter with a sideways title, the
    largest heading size used at least three times."""
    runs = _heading_runs(lines)
    numbered = []
    for run in runs:
        text = " ".join(lines[k].text.strip() for k in run)
        m = NUMBER_END.match(text) or NUMBER_START.match(text)
        if m:
            numbered.append((run, rule_name(m.group("name")), m.group("num")))
    # A numbered heading over a cost ("1CP") heads a stratagem card, not a rule; a card left
    # unclaimed by the stratagem parser is an illustration.
    cards = {r[0] for r, _, _ in numbered if _card_head(lines, r[-1])}
    numbered = [x for x in numbered if x[0][0] not in cards]
    # The rules of one chapter share the chapter's number ("19.01", "19.02"). A heading with
    # another chapter's numbers only ("LEADER 24.22 / SUPPORT 24.34") cites those rules: set on
    # a coloured bar over text of its own (as the chapter's own bar rules, "NORMAL MOVE 09.05"),
    # it heads a rule of this chapter, which has no number here; elsewhere it is a box pointing
    # there.
    chapters = Counter(num.split(".")[0] for _, _, num in numbered)
    cited = []
    if chapters and chapters.most_common(1)[0][1] >= 2:
        own = chapters.most_common(1)[0][0]
        cited = [(run, rule_name(" ".join(_NUMBERS.sub(" ", " ".join(lines[k].text for k in run)).split())), None)
                 for run, _, num in numbered if num.split(".")[0] != own and _bar_rule(lines, run, own)]
        numbered = [x for x in numbered if x[2].split(".")[0] == own]
    # One numbered heading is enough under a sideways chapter title (a one-rule chapter).
    one_rule = eleventh and len(numbered) == 1 and numbered[0][2].endswith(".01")
    if numbered and (len(numbered) >= 2 or cards or claimed_numbered(lines) or has_title or one_rule):
        chosen = numbered + cited
        # A bracketed weapon-ability heading ("[LETHAL HITS]") set at least half the size of the
        # numbered headings is a rule of its own even where the book prints no number beside it.
        big = max(size(lines[r[0]]) for r, _, _ in numbered)
        taken = {k for r, _, _ in numbered for k in r}
        for run in runs:
            text = " ".join(lines[k].text.strip() for k in run)
            if run[0] not in taken and BRACKETED.match(text) and size(lines[run[0]]) >= 0.5 * big:
                chosen.append((run, rule_name(text), None))
        chosen.sort(key=lambda x: x[0][0])
    elif has_title:
        sizes = Counter(size(lines[r[0]]) for r in runs if len(lines[r[0]].text.split()) <= 10)
        big = [s for s, c in sizes.items() if c >= 3]
        if not big:
            return []
        entry_size = max(big)
        chosen = [(r, title_case(" ".join(lines[k].text.strip() for k in r)), None) for r in runs
                  if size(lines[r[0]]) == entry_size and _has_body(lines, r[-1])]
        # A heading in another colour than the entries' (white on a dark intro box) heads a box
        # about the chapter, not an entry.
        usual = Counter(lines[r[0]].block.color for r, _, _ in chosen).most_common(1)
        if usual and len(chosen) >= 3:
            chosen = [c for c in chosen if lines[c[0][0]].block.color == usual[0][0]]
    else:
        return []
    taken_numbers = claimed_numbers(lines)
    out = []
    for run, name, num in chosen:
        head = lines[run[0]]
        out.append(ChapterRule(name, num, head.block.page, head.block.column, top(head), list(run),
                         echo=num is not None and num in taken_numbers))
    return out





def card_heads(lines: Sequence[Line]) -> list[int]:
    """Unclaimed numbered headings over a CP cost: stratagem cards another parser left."""
    out = []
    for run in _heading_runs(lines):
        text = " ".join(lines[k].text.strip() for k in run)
        if (NUMBER_END.match(text) or NUMBER_START.match(text)) and _card_head(lines, run[-1]):
            out.extend(run)
    return out


def _card_head(lines: Sequence[Line], k: int) -> bool:
    return any(CP.match(ln.text.strip()) for ln in lines[k + 1:k + 3])




def _bar_rule(lines: Sequence[Line], run: list[int], own: str) -> bool:
    """A heading that cites only other chapters' rule numbers, printed in colour (white on a bar)
    and followed by text of its own."""
    text = " ".join(lines[k].text for k in run)
    head = lines[run[0]]
    return head.block.color is not None and all(n.split(".")[0] != own for n in _NUMBERS.findall(text)) \
        and _has_body(lines, run[-1])


_NUMBERS = re.compile(r"\b\d{2}\.\d{2}\b")


def _has_body(lines: Sequence[Line], k: int) -> bool:
    nxt = lines[k + 1] if k + 1 < len(lines) else None
    return nxt is not None and nxt.kind in (PARAGRAPH, LIST_ITEM) and len(nxt.text.split()) >= 4


def parse_chapter(lines: Sequence[Line], ctx: ParseContext) -> list[Rule] | None:
    """The rules of a numbered rules chapter, or None when the document is not laid out so."""
    section = chapter_title(ctx.doc)
    # Unnumbered entries are read this way only in a book whose other chapters are numbered
    # (11th edition): elsewhere a sideways title alone says too little.
    eleventh = ctx.edition is not None and ctx.edition >= 11
    rules = find_rule_heads(lines, section is not None and eleventh, eleventh)
    if not rules:
        return None
    if section is None and len(rules) == 1 and ctx.doc.title:
        # One rule under the document's own title (a text dump of a one-rule chapter): the
        # heading just above it is more likely a sidebar's.
        section = title_case(ctx.doc.title)
    if section is None:
        section = heading_above(lines, min(k for r in rules for k in r.heads))
    sizes: Counter = Counter()
    for ln in lines:
        if ln.kind in (PARAGRAPH, LIST_ITEM) and size(ln):
            sizes[size(ln)] += len(ln.text)
    body_size = sizes.most_common(1)[0][0] if sizes else 9.0
    pages_with_rules: dict[int | None, list[ChapterRule]] = {}
    for r in rules:
        pages_with_rules.setdefault(r.page, []).append(r)
    head_at = {r.heads[0]: r for r in rules}
    # A part under another sideways title with no rule of its own (worked examples, the next
    # chapter's divider) illustrates or introduces; it is no rule's text.
    w = Walk(lines, ctx, rules, head_at=head_at, in_head={k for r in rules for k in r.heads},
             pages_with_rules=pages_with_rules, rule_columns={(r.page, r.column) for r in rules},
             first=min(head_at), body_size=body_size, cards=set(card_heads(lines)),
             apart=other_part_pages(ctx.doc, section) - set(pages_with_rules))
    walk(w)
    used = w.used
    ctx.claim(used)
    out = []
    for r in rules:
        if r.echo:
            ctx.warn(f"heading {r.name!r} repeats card number {r.number} read as a stratagem: an example of the "
                     "card, not read as a rule", r.page)
            continue
        text = "\n".join(r.body + r.extra)
        text = _marker_glyphs(text, r, ctx)
        out.append(Rule(name=r.name, source=ctx.source(r.page), edition=ctx.edition,
                        section=(section,) if section else (), text=text, number=r.number, fluff=r.fluff))
    return out


def _marker_glyphs(text: str, rule: ChapterRule, ctx: ParseContext) -> str:
    """A "\ufffd" at the start of a line is a bullet the font did not map; elsewhere it is a
    glyph we cannot read (a dice face), kept and warned about."""
    text = re.sub(r"(?m)^\ufffd\s*", "- ", text)
    if "\ufffd" in text:
        ctx.warn(f"unreadable glyph (\\ufffd) in rule {rule.name!r}", rule.page)
    return text


