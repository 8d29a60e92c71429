"""Parse a search query into engine-neutral query nodes (see `engine.compile_query`).

Syntax: plain words (ranked: more matching words score higher, a name match most), "quoted
phrases" (required, exact word order), AND / OR / NOT (upper case) and -word, parentheses, and
fielded filters `kind:stratagem faction:necrons cp:1 phase:shooting edition:10 keyword:fly
group:"awakened dynasty" ability:"deep strike" number:24.12`. A rule number typed as a word
("24.12") finds the rule printed with that number. Plain words go through the synonym table (FNP = Feel No Pain, ...).
A malformed query raises QueryError with a hint, never anything else.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import QueryError
from . import analysis

# Field name typed -> index field. Filters on ID fields match exactly; the others match the
# value's words as a phrase inside that field.
FIELDS = {
    "kind": "kind", "type": "kind", "edition": "edition", "ed": "edition", "cp": "cp", "phase": "phase",
    "faction": "faction", "group": "group", "detachment": "group", "keyword": "keywords",
    "keywords": "keywords", "ability": "abilities", "abilities": "abilities", "number": "number", "name": "name",
    "weapon": "weapons", "weapons": "weapons",
    "section": "section", "text": "text",
}
# records.KINDS, repeated so a search does not import the records module (a test keeps them equal).
KINDS = ("datasheet", "stratagem", "enhancement", "detachment_rule", "rule", "errata", "note", "faq", "table", "points")
PHASES = ("command", "movement", "psychic", "shooting", "charge", "fight", "morale", "any")
_KIND_ALIASES = {"strat": "stratagem", "unit": "datasheet", "erratum": "errata", "detachment": "detachment_rule",
                 "rules": "rule", "enhancements": "enhancement", "tables": "table", "notes": "note",
                 "faqs": "faq", "datasheets": "datasheet", "stratagems": "stratagem", "strats": "stratagem",
                 "units": "datasheet", "detachment_rules": "detachment_rule"}
_PHASE_ALIASES = {"moving": "movement", "move": "movement", "shoot": "shooting", "psychic": "psychic",
                  "psyker": "psychic", "melee": "fight", "assault": "fight"}

_HINTS = ("exact_name", "name_part", "kind_hint")  # nodes that only add to a score, never select
# A name typed inside a question ("how many points are 10 boyz" names Boyz): runs of up to this
# many content words are also looked up as whole names (a smaller bonus than the whole query).
_NAME_PART_WORDS = 3
# A printed rule or stratagem number ("24.12", "15.04."): also looked up as the record's number.
_NUMBER_RE = re.compile(r"(\d{1,3}(?:\.\d{1,3})+)\.?")
# A plain word naming a kind ranks records of that kind higher (it is not a filter).
_KIND_WORDS = {"stratagem": "stratagem", "strat": "stratagem", "enhanc": "enhancement",
               "detach": "detachment_rule", "datasheet": "datasheet", "unit": "datasheet",
               "errata": "errata", "erratum": "errata", "faq": "faq", "note": "note", "tabl": "table",
               "chart": "table"}

# Players' shorthand for a save: "5+++" is a Feel No Pain 5+, "4++" an invulnerable save 4+.
# The words it stands for, its value, and the ways a record prints the two side by side (a
# record printing them together ranks above one printing the value elsewhere, a 4+ Save).
_SAVE_SHORTHAND = (
    (re.compile(r"(\d)\+\+\+"), ("feel no pain", "{}+"), ("feel no pain {}+", "{}+ feel no pain")),
    (re.compile(r"(\d)\+\+"), ("invulnerable save", "{}+"),
     ("invulnerable save {}+", "{}+ invulnerable", "{}+ insv", "insv {}+")),
)

_TOKEN_RE = re.compile(r'\s+|(?P<paren>[()])|(?P<field>[A-Za-z_]+):(?=\S)|(?P<quote>")|(?P<word>[^\s()"]+)')


@dataclass
class ParsedQuery:
    """A parsed query: the scored part, the filters, and what the words were (for snippets).

    plain_words are the unstemmed, lower-case words; known_words those of them the synonym
    table knows (abbreviations: never typo candidates); highlight_terms the index terms to
    highlight.
    """

    node: tuple
    filters: list = field(default_factory=list)
    plain_words: list = field(default_factory=list)
    known_words: set = field(default_factory=set)
    highlight_terms: set = field(default_factory=set)
    has_terms: bool = True
    # What the query asks about: one entry per plain word or phrase (question words aside), each
    # the alternatives that say it (index-term tuples: a word, its synonyms, a phrase). A record
    # that matches one alternative of every entry answers the whole query (editions.py).
    concepts: list = field(default_factory=list)


def normalize_kind(value: str) -> str:
    """A record kind from what a user typed ("stratagems", "Detachment-Rule") or QueryError."""
    v = re.sub(r"[\s-]+", "_", value.strip().lower())
    v = _KIND_ALIASES.get(v, v)
    if v not in KINDS:
        raise QueryError(f"unknown kind {value!r}", hint="kinds are: " + ", ".join(KINDS))
    return v


def normalize_edition(value: str) -> str:
    m = re.fullmatch(r"(\d{1,2})(st|nd|rd|th)?", value.strip().lower())
    if not m:
        raise QueryError(f"edition must be a number, not {value!r}", hint="e.g. edition:10")
    return str(int(m.group(1)))


def filter_node(field_name: str, value: str) -> tuple:
    """The node of one `field:value` filter (field as typed)."""
    index_field = FIELDS.get(field_name.lower())
    if index_field is None:
        raise QueryError(f"unknown field {field_name + ':'!r}",
                         hint="fields are: " + ", ".join(sorted(set(FIELDS) - {"type", "ed", "weapons", "keywords", "abilities"}))
                         + '; quote the text to search for a colon, e.g. "' + field_name + ':"')
    if index_field == "kind":
        return ("id", "kind", normalize_kind(value))
    if index_field == "edition":
        return ("id", "edition", normalize_edition(value))
    if index_field == "cp":
        if not value.strip().isdigit():
            raise QueryError(f"cp must be a number, not {value!r}", hint="e.g. cp:1")
        return ("id", "cp", str(int(value)))
    if index_field == "number":
        return ("id", "number", value.strip().rstrip("."))
    if index_field == "phase":
        v = value.strip().lower().removesuffix(" phase")
        v = _PHASE_ALIASES.get(v, v)
        if v not in PHASES:
            raise QueryError(f"unknown phase {value!r}", hint="phases are: " + ", ".join(PHASES))
        return ("id", "phase", v)
    terms = analysis.terms(value)
    if not terms:
        raise QueryError(f"empty value for {field_name}:", hint=f'e.g. {field_name}:"some words"')
    return ("terms", index_field, terms)


# ---------------------------------------------------------------- tokens
def _tokens(text: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        pos = m.end()
        if m.group("paren"):
            out.append(("paren", m.group("paren")))
        elif m.group("field"):
            name = m.group("field")
            if pos < len(text) and text[pos] == '"':
                value, pos = _quoted(text, pos)
            else:
                vm = re.compile(r'[^\s()"]+').match(text, pos)
                value, pos = vm.group(0), vm.end()
            out.append(("field", f"{name}\0{value}"))
        elif m.group("quote"):
            value, pos = _quoted(text, pos - 1)
            out.append(("phrase", value))
        elif m.group("word"):
            word = m.group("word")
            if word in ("AND", "OR", "NOT"):
                out.append(("op", word))
            elif word.startswith("-") and len(word) > 1:
                out.append(("op", "NOT"))
                out.extend(_tokens(word[1:]))
            else:
                out.append(("word", word))
    return out


def _quoted(text: str, start: int) -> tuple[str, int]:
    end = text.find('"', start + 1)
    if end < 0:
        raise QueryError("unbalanced quote in the query", hint='close the phrase, e.g. "feel no pain"')
    return text[start + 1:end], end + 1


# ---------------------------------------------------------------- parser
class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], parsed: ParsedQuery):
        self.tokens = tokens
        self.pos = 0
        self.parsed = parsed

    def peek(self) -> tuple[str, str] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> tuple[str, str]:
        tok = self.tokens[self.pos]
        self.pos += 1
        return tok

    def parse_or(self, top: bool = False) -> tuple | None:
        items = [self.parse_and(top)]
        while self.peek() == ("op", "OR"):
            self.take()
            items.append(self.parse_and(False))
        items = [i for i in items if i is not None]
        if not items:
            return None
        return items[0] if len(items) == 1 else ("or", *items)

    def parse_and(self, top: bool) -> tuple | None:
        """A run of items: AND-joined and phrases are required, plain words are ranked."""
        required, optional, words = [], [], []
        explicit_and = False
        while True:
            tok = self.peek()
            if tok is None or tok == ("op", "OR") or tok == ("paren", ")"):
                break
            if tok == ("op", "AND"):
                self.take()
                explicit_and = True
                continue
            if tok[0] == "word":
                self.take()
                words.append(tok[1])
                continue
            optional.extend(self._words_node(words))
            words = []
            item = self.parse_unary(top)
            if item is not None:
                required.append(item)
        optional.extend(self._words_node(words))
        if explicit_and:  # every word is required; exact-name and kind hints still only rank
            required += [n for n in optional if n[0] not in _HINTS]
            optional = [n for n in optional if n[0] in _HINTS]
        negatives = [n for n in required if n[0] == "not"]
        required = [n for n in required if n[0] != "not"]
        if not required and not optional:
            if not negatives:
                return None
            return negatives[0] if len(negatives) == 1 else ("and", *negatives)
        if not required:
            node = optional[0] if len(optional) == 1 else ("or", *optional)
        else:
            node = required[0] if len(required) == 1 else ("and", *required)
            if optional:  # plain words beside required parts only rank them
                node = ("andmaybe", node, optional[0] if len(optional) == 1 else ("or", *optional))
        return ("and", node, *negatives) if negatives else node

    def parse_unary(self, top: bool) -> tuple | None:
        tok = self.take()
        kind, value = tok
        if kind == "op" and value == "NOT":
            if self.peek() is None:
                raise QueryError("NOT at the end of the query", hint="put NOT before a word: NOT overwatch")
            target = self.parse_unary(False)
            return ("not", target) if target is not None else None
        if kind == "op":
            raise QueryError(f"{value} needs something on both sides", hint="e.g. fight AND charge")
        if kind == "paren":
            if value == ")":
                raise QueryError("unbalanced parenthesis in the query", hint="remove the extra ')'")
            inner = self.parse_or(False)
            if self.peek() != ("paren", ")"):
                raise QueryError("unbalanced parenthesis in the query", hint="close the group with ')'")
            self.take()
            return inner
        if kind == "field":
            name, val = value.split("\0", 1)
            node = filter_node(name, val)
            if node[0] == "terms":
                self.parsed.highlight_terms.update(node[2])
            if top:
                self.parsed.filters.append(node)
                return None
            return node
        if kind == "phrase":
            terms = analysis.terms(value)
            if not terms:
                return None
            self.parsed.highlight_terms.update(terms)
            self.parsed.plain_words.extend(analysis.words(value))
            self.parsed.concepts.append((terms,))
            return ("terms", None, terms)  # quoted words are taken as they are: no synonyms
        nodes = self._words_node([value], exact=False)  # a word after NOT
        return (nodes[0] if len(nodes) == 1 else ("or", *nodes)) if nodes else None

    def _words_node(self, raw_words: list[str], exact: bool = True) -> list[tuple]:
        """Plain words -> ranked alternatives (synonyms expanded, question words dropped)."""
        together = [node for raw in raw_words if (node := _shorthand_together(raw))]
        raw_words = [w for raw in raw_words for w in _shorthand(raw)]
        # A rule number is looked up as a number, not as its digits ("24.12" is not "24 12").
        numbers = [m.group(1) for raw in raw_words if exact and (m := _NUMBER_RE.fullmatch(raw))]
        words = [w for raw in raw_words if not (exact and _NUMBER_RE.fullmatch(raw)) for w in analysis.words(raw)]
        if not words and not numbers:
            return []
        content = [w for w in words if w not in analysis.QUERY_STOP_WORDS] or words
        self.parsed.plain_words.extend(content)
        nodes = []
        table = analysis.load_synonyms()
        stems = [analysis.stem(w) for w in words]
        keep = [w in content for w in words]
        if exact:
            nodes.extend(("kind_hint", k) for k in dict.fromkeys(_KIND_WORDS.get(s) for s in stems) if k)
        longest = max(map(len, table), default=1)
        i = 0
        while i < len(words):
            for size in range(longest, 0, -1):
                key = tuple(stems[i:i + size])
                if len(key) == size and key in table:
                    nodes.append(_synonym_any(key))
                    if exact:  # a word after NOT is not asked about
                        self.parsed.concepts.append(table[key])
                    self.parsed.known_words.update(words[i:i + size])
                    for alt in table[key]:
                        self.parsed.highlight_terms.update(alt)
                    i += size
                    break
            else:
                if keep[i]:
                    nodes.append(("terms", None, (stems[i],)))
                    if exact and stems[i] not in _KIND_WORDS:  # a kind word only ranks (kind_hint)
                        self.parsed.concepts.append(((stems[i],),))
                    self.parsed.highlight_terms.add(stems[i])
                i += 1
        nodes.extend(("number", n) for n in numbers)
        nodes.extend(together)
        if nodes and exact:
            whole = analysis.fold_name(" ".join(raw_words))
            nodes.append(("exact_name", whole))
            nodes.extend(("name_part", part) for part in _name_parts(raw_words) if part != whole)
        return nodes


def _name_parts(raw_words: list[str]) -> list[str]:
    """Folded runs of 1 to _NAME_PART_WORDS consecutive content words (no question word in them)
    of a query of several words: the names a question may hold."""
    if len(raw_words) < 2:
        return []
    content = [bool(ws) and not any(w in analysis.QUERY_STOP_WORDS for w in ws)
               for ws in (analysis.words(raw) for raw in raw_words)]
    parts = []
    for start in range(len(raw_words)):
        for end in range(start + 1, min(start + _NAME_PART_WORDS, len(raw_words)) + 1):
            if not all(content[start:end]):
                break
            parts.append(analysis.fold_name(" ".join(raw_words[start:end])))
    return list(dict.fromkeys(p for p in parts if p))


def _save_shorthand(raw: str) -> tuple[tuple, str] | None:
    """The `_SAVE_SHORTHAND` entry a raw query word is ("5+++"), and its value digit; else None."""
    for entry in _SAVE_SHORTHAND:
        m = entry[0].fullmatch(raw)
        if m:
            return entry, m.group(1)
    return None


def _shorthand(raw: str) -> list[str]:
    """A raw query word with players' save shorthand spelled out ("5+++" -> feel no pain 5+)."""
    found = _save_shorthand(raw)
    if found is None:
        return [raw]
    (_, (words, value), _), digit = found
    return [*words.split(), value.format(digit)]


def _shorthand_together(raw: str) -> tuple | None:
    """For a save shorthand ("4++"), the node of its words and value printed side by side
    ("4+ invulnerable", "InSv 4+"): it only ranks. None for another word."""
    found = _save_shorthand(raw)
    if found is None:
        return None
    (_, _, together), digit = found
    return ("any", *(("terms", None, analysis.terms(t.format(digit))) for t in together))


def _synonym_any(terms: tuple[str, ...]) -> tuple | None:
    alternatives = analysis.load_synonyms().get(tuple(terms))
    if not alternatives:
        return None
    return ("any", *(("terms", None, alt) for alt in alternatives))


def parse_query(text: str) -> ParsedQuery:
    """Parse a query string; raises QueryError (with a hint) when it is malformed."""
    parsed = ParsedQuery(node=("all",))
    tokens = _tokens(text)
    parser = _Parser(tokens, parsed)
    node = parser.parse_or(top=True)
    if parser.peek() is not None:
        raise QueryError("unbalanced parenthesis in the query", hint="remove the extra ')'")
    if node is None:
        parsed.has_terms = False
    else:
        parsed.node = node
    return parsed
