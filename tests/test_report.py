"""The text report's words (referee/report.py): every roll as a sentence, printed names for ids (issue #16)."""
from __future__ import annotations

from referee.engine.ruling import Modifier, pass_fail_roll, table_roll
from referee.report import PLAIN, Words, roll_sentence, wording_of, words_for
from referee.rulesets.triumph_and_glory import RULESET

TG = Words({"fr-gr-leclerc": "Leclerc", "ru-jgr-gogel-a": "Gogel Jgr a", "i-corps": "I Corps (Davout)"},
           wording_of(RULESET))
MODS = (Modifier(1, "5.27", "no orders, not within the CinC's command range"),
        Modifier(2, "9.42", "DFE of Gogel Jgr a (front)"))


def _commitment(natural: int | None):
    return pass_fail_roll("commitment", natural, 5, base_label="cohesion of Leclerc", base_rule="9.43",
                          modifiers=MODS, unit="fr-gr-leclerc", side="French")


def test_a_failed_roll_reads_natural_modifiers_total_target_chance_outcome_and_consequence() -> None:
    # The sample game's event: natural 6, +1 +2 → 9 against 5 or less: a natural 0–2 passes (30 %).
    assert roll_sentence(_commitment(6), TG) == (
        "Commitment (9.41): Leclerc needs 5 or less (cohesion of Leclerc, 9.43) on a d10 (30 %): 6, +1 no orders, "
        "not within the CinC's command range (5.27), +2 DFE of Gogel Jgr a (front) (9.42) → 9: fails — none from "
        "that hex may assault")


def test_a_passed_roll_says_what_passing_does() -> None:
    assert roll_sentence(_commitment(2), TG).endswith("→ 5: passes — the declared units of that hex must assault")


def test_before_the_roll_the_chance_and_both_consequences() -> None:
    assert roll_sentence(_commitment(None), TG) == (
        "Commitment (9.41): Leclerc needs 5 or less (cohesion of Leclerc, 9.43) on a d10, +1 no orders, not within "
        "the CinC's command range (5.27), +2 DFE of Gogel Jgr a (front) (9.42): pass on 0–2 (30 %) — roll owed; "
        "if it passes, the declared units of that hex must assault; if it fails, none from that hex may assault")


def test_a_table_roll_gives_its_result_in_words() -> None:
    roll = table_roll("fire", 3, "no_effect", modifiers=(Modifier(3, "8.2", "fire strength of VII Art b"),
                                                         Modifier(-4, "8.3", "range 4")), side="Russian")
    assert roll_sentence(roll, TG) == ("Fire (8.x): Russian: d10 3, +3 fire strength of VII Art b (8.2), −4 range 4 "
                                       "(8.3) → 2: no effect")
    # Without a ruleset's words the codes stay (a roll's purpose as DESIGN §5 names it).
    assert roll_sentence(roll, PLAIN).startswith("fire: Russian: d10 3") and roll_sentence(roll, PLAIN).endswith(
        "→ 2: no effect")


def test_ids_in_rule_texts_become_printed_names_but_not_inside_other_words() -> None:
    assert TG.text("order group of fr-gr-leclerc named twice") == "order group of Leclerc named twice"
    assert TG.text("x-fr-gr-leclerc-b and fr-gr-leclerc") == "x-fr-gr-leclerc-b and Leclerc"
    assert TG.text("i-corps AM") == "I Corps (Davout) AM"


def test_words_for_a_scenario_name_units_leaders_and_groups() -> None:
    from referee.service import scenarios
    scenario = scenarios.resolve("borodino")
    words = words_for(scenario, RULESET)
    assert words.name("fr-th-damas-a") == "Damas a"
    assert words.name("napoleon") == "Napoleon"
    assert words.wording.__name__ == "referee.rulesets.triumph_and_glory.wording"


def test_a_stored_ruling_is_worded_as_the_ruling_it_was() -> None:
    """Hosted games keep rulings as JSON; worded again they read as the replay's own (shocks aside: their
    attackers and defenders are not in the JSON)."""
    from pathlib import Path

    from referee.engine.replay import replay
    from referee.logs import read_log
    from referee.report import ruling_from_dict, ruling_lines
    log = read_log(Path(__file__).parent / "fixtures" / "logs" / "small-inline.yaml")
    out = replay(log.ruleset, log.scenario, log.events, log.dice, log.seed)
    words = words_for(log.scenario, log.ruleset)
    for ruling, event in zip(out.rulings, out.played):
        assert ruling_from_dict(ruling.to_dict()).to_dict() == ruling.to_dict()
        assert ruling_lines(ruling_from_dict(ruling.to_dict()), event, words) == ruling_lines(ruling, event, words)
