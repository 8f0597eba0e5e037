"""Combat as far as this excerpt rules it: melee declarations, and the outcomes of the missing chapters.

Fire (10.x), melee (11.x) and morale (12.x) are missing chapters (G-M6..G-M8).  Their declarations are
accepted and ruled as far as the excerpt goes, with the missing resolution listed as awaited (``fire`` in
``firing``; ``assaults`` and ``melee`` here); their results arrive as events that name them, and these verbs
apply the formation rules to them:

* ``formation_hit`` (unit, ``source``: movement | fire | bombardment | melee | advance) - 6.3.1, 6.3.2e, 6.3.3;
* ``attacked`` (unit, ``by``: artillery | musket | pistol | melee) - 6.3.4: a column becomes Broken and takes a
  morale check before the result (awaited);
* ``morale_broken`` (unit) - 12.4.3 with 6.3.2e: no formation, no facing;
* ``assaults`` (side, [{attackers, target}]) and ``melee`` (side, attackers, target: one of them) - melee
  declaration: who may start a melee (6.3.2a, 6.3.4) and from which aspect each attacker strikes each
  defender (Hedgehog: always front).

The outcome verbs are allowed in any step and by either side: they report what the missing rules decided.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from referee.engine.ruling import Awaiting, Result, Ruling, legal, result
from referee.engine.verbs import refuse

from .activation import acted, require_actor
from .facing import footprint, zones
from .formations import formation_hit as hit_outcome
from .state import COLUMN, HEDGEHOG, MPState
from .verbs import ACTIVATION, VERBS


@VERBS.verb("formation_hit", rules=("6.3.1",), refs={"unit": "unit"}, actor=False)
def formation_hit(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    uid, source = event["unit"], event["source"]
    if uid not in state.static.profiles:
        refuse("6.3.1", "not_a_unit", f"{uid} is a leader")
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


@VERBS.verb("attacked", rules=("6.3.4",), refs={"unit": "unit"}, actor=False)
def attacked(state: MPState, event: Mapping[str, Any], dice: Any = None,
             type_: str = "attacked") -> tuple[Ruling, MPState]:
    """6.3.4: a column attacked by artillery, musket or pistol fire or melee loses the marker, is Broken at
    once and takes a morale check (12.x) before the combat result is determined."""
    uid = event["unit"]
    if uid not in state.static.profiles:
        refuse("6.3.4", "not_a_unit", f"{uid} is a leader")
    u, p = state.unit(uid), state.profile(uid)
    if u.formation != COLUMN:
        return legal(type_, ["6.3.4"], results=[result("no_column_effect", "6.3.4", uid)]), state
    new = state.with_unit(uid, formation="broken")
    return (legal(type_, ["6.3.4"], results=[result("broken", "6.3.4", uid, cause=event["by"])],
                  awaiting=[Awaiting(type="morale_check", side=p.side, unit=uid, rule="6.3.4")]), new)


@VERBS.verb("morale_broken", rules=("12.4.3",), refs={"unit": "unit"}, actor=False)
def morale_broken(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    """12.4.3 / 6.3.2e: a unit whose morale breaks has no formation (a Hedgehog loses its marker) and no facing."""
    uid = event["unit"]
    if uid not in state.static.profiles or not state.profile(uid).has_formation:
        refuse("12.4.3", "no_morale_state", "only combat units with a formation break")
    u = state.unit(uid)
    res = [result("morale_broken", "12.4.3", uid, formation_from=u.formation)]
    if u.formation == HEDGEHOG:
        res.append(result("marker_removed", "6.3.2", uid, marker=HEDGEHOG))
    return (legal("morale_broken", ["12.4.3"] + (["6.3.2"] if u.formation == HEDGEHOG else []), results=res),
            # The counter keeps its orientation (a two-hex unit still covers both hexes); has_facing() is
            # False for a morale-broken unit, so it has no front, flank or rear.
            state.with_unit(uid, morale_broken=True, formation=None, pre_hedgehog_facing=None))


def occupants(state: MPState, hex_: str) -> list[str]:
    st = state.static
    return [uid for uid, u in state.units.items() if u.on_map and hex_ in footprint(st.grid, state.profile(uid), u)]


def columns_attacked(state: MPState, targets: Sequence[str], by: str) -> tuple[MPState, list[Result],
                                                                               list[Awaiting], bool]:
    """6.3.4 before any result: every Column in a target hex is Broken and owes a morale check."""
    results: list[Result] = []
    awaiting: list[Awaiting] = []
    hit = False
    for target in targets:
        for did in occupants(state, target):
            if state.unit(did).formation == COLUMN:
                r, state = attacked(state, {"unit": did, "by": by})
                results += r.results
                awaiting += r.awaiting
                hit = True
    return state, results, awaiting, hit


def declare_melee(state: MPState, attackers: Sequence[str], target: str, where: str) -> list[Result]:
    """One melee declared: who may start it (6.3.2a, 6.3.4, 6.3.1) and each attacker's aspect (6.1, 6.3.2)."""
    st = state.static
    defenders = occupants(state, target)
    results = []
    for uid in attackers:
        require_actor(state, uid)
        u, p = state.unit(uid), state.profile(uid)
        if u.formation in (HEDGEHOG, COLUMN) or u.morale_broken or not p.has_formation:
            rule = {HEDGEHOG: "6.3.2", COLUMN: "6.3.4"}.get(u.formation, "6.3.1")
            refuse(rule, "may_not_start_melee", f"{where}{uid} ({u.formation or 'no formation'}) may not start a melee")
        mine = footprint(st.grid, p, u)
        if not any(st.grid.distance(h, target) == 1 for h in mine):
            refuse("11.x", "not_adjacent", f"{where}{uid} is not adjacent to {target}")
        for did in defenders:
            if state.profile(did).side == p.side:
                refuse("11.x", "own_unit", f"{where}{target} holds a friendly unit")
            z = zones(st.grid, state.profile(did), state.unit(did))
            aspect = None if z is None else next((z.aspect(h) for h in mine if z.aspect(h)), None)
            results.append(result("attack_aspect", "6.3.2" if state.unit(did).formation == HEDGEHOG else "6.1",
                                  did, attacker=uid, aspect=aspect or "none"))
    if not defenders:
        refuse("11.x", "empty_target", f"{where}no enemy unit in {target}")
    return results


