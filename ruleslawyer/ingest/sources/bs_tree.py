"""The BattleScribe schema as one element tree, whatever its serialisation.

BSData ships the schema as XML (`.cat`/`.gst`, 9th and 10th edition) and, from 11th edition, as
JSON: attributes become keys, child elements become arrays under their plural container name
(`selectionEntries: [...]` for `<selectionEntries><selectionEntry/>...`), element text is
`$text`, and a rule's `description` is a plain string. `read_tree` turns either into the same
ElementTree nodes, so one reader walks both. `root_kind` recognises a file by its content (a root
element that starts after a long comment or the first 4 KB, a BOM, UTF-16), not by its suffix.
"""
from __future__ import annotations

import json
import math
import re
from functools import lru_cache
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Callable

from ...errors import LoadError

CATALOGUE_NS = "http://www.battlescribe.net/schema/catalogueSchema"
SYSTEM_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
ROOTS = ("catalogue", "gameSystem")
SNIFF_BYTES = 1 << 20  # how far into a file the root element is looked for
# Scalar JSON keys that are child elements with text in the XML form.
TEXT_CHILDREN = ("description", "readme", "comment", "alias")
_XML_ROOT = re.compile(r"<(catalogue|gameSystem)\b[^>]*\bxmlns=[\"']([^\"']+)[\"']")
_JSON_ROOT = re.compile(r"^\s*\{\s*\"(catalogue|gameSystem)\"\s*:\s*\{")


def decode_head(data: bytes) -> str:
    """Text of the first bytes of a file, honouring a BOM (UTF-8/UTF-16) or UTF-16 without one."""
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8", errors="replace")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")
    if len(data) > 3 and data[1:2] == b"\0" and data[0:1] != b"\0":
        return data.decode("utf-16-le", errors="replace")
    if len(data) > 3 and data[0:1] == b"\0" and data[1:2] != b"\0":
        return data.decode("utf-16-be", errors="replace")
    return data.decode("utf-8", errors="replace")


def _once_per_file_version(read: Callable[[str], str | None]) -> Callable[[Path], str | None]:
    """`read(path)` cached by the file's path, modification time and size: a folder walk asks
    about every sibling of every catalogue, and an edited file is read again."""
    @lru_cache(maxsize=4096)
    def cached(path: str, mtime: int, size: int) -> str | None:
        return read(path)

    def wrapper(path: Path) -> str | None:
        try:
            stat = path.stat()
        except OSError:
            return None
        return cached(str(path), stat.st_mtime_ns, stat.st_size)

    wrapper.__doc__ = read.__doc__
    return wrapper


@_once_per_file_version
def root_kind(path: str) -> str | None:
    """"catalogue" or "gameSystem" when the file is BattleScribe data (XML or JSON), else None."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(65536)
            head = decode_head(data)
            if not _JSON_ROOT.match(head) and not _XML_ROOT.search(head) and head.lstrip().startswith("<"):
                head = decode_head(data + fh.read(SNIFF_BYTES))  # a long prolog: the root comes later
    except OSError:
        return None
    m = _JSON_ROOT.match(head)
    if m:
        return m.group(1)
    m = _XML_ROOT.search(head)
    if m and m.group(2) in (CATALOGUE_NS, SYSTEM_NS):
        return m.group(1)
    return None


_XML_ID = re.compile(r"<(?:catalogue|gameSystem)\b[^>]*?\sid=[\"']([^\"']+)[\"']")
_JSON_ID = re.compile(r'"id"\s*:\s*"([^"]+)"')
_XML_LINKS = re.compile(r"<catalogueLink\b[^>]*?\btargetId=[\"']([^\"']+)[\"']")
_JSON_LINKS = re.compile(r'"catalogueLinks"\s*:\s*\[(.*?)\]', re.S)


@_once_per_file_version
def root_id(path: str) -> str | None:
    """The id of a BattleScribe file's root element, read from its first or last bytes."""
    try:
        with open(path, "rb") as fh:
            head = decode_head(fh.read(65536))
            fh.seek(0, 2)
            size = fh.tell()
            fh.seek(max(0, size - 8192))
            tail = decode_head(fh.read())
    except OSError:
        return None
    m = _XML_ID.search(head)
    if m:
        return m.group(1)
    if _JSON_ROOT.match(head):
        # JSON writes the root's attributes after its arrays: the last "id" after the last "]".
        last = _JSON_ID.findall(tail[tail.rfind("]") + 1:])
        if last:
            return last[-1]
        first = re.match(r'^\s*\{\s*"(?:catalogue|gameSystem)"\s*:\s*\{\s*(?:"[^"\[\]{}]*"\s*:\s*[^\[\]{},]*,\s*)*?'
                         r'"id"\s*:\s*"([^"]+)"', head)  # or before them
        return first.group(1) if first else None
    return None


