"""5.54 against 6.23 (issue 18, point 8): two units of a reserve group that moved and stand stacked.

5.54 (seed): «Для каждой из не артиллерийских частей, которая передвигалась во время Фазы Запасной Активации …
необходимо бросить кубик» — for *each* non-artillery unit that moved, a roll.  6.23: «Когда для группировки
частей на одном гексе необходима Проверка Сплоченности (ПС), ее проходит только верхняя из сгруппированных
пехотных/кавалерийских частей с приложением результатов этой Проверки ко всем сгруппированным с нею частям» —
when a stack needs a cohesion check, only its top infantry/cavalry unit takes it, for all.  Default
``reserve_check: unit`` (5.54, the rule of the phase); option ``stack`` (6.23)."""
from __future__ import annotations

from dataclasses import replace

from .games import FR, RU, basic, play


def reserve_game(**options):
    p = play(replace(basic(options=options or None), start={"turn": 1, "phase": "reserve"}))
    p.ok("go_first", side=FR, rolls={FR: 5, RU: 1})
    p.ok("reserve", side=FR, unit="fa1")
    r1 = p.ok("move", side=FR, unit="fa1", path=["0205"])
    r2 = p.ok("move", side=FR, unit="fa2", path=["0305", "0205"])
    assert p.state.board.stacks["0205"] == ("fa1", "fa2")
    return p, r1, r2


def test_5_54_default_each_moved_unit_checks_on_its_own():
    p, r1, r2 = reserve_game()
    assert r2["awaiting"] == [{"type": "cohesion_check", "side": FR, "unit": "fa2", "rule": "5.54"}]
    r = p.ok("cohesion_check", side=FR, unit="fa1", roll=9)
    assert r["rolls"][0]["unit"] == "fa1" and r["results"] == [{"unit": "fa1", "effect": "disordered", "rule": "5.54"}]
    assert p.state.activation.checks_owed == ("fa2",)
    r = p.ok("cohesion_check", side=FR, unit="fa2", roll=0)
    assert r["results"] == [] and not p.state.unit("fa2").disordered


def test_6_23_option_stack_the_top_unit_checks_once_for_the_hex():
    p, r1, r2 = reserve_game(reserve_check="stack")
    r = p.ok("cohesion_check", side=FR, unit="fa2", roll=9)        # any owing unit of the hex names the check
    assert r["rolls"][0]["unit"] == "fa1" and "6.23" in r["rules"]
    assert {x["unit"] for x in r["results"]} == {"fa1", "fa2"}
    assert p.state.activation.checks_owed == ()
    p.ok("end_phase", side=FR)