@VERBS.verb("assaults", steps=(ACTIVATION,), rules=("6.1",),
            refs={"assaults": {"attackers": "units", "target": "hex"}})
def assaults(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    results = []
    for i, a in enumerate(event["assaults"]):
        results += declare_melee(state, a["attackers"], a["target"], f"assaults[{i}]: ")
    new, broken, owed, hit = columns_attacked(acted(state), [a["target"] for a in event["assaults"]], "melee")
    rules = ["6.1"] + ["6.3.4"] * sum(1 for a in event["assaults"] for did in occupants(state, a["target"])
                                      if state.unit(did).formation == COLUMN)
    return legal("assaults", rules, results=results + broken,
                 # each Column's morale check comes first, the last one found first (as it always has)
                 awaiting=owed[::-1] + [Awaiting(type="melee", side=None, rule="11.x")]), new


@VERBS.verb("melee", steps=(ACTIVATION,), rules=("6.1",), refs={"attackers": "units", "target": "hex"})
def melee(state: MPState, event: Mapping[str, Any], dice: Any = None) -> tuple[Ruling, MPState]:
    """One melee (11.x, missing): the same checks as one entry of ``assaults``; the resolution is awaited."""
    results = declare_melee(state, event["attackers"], event["target"], "")
    new, broken, owed, hit = columns_attacked(acted(state), [event["target"]], "melee")
    return legal("melee", ["6.1"] + (["6.3.4"] if hit else []), results=results + broken,
                 awaiting=owed + [Awaiting(type="melee", side=None, rule="11.x")]), new
