"""Every example of docs/chat-notation.md, typed into the real engine's chat (docs-script.json, recorded by
record.sh) and read back from the .vlog the engine wrote: what each line means, and what a typo gets."""
from __future__ import annotations

import pytest

from modulebuilder.vassal.savefile import read_game
from referee.logs import chat
from referee.logs.vassal_steps import Said, facts

from .doc_examples import examples
from .recordings import fixture, scenario

C, D = chat.Claim, chat.Declared
MEANS = {
    "!cinc french 7": C("napoleon", "path", {"type": "cinc_move", "side": "French", "roll": 7}),
    "!first fr-viii-corps": D({"type": "first_marker", "marker": "fr-viii-corps"}),
    "!side russian": chat.SetSide("Russian"),
    "!first viii-corps": D({"type": "first_marker", "marker": "fr-viii-corps"},
                           markers=("fr-viii-corps", "ru-viii-corps")),
    "!command compans": D({"type": "activate_command", "command": "compans"}),
    "!scenario borodino": chat.SetScenario("borodino"),
    "!side french": chat.SetSide("French"),
    "!delay russian 4": D({"type": "orders_delay", "side": "Russian", "roll": 4}),
    "!orders dumon-a barrage": D({"type": "orders", "under_orders": ["dumon-a"], "barrage": True}),
    "!orders french": D({"type": "orders", "side": "French", "under_orders": []}),
    "!initiative 7 3": D({"type": "initiative", "rolls": {"French": 7, "Russian": 3}}),
    "!draw i-corps": D({"type": "draw", "marker": "i-corps"}),
    "!io i-art": D({"type": "individual_order", "unit": "i-art"}),
    "!move dumon-a extended": C("dumon-a", "to", {"type": "move", "unit": "dumon-a", "mode": "extended"}),
    "!face dumon-a 4": D({"type": "face", "unit": "dumon-a", "facing": 4}),
    "!stack 0203 i-art dumon-a": D({"type": "stack_order", "hex": "0203", "order": ["i-art", "dumon-a"]}),
    "!fire i-art > 0404 5": D({"type": "fire", "units": ["i-art"], "target": "0404", "roll": 5}),
    "!reactionfire vi-art > 0303": D({"type": "reaction_fire", "unit": "vi-art", "target": "0303"}),
    "!counterbattery vi-art > 0402": D({"type": "counter_battery", "unit": "vi-art", "target": "0402"}),
    "!assault dumon-a dumon-b > 0404": D({"type": "assaults", "assaults": [
        {"attackers": ["dumon-a", "dumon-b"], "target": ["0404"], "charge": False}]}),
    "!charge lepic > 0303": D({"type": "assaults", "assaults": [
        {"attackers": ["lepic"], "target": ["0303"], "charge": True}]}),
    "!chargeto lepic 0302 > 0303 @4": D({"type": "charge", "unit": "lepic", "path": ["0302"], "target": "0303",
                                         "facing": 4}),
    "!commit dumon-a": D({"type": "commitment", "unit": "dumon-a"}),
    "!shock 1": D({"type": "shock", "assault": 0}),
    "!cohesion psk-b": D({"type": "cohesion_check", "unit": "psk-b"}),
    "!retreat psk-a": C("psk-a", "to", {"type": "retreat", "unit": "psk-a"}),
    "!advance dumon-a": C("dumon-a", "to", {"type": "advance", "units": ["dumon-a"]}),
    "!fallback sumsky > 0505 0506": D({"type": "fall_back", "unit": "sumsky", "to": ["0505", "0506"]}),
    "!breakthrough dumon-a dumon-b > 0404": D({"type": "breakthrough", "units": ["dumon-a", "dumon-b"],
                                               "target": ["0404"]}),
    "!countershock psk-a 0403 > 0303": D({"type": "counter_shock", "units": ["psk-a"], "to": "0403",
                                          "target": ["0303"]}),
    "!rally psk-b": D({"type": "rally", "unit": "psk-b"}),
    "!square psk-a": D({"type": "square", "unit": "psk-a"}),
    "!recall lepic @8": D({"type": "recall", "unit": "lepic", "facing": 8}),
    "!leavesquare psk-a": D({"type": "leave_square", "unit": "psk-a"}),
    "!pursue lepic > 0303": D({"type": "pursuit", "units": ["lepic"], "to": "0303"}),
    "!reserve psk-a": D({"type": "reserve", "unit": "psk-a"}),
    "!cinc french 6": C("napoleon", "path", {"type": "cinc_move", "side": "French", "roll": 6}),
    "!gofirst russian": D({"type": "go_first", "first": "Russian"}),
    "!burn dumon-a 0404 > 0304 3": D({"type": "burn_village", "unit": "dumon-a", "village": "0404", "to": "0304",
                                      "roll": 3}),
    "!destroybridge psk-a 0404 0405 > 0504": D({"type": "destroy_bridge", "unit": "psk-a",
                                                "bridge": ["0404", "0405"], "to": "0504"}),
    "!end": D({"type": "end_activation"}),
    "!endphase french": D({"type": "end_phase", "side": "French"}),
    "!shock 3": D({"type": "shock", "assault": 2}),
}
WHY = {   # the doc's samples of lines the referee cannot read, and why
    "!asault dumon-a dumon-b > 0404": "unknown command 'asault'",
    "!draw corps": "activation marker 'corps' is ambiguous (i-corps, vi-corps)",
}


def _scenario_of(line: str) -> str:
    # The doc's examples are Tinyvka's except the VIII Corps (Borodino) and '!command' (Schevardino).
    return "borodino" if "viii-corps" in line else "schevardino" if line.startswith("!command") else "tiny"


def _typed() -> list[str]:
    """The chat lines as the engine logged them (HTML-escaped in the file: '>' arrives as '&gt;')."""
    return [f.text for f in facts(read_game(fixture("docs.vlog"))) if isinstance(f, Said)]


def test_the_recording_types_every_example_of_the_doc():
    # Fails when the doc's examples change and the recording was not made again (record.sh).
    assert _typed() == ["!scenario tiny"] + examples()
    assert set(examples()) == set(MEANS) | set(WHY)


@pytest.mark.parametrize("line", [e for e in examples() if e not in WHY])
def test_each_example_means_what_the_doc_says(line):
    roster = chat.Roster.from_scenario(scenario(_scenario_of(line)))
    assert line in _typed()
    assert chat.read(line, roster) == MEANS[line]


@pytest.mark.parametrize("line", sorted(WHY))
def test_each_sample_typo_gets_the_doc_s_reason(line):
    roster = chat.Roster.from_scenario(scenario(_scenario_of(line)))
    with pytest.raises(chat.ChatError) as err:
        chat.read(line, roster)
    assert str(err.value) == WHY[line]


def test_the_recording_is_ruled_line_by_line():
    # The whole recording read as one game: the typos are rulings of their own, not a refused log.
    from referee.logs.vassal import read_vassal
    events = read_vassal(fixture("docs.vlog"), fixture("tiny.vmod")).events
    unreadable = {e["line"]: e["why"] for e in events if e["type"] == "unreadable"}
    assert unreadable["!asault dumon-a dumon-b > 0404"] == WHY["!asault dumon-a dumon-b > 0404"]
    assert unreadable["!draw corps"] == WHY["!draw corps"]
    assert {"type": "orders_delay", "side": "Russian", "roll": 4} in events
