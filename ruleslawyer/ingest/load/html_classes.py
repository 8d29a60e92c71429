"""What an HTML element is, judged from its tag, class/id tokens, style and text.

Class names are split into lower-case tokens at `-`, `_`, digits and camelCase humps
("dsH2Header" -> ds, h, 2, header), after folding Cyrillic look-alike letters to Latin
(Wahapedia spells one class "dsLeftСol" with a Cyrillic С). Matching is by whole token, never
by substring, so a class `shadow` or `loader` is not an ad and `dsBannerWrap` (the datasheet
name bar) is not an ad banner.
"""
from __future__ import annotations

import re
from functools import lru_cache

# Cyrillic letters that look like Latin ones, as found in hand-typed class names.
_CONFUSABLES = str.maketrans({
    "А": "A", "В": "B", "С": "C", "Е": "E", "Н": "H", "К": "K", "М": "M", "О": "O", "Р": "P",
    "Т": "T", "Х": "X", "У": "Y", "І": "I", "Ј": "J", "Ѕ": "S",
    "а": "a", "с": "c", "е": "e", "о": "o", "р": "p", "х": "x", "у": "y", "і": "i", "ј": "j",
    "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l",
})
_TOKEN = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")

# Never content: code, styling, embedded frames, form controls, media without text.
DROP_TAGS = frozenset({
    "script", "style", "noscript", "iframe", "template", "svg", "canvas", "input", "button",
    "select", "option", "optgroup", "textarea", "link", "meta", "object", "embed", "map", "audio",
    "video", "img", "picture", "source", "head", "title", "base", "param", "track",
})
BLOCK_TAGS = frozenset({
    "address", "article", "aside", "blockquote", "body", "center", "dd", "details", "div", "dl",
    "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
    "header", "hr", "html", "li", "main", "nav", "ol", "p", "pre", "section", "summary", "table",
    "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "caption", "legend", "menu",
})
HEADING_TAGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
BOLD_TAGS = frozenset({"b", "strong"})
ITALIC_TAGS = frozenset({"i", "em", "cite", "var", "dfn"})

# Tokens that mark advertising anywhere in a class or id ("top-ad", "adsbygoogle", "AdBox").
_AD_TOKENS = frozenset({
    "ad", "ads", "adv", "advert", "adverts", "advertisement", "advertising", "adsbygoogle",
    "adsense", "adslot", "adunit", "sponsor", "sponsored", "sponsors", "boosty", "ezoic", "taboola",
    "outbrain", "doubleclick", "googlead", "dfp", "promo", "patreon",
})
# Tokens that mark ads only when they lead the name ("banner-top", not "dsBannerWrap").
_AD_LEAD_TOKENS = frozenset({"banner", "sidebar"})
# Page chrome: navigation, menus, cookie and consent banners, site search, print-hidden UI.
_CHROME_TOKENS = frozenset({
    "nav", "navbar", "navigation", "menu", "menubar", "breadcrumb", "breadcrumbs", "cookie",
    "cookies", "consent", "gdpr", "cmp", "noprint", "yandex", "share", "social", "subscribe",
    "subscription", "newsletter", "paywall", "login", "signin", "signup",
})
CHROME_ROLES = frozenset({"navigation", "banner", "contentinfo", "search", "menu", "menubar"})
# Boxes that pop over the page: kept (they may hold rules) unless their text is an ad prompt.
_POPUP_TOKENS = frozenset({"popup", "modal", "overlay", "dialog", "lightbox", "notice", "notification",
                           "toast", "flyout"})
# Short texts that only ever belong to ad or subscription prompts.
AD_TEXT = re.compile(r"\b(disable ads|remove ads|ad-?free|boosty|patreon|pin code|subscribe to)\b", re.I)

_HEADER_TOKENS = frozenset({"header", "heading", "headline", "title"})
# Wahapedia class names that render as headings although their tokens do not say "header".
_NAMED_HEADINGS = {"str10name": 3, "page_header": 1, "page_header2": 1, "dsh2header": 2,
                   "dsheader": 3, "ttheader": 3, "tooltip_header": 3, "wrtheader": 4,
                   "ttsubheader": 4, "factionheader": 2}
_BOLD_CLASSES = frozenset({"kwb", "kwb2", "kwbu", "str10name", "dscharname", "s10name", "pricetag",
                           "dscharvalue", "dscharinvulvalue"})
_ITALIC_CLASSES = frozenset({"showfluff", "legend2", "str10legend"})

_DISPLAY_NONE = re.compile(r"display\s*:\s*none", re.I)
_BOLD_STYLE = re.compile(r"font-weight\s*:\s*(bold|bolder|[6-9]00)", re.I)
_ITALIC_STYLE = re.compile(r"font-style\s*:\s*(italic|oblique)", re.I)


def latin_letters(name: str) -> str:
    """A class or id with Cyrillic look-alike letters replaced by Latin ones."""
    return name.translate(_CONFUSABLES)


@lru_cache(maxsize=8192)
def tokens(name: str) -> tuple[str, ...]:
    """Lower-case word tokens of one class or id name."""
    return tuple(t.lower() for t in _TOKEN.findall(latin_letters(name)))


