"""The engine's framework: the verbs registry, the dispatcher's common guards, reference checks from declared
fields, the pending decision, generic legal actions, owed rolls and the d6.

The ruleset here is a real one, small enough to read: a counting game in which a side says a number, the other
answers, and a ``duel`` rolls a d6 against the number.  It exists to exercise the framework's machinery
without any game's rules in the way."""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import pytest
from hypothesis import given, strategies as st

from referee.engine.dice import EventDice, faces, natural
from referee.engine.procedure import OVER, ProcedureRuleset, RollOwed, Step, dispatch, need
from referee.engine.references import Names, check
from referee.engine.replay import replay
from referee.engine.ruling import Error, Roll, legal, result
from referee.engine.verbs import Illegal, Verbs, refuse

V = Verbs()


@dataclass(frozen=True)
class Count:
    turn: str = "A"
    total: int = 0
    rounds: int = 0


@V.verb("say", steps=("play",), rules=("R1",), refs={"to": "side"})
def say(state: Count, event: dict, dice: Any) -> tuple:
    n = event["n"]
    if not 1 <= n <= 3:
        refuse("R2", "bad_number", f"say 1 to 3, not {n}", [1, 2, 3])
    return legal("say", ["R1", "R2"], results=[result("said", "R1", n=n)]), \
        replace(state, turn="B" if state.turn == "A" else "A", total=state.total + n, rounds=state.rounds + 1)


@V.candidates("say")
def _says(state: Count):
    return [{"type": "say", "side": state.turn, "n": n} for n in (0, 1, 2, 3)]


@V.verb("duel", steps=("play",), rules=("R3",))
def duel(state: Count, event: dict, dice: EventDice) -> tuple:
    owed = Roll(purpose="duel", natural=None, die="d6", table=True)
    n = need(dice, "roll", owed, ("R3",), die="d6")
    return legal("duel", ["R3"], rolls=[replace(owed, natural=n, modified=n, result=n > 3)]), \
        replace(state, rounds=state.rounds + 1)


@V.verb("note", rules=("R4",), actor=False, not_now=Error("R4", "no_notes", "notes only while playing"))
def note(state: Count, event: dict, dice: Any) -> tuple:
    return legal("note", ["R4"]), state


def step_of(state: Count) -> Step:
    if state.rounds >= 4:
        return Step(OVER, "over", rule="R9")
    return Step("play", f"{state.turn} says a number", (state.turn,), "R1",
                wrong_side=Error("R1", "not_your_turn", "{side} waits; " + state.turn + " plays"))


class Counting(ProcedureRuleset):
    id = "counting"
    name = "counting"
    verbs = V

    def step(self, state):
        return step_of(state)

    def initial_state(self, scenario):
        return Count()

    def progress(self, state):
        return (str(state.rounds), state.turn)

    def view(self, state, side):
        return {"total": state.total}

    def names(self, scenario):
        return Names.of(side=({"A", "B"}, "no side '{name}'"), unit=({"u1"}, "no unit '{name}' here"),
                        hex=({"0101", "0102"}, "no hex '{name}' on the map"))


R = Counting()


def rule(state, event, dice=None):
    return dispatch(V, step_of, state, event, dice or EventDice(event))


def test_a_legal_verb_returns_its_change():
    ruling, new = rule(Count(), {"type": "say", "side": "A", "n": 2})
    assert ruling.legal and new.total == 2 and new.turn == "B"


def test_a_refusal_leaves_the_state_and_cites_the_rule():
    state = Count()
    ruling, new = rule(state, {"type": "say", "side": "A", "n": 7})
    assert not ruling.legal and new is state
    assert ruling.errors[0].to_dict() == {"rule": "R2", "code": "bad_number", "message": "say 1 to 3, not 7",
                                          "alternatives": [1, 2, 3]}


def test_wrong_side_is_refused_by_the_dispatcher_with_the_steps_error():
    ruling, _ = rule(Count(), {"type": "say", "side": "B", "n": 1})
    assert ruling.errors[0].to_dict() == {"rule": "R1", "code": "not_your_turn", "message": "B waits; A plays"}


