"""Any die, end to end: the engine's roll helpers take the die and compute the chance from it; the text report,
the page's luck report and the log reader's ``roll`` event say that die and its faces.  A 2d6 ruleset
(``two_dice``) and Bridgehead's d6 show it; the d10 of DESIGN §5 reads as it always did."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from referee.engine.dice import die, faces, natural
from referee.engine.replay import replay
from referee.engine.ruling import Modifier, pass_fail_roll, pass_max, p_success, table_roll
from referee.logs.jsonlog import roll_event_schema
from referee.report import render, roll_sentence, pass_range, words_for
from referee.service.luck import luck
from two_dice import RULESET as TWO_DICE

ROOT = Path(__file__).resolve().parents[2]


# ----------------------------------------------------------------------------------------- the dice

@pytest.mark.parametrize("name, lowest, highest, mean", [
    ("d10", 0, 9, 4.5), ("d10:1-10", 1, 10, 5.5), ("d6", 1, 6, 3.5), ("2d6", 2, 12, 7.0), ("d100", 1, 100, 50.5),
    ("d100:0-99", 0, 99, 49.5), ("3d6", 3, 18, 10.5)])
def test_a_die_by_its_name_has_its_faces_and_mean(name, lowest, highest, mean):
    d = die(name)
    assert (d.lowest, d.highest, d.mean) == (lowest, highest, mean)
    assert faces(name) == range(lowest, highest + 1)


@pytest.mark.parametrize("bad", ["d0", "x6", "2d", "d10:1-9", "", "d6:0-9"])
def test_a_name_that_is_no_die_is_refused(bad):
    with pytest.raises(ValueError):
        die(bad)


def test_2d6_chances_are_the_sums_of_two_dice():
    d = die("2d6")
    ways = [d.ways_at_most(t) - d.ways_at_most(t - 1) for t in range(2, 13)]
    assert ways == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert Fraction(d.ways_at_most(7), d.outcomes) == Fraction(21, 36)


@given(st.sampled_from(["d10", "d6", "2d6", "d10:1-10", "d100"]), st.integers(-5, 120))
def test_p_success_is_the_share_of_faces_that_pass(name, pm):
    d = die(name)
    passing = sum(1 for t in _all_totals(d) if t <= pm)
    assert p_success(pm, name) == round(passing / d.outcomes, 2)


def _all_totals(d):
    totals = [0]
    for _ in range(d.count):
        totals = [t + d.low + f for t in totals for f in range(d.sides)]
    return totals


@pytest.mark.parametrize("name", ["d6", "2d6", "d10:1-10", "d100"])
def test_the_referees_rolls_show_every_face_of_the_die_and_no_other(name):
    seen = Counter(natural("seed", i, "x", name) for i in range(4000))
    assert set(seen) <= set(faces(name))
    assert set(seen) == set(faces(name)) or name == "d100"


# ----------------------------------------------------------------------------------------- the roll helpers

def test_the_d10_roll_helpers_are_unchanged():
    assert [pass_max(5, m) for m in (-20, -1, 0, 3, 20)] == [9, 6, 5, 2, -1]
    assert [p_success(pm) for pm in (-1, 0, 4, 9)] == [0.0, 0.1, 0.5, 1.0]


def test_a_2d6_pass_fail_roll_takes_its_chance_and_its_bounds_from_the_dice():
    r = pass_fail_roll("storm", None, 7, base_label="courage", base_rule="R2", die="2d6")
    assert (r.die, r.pass_max, r.p_success) == ("2d6", 7, 0.58)          # 21 of 36
    always = pass_fail_roll("storm", 12, 30, base_label="", base_rule="R2", die="2d6")
    never = pass_fail_roll("storm", 2, 1, base_label="", base_rule="R2", die="2d6")
    assert (always.pass_max, always.p_success, always.outcome) == (12, 1.0, "pass")
    assert (never.pass_max, never.p_success, never.outcome) == (1, 0.0, "fail")


def test_a_d6_pass_fail_roll():
    r = pass_fail_roll("morale", 4, 5, base_label="morale", base_rule="4.1",
                       modifiers=[Modifier(2, "4.2", "shaken")], die="d6")
    assert (r.pass_max, r.p_success, r.outcome) == (3, 0.5, "fail")


# ----------------------------------------------------------------------------------------- the words

def test_the_text_report_names_the_die_and_its_faces():
    owed = pass_fail_roll("storm", None, 7, base_label="courage", base_rule="R2",
                          modifiers=[Modifier(1, "R2", "height of the wall")], side="Blue", die="2d6")
    assert roll_sentence(owed) == ("storm: Blue needs 7 or less (courage, R2) on 2d6, +1 height of the wall (R2): "
                                   "pass on 2–6 (42 %) — roll owed")
    d6 = pass_fail_roll("morale", 2, 3, base_label="morale", base_rule="4.1", side="A", die="d6")
    assert roll_sentence(d6) == "morale: A needs 3 or less (morale, 4.1) on a d6 (50 %): 2 → 2: passes"
    table = table_roll("volley", 11, "two_hits", side="Red", die="2d6")
    assert roll_sentence(table) == "volley: Red: 2d6 11 → 11: two hits"
    assert pass_range(0, "d6") == "cannot pass" and pass_range(6, "d6") == "passes on any roll (1–6)"
    assert pass_range(1, "d10:1-10") == "pass on 1" and pass_range(4) == "pass on 0–4"


def test_a_d10_sentence_reads_as_before():
    r = pass_fail_roll("commitment", 6, 5, base_label="cohesion of Leclerc", base_rule="9.43",
                       modifiers=[Modifier(1, "5.27", "no orders")])
    assert roll_sentence(r) == ("commitment needs 5 or less (cohesion of Leclerc, 9.43) on a d10 (50 %): "
                                "6, +1 no orders (5.27) → 7: fails")


def test_a_2d6_game_replays_and_reads_in_its_dice():
    events = [{"type": "storm", "wall": 1}, {"type": "roll", "roll": 1}, {"type": "roll", "roll": 13},
              {"type": "roll", "roll": 6}, {"type": "volley", "roll": 12}]
    out = replay(TWO_DICE, None, events)
    owed, one, thirteen, six, volley = [r.to_dict() for r in out.rulings]
    assert owed["rolls"][0] | {"modifiers": None} == {
        "purpose": "storm", "side": "Blue", "die": "2d6", "natural": None, "base": 7, "base_label": "courage",
        "base_rule": "R2", "modifiers": None, "pass_max": 6, "p_success": 0.42, "outcome": None}
    assert owed["awaiting"] == [{"type": "roll", "side": "Blue", "rule": "R2"}]
    assert one["errors"][0]["message"] == "the storm roll is a 2d6: 2–12, not 1"
    assert thirteen["errors"][0]["code"] == "not_on_the_die"
    assert six["rolls"][0]["outcome"] == "pass" and volley["rolls"][0]["result"] == "two_hits"
    text = render(out.rulings, events, out.places, words=words_for(None, TWO_DICE))
    assert "on 2d6, +1 height of the wall (R2): pass on 2–6 (42 %) — roll owed" in text
    assert "volley: Red: 2d6 12 → 12: two hits" in text and "d10" not in text


def test_the_referee_rolls_2d6_for_a_2d6_ruleset():
    out = replay(TWO_DICE, None, [{"type": "volley"}] * 6, dice="referee", seed="s")
    naturals = [r.rolls[0].natural for r in out.rulings]
    assert all(2 <= n <= 12 for n in naturals) and all(r.legal for r in out.rulings)


def test_the_roll_event_takes_every_total_of_the_rulesets_dice():
    roll = roll_event_schema(TWO_DICE)["properties"]["roll"]
    assert (roll["minimum"], roll["maximum"]) == (0, 12)
    from referee.rulesets.triumph_and_glory import RULESET as TG
    tg = roll_event_schema(TG)["properties"]["roll"]
    assert (tg["minimum"], tg["maximum"]) == (0, 9)


def test_the_luck_report_compares_table_rolls_with_their_own_dice():
    events = [{"type": "volley", "side": "Blue"}, {"type": "attack", "side": "Red"}]
    rulings = [{"index": 0, "rolls": [{"purpose": "volley", "die": "2d6", "natural": 9, "side": "Blue"}]},
               {"index": 1, "rolls": [{"purpose": "combat", "die": "d6", "natural": 2, "side": "Red"},
                                      {"purpose": "combat", "die": "d6", "natural": 3, "side": "Red"}]}]
    out = luck(rulings, events, [("1", "a"), ("1", "b")], {})["table_rolls"]
    assert out["Blue"] == {"rolls": 1, "mean_natural": 9.0, "fair_mean": 7.0, "dice": ["2d6"]}
    assert out["Red"] == {"rolls": 2, "mean_natural": 2.5, "fair_mean": 3.5, "dice": ["d6"]}
    d10 = luck([{"index": 0, "rolls": [{"purpose": "fire", "die": "d10", "natural": 3}]}], [{"side": "F"}],
               [("1", "a")], {})["table_rolls"]
    assert d10["F"]["fair_mean"] == 4.5


# ----------------------------------------------------------------------------------------- Bridgehead's d6

def test_bridgeheads_text_report_says_d6():
    from bridgehead_dist import ensure_installed
    why = ensure_installed()
    if why:
        pytest.skip(why)
    game = ROOT / "examples" / "bridgehead"
    run = subprocess.run([sys.executable, "-m", "referee", "check", "sample-game.json", "--format", "text"],
                         cwd=game, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    combat = [line for line in run.stdout.splitlines() if line.strip().startswith("combat:")]
    assert combat and all(" d6" in line for line in combat), combat
    assert "combat: American: d6 2 → 2: AR" in run.stdout
    assert "d10" not in run.stdout
    js = subprocess.run([sys.executable, "-m", "referee", "check", "sample-game.json"], cwd=game,
                        capture_output=True, text=True, timeout=300)
    rolls = [r for ruling in json.loads(js.stdout)["rulings"] for r in ruling["rolls"]]
    assert rolls and {r["die"] for r in rolls} == {"d6"}


@given(st.text(max_size=12))
def test_any_text_is_a_die_or_a_clear_refusal(text):
    try:
        d = die(text)
    except ValueError as exc:
        assert repr(text) in str(exc)
        return
    assert d.name == text and d.lowest <= d.highest and len(d.faces) == d.highest - d.lowest + 1
    assert d.ways_at_most(d.highest) == d.outcomes and d.ways_at_most(d.lowest - 1) == 0


@given(st.integers(1, 4), st.integers(2, 12))
def test_every_total_of_n_dice_has_its_count_of_ways(count, sides):
    d = die(f"{count}d{sides}")
    ways = [d.ways_at_most(t) - d.ways_at_most(t - 1) for t in d.faces]
    assert sum(ways) == sides ** count and ways == ways[::-1]          # symmetric about the mean


def test_one_die_for_the_referee_and_the_module_whatever_the_spelling() -> None:
    """The module's dice button and the referee's rolls read one Die: a game file's "d10 1-10", a ruleset's
    "d10:1-10" and a contribution's {sides: 10, first: 1} are the same die, and a bare d10 reads 0-9 in both
    (DESIGN §5) — the module read a game file's bare "d10" as 1-10 while the referee read it 0-9."""
    from modulebuilder.vassal import play
    from referee.engine import dice

    assert play.parse_die("d10 1-10") == dice.die("d10:1-10") == dice.die("d10 1-10")
    assert play.parse_die("d10") == dice.die("d10") and play.parse_die("d10").faces == range(0, 10)
    assert play.parse_die("2d6").text == "2d6 (2-12)" and dice.die("d6:1-6") == dice.D10.__class__("d6", 1, 6, 1)
    assert play.Die is dice.Die
