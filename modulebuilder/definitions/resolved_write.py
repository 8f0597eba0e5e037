"""Writing the resolved scenario (DESIGN §4): one document with everything inline, from a loaded
:class:`Scenario`.  :mod:`.resolved_read` reads it back: ``load_resolved(resolve(s)) == s``.
"""
from __future__ import annotations

import json
from typing import Any

from ..model import Face, GameDef, Leader, MapDef, Placement, Scenario, Unit, thaw
from .counters import FACE_FIELDS
from .problems import DefinitionError, Problem, raise_if_any
from .rulesets import ContributionError, contribution, known_rulesets
from .schemas import schema_problems
from .yamlpos import Located


def resolve(scenario: Scenario) -> dict[str, Any]:
    """The resolved document of ``scenario`` (plain JSON-able values), checked against its schema.  The
    resolved form is what the referee reads, so a scenario that names no ruleset has none (DefinitionError)."""
    if not scenario.ruleset:
        file, _, line = scenario.source.rpartition(":")
        raise DefinitionError([Problem(file or scenario.source, int(line) if line.isdigit() else 1, 1, "ruleset",
                                       "the scenario names no ruleset, so the referee has nothing to rule with; "
                                       "the resolved scenario is for the referee (name a ruleset to write one)")])
    where = {p.unit: p for p in scenario.setup}
    # A ruleset's own fields are written only where its contribution declares them, so a resolved classic
    # game carries no io_rating or brigade; a ruleset without a contribution gets them all, as always.
    keep = _declared(scenario.ruleset)
    doc: dict[str, Any] = {
        "id": scenario.id,
        "name": scenario.name,
        **({"description": scenario.description} if scenario.description else {}),
        **({"ruleset": scenario.ruleset} if scenario.ruleset else {}),
        **({"game": _game(scenario.game)} if scenario.game != GameDef() else {}),
        "map": _map(scenario.map),
        "activation_groups": [keep("activation_group", _activation_group(g))
                              for g in scenario.counters.activation_groups],
        "units": [{**keep("unit", _unit(u)), **_placement(where.get(u.id), unit=True)} for u in scenario.counters.units],
        "leaders": [{**keep("leader", _leader(x)), **_placement(where.get(x.id), unit=False)}
                    for x in scenario.counters.leaders],
        "markers": [_marker(m) for m in scenario.counters.markers],
        "sides": {s.name: {"cinc": s.cinc, **({"options": thaw(s.options)} if s.options else {})}
                  for s in scenario.sides},
        "turns": _turns(scenario),
        "special_rules": list(scenario.special_rules),
        "reinforcements": [_drop_none({"units": list(r.units), "entry": list(r.entry), "turn": r.turn,
                                       "condition": r.condition, "ag": r.ag}) for r in scenario.reinforcements],
    }
    for key in ("options", "victory", "tables", "start"):
        value = getattr(scenario, key)
        if value:
            doc[key] = thaw(value)
    located = Located("<resolved>", json.loads(json.dumps(doc)))
    factors = tuple(f.id for f in scenario.game.factors)
    raise_if_any(schema_problems(located, "resolved-scenario", scenario.ruleset if scenario.ruleset in known_rulesets()
                                 else None, factors))   # a bug here, never the author's fault
    return doc


# Fields the writer knows that belong to a ruleset (the rest of what it writes is shared by every game).
RULESET_FIELDS = {
    "activation_group": frozenset({"io_rating", "markers"}),
    "unit": frozenset({"brigade", "cav_type", "disordered", *FACE_FIELDS}),
    "leader": frozenset({"orders_rating", "delay_rating", "drm", "command_range", "ma"}),
}


def _declared(ruleset: str) -> Any:
    try:
        found = contribution(ruleset)
    except ContributionError:
        found = None
    defs = (found.schema.get("$defs") or {}) if found is not None else None

    def keep(point: str, fields: dict[str, Any]) -> dict[str, Any]:
        if defs is None:
            return fields
        ext = defs.get(point)
        declared = set(ext.get("properties") or {}) if isinstance(ext, dict) else set()
        return {k: v for k, v in fields.items() if k not in RULESET_FIELDS[point] or k in declared}
    return keep


def _game(g: GameDef) -> dict[str, Any]:
    return _drop_none({
        "id": g.id or None, "title": g.title or None, "version": g.version,
        "sides": {name: _drop_none({"colour": s.colour, "text_colour": s.text_colour})
                  for name, s in g.sides.items()} or None,
        "unit_types": [_drop_none({"id": t.id, "name": t.name or None, "symbol": t.symbol})
                       for t in g.unit_types] or None,
        "factors": [_drop_none({"id": f.id, "name": f.name or None}) for f in g.factors] or None,
        "back_side": g.back_side,
        "template": g.template, "dice": g.dice,
        "phases": ({"per_side": list(g.phases)} if g.per_side else list(g.phases)) if g.phases else None,
        "cup": g.cup, "facing": g.facing, "about": g.about, "art": g.art,
    })


