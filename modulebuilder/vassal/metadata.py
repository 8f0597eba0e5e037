"""``moduledata`` (in the .vmod and in every save) and ``savedata`` (saves only), vassal.md §1.1.

No ``dateSaved``: it is the only wall-clock field and the engine does not need it, so leaving it out keeps
rebuilt modules and set-ups byte-identical.
"""
from __future__ import annotations

from lxml import etree

VASSAL_VERSION = "3.7.0"   # vassal.md §8: opens without warnings in every 3.7.x and in 3.8


def _data(fields: list[tuple[str, str]]) -> bytes:
    root = etree.Element("data", version="1")
    for tag, text in fields:
        etree.SubElement(root, tag).text = text
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


def moduledata(name: str, version: str, description: str) -> bytes:
    return _data([("version", version), ("extra1", ""), ("extra2", ""), ("VassalVersion", VASSAL_VERSION),
                  ("description", description), ("name", name)])


def savedata(module_version: str, description: str) -> bytes:
    return _data([("version", module_version), ("extra1", ""), ("extra2", ""),
                  ("VassalVersion", VASSAL_VERSION), ("description", description)])
