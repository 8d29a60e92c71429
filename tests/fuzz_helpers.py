"""Seeds and mutations shared by the fuzz and reliability tests: small real subsets of the
structured sources (a Wahapedia export, BattleScribe data, MFM points) and one damaged input
at a time. Not a test module: test modules import from here, never from each other."""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

from ruleslawyer.ingest.sources.wahapedia_csv import read_table
from ruleslawyer.store import Store

MAX_INPUT = 1024  # bytes of a damaged input (twice this at most)
SHEETS = 3  # datasheets kept in an export subset
ROWS = 4  # rows kept of the tables not keyed by datasheet


def mutate(rnd: random.Random, own: list[bytes], others: list[bytes], limit: int = MAX_INPUT) -> bytes:
    """One damaged input: a window of a seed, then one or two of flip / truncate / splice / insert / repeat."""
    base = rnd.choice(own)
    if len(base) > limit and rnd.random() < 0.5:
        start = rnd.randrange(len(base) - limit)
        base = base[:64] + base[start:start + limit]  # keep the header: sniffing sees the format
    data = bytearray(base[:limit * 2])
    for _ in range(rnd.randint(1, 2)):
        op = rnd.randrange(5)
        if op == 0 and data:  # flip bytes
            for _ in range(rnd.randint(1, 16)):
                data[rnd.randrange(len(data))] = rnd.randrange(256)
        elif op == 1 and data:  # truncate
            del data[rnd.randrange(len(data)):]
        elif op == 2:  # splice a piece of another file (any format) at a random point
            other = rnd.choice(others)
            a = rnd.randrange(max(1, len(other)))
            piece = other[a:a + rnd.randint(1, 1024)]
            at = rnd.randrange(len(data) + 1)
            data[at:at] = piece
        elif op == 3:  # insert random bytes
            at = rnd.randrange(len(data) + 1)
            data[at:at] = bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 64)))
        elif data:  # repeat a run
            a = rnd.randrange(len(data))
            run = data[a:a + rnd.randint(1, 256)]
            data[a:a] = run * rnd.randint(2, 8)
    return bytes(data[:limit * 2])


def snapshot(store: Store) -> tuple:
    """What a change to the store would change: its counter, and every row this connection wrote."""
    return store.generation, store.conn.total_changes


