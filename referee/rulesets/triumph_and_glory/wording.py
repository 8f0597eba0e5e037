"""The words the report (referee/report.py) and the web page use for Triumph & Glory's rolls: each roll's name,
what passing or failing it does, and what a table's result code means.

Taken from the digest's roll index (shared/rules/triumph-and-glory.md §0.1) and the notes of the tables file
(tables/borodino.yaml: shock_results, fire.results).  Data only: the rule functions decide, these words
only say what they decided.  Named by the ruleset object's ``wording`` attribute (one line in ``__init__.py``).
"""
from __future__ import annotations

from typing import Any

LABELS = {
    "orders_delay": "Orders delay (5.29)",
    "initiative": "Initiative (4.0)",
    "go_first": "Who goes first (5.51)",
    "individual_order": "Individual order (5.28)",
    "fire": "Fire (8.x)",
    "commitment": "Commitment (9.41)",
    "shock": "Shock (9.5)",
    "cohesion_check": "Cohesion check",
    "rally": "Rally (10.1)",
    "recovery": "Recovery (10.2)",
    "square": "Square (9.85)",
    "counter_charge": "Countercharge (9.86)",
    "recall": "Recall (9.8x)",
    "napoleon_ma": "Napoleon's movement (BOR-NAPOLEON)",
    "fire_out": "Fire burning out (BOR-5)",
    "flank_march": "Flank march",
}

# purpose -> (if it passes, if it fails); the digest's "outcome" column.
CONSEQUENCES = {
    "orders_delay": ("the CinC may issue new orders this turn", "last turn's order statuses stand (one more "
                                                                "failure counts against the next roll)"),
    "individual_order": ("the group is under orders for this activation", "the group may only rally"),
    "commitment": ("the declared units of that hex must assault", "none from that hex may assault"),
    "cohesion_check": ("the unit holds", "the unit is Disordered or retreats, as the rule calling the check says"),
    "rally": ("the unit rallies (Good Order)", "the unit stays Disordered"),
    "recovery": ("the unit returns from the Recovery Box", "the unit stays out of the game"),
    "square": ("the infantry forms square", "the infantry is Disordered, without square"),
    "counter_charge": ("the cavalry countercharges", "no countercharge"),
    "recall": ("the charging cavalry is recalled", "the cavalry must go on"),
    "fire_out": ("the fire goes out: the village becomes rubble", "the village keeps burning"),
    "flank_march": ("the flank march arrives", "the flank march is late"),
}

RESULTS = {
    # shock_results (9.6x)
    "attacker_disordered_retreat_check_counter_shock": "every attacker Disordered and checks for retreat; the "
                                                       "defender may counter-shock",
    "attacker_disordered_retreat_check": "every attacker Disordered and checks for retreat",
    "attacker_disordered_counter_shock": "every attacker Disordered; the defender may counter-shock",
    "attacker_disordered_check": "every attacker Disordered and checks for retreat",
    "defender_disordered_retreat_check": "every defender Disordered and checks for retreat",
    "defender_disordered_check": "every defender Disordered and checks for retreat",
    "defender_disordered_retreat": "every defender Disordered and retreats one hex",
    # fire results (8.x)
    "no_effect": "no effect",
    "cohesion_check": "each unit in the hex takes a cohesion check",
    "disordered": "every unit in the hex Disordered",
    "disordered_retreat": "every unit in the hex Disordered and retreats one hex",
    # initiative / go first
    "initiative": "wins the initiative",
    "tie": "a tie",
    "none": "loses the initiative",
    "first": "goes first",
    "second": "goes second",
}


def roll_label(purpose: str) -> str | None:
    return LABELS.get(purpose)


def consequence(purpose: str, passed: bool) -> str | None:
    pair = CONSEQUENCES.get(purpose)
    return None if pair is None else pair[0 if passed else 1]


def result(purpose: str, code: Any) -> str | None:
    if purpose == "napoleon_ma" and isinstance(code, int):
        return f"Napoleon has {code} MP this turn"
    return RESULTS.get(code) if isinstance(code, str) else None


# Acts that roll a die, and the rules that settle one of them without its roll: a die sent after such an act is
# owed by nothing, and the referee says why (the engine's ``why_no_roll`` hook).
ROLLING = ("shock", "commitment", "fire", "counter_battery", "reaction_fire", "cohesion_check", "rally",
           "recovery", "individual_order", "orders_delay", "initiative")
WITHOUT_A_ROLL = {
    "9.25": "artillery alone in a hex is eliminated when shocked, without a roll",
}


def why_no_roll(last: Any) -> str | None:
    """Why the act ``last`` (the last legal ruling) owes no roll, when it is an act that usually rolls and
    rolled nothing: what the rules did instead, with the rule."""
    if last is None or last.rolls or last.type not in ROLLING or not last.results:
        return None
    because = [f"{WITHOUT_A_ROLL[r]} ({r})" for r in dict.fromkeys(x.rule for x in last.results)
               if r in WITHOUT_A_ROLL]
    done = ", ".join(f"{x.unit} {x.effect.replace('_', ' ')}" if x.unit else x.effect.replace("_", " ")
                     for x in last.results)
    return (f"the {last.type} just ruled (event {last.index}) needed none"
            + (f": {'; '.join(because)}" if because else "") + f" — {done}")
