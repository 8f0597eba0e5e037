"""``moduledata`` (in the .vmod and in every save) and ``savedata`` (saves only), vassal.md §1.1.

No ``dateSaved``: it is the only wall-clock field and the engine does not need it, so leaving it out keeps
rebuilt modules and set-ups byte-identical.
"""
from __future__ import annotations

VASSAL_VERSION = "3.7.0"   # vassal.md §8: opens without warnings in every 3.7.x and in 3.8
# ``--vassal 3.6|3.7``: the engine version a module declares.  The traits are the same for both (see
# docs/vassal-module.md, "VASSAL 3.6 and 3.7"); only the declaration differs: 3.6 shows a "Version
# Mismatch" dialog for a module declaring 3.7.0, and 3.7 opens a 3.6.0 module without one.
VASSAL_TARGETS = {"3.6": "3.6.0", "3.7": VASSAL_VERSION}


def _data(fields: list[tuple[str, str]]) -> bytes:
    from lxml import etree          # imported when first written (buildfile.py says why)
    root = etree.Element("data", version="1")
    for tag, text in fields:
        etree.SubElement(root, tag).text = text
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


def moduledata(name: str, version: str, description: str, vassal_version: str = VASSAL_VERSION) -> bytes:
    return _data([("version", version), ("extra1", ""), ("extra2", ""), ("VassalVersion", vassal_version),
                  ("description", description), ("name", name)])


def savedata(module_version: str, description: str, vassal_version: str = VASSAL_VERSION) -> bytes:
    return _data([("version", module_version), ("extra1", ""), ("extra2", ""),
                  ("VassalVersion", vassal_version), ("description", description)])