def class_names(el) -> tuple[str, ...]:
    """The element's classes, folded to Latin letters and lower-cased."""
    return _class_names(el.get("class") or "")


@lru_cache(maxsize=8192)
def _class_names(attr: str) -> tuple[str, ...]:
    return tuple(_folded_lower(c) for c in attr.split())


@lru_cache(maxsize=8192)
def block_class(attr: str) -> str:
    """The class attribute of a block as kept in its attrs: classes joined by one space,
    Cyrillic look-alikes folded (one shared string per distinct attribute)."""
    return latin_letters(" ".join(attr.split()))


@lru_cache(maxsize=8192)
def class_tokens(attr: str) -> frozenset[str]:
    """Every token of every class in a class attribute."""
    return frozenset(t for c in attr.split() for t in tokens(c))


@lru_cache(maxsize=8192)
def _folded_lower(name: str) -> str:
    return latin_letters(name).lower()


@lru_cache(maxsize=8192)
def _ad_name(name: str) -> bool:
    toks = tokens(name)
    return bool(toks) and bool(_AD_TOKENS.intersection(toks) or toks[0] in _AD_LEAD_TOKENS
                               or "".join(toks) in _AD_TOKENS)


@lru_cache(maxsize=8192)
def _chrome_name(name: str) -> bool:
    toks = tokens(name)
    return bool(toks) and bool(_CHROME_TOKENS.intersection(toks[:1]) or "".join(toks) in _CHROME_TOKENS
                               or (len(toks) <= 2 and _CHROME_TOKENS.intersection(toks)))


def _any_name(test, el) -> bool:
    """Whether `test` holds for one of the element's class names or its id (the answer for
    a whole class attribute is cached: a page repeats a few of them thousands of times)."""
    attr = el.get("class")
    if attr and _any_class(test, attr):
        return True
    el_id = el.get("id")
    return bool(el_id) and test(el_id)


@lru_cache(maxsize=8192)
def _any_class(test, attr: str) -> bool:
    return any(test(n) for n in attr.split())


@lru_cache(maxsize=8192)
def _popup_name(name: str) -> bool:
    return bool(_POPUP_TOKENS.intersection(tokens(name)))


def is_popup_box(el) -> bool:
    """A box that pops over the page: a `<dialog>`, or a class/id saying popup, modal..."""
    return el.tag == "dialog" or _any_name(_popup_name, el)


def is_ad_popup(el) -> bool:
    """A popup box (class/id says popup, modal, dialog...) whose text is an ad or
    subscription prompt ("Disable Ads", "Boosty subscribers...")."""
    if not is_popup_box(el):
        return False
    text = " ".join(s.strip() for s in el.itertext() if s.strip())
    return len(text) < 3000 and bool(AD_TEXT.search(text))


def is_hidden_inline(el) -> bool:
    """An inline element hidden with `display:none`: a filter variant the page shows only under
    another setting (Wahapedia repeats a faction keyword once per detachment filter)."""
    return el.tag not in BLOCK_TAGS and bool(_DISPLAY_NONE.search(el.get("style") or ""))


@lru_cache(maxsize=8192)
def _class_heading_level(attr: str) -> int:
    for cls in _class_names(attr):
        if cls in _NAMED_HEADINGS:
            return _NAMED_HEADINGS[cls]
    for cls in attr.split():
        toks = tokens(cls)
        if toks and toks[-1] in _HEADER_TOKENS and toks[0] not in ("sub",):
            return 4
        if toks and toks[-1] in _HEADER_TOKENS:
            return 5
    return 0


@lru_cache(maxsize=8192)
def _class_style(attr: str, css_bold: frozenset[str], css_italic: frozenset[str]) -> tuple[bool, bool]:
    classes = _class_names(attr)
    return (any(c in _BOLD_CLASSES or c in css_bold for c in classes),
            any(c in _ITALIC_CLASSES or c in css_italic for c in classes))


_CSS_RULE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_CSS_CLASS_ONLY = re.compile(r"^\s*\.([\w-]+)\s*$")


def css_styled_classes(css_texts: list[str]) -> tuple[frozenset[str], frozenset[str]]:
    """Classes a page's own `<style>` sheets make bold or italic (`.kwb{font-weight:700}`).

    Only plain `.class` selectors count: descendant or state selectors style a context, not
    the class itself.
    """
    bold: set[str] = set()
    italic: set[str] = set()
    for css in css_texts:
        for selectors, body in _CSS_RULE.findall(css):
            is_bold, is_italic = bool(_BOLD_STYLE.search(body)), bool(_ITALIC_STYLE.search(body))
            if not (is_bold or is_italic):
                continue
            for sel in selectors.split(","):
                m = _CSS_CLASS_ONLY.match(sel)
                if m:
                    (bold if is_bold else italic).add(latin_letters(m.group(1)).lower())
                    if is_bold and is_italic:
                        italic.add(latin_letters(m.group(1)).lower())
    return frozenset(bold), frozenset(italic)


