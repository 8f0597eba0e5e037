"""Our units, leaders and markers as VASSAL pieces: prototypes, palette pieces and placed pieces.

Traits, outermost first (outer traits see a keystroke first; the Report is outermost so it reports the
result of the whole chain):

* prototype ``<Side> <kind>`` (shared):  Report, ``Side``, ``Kind``, and for units the facing
  rotator(s) (``facing.py``) -- outside the Disorder layer so the back turns with the front;
* the piece's own traits:  ``UnitId``, ``AG``, printed values (``Assault``, ``Cohesion``, ``MA``, ``DFE``,
  ``Fire``, ``EffRange``, ``MaxRange``, ``CavType``, and ``D_<name>`` for the back), then the Disorder
  layer (back image, menu "Disorder", Ctrl+F), then Delete, then the BasicPiece (front image, name).

The engine lists a piece's menu outermost trait first, so Delete -- the innermost trait with a command --
is the last item (after Rotate CW/CCW and Disorder), out of the way of the commands used every turn.
Activation markers (``cup.py``) have ``MarkerId``, ``AG``, ``IORating``, "Return to cup", Delete.

A palette piece says ``prototype;<name>``; a placed piece (set-up) carries the prototype expanded in place,
as the engine itself writes pieces into saves (vassal.md §3.3 UsePrototype).  Both come from the same
functions, so :func:`expand` of a palette piece equals the placed piece in its default state.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ..model import CounterSet, Face, Leader, Marker, Orientation, Unit
from ..render.counters import BackTreatment
from . import cup
from . import traits as t
from .facing import facing_traits
from .ids import gpid
from .traits import Piece, Trait

DISORDER_LAYER = "Disorder"   # exposes Disorder_Active (true when the back shows)
# What the back-layer's menu item and piece-name suffix say.  Musket & Pike backs are the Shaken side; the
# layer keeps its name (and so the Disorder_Active property the log readers use) in every ruleset.
BACK_LABELS: dict[str, tuple[str, str]] = {"disordered": ("Disorder", "+ (D)"), "shaken": ("Shaken", "+ (Shaken)")}
FLIP_LAYER = "Flipped"        # two-sided markers
# One unit per set-up says ``OpensPalette=true``: the module's start-up command sends it OPEN_PALETTE, and
# its Global Hotkey presses the palette's Alt+C, so the docked palette is open when a game starts
# (buildfile._palette says why the engine needs this).
PALETTE_OPENER = "OpensPalette"
UNIT_KINDS = ("infantry", "cavalry", "artillery")
REPORT_FORMAT = "$location$: $newPieceName$ $menuCommand$ *"
REPORT_KEYS = (t.CTRL_F, t.CTRL_CLOSE_BRACKET, t.CTRL_OPEN_BRACKET, t.DELETE_KEY, cup.RETURN_KEY)
FACE_PROPERTIES = (("assault", "Assault"), ("cohesion", "Cohesion"), ("ma", "MA"), ("dfe", "DFE"),
                   ("fire", "Fire"), ("eff_range", "EffRange"), ("max_range", "MaxRange"))


def image_name(key: str, face: str) -> str:
    """The module image of a face; ``key`` is a unit/leader/marker id (ids are kebab-case, path-safe)."""
    return f"{key}-{face}.png"


@dataclass(frozen=True)
class PieceSpec:
    """Everything the writer needs for one counter: how to draw it in the palette and on a map."""
    key: str                       # unit / leader / marker id
    name: str
    prototype: str                 # prototype name, e.g. "French infantry"
    palette_path: tuple[str, ...]  # palette folders, e.g. ("French", "I Corps (Davout)")
    own: tuple[Trait, ...]         # own traits, outermost first, BasicPiece last (default states)
    side: str | None
    kind: str
    has_back: bool
    hexes: int = 1                 # 2: a two-hex unit, whose images are padded about its set-up hex (twohex.py)
    unit: bool = False             # a combat unit (the palette opener, the facing rotator where it faces)
    facing: bool = False           # turns to face a vertex (facing.py)
    back_layer: str = DISORDER_LAYER   # the layer that shows the back (``<name>_Active``)

    @property
    def gpid(self) -> int:
        return gpid(self.key)

    def palette_piece(self) -> Piece:
        return Piece((t.use_prototype(self.prototype),) + self.own)


# --------------------------------------------------------------------------------------------- prototypes

def prototype_name(side: str | None, kind: str) -> str:
    return f"{side} {kind}" if side else kind.capitalize()


def prototype_traits(side: str | None, kind: str, orientation: Orientation,
                     facing_hour: int | None = None, *, unit: bool | None = None,
                     facing: bool | None = None) -> tuple[Trait, ...]:
    """The shared traits of a prototype (ending with the empty BasicPiece every prototype has).  ``unit``
    (default: ``kind`` is one of the series' unit kinds) adds the palette opener, ``facing`` (default:
    ``unit``) the facing rotator(s)."""
    unit = kind in UNIT_KINDS if unit is None else unit
    facing = unit if facing is None else facing
    shared: list[Trait] = [t.report(REPORT_KEYS, REPORT_FORMAT)]
    if side:
        shared.append(t.marker("Side", side))
    shared.append(t.marker("Kind", kind))
    if unit:
        shared += [t.marker(PALETTE_OPENER, ""), t.global_hotkey(t.OPEN_PALETTE, t.ALT_C)]
    if facing:
        shared.extend(facing_traits(orientation, facing_hour))
    return tuple(shared) + (t.PROTOTYPE_BASE,)


def spec_prototype(spec: "PieceSpec", orientation: Orientation, facing_hour: int | None = None) -> tuple[Trait, ...]:
    """The prototype traits of ``spec``'s prototype."""
    return prototype_traits(spec.side, spec.kind, orientation, facing_hour, unit=spec.unit, facing=spec.facing)