def _drop_none(d: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in d.items() if v is not None}


def _map(m: MapDef) -> dict[str, Any]:
    g = m.grid
    return _drop_none({
        "id": m.id,
        "title": m.title or None,
        "grid": {"orientation": g.orientation, "shifted": g.shifted, "first_column": g.first_column,
                 "first_row": g.first_row, "columns": g.columns, "rows": g.rows, "digits": g.digits},
        "terrain": {"default": m.default_terrain, "hexes": dict(m.terrain)},
        "hexsides": [{"hexes": list(s.hexes), "feature": s.feature} for s in m.hexsides],
        # The short form (a list of hexes) for plain roads, as in DESIGN §4; the mapping when it says more.
        "roads": [list(r.hexes) if (r.kind, r.name) == ("road", "") else
                  {"hexes": list(r.hexes), "kind": r.kind, "name": r.name} for r in m.roads],
        "elevation": dict(m.elevation),
        "names": dict(m.names),
        "markers": [{"type": x.type, "hex": x.hexes[0]} if len(x.hexes) == 1 else
                    {"type": x.type, "hexes": list(x.hexes)} for x in m.markers],
        "boxes": dict(m.boxes),
        "style": {"hex_size": m.style.hex_size, "margin": m.style.margin, "colours": dict(m.style.colours)},
    })


def _activation_group(g: Any) -> dict[str, Any]:
    return {"id": g.id, "name": g.name, "side": g.side, "colour": g.colour, "text_colour": g.text_colour,
            "label": g.label, "io_rating": g.io_rating, "markers": g.markers, "army": g.army,
            "flags": sorted(g.flags)}


def _face(face: Face) -> dict[str, int]:
    return {k: getattr(face, k) for k in FACE_FIELDS if getattr(face, k) is not None}


def _unit(u: Unit) -> dict[str, Any]:
    out: dict[str, Any] = {"id": u.id, "name": u.name, "kind": u.kind, "side": u.side,
                           **({"ag": u.ag} if u.ag else {}), **_face(u.front)}
    if u.short_name:
        out["short_name"] = u.short_name
    if u.cav_type is not None:
        out["cav_type"] = u.cav_type
    if u.corps:
        out["corps"] = u.corps
    out["brigade"] = u.brigade
    if u.back is not None:
        front, back = _face(u.front), _face(u.back)
        changed = {k: v for k, v in back.items() if front.get(k) != v}
        if changed:
            out["disordered"] = changed
    if u.flags:
        out["flags"] = sorted(u.flags)
    if u.size != 1:
        out["size"] = u.size
    if u.count != 1:
        out["count"] = u.count
    if u.echelon is not None:
        out["echelon"] = u.echelon
    out.update(thaw(u.fields))
    if u.back_fields:
        out["back"] = thaw(u.back_fields)
    return out


def _leader(x: Leader) -> dict[str, Any]:
    out = {"id": x.id, "name": x.name, "side": x.side, "orders_rating": x.orders_rating,
           "delay_rating": x.delay_rating, "drm": x.drm, "command_range": x.command_range, "ma": x.ma}
    if x.short_name:
        out["short_name"] = x.short_name
    if x.flags:
        out["flags"] = sorted(x.flags)
    if x.count != 1:
        out["count"] = x.count
    out.update(thaw(x.fields))
    return out


def _marker(m: Any) -> dict[str, Any]:
    return _drop_none({"id": m.id, "name": m.name, "text": m.text, "back_text": m.back_text, "count": m.count,
                       "colour": m.colour, "text_colour": m.text_colour, "side": m.side})


def _placement(p: Placement | None, *, unit: bool) -> dict[str, Any]:
    if p is None:                      # arrives as a reinforcement
        return {"box": "reinforcement"} if unit else {}
    if p.box is not None:
        return {"box": p.box, **({"status": p.status} if p.status != "good" else {})}
    out: dict[str, Any] = {"hex": p.hex}
    if unit:
        if p.facing is not None:            # wagons and limbered guns face nothing (M&P [6.1])
            out["facing"] = p.facing
        out["status"] = p.status
        if p.formation is not None:
            out["formation"] = p.formation
    return out


def _turns(s: Scenario) -> int | dict[str, Any]:
    t = s.turns
    if t.first == 1 and t.start is None and t.minutes is None:
        return t.last
    return _drop_none({"first": t.first, "last": t.last, "start": t.start, "minutes": t.minutes})
