"""Combat outcomes as far as this excerpt rules them.

Fire (10.x), melee (11.x) and morale (12.x) are missing chapters (G-M6..G-M8): their results arrive as
events that name them, and these handlers apply the formation rules to them:

* ``formation_hit`` (unit, ``source``: movement | fire | bombardment | melee | advance) - 6.3.1, 6.3.2e, 6.3.3;
* ``attacked`` (unit, ``by``: artillery | musket | pistol | melee) - 6.3.4: a column becomes Broken and takes a
  morale check before the result (awaited);
* ``morale_broken`` (unit) - 12.4.3 with 6.3.2e: no formation, no facing;
* ``assaults`` (side, [{attackers, target}]) - melee declaration: who may start a melee (6.3.2a, 6.3.4) and
  from which aspect each attacker strikes each defender (Hedgehog: always front).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.engine.ruling import Awaiting, Error, Ruling, illegal, legal, result

from .activation import acted, actor_error
from .facing import footprint, zones
from .formations import formation_hit as hit_outcome
from .state import COLUMN, HEDGEHOG, MPState


def formation_hit(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    uid, source = event["unit"], event["source"]
    if uid not in state.static.profiles:
        return illegal("formation_hit", [Error("6.3.1", "not_a_unit", f"{uid} is a leader")]), state
    u = state.unit(uid)
    if u.formation == COLUMN and source != "movement":
        # 6.3.4: combat against a column breaks it whatever the hit; the attack names the weapon.
        by = {"bombardment": "artillery", "fire": "musket"}.get(source, "melee")
        return attacked(state, {"unit": uid, "by": by}, type_="formation_hit")
    out = hit_outcome(u.formation, source)
    changes: dict[str, Any] = {"formation": out.formation}
    if out.effect == "loss_hit":
        changes["loss_hits"] = u.loss_hits + 1
    return (legal("formation_hit", [out.rule], results=[result(out.effect, out.rule, uid, source=source)]),
            state.with_unit(uid, **changes))


def attacked(state: MPState, event: Mapping[str, Any], type_: str = "attacked") -> tuple[Ruling, MPState]:
    """6.3.4: a column attacked by artillery, musket or pistol fire or melee loses the marker, is Broken at
    once and takes a morale check (12.x) before the combat result is determined."""
    uid = event["unit"]
    if uid not in state.static.profiles:
        return illegal(type_, [Error("6.3.4", "not_a_unit", f"{uid} is a leader")]), state
    u, p = state.unit(uid), state.profile(uid)
    if u.formation != COLUMN:
        return legal(type_, ["6.3.4"], results=[result("no_column_effect", "6.3.4", uid)]), state
    new = state.with_unit(uid, formation="broken")
    return (legal(type_, ["6.3.4"], results=[result("broken", "6.3.4", uid, cause=event["by"])],
                  awaiting=[Awaiting(type="morale_check", side=p.side, unit=uid, rule="6.3.4")]), new)


def morale_broken(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    """12.4.3 / 6.3.2e: a unit whose morale breaks has no formation (a Hedgehog loses its marker) and no facing."""
    uid = event["unit"]
    if uid not in state.static.profiles or not state.profile(uid).has_formation:
        return illegal("morale_broken", [Error("12.4.3", "no_morale_state",
                                               "only combat units with a formation break")]), state
    u = state.unit(uid)
    res = [result("morale_broken", "12.4.3", uid, formation_from=u.formation)]
    if u.formation == HEDGEHOG:
        res.append(result("marker_removed", "6.3.2", uid, marker=HEDGEHOG))
    return (legal("morale_broken", ["12.4.3"] + (["6.3.2"] if u.formation == HEDGEHOG else []), results=res),
            # The counter keeps its orientation (a two-hex unit still covers both hexes); has_facing() is
            # False for a morale-broken unit, so it has no front, flank or rear.
            state.with_unit(uid, morale_broken=True, formation=None, pre_hedgehog_facing=None))


def assaults(state: MPState, event: Mapping[str, Any]) -> tuple[Ruling, MPState]:
    st = state.static
    results = []
    for i, a in enumerate(event["assaults"]):
        target = a["target"]
        defenders = [uid for uid, u in state.units.items()
                     if u.on_map and target in footprint(st.grid, state.profile(uid), u)]
        for uid in a["attackers"]:
            bad = actor_error(state, {**event, "unit": uid}, "assaults")
            if bad:
                return bad, state
            u, p = state.unit(uid), state.profile(uid)
            if u.formation in (HEDGEHOG, COLUMN) or u.morale_broken or not p.has_formation:
                rule = {HEDGEHOG: "6.3.2", COLUMN: "6.3.4"}.get(u.formation, "6.3.1")
                return illegal("assaults", [Error(rule, "may_not_start_melee",
                                                  f"assaults[{i}]: {uid} ({u.formation or 'no formation'}) "
                                                  "may not start a melee")]), state
            mine = footprint(st.grid, p, u)
            if not any(st.grid.distance(h, target) == 1 for h in mine):
                return illegal("assaults", [Error("11.x", "not_adjacent",
                                                  f"assaults[{i}]: {uid} is not adjacent to {target}")]), state
            for did in defenders:
                if state.profile(did).side == p.side:
                    return illegal("assaults", [Error("11.x", "own_unit",
                                                      f"assaults[{i}]: {target} holds a friendly unit")]), state
                z = zones(st.grid, state.profile(did), state.unit(did))
                aspect = None if z is None else next((z.aspect(h) for h in mine if z.aspect(h)), None)
                results.append(result("attack_aspect", "6.3.2" if state.unit(did).formation == HEDGEHOG else "6.1",
                                      did, attacker=uid, aspect=aspect or "none"))
        if not defenders:
            return illegal("assaults", [Error("11.x", "empty_target", f"assaults[{i}]: no enemy unit in {target}")]), state
    awaiting = [Awaiting(type="melee", side=None, rule="11.x")]
    new = acted(state)
    rules = ["6.1"]
    for a in event["assaults"]:
        for did, du in state.units.items():
            if du.formation == COLUMN and du.on_map and a["target"] in footprint(st.grid, state.profile(did), du):
                r, new = attacked(new, {"unit": did, "by": "melee"})
                results += r.results
                awaiting = list(r.awaiting) + awaiting
                rules.append("6.3.4")
    return legal("assaults", rules, results=results, awaiting=awaiting), new
