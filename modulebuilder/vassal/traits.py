"""Piece traits (VASSAL "decorators") and whole pieces, as the type and state strings the engine reads.

A piece is a chain of traits around a BasicPiece, outermost first (vassal.md §3.2).  Each builder here
returns one :class:`Trait` -- its type string (with the ``id;`` prefix that picks the Java class) and its
initial state -- so that a piece is just a tuple of traits and its strings are two :func:`seqenc.chain`
calls.  Field orders follow vassal.md §3.3, which was checked against the engine.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

from . import seqenc

# Keystrokes as the buildFile writes them: "keyCode,modifiers" (Ctrl = 130).
CTRL_F = "70,130"            # Disorder (flip to the back)
CTRL_CLOSE_BRACKET = "93,130"  # Rotate clockwise
CTRL_OPEN_BRACKET = "91,130"   # Rotate counter-clockwise
DELETE_KEY = "127,0"
ALT_C = "67,520"             # the Counters palette's toolbar hotkey
OPEN_PALETTE = "0,0,OpenPalette"   # a named command: only its name matters to the engine (vassal.md §2.1)


@dataclass(frozen=True)
class Trait:
    type: str    # including the id prefix, e.g. "mark;UnitId"
    state: str   # "" for traits without state

    @property
    def id(self) -> str:
        """The class-selecting prefix, e.g. ``mark;`` (``piece;`` for the BasicPiece)."""
        return self.type.split(";", 1)[0] + ";"


@dataclass(frozen=True)
class Piece:
    """A piece as a tuple of traits, outermost first; the last one is the BasicPiece."""
    traits: tuple[Trait, ...]

    def type(self) -> str:
        return seqenc.chain([t.type for t in self.traits])

    def state(self) -> str:
        return seqenc.chain([t.state for t in self.traits])

    def replace_basic(self, basic: Trait) -> "Piece":
        return Piece(self.traits[:-1] + (basic,))


def add_piece(piece_id: str, piece: Piece) -> str:
    """The AddPiece command ``+/id/type/state`` (``id`` is ``null`` in palettes and prototypes)."""
    return "+/" + seqenc.encode([piece_id, piece.type(), piece.state()], "/")


def _trait(prefix: str, fields: Sequence[str | int | bool], state: str = "") -> Trait:
    return Trait(prefix + seqenc.encode(fields, ";"), state)


# --------------------------------------------------------------------------------------------- BasicPiece

def basic_piece(image: str, name: str, *, map_id: str = "null", x: int = 0, y: int = 0, gpid: str = "",
                properties: Mapping[str, str] | None = None) -> Trait:
    """The innermost trait: image and name; its state places the piece (``null`` map = nowhere)."""
    props = dict(properties or {})
    state_fields: list[str | int] = [map_id, x, y, gpid, len(props)]
    for k, v in props.items():
        state_fields += [k, v]
    return _trait("piece;", ["", "", image, name], seqenc.encode(state_fields, ";"))


PROTOTYPE_BASE = Trait("piece;;;;", "null;0;0;;0")   # the empty BasicPiece every prototype ends with


def placed(basic: Trait, map_id: str, x: int, y: int) -> Trait:
    """``basic`` with its state moved to ``map_id`` at (x, y), keeping gpid and properties."""
    fields = seqenc.decode(basic.state, ";")
    fields[0:3] = [map_id, str(x), str(y)]
    return Trait(basic.type, seqenc.encode(fields, ";"))


# --------------------------------------------------------------------------------------------- decorators

def marker(name: str, value: str) -> Trait:
    """A read-only piece property (``mark;``); one per property so each can be read on its own."""
    return Trait("mark;" + seqenc.encode([name], ","), seqenc.encode([value], ","))


def use_prototype(name: str) -> Trait:
    return Trait("prototype;" + name, "")


def delete(menu_text: str = "Delete", key: str = DELETE_KEY) -> Trait:
    return _trait("delete;", [menu_text, key, ""])


def return_to_deck(menu_text: str, key: str, deck: str) -> Trait:
    """Return-to-Deck (``return;``): the menu command puts the piece back into the deck named ``deck``.

    Fields: command, keystroke, deck id (unused from version 2 on), select prompt, description, version 2,
    select-deck-at-run-time (false), deck name expression.
    """
    return _trait("return;", [menu_text, key, "", "Select a deck", "", 2, False, deck])


def global_hotkey(key: str, module_hotkey: str) -> Trait:
    """Global Hotkey (``globalhotkey;``): on ``key`` the piece presses ``module_hotkey`` for the whole
    module, as a toolbar shortcut does.  No menu text, so no menu item."""
    return _trait("globalhotkey;", ["", key, module_hotkey, ""])


def report(keys: Sequence[str], fmt: str) -> Trait:
    """Report Action: a chat line whenever one of ``keys`` is applied to the piece."""
    return _trait("report;", [seqenc.encode(keys, ","), fmt, "", "", "", False], "-1")


def layer(name: str, image: str, level_name: str, command: str, key: str, active: bool = False) -> Trait:
    """An activatable Layer (``emb2;``): when active it draws ``image`` over the piece.

    Used for the Disordered back: the back image covers the front exactly, and ``level_name`` (``+ (D)``)
    appends " (D)" to the piece name, which the reports and the engine's piece list show.
    State: ``1`` active (level 1 shown), ``-1`` inactive.
    """
    fields: list[str | int | bool] = [
        command, 128, "",            # 1-3 activate command, legacy modifiers and key
        "", 128, "",                 # 4-6 up
        "", 128, "",                 # 7-9 down
        "", "", 1,                   # 10 reset command, 11 reset key, 12 reset level
        False, 0, 0,                 # 13 draw underneath when selected, 14-15 offset
        seqenc.encode([image], ","), seqenc.encode([level_name], ","),   # 16 images, 17 level names
        True, name,                  # 18 loop levels, 19 layer name
        "", "", False, "", 1,        # 20-24 random key/text, follow property, property, first level value
        1, False, key,               # 25 version (keystroke format), 26 always active, 27 activate key
        "", "", "", "1.0",           # 28-31 increase/decrease keys, description, scale
        # 32-33 (only-property name/state) are 3.7-only: left out, 3.7 reads its defaults "" and true and
        # 3.6 re-encodes the trait unchanged (docs/vassal-module.md, "VASSAL 3.6 and 3.7")
    ]
    return _trait("emb2;", fields, "1" if active else "-1")


def rotator(name: str, facings: int, state: int, *, cw: tuple[str, str] | None = None,
            ccw: tuple[str, str] | None = None) -> Trait:
    """A FreeRotator with ``facings`` fixed angles; state ``i`` draws the piece turned i*360/n clockwise.

    ``cw``/``ccw`` are (menu text, keystroke); a rotator without them is a fixed, silent offset.
    """
    cw_text, cw_key = cw or ("", "")
    ccw_text, ccw_key = ccw or ("", "")
    fields: list[str | int] = [facings, cw_key, ccw_key, cw_text, ccw_text, "", "", name, ""]
    return _trait("rotate;", fields, str(state))
