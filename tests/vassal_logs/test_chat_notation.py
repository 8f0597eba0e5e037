"""The chat notation (docs/chat-notation.md): every command, and the errors a typo gets."""
from __future__ import annotations

import pytest

from referee.logs.chat import ChatError, Claim, Declared, Roster, SetScenario, SetSide, read, scenario_of, words

from .recordings import scenario


@pytest.fixture(scope="module")
def roster() -> Roster:
    return Roster.from_scenario(scenario("tiny"))


@pytest.mark.parametrize("text, event", [
    ("!delay french 4", {"type": "orders_delay", "side": "French", "roll": 4}),
    ("!orders dumon-a psk-a barrage", {"type": "orders", "under_orders": ["dumon-a", "psk-a"], "barrage": True}),
    ("!orders ru", {"type": "orders", "side": "Russian", "under_orders": []}),
    ("!orders psk-a army=1st", {"type": "orders", "under_orders": ["psk-a"], "army": "1st"}),
    ("!initiative 7 3", {"type": "initiative", "rolls": {"French": 7, "Russian": 3}}),
    ("!initiative", {"type": "initiative"}),
    ("!first french i-corps", {"type": "first_marker", "side": "French", "marker": "i-corps"}),
    ("!draw vi-corps", {"type": "draw", "marker": "vi-corps"}),
    ("!draw barrage:fr", {"type": "draw", "marker": "barrage:French"}),
    ("!draw destruction", {"type": "draw", "marker": "destruction"}),
    ("!io dumon-b 6 nocinc", {"type": "individual_order", "unit": "dumon-b", "roll": 6, "use_cinc": False}),
    ("!move psk-a limited > 0403 0302", {"type": "move", "unit": "psk-a", "mode": "limited",
                                        "path": ["0403", "0302"]}),
    ("!face dumon-a 4", {"type": "face", "unit": "dumon-a", "facing": 4}),
    ("!stack 0203 i-art dumon-a", {"type": "stack_order", "hex": "0203", "order": ["i-art", "dumon-a"]}),
    ("!fire i-art > 0404 5", {"type": "fire", "units": ["i-art"], "target": "0404", "roll": 5}),
    ("!reactionfire vi-art > 0303", {"type": "reaction_fire", "unit": "vi-art", "target": "0303"}),
    ("!counterbattery vi-art > 0402 7", {"type": "counter_battery", "unit": "vi-art", "target": "0402", "roll": 7}),
    ("!assault dumon-a dumon-b > 0404", {"type": "assaults", "assaults": [
        {"attackers": ["dumon-a", "dumon-b"], "target": ["0404"], "charge": False}]}),
    ("!assault dumon-a > 0404; charge sumsky > 0303 0304", {"type": "assaults", "assaults": [
        {"attackers": ["dumon-a"], "target": ["0404"], "charge": False},
        {"attackers": ["sumsky"], "target": ["0303", "0304"], "charge": True}]}),
    ("!charge sumsky>0303", {"type": "assaults", "assaults": [
        {"attackers": ["sumsky"], "target": ["0303"], "charge": True}]}),
    ("!commit dumon-a 2", {"type": "commitment", "unit": "dumon-a", "roll": 2}),
    ("!shock 1 9", {"type": "shock", "assault": 0, "roll": 9}),
    ("!cohesion psk-b 3", {"type": "cohesion_check", "unit": "psk-b", "roll": 3}),
    ("!retreat psk-a > 0505", {"type": "retreat", "unit": "psk-a", "to": "0505"}),
    ("!advance dumon-a dumon-b > 0404", {"type": "advance", "units": ["dumon-a", "dumon-b"], "to": "0404"}),
    ("!rally psk-b 1", {"type": "rally", "unit": "psk-b", "roll": 1}),
    ("!recover psk-b", {"type": "recovery", "unit": "psk-b"}),
    ("!square psk-a 0", {"type": "square", "unit": "psk-a", "roll": 0}),
    ("!countercharge sumsky", {"type": "counter_charge", "unit": "sumsky"}),
    ("!countercharge sumsky 3 > 0303", {"type": "counter_charge", "unit": "sumsky", "at": "0303", "roll": 3}),
    ("!recall sumsky 4", {"type": "recall", "unit": "sumsky", "roll": 4}),
    ("!recall sumsky 4 @8", {"type": "recall", "unit": "sumsky", "roll": 4, "facing": 8}),
    ("!leavesquare psk-a", {"type": "leave_square", "unit": "psk-a"}),
    ("!chargeto sumsky 0302 > 0303 @6", {"type": "charge", "unit": "sumsky", "path": ["0302"], "target": "0303",
                                         "facing": 6}),
    ("!chargeto sumsky 0201 0302>0303", {"type": "charge", "unit": "sumsky", "path": ["0201", "0302"],
                                         "target": "0303"}),
    ("!pursue sumsky > 0303", {"type": "pursuit", "units": ["sumsky"], "to": "0303"}),
    ("!pursue sumsky > 0303 stop", {"type": "pursuit", "units": ["sumsky"], "to": "0303", "stop": True}),
    ("!pursue sumsky > 0303 0304 @4", {"type": "pursuit", "units": ["sumsky"], "to": "0303", "target": "0304",
                                       "facing": 4}),
    ("!reserve psk-a", {"type": "reserve", "unit": "psk-a"}),
    ("!cinc french 6 > 0104", {"type": "cinc_move", "side": "French", "roll": 6, "path": ["0104"]}),
    ("!gofirst russian", {"type": "go_first", "first": "Russian"}),
    ("!gofirst 2 8", {"type": "go_first", "rolls": {"French": 2, "Russian": 8}}),
    ("!burn dumon-a 0404 > 0304 3", {"type": "burn_village", "unit": "dumon-a", "village": "0404", "to": "0304",
                                     "roll": 3}),
    ("!destroybridge psk-a 0404 0405 > 0504", {"type": "destroy_bridge", "unit": "psk-a",
                                               "bridge": ["0404", "0405"], "to": "0504"}),
    ("!end", {"type": "end_activation"}),
    ("!endphase russian", {"type": "end_phase", "side": "Russian"}),
    ("!END", {"type": "end_activation"}),
    ("!orders Dumon-a", {"type": "orders", "under_orders": ["dumon-a"]}),   # a printed name, any case
])
def test_declarations(roster, text, event):
    assert read(text, roster) == Declared(event)


