"""Parsing the XML inside a VASSAL file someone sent (``buildFile.xml``, ``moduledata``, ``savedata``).

lxml parses it without entity substitution, DTD loading or network access, and within libxml2's ordinary
limits (no ``huge_tree``); on top of that a document that declares entities is refused outright (VASSAL
writes none; they are how "billion laughs" and external-file reads work, as defusedxml refuses them), and so
is one with more tags and attributes than any module holds: a parsed element costs libxml2 about 130 bytes
whatever its text, so a zip entry of ``<a/><a/>...`` (4 bytes each, compressing a thousandfold) would be a
tree thirty times its size.  ``MAX_MARKUP`` bounds that tree to tens of megabytes before a byte is parsed.
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from .errors import VassalFileError

MAX_MARKUP = 500_000          # tags and attributes ("<" and "="); the Borodino module's buildFile has ~3,000


def parse_xml(data: bytes, what: str) -> Any:
    """The root element of ``data``; :class:`VassalFileError` for entities or too much markup, and lxml's
    ``XMLSyntaxError`` for XML that is not well-formed (each caller words that its own way)."""
    if b"<!ENTITY" in data:
        raise _entities(what)
    markup = data.count(b"<") + data.count(b"=")
    if markup > MAX_MARKUP:
        raise VassalFileError(f"{what} holds {markup:,} XML tags and attributes, more than the {MAX_MARKUP:,} a "
                              "VASSAL file has; refusing it (an XML bomb or not a VASSAL file).")
    parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False, huge_tree=False)
    root = etree.fromstring(data, parser)
    dtd = root.getroottree().docinfo.internalDTD
    if dtd is not None and next(iter(dtd.iterentities()), None) is not None:
        raise _entities(what)                       # spelled so the byte search missed it (another encoding)
    return root


def _entities(what: str) -> VassalFileError:
    return VassalFileError(f"{what} declares XML entities, which VASSAL never writes (an XML bomb, or an external "
                           "entity that reads a file); refusing it.")