# --------------------------------------------------------------------------------------------- own traits

def _face_markers(face: Face, prefix: str) -> list[Trait]:
    out = []
    for attr, prop in FACE_PROPERTIES:
        value = getattr(face, attr)
        if value is not None:
            out.append(t.marker(prefix + prop, str(value)))
    return out


def flip_layer(back_side: str) -> str:
    """The layer (and property prefix) of a game's own back: "Reduced" -> ``Reduced``."""
    word = "".join(c if c.isalnum() else "_" for c in back_side.strip())
    return word[:1].upper() + word[1:]


def _field_markers(values: Mapping[str, object], prefix: str) -> list[Trait]:
    """The game-declared values of a face (attack, defence, ...) as properties named by their fields."""
    return [t.marker(prefix + name, _text(v)) for name, v in values.items() if v is not None]


def _text(value: object) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def unit_spec(unit: Unit, ag_name: str, back: BackTreatment = "disordered", *, back_side: str | None = None,
              facing: bool | None = None) -> PieceSpec:
    """A unit's piece.  Its back is the series look's (``back``: Disorder / Shaken, values ``D_<name>``) or,
    when the game file names its back (``back_side``: Reduced, Spent, ...), a layer of that name whose values are the
    unit's own back values, ``<Flip>_<field>`` beside the front's ``<field>``."""
    own: list[Trait] = [t.marker("UnitId", unit.id), t.marker("AG", unit.ag)]
    own += _face_markers(unit.front, "")
    own += _field_markers(unit.fields, "")
    if unit.cav_type:
        own.append(t.marker("CavType", unit.cav_type))
    layer = DISORDER_LAYER
    if unit.two_sided:
        if back_side:
            layer = flip_layer(back_side)
            if not unit.fields:
                own += _face_markers(unit.back, layer + "_")
            own += _field_markers({**unit.fields, **unit.back_fields}, layer + "_")
            command, suffix = back_side.strip(), f"+ ({back_side.strip()})"
        else:
            own += _face_markers(unit.back, "D_")
            own += _field_markers({**unit.fields, **unit.back_fields}, "D_")
            command, suffix = BACK_LABELS[back]
        own.append(t.layer(layer, image_name(unit.id, "back"), suffix, command, t.CTRL_F))
    own.append(t.delete())
    own.append(t.basic_piece(image_name(unit.id, "front"), unit.name, gpid=str(gpid(unit.id))))
    return PieceSpec(unit.id, unit.name, prototype_name(unit.side, unit.kind), (unit.side, ag_name),
                     tuple(own), unit.side, unit.kind, unit.two_sided, unit.size, unit=True,
                     facing=unit.kind in UNIT_KINDS if facing is None else facing, back_layer=layer)


def leader_spec(leader: Leader) -> PieceSpec:
    own: list[Trait] = [t.marker("UnitId", leader.id)]
    for attr, prop in (("orders_rating", "OrdersRating"), ("delay_rating", "DelayRating"), ("drm", "DRM"),
                       ("command_range", "CommandRange"), ("ma", "MA")):
        value = getattr(leader, attr)
        own.append(t.marker(prop, "" if value is None else str(value)))
    own.append(t.delete())
    own.append(t.basic_piece(image_name(leader.id, "front"), leader.name, gpid=str(gpid(leader.id))))
    return PieceSpec(leader.id, leader.name, prototype_name(leader.side, "leader"), (leader.side, "Leaders"),
                     tuple(own), leader.side, "leader", False)