def test_a_verb_not_allowed_now_gets_its_own_not_now_error_and_game_over_comes_first():
    over = Count(rounds=4)
    assert rule(over, {"type": "note"})[0].errors[0].code == "game_over"
    assert rule(over, {"type": "say", "side": "A", "n": 1})[0].errors[0].rule == "R9"
    assert rule(Count(), {"type": "nothing"})[0].errors[0].code == "unknown_event"


def test_a_verb_allowed_everywhere_skips_the_side_check():
    assert rule(Count(), {"type": "note", "side": "B"})[0].legal


def test_legal_actions_are_the_candidates_the_verbs_rule_legal():
    assert R.legal_actions(Count()) == [{"type": "say", "side": "A", "n": n} for n in (1, 2, 3)]
    assert R.legal_actions(Count(rounds=4)) == []
    assert R.is_over(Count(rounds=4))


def test_candidates_declared_ruled_are_listed_as_their_function_lists_them():
    """A verb's candidates declared ``ruled`` (the function kept only what the verb accepts) are taken as they
    are, in the verbs' order; the others are still ruled on one by one; a verb's candidates are declared once."""
    v = Verbs()
    v.verb("say", steps=("play",))(say)
    v.verb("note", actor=False)(note)
    v.candidates("say")(_says)
    asked = []

    @v.candidates("note", ruled=True)
    def notes(state: Count):
        asked.append(state)
        return [{"type": "note", "n": 1}, {"type": "note", "n": 2}]

    class Ruled(Counting):
        verbs = v

    listed = Ruled().legal_actions(Count())
    assert listed == [{"type": "say", "side": "A", "n": n} for n in (1, 2, 3)] + [{"type": "note", "n": 1},
                                                                                  {"type": "note", "n": 2}]
    assert asked == [Count()] and [x.ruled for x in v] == [False, True]

    class Held(Ruled):                     # a step that holds the verb up lists none of its candidates
        def step(self, state: Count) -> Step:
            return step_of(state)._replace(refusals={"note": Error("R4", "wait", "notes wait")})

    assert Held().legal_actions(Count()) == [{"type": "say", "side": "A", "n": n} for n in (1, 2, 3)]
    with pytest.raises(ValueError, match="declared twice"):
        v.candidates("note")(notes)


def test_the_decision_names_the_step_the_actors_and_the_verbs_offered():
    assert R.decision(Count()) == {"step": "play", "prompt": "A says a number", "actors": ["A"], "rule": "R1",
                                   "verbs": ["say", "duel", "note"]}


def test_an_owed_roll_is_listed_and_changes_nothing_until_paid():
    out = replay(R, None, [{"type": "duel", "side": "A"}, {"type": "say", "side": "A", "n": 1},
                           {"type": "roll", "roll": 5}])
    first, blocked, paid = [r.to_dict() for r in out.rulings]
    assert first["verdict"] == "legal" and first["rolls"][0]["natural"] is None and first["rolls"][0]["die"] == "d6"
    assert blocked["errors"][0]["code"] == "roll_owed"
    assert paid["verdict"] == "legal" and paid["rolls"][0]["natural"] == 5 and paid["rolls"][0]["result"] is True
    assert out.game.state.rounds == 1


@pytest.mark.parametrize("bad", [0, 7, 9])
def test_a_roll_the_d6_cannot_show_is_illegal_and_the_roll_stays_owed(bad):
    out = replay(R, None, [{"type": "duel", "side": "A"}, {"type": "roll", "roll": bad}, {"type": "roll", "roll": 2}])
    assert out.rulings[1].errors[0].code == "not_on_the_die" and "1–6" in out.rulings[1].errors[0].message
    assert out.rulings[2].legal and out.rulings[2].rolls[0].natural == 2


def test_referee_dice_roll_the_d6_fairly_and_the_d10_as_before():
    out = replay(R, None, [{"type": "duel", "side": "A"}], dice="referee", seed="s")
    assert out.rulings[0].rolls[0].natural == natural("s", 0, "duel", "d6") in faces("d6")
    # The d10 is bit-for-bit the roll the engine always gave (the games already played re-derive the same).
    assert [natural("dice:3", i, "commitment") for i in range(5)] == [natural("dice:3", i, "commitment", "d10")
                                                                      for i in range(5)]


@given(st.text(min_size=1, max_size=8), st.integers(0, 500), st.sampled_from(["d6", "d10"]))
def test_every_die_roll_is_one_of_its_faces(seed, index, die):
    assert natural(seed, index, "p", die) in faces(die)