def export_subset(folder: Path, out: Path, sheets: int = SHEETS) -> Path:
    """A small real export: its first datasheets with their rows in every table, a few rows of
    the other tables, written back in the export's own form (`a|b|c|` rows, one header)."""
    out.mkdir(parents=True)
    kept = read_table(folder / "Datasheets.csv")[:sheets]
    keep = {r["id"] for r in kept}
    for csv in sorted(folder.glob("*.csv")):
        header = (csv.read_bytes().decode("utf-8-sig").split("\n", 1)[0]).rstrip("\r|").split("|")
        rows = read_table(csv)
        if csv.name == "Datasheets.csv":
            rows = kept
        elif "datasheet_id" in header:
            rows = [r for r in rows if r.get("datasheet_id") in keep][:ROWS * 4 * sheets // SHEETS]
        elif csv.name == "Datasheets_leader.csv":
            rows = [r for r in rows if r.get("leader_id") in keep or r.get("attached_id") in keep][:ROWS]
        elif csv.name not in ("Factions.csv", "Last_update.csv"):
            rows = rows[:ROWS]
        lines = ["|".join(header) + "|"] + ["|".join(r.get(h, "") for h in header) + "|" for r in rows]
        (out / csv.name).write_text("\ufeff" + "\r\n".join(lines) + "\r\n", encoding="utf-8")
    return out


def _trim(containers: dict[str, list], size, keep: int) -> None:
    """Keep a catalogue small: the smallest units its entry links point at, and the smallest few
    of everything else (the profile and cost types whole: they say what the rest means)."""
    links = containers.get("entryLinks", [])
    targets = {link.get("targetId") for link in links}
    units = sorted((i for i in containers.get("sharedSelectionEntries", []) if i.get("id") in targets), key=size)
    kept_units = units[:keep] or sorted(containers.get("sharedSelectionEntries", []), key=size)[:keep]
    for name, items in containers.items():
        if name == "sharedSelectionEntries":
            containers[name] = kept_units
        elif name == "entryLinks":
            ids = {u.get("id") for u in kept_units}
            containers[name] = [link for link in items if link.get("targetId") in ids]
        elif name not in ("profileTypes", "costTypes", "catalogueLinks", "forceEntries"):
            containers[name] = sorted(items, key=size)[:keep]


def json_subset(path: Path, keep: int = 2) -> bytes:
    """An 11th edition BSData JSON file cut down to a few small entries of each top-level list."""
    data = json.loads(path.read_bytes())
    (tag, body), = data.items()
    lists = {k: v for k, v in body.items() if isinstance(v, list)}
    _trim(lists, lambda item: len(json.dumps(item)), keep)
    body.update(lists)
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


def xml_subset(path: Path, keep: int = 2) -> bytes:
    """A .cat/.gst cut down the same way, as XML."""
    root = ET.parse(path).getroot()
    ns = root.tag[:root.tag.index("}") + 1] if root.tag.startswith("{") else ""
    ET.register_namespace("", ns.strip("{}"))
    as_lists = {box.tag[len(ns):]: [dict(item.attrib, _el=item) for item in box] for box in root}
    _trim(as_lists, lambda d: len(ET.tostring(d["_el"])), keep)
    for box in list(root):
        kept = [d["_el"] for d in as_lists.get(box.tag[len(ns):], [])]
        for item in list(box):
            box.remove(item)
        for el in dict.fromkeys(kept):
            box.append(el)
    return b'<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="utf-8", xml_declaration=False)


def mfm_subset(mfm: Path, factions: tuple[str, ...]) -> dict[str, bytes]:
    """The MFM data folder for a few factions: meta.yaml without its long notes, their files,
    and the changelog's lines about them (with every heading, so the versions stay)."""
    meta = (mfm / "meta.yaml").read_text(encoding="utf-8").split("\n")
    start, end = next(i for i, l in enumerate(meta) if l.startswith("notes:")), \
        next(i for i, l in enumerate(meta) if l.startswith("factions:"))
    meta = meta[:start] + ["factions:"] + [f"  - {f}" for f in factions]
    names = [yaml_name(mfm / f"{f}.yaml") for f in factions]
    log = [line for line in (mfm / "DATA-CHANGELOG.md").read_text(encoding="utf-8").split("\n")
           if not line.startswith("- ") or any(f"**{n}**" in line for n in names)]
    text = "\n".join(log)
    files = {f"{f}.yaml": yaml_items(mfm / f"{f}.yaml", lambda name: name in text).encode("utf-8") for f in factions}
    return {"meta.yaml": "\n".join(meta).encode() + b"\n", **files, "DATA-CHANGELOG.md": text.encode("utf-8")}


def yaml_items(path: Path, wanted, first: int = 2) -> str:
    """A faction file with the first items of each top-level list and the items `wanted(name)`
    picks (those the changelog mentions), its lines as they are."""
    out, seen, keep = [], 0, True
    for line in path.read_text(encoding="utf-8").split("\n"):
        if not line.startswith(" "):
            seen, keep = 0, True
        elif line.startswith("  - "):
            seen += 1
            keep = seen <= first or wanted(line.split("name:", 1)[-1].strip())
        if keep:
            out.append(line)
    return "\n".join(out)


def yaml_name(path: Path) -> str:
    return next(l for l in path.read_text(encoding="utf-8").split("\n") if l.startswith("name:"))[5:].strip()


def window_page(data: bytes, size: int) -> list[bytes]:
    """Pieces of a large saved page that keep its head (title and all): the points page is 235 KB."""
    end = data.find(b"</title>")
    head = data[:end + 8] if end >= 0 else data[:512]
    step = max(size, (len(data) - len(head)) // 12)
    return [head + data[at:at + size] for at in range(len(head), len(data), step)]
