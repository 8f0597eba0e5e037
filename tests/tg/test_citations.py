"""A ruling cites every rule that decided it, including the ones that permitted the act (issue 18, point 3).

The issue's cases one by one, then the property over the committed sample game and random play: every
ruling's ``rules`` hold the rule of each of its errors, results, roll targets and modifiers; a move that ends
with friends cites 6.21, one whose facing changes 6.12, a Destruction draw BOR-5; and (point 5) every
recovery the Morale Phase owes is in ``awaiting``."""
from __future__ import annotations

from pathlib import Path

from referee.engine.replay import new_game, step
from referee.logs import read_log
from referee.play import play_game
from referee.rulesets.triumph_and_glory import RULESET

from .games import FR, RU, ag, art, at, basic, game_scenario, inf, kutuzov, napoleon, play
from .test_random_play import skirmish

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
AGS = [ag("i-corps"), ag("ru-2", RU, io=4)]


def errors(r):
    return [(e["rule"], e["code"]) for e in r["errors"]]


def start(p, fr=(), first="i-corps"):
    p.ok("orders", side=FR, under_orders=list(fr))
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("first_marker", side=FR, marker=first)


def test_6_21_a_move_into_a_friendly_stack_cites_the_stacking_rule():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), at(inf("a", brigade="A"), "0304"),
                           at(inf("b", brigade="A"), "0404"), at(inf("r", RU, ag="ru-2"), "0701"), ags=AGS))
    start(p, fr=["a"])
    r = p.ok("move", side=FR, unit="a", path=["0404"])
    assert {"7.11", "6.21", "6.11"} <= set(r["rules"])


def test_bor_stack_a_battery_joining_a_battery_cites_bor_stack():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), at(art("g1", fire=4), "0304"),
                           at(art("g2", fire=4), "0404"), at(inf("r", RU, ag="ru-2"), "0701"), ags=AGS,
                           special_rules=["BOR-STACK"]))
    start(p, fr=["g1"])
    r = p.ok("move", side=FR, unit="g1", path=["0404"])
    assert {"6.21", "BOR-STACK"} <= set(r["rules"])
    # the same check, failed, cites the same rules (a third battery would break 6.21's two)


def test_6_12_a_move_ending_in_a_change_of_facing_cites_6_12():
    p = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), at(inf("a"), "0304", facing=12),
                           at(inf("r", RU, ag="ru-2"), "0701"), ags=AGS))
    start(p, fr=["a"])
    r = p.ok("move", side=FR, unit="a", path=["0303"], facing=2)
    assert "6.12" in r["rules"]
    q = play(game_scenario(at(napoleon(), "0101"), at(kutuzov(), "0808"), at(inf("a"), "0304", facing=12),
                           at(inf("r", RU, ag="ru-2"), "0701"), ags=AGS))
    start(q, fr=["a"])
    assert "6.12" not in q.ok("move", side=FR, unit="a", path=["0303"])["rules"]     # facing kept


def cga_game():
    return game_scenario(at(napoleon(), "0207"), at(kutuzov(), "0702"), at(inf("fa1"), "0206"),
                         at(inf("fb1", ag="cav"), "0107"), at(inf("r1", RU, ag="ru-2"), "0502", facing=6),
                         ags=[ag("i-corps"), ag("cav", markers=1), ag("ru-2", RU, io=4)],
                         options={"cga_uses": {FR: 1, RU: 1}})


def test_5_34_a_first_marker_held_back_for_the_cga_is_refused_under_5_34():
    p = play(cga_game())
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("cga", side=FR, ags=["i-corps", "cav"])
    p.ok("end_phase", side=RU)                               # the Russians decline theirs
    assert errors(p("first_marker", side=FR, marker="cav")) == [("5.34", "held_back_for_cga")]
    assert errors(p("first_marker", side=FR, marker="cga:Russian")) == [("4.0", "not_in_cup")]
    r = p.ok("first_marker", side=FR, marker="cga:French")
    assert "5.34" in r["rules"]


