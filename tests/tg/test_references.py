"""What an event of Triumph & Glory may name must exist in the scenario (DESIGN §6), checked by the engine's
reference checks from the fields each verb declares (``refs``): units, hexes (one or a list), sides, markers,
activation groups, commands, the order groups of ``orders``, the assaults' attackers and targets, the sides of
an ``initiative``'s rolls — each problem with its field and sentence, in the order the event names them."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.logs import read_log
from referee.rulesets import triumph_and_glory as tg

ROOT = Path(__file__).resolve().parents[2]
LOG = read_log(ROOT / "tests/fixtures/logs/sample-borodino.json")
SC = LOG.scenario
NAMES = tg.RULESET.names(SC)
UNIT = sorted(NAMES.kinds["unit"].names)[0]
HEX = sorted(NAMES.kinds["hex"].names)[0]
SIDES = [s.name for s in SC.sides]


def refs(event):
    got = tg.RULESET.check_references(SC, event)
    assert tg.RULESET.references_of(SC)(event) == got
    return got


def test_every_verb_declares_the_fields_it_names():
    assert all(v.refs for v in tg.VERBS)
    assert tg.VERBS.get("move").refs == {"side": "side", "unit": "unit", "path": "hex?"}


def test_the_sample_game_names_nothing_unknown():
    assert all(refs(e) == [] for e in LOG.events if e["type"] != "roll")


@pytest.mark.parametrize("event, want", [
    ({"type": "move", "side": "Nobody", "unit": "ghost", "path": [HEX, "9999"]},
     [("side", f"no side 'Nobody' in the scenario (sides: {', '.join(SIDES)})"),
      ("unit", "no unit 'ghost' in the scenario"), ("path[1]", "no hex '9999' on the map")]),
    ({"type": "retreat", "side": SIDES[0], "unit": UNIT, "to": "9999"}, [("to", "no hex '9999' on the map")]),
    ({"type": "orders", "side": SIDES[0], "under_orders": [[UNIT, "ghost"], "spook"]},
     [("under_orders[0][1]", "no unit 'ghost' in the scenario"), ("under_orders[1]", "no unit 'spook' in the scenario")]),
    ({"type": "assaults", "side": SIDES[0], "assaults": [{"attackers": ["ghost"], "target": "9999"}]},
     [("assaults[0].attackers[0]", "no unit 'ghost' in the scenario"),
      ("assaults[0].target[0]", "no hex '9999' on the map")]),
    ({"type": "initiative", "rolls": {SIDES[0]: 3, "Bogus": 4}}, [("rolls.Bogus", "no side 'Bogus' in the scenario")]),
    ({"type": "draw", "marker": "nope"}, [("marker", "no marker 'nope' in the scenario")]),
    ({"type": "cga", "side": SIDES[0], "ags": ["x", "y"]},
     [("ags[0]", "no activation group 'x' in the scenario"), ("ags[1]", "no activation group 'y' in the scenario")]),
    ({"type": "activate_command", "side": SIDES[0], "command": "c"}, [("command", "no command 'c' in the scenario")]),
])
def test_unknown_names_are_reported_by_field(event, want):
    assert refs(event) == want