def test_d6_faces_are_uniform_enough():
    counts = {f: 0 for f in faces("d6")}
    for i in range(3000):
        counts[natural("seed", i, "x", "d6")] += 1
    assert all(400 < c < 600 for c in counts.values()), counts


def test_need_raises_roll_owed_in_players_mode():
    with pytest.raises(RollOwed):
        need(EventDice({}), "roll", Roll(purpose="x", natural=None), die="d6")


# ------------------------------------------------------------------------------------------ references

NAMES = Names.of(unit=({"u1", "u2"}, "no unit '{name}' in the scenario"), hex=({"0101"}, "no hex '{name}' on the map"),
                 side=({"A"}, "no side '{name}'"))


def test_reference_checks_follow_the_declared_fields():
    refs = {"unit": "unit", "path": "hexes", "units": "units", "assaults": {"attackers": "units", "target": "hex"},
            "to": "hex?"}
    event = {"unit": "zz", "path": ["0101", "9999"], "units": ["u1", "u3"], "side": "Q", "to": ["0101", "0202"],
             "assaults": [{"attackers": ["u2", "x"], "target": "0000"}]}
    assert check(NAMES, event, refs) == [                # in the order the event names them
        ("unit", "no unit 'zz' in the scenario"), ("path[1]", "no hex '9999' on the map"),
        ("units[1]", "no unit 'u3' in the scenario"), ("side", "no side 'Q'"), ("to[1]", "no hex '0202' on the map"),
        ("assaults[0].attackers[1]", "no unit 'x' in the scenario"), ("assaults[0].target", "no hex '0000' on the map")]


def test_a_verb_declared_twice_is_a_programming_error():
    v = Verbs()
    v.verb("x")(lambda s, e, d: None)
    with pytest.raises(ValueError):
        v.verb("x")(lambda s, e, d: None)


def test_illegal_needs_an_error():
    with pytest.raises(ValueError):
        Illegal()


# --- the ruleset's hooks: guards for every verb, what follows a complete ruling, the last touch -------------

def _no_sevens(state: Count, event: dict) -> Error | None:
    return Error("R7", "no_sevens", "no sevens today") if event.get("n") == 7 else None


def _bonus(ruling, state: Count):
    """What follows by itself: every third round scores a bonus point, reported on the ruling."""
    if state.rounds % 3:
        return ruling, state
    return replace(ruling, results=ruling.results + (result("bonus", "R8"),)), replace(state, total=state.total + 1)


def _cite_results(ruling):
    return replace(ruling, rules=tuple(dict.fromkeys(ruling.rules + tuple(r.rule for r in ruling.results))))


def hooked(state, event, dice=None):
    return dispatch(V, step_of, state, event, dice or EventDice(event), guards=(_no_sevens,), after=_bonus,
                    finish=_cite_results)


def test_a_guard_refuses_before_the_verb_and_changes_nothing():
    state = Count()
    ruling, new = hooked(state, {"type": "say", "side": "A", "n": 7})
    assert new is state and [e.code for e in ruling.errors] == ["no_sevens"]      # the verb's R2 never ran


def test_after_runs_only_after_a_legal_complete_ruling_and_its_results_join_the_ruling():
    state = Count(rounds=2)
    ruling, new = hooked(state, {"type": "say", "side": "A", "n": 1})
    assert new.total == 2 and [r.effect for r in ruling.results] == ["said", "bonus"]
    assert ruling.rules == ("R1", "R2", "R8")                                       # finish cited the bonus
    owed, same = hooked(state, {"type": "duel", "side": "A"}, EventDice({"type": "duel"}, None, 0))
    assert owed.owes_roll and same is state and "R8" not in owed.rules
    refused, same = hooked(state, {"type": "say", "side": "A", "n": 5})
    assert not refused.legal and same is state


def test_an_illegal_ruling_a_verb_returns_with_a_changed_state_changes_nothing():
    W = Verbs()

    @W.verb("oops")
    def oops(state, event, dice):
        from referee.engine.ruling import illegal
        return illegal("oops", [Error("R0", "no", "no")]), replace(state, total=99)

    state = Count()
    assert dispatch(W, step_of, state, {"type": "oops"}, EventDice({}))[1] is state
