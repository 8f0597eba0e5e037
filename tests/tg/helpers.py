"""Small hand-made Triumph & Glory positions for tests: an 8x8 map (pointy or flat), a few counters.

    b = board(at(inf("a1"), "0404"), at(inf("r1", side="Russian"), "0406", facing=6),
              terrain={"0505": "woods"}, special_rules=["BOR-STACK"])

Counters default to the French side, AG ``i-corps``; pointy maps face 12 by default, flat maps 1.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from modulebuilder.model import (ActivationGroup, CounterSet, Face, Grid, Hexside, Leader, MapDef, MapMarker,
                                 Placement, Road, Scenario, SideDef, TurnTrack, Unit, frozen_mapping)
from referee.rulesets.triumph_and_glory.board import Board

FR, RU = "French", "Russian"


def inf(uid: str, side: str = FR, ag: str = "i-corps", *, name: str | None = None, ma: int = 4,
        cohesion: int = 5, assault: int = 4, dfe: int = 1, brigade: str | None = None,
        flags: Iterable[str] = (), back_ma: int | None = None) -> Unit:
    return Unit(id=uid, name=name or uid, kind="infantry", side=side, ag=ag,
                front=Face(assault=assault, cohesion=cohesion, ma=ma, dfe=dfe),
                back=Face(assault=max(assault - 1, 1), cohesion=cohesion - 1, ma=back_ma or ma, dfe=dfe),
                brigade=brigade, flags=frozenset(flags))


def cav(uid: str, side: str = FR, ag: str = "i-corps", *, name: str | None = None, ma: int = 8,
        cohesion: int = 6, assault: int = 5, cav_type: str = "L", brigade: str | None = None,
        flags: Iterable[str] = ()) -> Unit:
    return Unit(id=uid, name=name or uid, kind="cavalry", side=side, ag=ag,
                front=Face(assault=assault, cohesion=cohesion, ma=ma),
                back=Face(assault=max(assault - 1, 1), cohesion=cohesion - 1, ma=ma),
                cav_type=cav_type, brigade=brigade, flags=frozenset(flags))  # type: ignore[arg-type]


def art(uid: str, side: str = FR, ag: str = "i-corps", *, name: str | None = None, ma: int = 4,
        fire: int = 3, cohesion: int = 5, eff_range: int = 3, max_range: int = 5,
        flags: Iterable[str] = ()) -> Unit:
    return Unit(id=uid, name=name or uid, kind="artillery", side=side, ag=ag,
                front=Face(cohesion=cohesion, ma=ma, fire=fire, eff_range=eff_range, max_range=max_range),
                back=Face(cohesion=cohesion - 1, ma=ma, fire=fire, eff_range=eff_range, max_range=max_range),
                flags=frozenset(flags))


def leader(uid: str, side: str = FR, *, ma: int | None = 8, command_range: int = 3, drm: int = -2) -> Leader:
    return Leader(id=uid, name=uid, side=side, orders_rating=3, delay_rating=None, drm=drm,
                  command_range=command_range, ma=ma)


@dataclass(frozen=True)
class At:
    defn: Unit | Leader
    hex: str | None
    facing: int | None = None
    status: str = "good"
    box: str | None = None


def at(defn: Unit | Leader, hex_id: str | None, facing: int | None = None, status: str = "good",
       box: str | None = None) -> At:
    return At(defn, hex_id, facing, status, box)


def scenario(*placed: At, orientation: str = "pointy", shifted: str = "even", columns: int = 8, rows: int = 8,
             terrain: Mapping[str, str] | None = None, hexsides: Iterable[tuple[str, str, str]] = (),
             roads: Iterable[Iterable[str]] = (), paths: Iterable[Iterable[str]] = (),
             elevation: Mapping[str, int] | None = None, markers: Iterable[tuple[str, tuple[str, ...]]] = (),
             special_rules: Iterable[str] = (), options: Mapping[str, Any] | None = None,
             tables: Mapping[str, Any] | None = None, ags: Iterable[ActivationGroup] = ()) -> Scenario:
    """A resolved scenario on a ``columns`` x ``rows`` map numbered from 0101; hexsides are (a, b, feature)."""
    default_facing = 12 if orientation == "pointy" else 1
    units = tuple(p.defn for p in placed if isinstance(p.defn, Unit))
    leaders = tuple(p.defn for p in placed if isinstance(p.defn, Leader))
    ag_ids = {u.ag for u in units}
    ags = tuple(ags) or tuple(ActivationGroup(id=a, name=a, side=next(u.side for u in units if u.ag == a),
                                              colour="#888888", io_rating=5) for a in sorted(ag_ids))
    mapdef = MapDef(
        id="test", title="test",
        grid=Grid(orientation=orientation, shifted=shifted, first_column=1, first_row=1,  # type: ignore[arg-type]
                  columns=columns, rows=rows),
        default_terrain="clear", terrain=frozen_mapping(terrain),
        hexsides=tuple(Hexside(hexes=(a, b), feature=f) for a, b, f in hexsides),
        roads=tuple(Road(hexes=tuple(r)) for r in roads) + tuple(Road(hexes=tuple(r), kind="path") for r in paths),
        elevation=frozen_mapping(elevation), markers=tuple(MapMarker(type=t, hexes=h) for t, h in markers))
    setup = tuple(Placement(unit=p.defn.id, hex=p.hex, box=p.box,  # type: ignore[arg-type]
                            facing=(p.facing or default_facing) if p.hex else None, status=p.status)  # type: ignore[arg-type]
                  for p in placed)
    return Scenario(id="test", name="test", ruleset="triumph-and-glory", map=mapdef,
                    counters=CounterSet(activation_groups=ags, units=units, leaders=leaders),
                    sides=(SideDef(FR), SideDef(RU)), turns=TurnTrack(1, 12), setup=setup,
                    special_rules=tuple(special_rules), options=frozen_mapping(options),
                    tables=frozen_mapping(tables))


def board(*placed: At, **kw: Any) -> Board:
    return Board.from_scenario(scenario(*placed, **kw))


def changed(b: Board, uid: str, kind: str, hex_: str | None = None, facing: int | None = None) -> Board:
    """``b`` after one change of the kind the listing's property tests draw (``place`` into an empty hex,
    ``facing``, ``status`` good/Disordered, ``square``, ``fired``, ``remove``, ``restack`` the unit's hex);
    ``b`` itself when the change does not apply (an occupied hex, a unit off the map)."""
    u = b.units[uid]
    on_map = u.hex is not None
    if kind == "place" and not b.stacks.get(hex_):
        return b.move(uid, hex_)
    if kind == "facing":
        return b.update(uid, facing=facing)
    if kind == "status" and on_map:
        return b.update(uid, status="good" if u.disordered else "disordered")
    if kind == "square" and on_map:
        return b.update(uid, square=not u.square)
    if kind == "fired":
        return b.update(uid, fired=not u.fired)
    if kind == "remove" and on_map:
        return b.remove(uid, "eliminated")
    if kind == "restack" and len(b.stacks.get(u.hex, ())) > 1:
        return b.restack(u.hex, reversed(b.stacks[u.hex]))
    return b
