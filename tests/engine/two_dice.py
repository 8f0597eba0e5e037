"""A small ruleset that rolls two six-sided dice (2d6), to show that the engine's rolls, the text report and the
luck report are the die's and not a d10's.

The game: two sides take turns.  ``storm`` sends a unit against a wall of height ``wall``: it passes on
2d6 + modifiers ≤ its courage (a pass/fail roll, R2); ``volley`` reads 2d6 on a table (R3): 2–6 a miss, 7–9 a
hit, 10–12 two hits.  An event's ``side`` is optional, as in a hosted game, where the token says it: whose act
it is comes from the ``actor`` hook (the side whose turn it is)."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Mapping

from referee.engine.dice import EventDice
from referee.engine.procedure import OVER, ProcedureRuleset, Step, need
from referee.engine.ruling import Modifier, legal, pass_fail_roll, result, table_roll
from referee.engine.verbs import Verbs

V = Verbs()
SIDES = ("Blue", "Red")
COURAGE = 7


@dataclass(frozen=True)
class Siege:
    turn: int = 0                       # whose turn: SIDES[turn % 2]
    hits: int = 0

    @property
    def side(self) -> str:
        return SIDES[self.turn % 2]


@V.verb("storm", steps=("play",), rules=("R2",))
def storm(state: Siege, event: Mapping[str, Any], dice: EventDice) -> tuple:
    mods = [Modifier(int(event.get("wall", 0)), "R2", "height of the wall")]
    owed = pass_fail_roll("storm", None, COURAGE, base_label="courage", base_rule="R2", modifiers=mods,
                          side=state.side, die="2d6")
    n = need(dice, "roll", owed, ("R2",))
    roll = pass_fail_roll("storm", n, COURAGE, base_label="courage", base_rule="R2", modifiers=mods,
                          side=state.side, die="2d6")
    return legal("storm", ["R2"], rolls=[roll]), replace(state, turn=state.turn + 1)


VOLLEY = {range(2, 7): "miss", range(7, 10): "hit", range(10, 13): "two_hits"}


@V.verb("volley", steps=("play",), rules=("R3",))
def volley(state: Siege, event: Mapping[str, Any], dice: EventDice) -> tuple:
    owed = table_roll("volley", None, None, side=state.side, die="2d6")
    n = need(dice, "roll", owed, ("R3",))
    outcome = next(v for r, v in VOLLEY.items() if n in r)
    hits = {"miss": 0, "hit": 1, "two_hits": 2}[outcome]
    return (legal("volley", ["R3"], rolls=[table_roll("volley", n, outcome, side=state.side, die="2d6")],
                  results=[result("hits", "R3", hits=hits)]),
            replace(state, turn=state.turn + 1, hits=state.hits + hits))


@V.candidates("storm")
def _storms(state: Siege) -> list[dict[str, Any]]:
    return [{"type": "storm", "side": state.side, "wall": w} for w in (0, 2)]


@V.candidates("volley")
def _volleys(state: Siege) -> list[dict[str, Any]]:
    return [{"type": "volley", "side": state.side}]


class TwoDice(ProcedureRuleset):
    id = "two-dice"
    name = "Two dice (a test ruleset)"
    verbs = V
    dice = ("2d6",)

    def step(self, state: Siege) -> Step:
        if state.turn >= 6:
            return Step(OVER, "the siege is over", rule="R9")
        return Step("play", f"{state.side} storms or fires", (state.side,), "R1")

    def initial_state(self, scenario: Any) -> Siege:
        return Siege()

    def progress(self, state: Siege) -> tuple[str, str]:
        return (f"Turn {state.turn // 2 + 1}", state.side)

    def view(self, state: Siege, side: str | None) -> dict[str, Any]:
        return {"turn": state.turn, "hits": state.hits}

    def event_schema(self) -> Mapping[str, Any]:
        side = {"enum": list(SIDES)}
        roll = {"type": "integer", "minimum": 2, "maximum": 12}
        return {"$defs": {"events": {"type": "object", "properties": {
            "storm": {"type": "object", "required": ["type"], "additionalProperties": False,
                      "properties": {"type": {"const": "storm"}, "side": side, "wall": {"type": "integer"},
                                     "roll": roll}},
            "volley": {"type": "object", "required": ["type"], "additionalProperties": False,
                       "properties": {"type": {"const": "volley"}, "side": side, "roll": roll}}}}}}

    def build_names(self, scenario: Any) -> Any:
        from referee.engine.references import Names
        return Names.of()

    def actor(self, state: Siege, event: Mapping[str, Any]) -> str | None:
        return state.side


RULESET = TwoDice()