def marker_spec(m: Marker, *, returns_to_cup: bool = False) -> PieceSpec:
    own: list[Trait] = [t.marker("MarkerId", m.id)]
    if m.back_text is not None:
        own.append(t.layer(FLIP_LAYER, image_name(m.id, "back"), f"+ ({m.back_text})", "Flip", t.CTRL_F))
    if returns_to_cup:
        own.append(t.return_to_deck(cup.RETURN_COMMAND, cup.RETURN_KEY, cup.CUP))
    own.append(t.delete())
    own.append(t.basic_piece(image_name(m.id, "front"), m.name, gpid=str(gpid(m.id))))
    folder = ("Markers", "Activation markers") if returns_to_cup else ("Markers",)
    return PieceSpec(m.id, m.name, prototype_name(m.side, "marker"), folder, tuple(own), m.side,
                     "marker", m.back_text is not None)


def am_spec(am: cup.ActivationMarker) -> PieceSpec:
    """An activation marker: the group it activates and its IO rating as properties, "Return to cup"."""
    m = am.marker
    own: list[Trait] = [t.marker("MarkerId", m.id), t.marker("AG", am.ag),
                        t.marker("IORating", "" if am.io_rating is None else str(am.io_rating)),
                        t.return_to_deck(cup.RETURN_COMMAND, cup.RETURN_KEY, cup.CUP), t.delete(),
                        t.basic_piece(image_name(m.id, "front"), m.name, gpid=str(gpid(m.id)))]
    return PieceSpec(m.id, m.name, prototype_name(m.side, "marker"), ("Markers", "Activation markers"),
                     tuple(own), m.side, "marker", False)


def piece_specs(counters: CounterSet, back: BackTreatment = "disordered", *,
                ams: Sequence[cup.ActivationMarker] = (), special_ams: frozenset[str] = frozenset(),
                back_side: str | None = None, facing: Callable[[str], bool] | None = None) -> list[PieceSpec]:
    """Every counter of ``counters`` in definition order: units, leaders, markers, then the activation
    markers ``ams``; markers whose id is in ``special_ams`` get "Return to cup".  ``back_side`` is what the game
    calls a unit's back, ``facing(kind)`` whether units of a kind face a vertex (default: the series')."""
    ag_names = {ag.id: ag.name for ag in counters.activation_groups}
    specs = [unit_spec(u, ag_names.get(u.ag, u.ag), back, back_side=back_side, facing=facing(u.kind) if facing else None)
             for u in counters.units]
    specs += [leader_spec(ldr) for ldr in counters.leaders]
    specs += [marker_spec(m, returns_to_cup=m.id in special_ams) for m in counters.markers]
    specs += [am_spec(am) for am in ams]
    return specs


# --------------------------------------------------------------------------------------------- placing

def placed_piece(spec: PieceSpec, orientation: Orientation, map_id: str, x: int, y: int, *,
                 facing_hour: int | None = None, disordered: bool = False, opens_palette: bool = False) -> Piece:
    """The piece as a set-up puts it on a map: prototype expanded, facing and Disorder layer set."""
    shared = spec_prototype(spec, orientation, facing_hour)[:-1]
    if opens_palette:
        shared = tuple(Trait(tr.type, "true") if tr.type == f"mark;{PALETTE_OPENER}" else tr for tr in shared)
    own = list(spec.own)
    if disordered:
        if not spec.has_back:
            raise ValueError(f"{spec.key}: disordered in the set-up but its counter has no back")
        i = next(i for i, tr in enumerate(own) if tr.type.startswith("emb2;"))
        own[i] = Trait(own[i].type, "1")       # layer level 1 active: the back is drawn
    own[-1] = t.placed(own[-1], map_id, x, y)
    return Piece(shared + tuple(own))


def expand(piece: Piece, prototypes: Mapping[str, Sequence[Trait]]) -> Piece:
    """Replace every ``prototype;name`` trait by that prototype's traits, as the engine's PieceCloner does."""
    out: list[Trait] = []
    for trait in piece.traits:
        if trait.type.startswith("prototype;"):
            out.extend(expand(Piece(tuple(prototypes[trait.type[len("prototype;"):]])), prototypes).traits[:-1])
        else:
            out.append(trait)
    return Piece(tuple(out))
