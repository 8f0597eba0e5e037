"""The parts of a :class:`~modulebuilder.model.Scenario` that both notations (authored files, resolved
document) write the same way: sides, turns, which units are in play, and the scenario itself."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..model import (CounterSet, GameDef, MapDef, Placement, Reinforcement, Scenario, SideDef, TurnTrack,
                     frozen_mapping)
from .counters import CounterEntries, build_activation_group, build_leader, build_marker, build_unit
from .entries import Entry
from .rulesets import DEFAULT_BACK_SIDE, back_side


def turn_track(value: Any) -> TurnTrack:
    """``12`` -> turns 1..12; ``{first, last, start, minutes}`` as written."""
    if isinstance(value, int):
        return TurnTrack(first=1, last=value)
    return TurnTrack(first=value["first"], last=value["last"], start=value.get("start"),
                     minutes=value.get("minutes"))


def side_defs(sides: Mapping[str, Any]) -> tuple[SideDef, ...]:
    return tuple(SideDef(name=name, cinc=(d or {}).get("cinc"), options=frozen_mapping((d or {}).get("options")))
                 for name, d in sides.items())


def in_play(found: CounterEntries, order: Sequence[str], factors: Sequence[str] = ()) -> CounterSet:
    """The units and leaders a scenario uses, in the order it places them, with all groups and markers.

    Only the pieces named by the set-up or the reinforcements are in the scenario (docs/definitions.md);
    placement order keeps the resolved form, which lists units where they stand, round-trippable.
    """
    pieces: dict[str, Entry] = found.pieces()
    chosen = [pieces[uid] for uid in dict.fromkeys(order) if uid in pieces]
    return CounterSet(
        activation_groups=tuple(build_activation_group(e) for e in found.activation_groups),
        units=tuple(build_unit(e, factors) for e in chosen if e.section == "units"),
        leaders=tuple(build_leader(e) for e in chosen if e.section == "leaders"),
        markers=tuple(build_marker(e) for e in found.markers),
    )


def scenario(data: Mapping[str, Any], *, map_def: MapDef, counters: CounterSet, setup: tuple[Placement, ...],
             reinforcements: tuple[Reinforcement, ...], tables: Mapping[str, Any], source: str,
             game: GameDef = GameDef()) -> Scenario:
    sid = data.get("id", "inline")
    return Scenario(
        id=sid,
        name=data.get("name", sid),
        ruleset=data.get("ruleset") or "",
        map=map_def,
        counters=counters,
        sides=side_defs(data.get("sides") or _sides_of(counters)),
        turns=turn_track(data.get("turns", 1)),
        setup=setup,
        reinforcements=reinforcements,
        special_rules=tuple(data.get("special_rules", ())),
        options=frozen_mapping(data.get("options")),
        victory=frozen_mapping(data.get("victory")),
        tables=frozen_mapping(tables),
        start=frozen_mapping(data.get("start")),
        description=data.get("description", ""),
        source=source,
        game=game,
        back_side=game.back_side or back_side(data.get("ruleset")) or DEFAULT_BACK_SIDE,
    )


def _sides_of(counters: CounterSet) -> dict[str, Any]:
    """Sides in order of first appearance, for a resolved document that leaves ``sides`` out."""
    names = [x.side for x in (*counters.units, *counters.leaders, *counters.activation_groups)]
    return {name: {} for name in dict.fromkeys(names)}