def test_5_35_an_undeclared_cga_marker_is_refused_under_5_35():
    p = play(cga_game())
    p.ok("orders", side=FR, under_orders=[])
    p.ok("orders", side=RU, under_orders=[])
    p.ok("initiative", rolls={FR: 9, RU: 0})
    p.ok("end_phase", side=FR)
    p.ok("end_phase", side=RU)
    assert errors(p("first_marker", side=FR, marker="cga:French")) == [("5.35", "cga_not_declared")]


def test_5_56_a_cohesion_check_nobody_owes_is_refused_under_5_56():
    p = play(basic())
    start(p, first="i-corps")
    p.ok("end_activation", side=FR)
    while p.state.phase == "activation":
        if p.state.activation is not None:
            p.ok("end_activation", side=p.state.activation.side)
        else:
            p.ok("draw", marker=sorted(set(p.state.cup))[0])
    p.ok("go_first", side=FR, first=FR)
    p.ok("reserve", side=FR, unit="fa1")
    assert errors(p("cohesion_check", side=FR, unit="fa1", roll=0)) == [("5.56", "no_check_owed")]
    r = p.ok("move", side=FR, unit="fa1", path=["0205"])
    assert r["awaiting"] == [{"type": "cohesion_check", "side": FR, "unit": "fa1", "rule": "5.54"}]


# --------------------------------------------------------------------------------------------- the property

def citation_problems(before, event, ruling) -> list[str]:
    """What ``ruling`` (of ``event`` on state ``before``) decided without citing."""
    r = ruling.to_dict()
    have = set(r["rules"])
    need = {e["rule"] for e in r["errors"]} | {x["rule"] for x in r["results"]}
    for roll in r["rolls"]:
        need |= {m["rule"] for m in roll["modifiers"]} | ({roll["base_rule"]} if roll.get("base_rule") else set())
    out = [f"{r['index']} {r['type']}: uncited {sorted(need - have)}"] if need - have else []
    if r["verdict"] != "legal":
        return out
    t = event["type"]
    if t == "move" and event.get("path"):
        u = before.board.units[event["unit"]]
        end = event["path"][-1]
        if not u.is_leader and end != u.hex and before.board.stacks.get(end) and "6.21" not in have:
            out.append(f"{r['index']} move into friends without 6.21")
        if event.get("facing") is not None and event["facing"] != u.facing and "6.12" not in have:
            out.append(f"{r['index']} move changing facing without 6.12")
    if t == "draw" and event.get("marker") == "destruction" and "BOR-5" not in have:
        out.append(f"{r['index']} Destruction draw without BOR-5")
    return out


def recovery_problems(after, ruling) -> list[str]:
    if after.phase != "morale":
        return []
    listed = {a.unit for a in ruling.awaiting if a.type == "recovery"}
    missing = set(after.recovery_owed) - listed
    return [f"{ruling.index} {ruling.type}: recovery owed but not awaited: {sorted(missing)}"] if missing else []


def check_game(ruleset, scenario, events, dice, seed) -> list[str]:
    game = new_game(ruleset, scenario, dice, seed)
    problems: list[str] = []
    for i, e in enumerate(events):
        before = game.state
        ruling, game, played = step(game, i, e)
        problems += citation_problems(before, played, ruling) + recovery_problems(game.state, ruling)
    return problems


def test_every_ruling_of_the_sample_game_cites_what_decided_it():
    log = read_log(FIXTURES / "sample-borodino.json")
    problems = check_game(log.ruleset, log.scenario, log.events, log.dice, log.seed)
    assert problems == [], problems[:20]


def test_every_ruling_of_random_play_cites_what_decided_it():
    for seed in range(6):
        sc = skirmish(seed, turns=2)
        g = play_game(RULESET, sc, seed)
        problems = check_game(RULESET, sc, g.events, "referee", f"dice:{seed}")
        assert problems == [], (seed, problems[:20])
