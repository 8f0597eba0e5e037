"""The chat notation as a ruleset hook (referee.logs.notation, issue #13): the reader imports no ruleset, each
ruleset brings its own commands, names and move completion, and one without a hook still reads."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

from referee.logs import chat, notation
from referee.logs.vassal_events import ReadEvent

from .recordings import scenario

LOGS = Path(__file__).resolve().parents[2] / "referee" / "logs"


@pytest.mark.parametrize("source", sorted(LOGS.glob("*.py")), ids=lambda p: p.name)
def test_the_log_reader_imports_no_ruleset(source):
    imported = []
    for node in ast.walk(ast.parse(source.read_text())):
        if isinstance(node, ast.Import):
            imported += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.append(node.module)
    assert not [m for m in imported if m.startswith("referee.rulesets")]


def test_each_bundled_ruleset_registers_its_notation():
    from referee.engine import registry
    for rid in ("triumph-and-glory", "musket-and-pike"):
        hook = notation.of(registry.get(rid))
        assert hook is not notation.GENERIC and "draw" in hook.verbs


def test_musket_and_pike_draws_a_wing():
    roster = chat.Roster.from_scenario(scenario("scenarios/mp-sample.yaml"))
    wing = roster.markers[0]
    assert chat.read(f"!draw {wing}", roster) == chat.Declared({"type": "draw", "wing": wing})
    unit = next(iter(roster.unit_side))
    assert chat.read(f"!wheel {unit} 4", roster) == chat.Declared({"type": "wheel", "unit": unit, "facing": 4})
    assert chat.read(f"!formation {unit} hedgehog", roster) == chat.Declared(
        {"type": "change_formation", "unit": unit, "to": "hedgehog"})
    with pytest.raises(chat.ChatError, match="unknown command 'orders'"):
        chat.read("!orders french", roster)         # Triumph & Glory's word, not this ruleset's


def test_a_ruleset_without_a_hook_reads_side_and_scenario_only():
    roster = chat.Roster.from_scenario(scenario("tiny"), notation.GENERIC)
    assert chat.read("!side rus", roster) == chat.SetSide("Russian")
    with pytest.raises(chat.ChatError, match="unknown command 'draw'"):
        chat.read("!draw i-corps", roster)
    read = ReadEvent(3, {"type": "move", "side": "French", "unit": "dumon-a"}, "0303", "dumon-a")
    assert notation.GENERIC.complete(None, read) == {"type": "move", "side": "French", "unit": "dumon-a",
                                                     "path": ["0303"]}


def test_first_marker_waits_for_the_initiative_holder():
    from referee.engine.replay import replay
    from referee.engine import registry as reg
    NOTATION = notation.of(reg.get("triumph-and-glory"))
    bor = scenario("borodino")
    log = [{"type": "orders", "side": "French", "under_orders": []},
           {"type": "orders", "side": "Russian", "under_orders": []},
           {"type": "initiative", "rolls": {"French": 7, "Russian": 3}}]
    from referee.engine import registry
    state = replay(registry.get(bor.ruleset), bor, log).game.state
    read = ReadEvent(9, {"type": "first_marker", "marker": "fr-viii-corps"}, line="!first viii-corps",
                     markers=(("fr-viii-corps", "French"), ("ru-viii-corps", "Russian")))
    assert NOTATION.complete(state, read) == {"type": "first_marker", "side": "French", "marker": "fr-viii-corps"}
    tiny = scenario("tiny")                      # nobody holds the initiative before it is rolled
    before = replay(registry.get(tiny.ruleset), tiny, []).game.state
    assert before.initiative is None
    assert NOTATION.complete(before, read)["type"] == "unreadable"