def linked_catalogues(path: Path) -> set[str]:
    """The ids of the catalogues a catalogue links to (`catalogueLinks`: shared libraries)."""
    try:
        text = decode_head(path.read_bytes())
    except OSError:
        return set()
    ids = set(_XML_LINKS.findall(text))
    for block in _JSON_LINKS.findall(text):
        ids.update(re.findall(r'"targetId"\s*:\s*"([^"]+)"', block))
    return ids


def _singular(container: str) -> str:
    """`sharedSelectionEntries` -> `selectionEntry`, `costs` -> `cost`: the item tag of a container."""
    name = container[6].lower() + container[7:] if container.startswith("shared") and len(container) > 6 else container
    if name.endswith("ies"):
        return name[:-3] + "y"
    return name[:-1] if name.endswith("s") else name


def _scalar(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _element(tag: str, data: dict) -> ET.Element:
    """One JSON object as an element (iteratively: catalogues nest deeply)."""
    root = ET.Element(tag)
    stack = [(root, data)]
    while stack:
        el, obj = stack.pop()
        for key, value in obj.items():
            if key == "$text":
                el.text = _scalar(value)
            elif isinstance(value, list):
                container = ET.SubElement(el, key)
                item_tag = _singular(key)
                for item in value:
                    if isinstance(item, dict):
                        child = ET.SubElement(container, item_tag)
                        stack.append((child, item))
                    elif item is not None:
                        ET.SubElement(container, item_tag).text = _scalar(item)
            elif isinstance(value, dict):
                child = ET.SubElement(el, key)
                stack.append((child, value))
            elif value is None:
                continue
            elif key in TEXT_CHILDREN:
                ET.SubElement(el, key).text = _scalar(value)
            else:
                el.set(key, _scalar(value))
    return root


def read_tree(path: Path) -> ET.Element:
    """The root element of a BattleScribe file, XML or JSON; LoadError when it cannot be read."""
    from ..formats import read_file

    data = read_file(path)  # a regular file only, within the size limit; LoadError otherwise
    text = decode_head(data)
    if _JSON_ROOT.match(text):
        try:
            obj = json.loads(text, parse_constant=lambda c: None)
        except (json.JSONDecodeError, RecursionError) as exc:
            raise LoadError(path, f"not valid BattleScribe JSON: {exc}") from None
        tag = next((k for k in ROOTS if isinstance(obj, dict) and k in obj), None)
        body = obj.get(tag) if tag else None
        if not isinstance(body, dict):
            raise LoadError(path, "not BattleScribe JSON: no catalogue or gameSystem object")
        return _element(tag, body)
    try:
        return ET.fromstring(data)  # expat honours the BOM and the encoding declaration
    except ET.ParseError as exc:
        raise LoadError(path, f"not well-formed XML: {exc}") from None
    except (LookupError, ValueError) as exc:  # an encoding declaration expat does not know ("UTF-4", "UTF-16" in a UTF-8 file)
        raise LoadError(path, f"not readable XML: {exc}") from None


def local(tag: str) -> str:
    """The tag without its XML namespace."""
    return tag.rsplit("}", 1)[-1]


def children(el: ET.Element, name: str) -> list[ET.Element]:
    """Direct children named `name`."""
    return [c for c in el if local(c.tag) == name]


def grand(el: ET.Element, container: str, item: str) -> list[ET.Element]:
    """Items of a container child: grand(entry, "costs", "cost")."""
    return [g for c in children(el, container) for g in children(c, item)]


def number(value: str | None) -> float | None:
    """A finite number from an attribute ("5", "5.0"), None for anything else ("lots", "inf", NaN, 1e400)."""
    if value is None:
        return None
    try:
        n = float(value)
    except (TypeError, ValueError):
        return None
    return n if math.isfinite(n) else None