# Regions a parser may want to find: (container name, class names or class tokens that mark it).
_CONTAINER_CLASSES = {
    "dsouterframe": "datasheet", "datasheet": "datasheet",
    "str10wrap": "stratagem-card", "dsstratagemswrap": "stratagem-list", "s10wrap": "stratagem-row",
    "dsdetachmentwrap": "detachment-abilities", "detachmenttooltip": "detachment-ability",
    "dsenhancementswrap": "enhancements", "enhtooltip": "enhancement",
    "ruletooltip": "rule", "kwtooltip": "keyword", "ds2colkw": "keywords",
    "dsprofilebasewrap": "profile", "wtable": "weapons",
}
_CONTAINER_TOKENS = (("stratagem", "stratagem-card"), ("enhancement", "enhancement"),
                     ("datasheet", "datasheet"))


def container_of(el) -> str | None:
    """The region an element opens (a datasheet, a stratagem card...), or None."""
    attr = el.get("class")
    return _class_container(attr) if attr else None


@lru_cache(maxsize=8192)
def _class_container(attr: str) -> str | None:
    classes = _class_names(attr)
    for cls in classes:
        if cls in _CONTAINER_CLASSES:
            return _CONTAINER_CLASSES[cls]
    for cls in classes:
        toks = tokens(cls)
        for tok, name in _CONTAINER_TOKENS:
            if tok in toks:
                return name
    return None


# -- one element's verdicts, asked once per distinct tag and class attribute -----------------
# The walk asks a dozen questions of every element; all but those about its id, role and
# inline style depend on its tag and class attribute alone, which a page repeats thousands of
# times. `ElementKind` answers them together, and the walk keeps the answer per page.

STAT_TOKENS = frozenset({"profile", "stats", "stat", "characteristics", "chars", "statline"})


class ElementKind:
    """The verdicts on an element with this tag and class attribute, on a page whose style
    sheets make `css_bold`/`css_italic` classes bold/italic (a page keeps one per pair:
    `html_parts.Page.kind`)."""

    __slots__ = ("drop", "page_chrome", "block", "popup", "tooltip", "bold", "italic",
                 "opens_content", "container", "block_class", "badge", "stat", "invul", "points",
                 "heading", "maybe_empty_list", "plain")

    def __init__(self, tag: str, attr: str | None, css_bold: frozenset[str], css_italic: frozenset[str]):
        names = _class_names(attr) if attr else ()
        toks = [tokens(c) for c in attr.split()] if attr else []
        # Never content: code and media tags, adverts (an ad token in a class name, whole
        # tokens only), navigation and page chrome (menus, cookie banners...). The element's
        # id and role can say so too (`id_drops`, CHROME_ROLES).
        self.drop = (tag in DROP_TAGS or tag == "nav" or bool(attr) and (_any_class(_ad_name, attr)
                                                                         or _any_class(_chrome_name, attr)))
        # `<header>`/`<footer>`/`<aside>` inside an article or section hold that article's
        # title, notes or a rules sidebar and are kept; at page level they are the site's
        # banner, footer and sidebar.
        self.page_chrome = tag in ("header", "footer", "aside")
        self.block = tag in BLOCK_TAGS
        self.popup = tag == "dialog" or bool(attr) and _any_class(_popup_name, attr)
        self.tooltip = "tooltip_content" in names
        # Bold or italic turned on by the tag or the classes (an inline style can add to it:
        # `style_facts`).
        by_class = _class_style(attr, css_bold, css_italic) if attr else (False, False)
        self.bold = tag in BOLD_TAGS or tag in ("th", "dt") or by_class[0]  # a definition term is a label
        self.italic = tag in ITALIC_TAGS or by_class[1]
        self.opens_content = tag in ("article", "main", "section")
        self.container = _class_container(attr) if attr else None
        self.block_class = block_class(attr or "")
        self.badge = "kwb2" in names
        self.stat = bool(attr) and not class_tokens(attr).isdisjoint(STAT_TOKENS)
        self.invul = any("invul" in t for ts in toks for t in ts)
        self.points = tag in ("ul", "ol") and any(t in ("pts", "points") for ts in toks for t in ts)
        self.heading = HEADING_TAGS.get(tag, 0) or (_class_heading_level(attr) if attr else 0)  # 0: none
        self.maybe_empty_list = tag in ("ul", "ol", "dl", "menu")
        # Neither the tag nor the classes change the context (bold, italic, region, content).
        self.plain = not (self.bold or self.italic or self.container or self.opens_content)


@lru_cache(maxsize=8192)
def id_drops(el_id: str) -> bool:
    """Whether an element id alone marks an advert or page chrome."""
    return _ad_name(el_id) or _chrome_name(el_id)


@lru_cache(maxsize=8192)
def popup_id(el_id: str) -> bool:
    """Whether an element id marks a popup box."""
    return _popup_name(el_id)


@lru_cache(maxsize=8192)
def style_facts(style: str) -> tuple[bool, bool, bool]:
    """(hidden, bold, italic) that an inline style attribute says."""
    return (bool(_DISPLAY_NONE.search(style)), bool(_BOLD_STYLE.search(style)),
            bool(_ITALIC_STYLE.search(style)))
