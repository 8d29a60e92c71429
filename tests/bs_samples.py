"""A small made-up BattleScribe data set (game system and catalogue) in the schema's dict form,
written as XML (.gst/.cat) or 11th edition JSON. Not a test module: tests import it."""
from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

NS = "http://www.battlescribe.net/schema/catalogueSchema"
SYS_NS = "http://www.battlescribe.net/schema/gameSystemSchema"
PTS = "51b2-306e-1021-d207"

# A small catalogue in the shape BSData writes: a unit of 5-10 models with a price for the larger
# size, an InSv characteristic, the Support rule and its attach list, a detachment and an
# enhancement shown only when that detachment is chosen.
CATALOGUE = {"catalogue": {
    "id": "cat-1", "name": "Xenos - Testers", "revision": 3, "type": "catalogue", "xmlns": NS,
    "gameSystemId": "sys-1",
    "sharedRules": [{"id": "r-army", "name": "Test Protocols", "description": "Each **^^Tester^^** unit re\u2011rolls."}],
    "sharedSelectionEntries": [
        {"id": "u-1", "name": "Test Squad", "type": "unit", "hidden": False,
         "costs": [{"name": "pts", "typeId": PTS, "value": 80}],
         "modifiers": [{"type": "set", "field": PTS, "value": 160,
                        "conditions": [{"type": "atLeast", "value": 6, "field": "selections", "scope": "u-1",
                                        "childId": "model"}]}],
         "categoryLinks": [{"id": "c1", "targetId": "cat-f", "name": "Faction: Testers"},
                           {"id": "c2", "targetId": "cat-i", "name": "Infantry"}],
         "infoLinks": [{"id": "l1", "targetId": "r-army", "type": "rule", "name": "Test Protocols"},
                       {"id": "l2", "targetId": "r-support", "type": "rule", "name": "Support"}],
         "profiles": [
             {"id": "p-u", "name": "Tester", "typeName": "Unit", "characteristics": [
                 {"name": "M", "$text": "6\""}, {"name": "T", "$text": "4"}, {"name": "SV", "$text": "3+"},
                 {"name": "W", "$text": "2"}, {"name": "LD", "$text": "6+"}, {"name": "OC", "$text": "1"},
                 {"name": "InSv", "$text": "5+"}]},
             {"id": "p-s", "name": "Support", "typeName": "Abilities", "characteristics": [
                 {"name": "Description", "$text": "This model can support:\n\u25a0 TARGET DRONES"}]},
             {"id": "p-a", "name": "Steady Aim", "typeName": "Abilities", "characteristics": [
                 {"name": "Description", "$text": "Add 1 to ^^**hit rolls**^^ of this unit\u2019s attacks."}]}],
         "selectionEntryGroups": [{"id": "g-1", "name": "5-10 Testers", "constraints": [
             {"type": "min", "value": 5, "field": "selections", "scope": "parent", "id": "k1"},
             {"type": "max", "value": 10, "field": "selections", "scope": "parent", "id": "k2"}],
             "selectionEntries": [{"id": "m-1", "name": "Tester", "type": "model", "profiles": [
                 {"id": "w-1", "name": "Test rifle", "typeName": "Ranged Weapons", "characteristics": [
                     {"name": "Range", "$text": "24\""}, {"name": "A", "$text": "2"}, {"name": "BS", "$text": "3+"},
                     {"name": "S", "$text": "4"}, {"name": "AP", "$text": "0"}, {"name": "D", "$text": "1"},
                     {"name": "Keywords", "$text": "Assault, Heavy"}]}]}]}]},
        {"id": "det", "name": "Detachment", "type": "upgrade", "selectionEntryGroups": [
            {"id": "g-det", "name": "Detachment", "selectionEntries": [
                {"id": "d-1", "name": "Test Cadre", "type": "upgrade",
                 "costs": [{"name": "Detachment Points", "typeId": "dp", "value": 2}],
                 "categoryLinks": [{"id": "c3", "targetId": "fd-1", "name": "Take and Hold"}],
                 "rules": [{"id": "r-det", "name": "Careful Testing",
                            "description": "- Re-roll **hit rolls** of 1.\n\n- Add 1\" to Move."}],
                 "profiles": [{"id": "s-1", "name": "Test Volley", "typeName": "Stratagem", "characteristics": [
                     {"name": "CP", "$text": "1"}, {"name": "Type", "$text": "Battle Tactic"},
                     {"name": "When", "$text": "Your Shooting phase."}, {"name": "Target", "$text": "One unit."},
                     {"name": "Effect", "$text": "Re-roll **wound rolls** of 1."}]}]}]}]}],
    "sharedSelectionEntryGroups": [{"id": "g-enh", "name": "Enhancements", "selectionEntries": [
        {"id": "e-1", "name": "Test Relic", "type": "upgrade",
         "costs": [{"name": "pts", "typeId": PTS, "value": 15}],
         "modifiers": [{"type": "set", "field": "hidden", "value": True, "conditions": [
             {"type": "lessThan", "value": 1, "field": "selections", "scope": "force", "childId": "d-1"}]}],
         "profiles": [{"id": "p-e", "name": "Test Relic", "typeName": "Abilities", "characteristics": [
             {"name": "Description", "$text": "*The bearer* has the Stealth ability."}]}]}]}],
}}
SYSTEM = {"gameSystem": {"id": "sys-1", "name": "Warhammer 40,000 11th Edition", "xmlns": SYS_NS, "revision": 6,
                         "sharedRules": [{"id": "r-support", "name": "Support", "description": "Support rule."}],
                         "sharedSelectionEntryGroups": [{"id": "fd", "name": "Force Disposition", "selectionEntries": [
                             {"id": "fd-1", "name": "Take and Hold", "type": "upgrade"}]}]}}


def to_xml(data: dict, namespace: str) -> str:
    """The XML form of the JSON shape: the serialisation BSData used before 11th edition."""
    (tag, body), = data.items()

    def build(name: str, obj: dict) -> ET.Element:
        el = ET.Element(name)
        for k, v in obj.items():
            if k == "$text":
                el.text = str(v)
            elif k == "xmlns":
                continue
            elif isinstance(v, list):
                box = ET.SubElement(el, k)
                item = (k[6].lower() + k[7:]) if k.startswith("shared") else k
                item = item[:-3] + "y" if item.endswith("ies") else item[:-1]
                for x in v:
                    box.append(build(item, x))
            elif k == "description":
                ET.SubElement(el, k).text = v
            else:
                el.set(k, str(v).lower() if isinstance(v, bool) else str(v))
        return el
    root = build(tag, body)
    root.set("xmlns", namespace)
    return ET.tostring(root, encoding="unicode")


def write_pair(folder: Path, fmt: str, *, comment_bytes: int = 0) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    if fmt == "json":
        (folder / "System.json").write_text(json.dumps(SYSTEM), encoding="utf-8")
        cat = folder / "Testers.json"
        cat.write_text(json.dumps(CATALOGUE), encoding="utf-8")
        return cat
    (folder / "System.gst").write_text(to_xml(SYSTEM, SYS_NS), encoding="utf-8")
    cat = folder / "Testers.cat"
    head = '<?xml version="1.0" encoding="UTF-8"?>\n'
    if comment_bytes:
        head += "<!-- " + "x" * comment_bytes + " -->\n"
    cat.write_text(head + to_xml(CATALOGUE, NS), encoding="utf-8")
    return cat