def test_board_moves_announced_first_are_claims(roster):
    assert read("!retreat psk-a", roster) == Claim("psk-a", "to", {"type": "retreat", "unit": "psk-a"})
    assert read("!move dumon-a extended", roster) == Claim("dumon-a", "to", {"type": "move", "unit": "dumon-a",
                                                                             "mode": "extended"})
    assert read("!cinc fr 7", roster) == Claim("napoleon", "path", {"type": "cinc_move", "side": "French", "roll": 7})


@pytest.mark.parametrize("text, command", [
    ("!command compans", "compans"), ("!command morand", "morand"), ("!command fr-ii-cav-corps", "fr-ii-cav-corps"),
    ("!command ii-cav-corps", "fr-ii-cav-corps"), ("!command V Corps", "fr-v-corps"),
    ("!command 2nd-grenadiers", "ru-2nd-grenadiers")])
def test_command_names_a_schevardino_command(text, command):
    # The words used to be left unconsumed: every '!command' was "did not understand".
    schevardino = Roster.from_scenario(scenario("schevardino"))
    assert read(text, schevardino) == Declared({"type": "activate_command", "command": command})
    assert read("!command french compans", schevardino) == Declared(
        {"type": "activate_command", "side": "French", "command": "compans"})


def test_an_unknown_command_says_so():
    schevardino = Roster.from_scenario(scenario("schevardino"))
    with pytest.raises(ChatError, match="no command 'murat'"):
        read("!command murat", schevardino)
    with pytest.raises(ChatError, match="command 'cav' is ambiguous"):
        read("!command cav", schevardino)


def test_meta_commands(roster):
    assert read("!side rus", roster) == SetSide("Russian")
    assert read("!scenario borodino", roster) == SetScenario("borodino")
    assert scenario_of("!scenario borodino") == "borodino"
    assert scenario_of("!orders psk-a") is None and scenario_of("hello") is None


@pytest.mark.parametrize("text, message", [
    ("!asault dumon-a > 0404", "unknown command 'asault'"),
    ("!orders nobody", "no unit 'nobody'"),
    ("!draw corps", "activation marker 'corps' is ambiguous (i-corps, vi-corps)"),
    ("!assault dumon-a", "'> hex' is missing"),
    ("!assault dumon-a > 44", "expected a hex number (0000 style), not '44'"),
    ("!face dumon-a 13", "a facing is a clock hour 1-12, not 13"),
    ("!initiative 7", "give one d10 roll (0-9) per side, in the order French, Russian"),
    ("!initiative 7 12", "give one d10 roll (0-9) per side, in the order French, Russian"),
    ("!end now please", "did not understand 'now please'"),
    ("!side prussia", "name a side (French, Russian)"),
    ("!", "an empty declaration"),
    ("!shock 0", "assaults are counted from 1"),
    ("!cinc", "say whose commander-in-chief moves (e.g. '!cinc french')"),
    ("!chargeto sumsky > 0303", "name the one or two hexes charged through, then '> target hex'"),
    ("!chargeto sumsky 0302 > 0303 @13", "a facing is @ and a clock hour 1-12, not '@13'"),
])
def test_errors_say_what_was_not_understood(roster, text, message):
    with pytest.raises(ChatError) as err:
        read(text, roster)
    assert str(err.value) == message


def test_words_split_arrows_and_semicolons():
    assert words("a b>0303;charge c > 0404") == ["a", "b", ">", "0303", ";", "charge", "c", ">", "0404"]


def test_a_marker_name_both_sides_share_is_settled_by_the_side():
    borodino = Roster.from_scenario(scenario("borodino"))
    # Nothing typed says whose: the initiative holder's, when it is ruled (4.0: the holder picks it).
    assert read("!first viii-corps", borodino) == Declared(
        {"type": "first_marker", "marker": "fr-viii-corps"}, markers=("fr-viii-corps", "ru-viii-corps"))
    assert read("!first fr viii-corps", borodino) == Declared(
        {"type": "first_marker", "side": "French", "marker": "fr-viii-corps"})
    assert read("!first viii-corps", borodino, player_side="Russian") == Declared(
        {"type": "first_marker", "marker": "ru-viii-corps"})
