"""Assault Probability (Commitment) Check, 9.41–9.46 and 5.27 — main digest §13 items 61, 68–77."""
from __future__ import annotations

from referee.rulesets.triumph_and_glory.commitment import commitment_roll, committed_units

from .helpers import art, at, board, cav, inf, leader
from .helpers_combat import DEF_HEX, FR, FRONT_L, REAR_L, RU

NAP = leader("napoleon", FR, command_range=3, drm=-2)


def _apc(*placed, attacker="g", targets=(DEF_HEX,), status="UO", charge=False, use_cinc=True, **kw):
    b = board(*placed, **kw)
    cinc = b.unit("napoleon") if "napoleon" in b.units else None
    return commitment_roll(b, b.unit(attacker), targets, order_status=status, cinc=cinc, charge=charge,
                           use_cinc=use_cinc)


def test_cat_68_seed_example_roll_6_or_less():
    r = _apc(at(inf("g", cohesion=5, name="Guy a"), FRONT_L, facing=6), at(NAP, "0401"),
             at(inf("psk", RU, dfe=1, name="Psk Jgr"), DEF_HEX, facing=12))
    assert [(m.value, m.rule) for m in r.modifiers] == [(-2, "9.42"), (1, "9.42")]
    assert (r.base, r.pass_max, r.p_success) == (5, 6, 0.7)
    print(r.arithmetic(6), "|", r.arithmetic(7))
    assert r.arithmetic(6) == "6 - 2 + 1 = 5 <= 5: pass"
    assert r.arithmetic(7) == "7 - 2 + 1 = 6 > 5: fail"
    assert r.base_label == "cohesion of Guy a" and r.base_rule == "9.43"


def test_cat_70_worked_example_stack_b_no_orders_out_of_range():
    r = _apc(at(inf("g", cohesion=6), FRONT_L, facing=6), at(NAP, "0801"),
             at(inf("r", RU, dfe=1), DEF_HEX, facing=12), status="NO")
    assert sorted(m.value for m in r.modifiers) == [1, 1]
    assert r.passes(4) and not r.passes(5) and r.pass_set == (0, 1, 2, 3, 4) and r.p_success == 0.5


def test_cat_71_under_orders_but_nobody_in_range():
    r = _apc(at(inf("g", cohesion=5), FRONT_L, facing=6), at(NAP, "0808"),
             at(inf("r", RU, dfe=1), DEF_HEX, facing=12))
    assert [m.value for m in r.modifiers] == [1] and r.pass_max == 4


def test_cat_73_from_the_rear_no_dfe():
    r = _apc(at(inf("g", cohesion=5), REAR_L, facing=12), at(NAP, "0407"),
             at(inf("r", RU, dfe=1), DEF_HEX, facing=12))
    assert [m.value for m in r.modifiers] == [-2] and r.pass_max == 7


def test_cat_74_charge_ignores_dfe():
    r = _apc(at(cav("g", cohesion=6), FRONT_L, facing=6), at(NAP, "0401"),
             at(inf("r", RU, dfe=2), DEF_HEX, facing=12), charge=True)
    assert [m.value for m in r.modifiers] == [-2] and r.pass_max == 8


def test_cat_76_artillery_on_top_of_the_defending_hex_gives_no_dfe():
    r = _apc(at(inf("g", cohesion=5), FRONT_L, facing=6), at(NAP, "0808"),
             at(art("gun", RU), DEF_HEX, facing=12), at(inf("r", RU, dfe=2), DEF_HEX, facing=12), status="NO")
    assert [m.value for m in r.modifiers] == [1] and r.pass_max == 4


def test_cat_77_cohesion_2_cannot_pass():
    r = _apc(at(inf("g", cohesion=2), FRONT_L, facing=6),
             at(inf("r", RU, dfe=2), DEF_HEX, facing=12), status="NO")
    assert r.pass_max == -1 and r.p_success == 0.0 and r.pass_set == ()


def test_cat_61_reserve_no_orders_gets_plus_one_unless_in_range_and_never_the_cinc_drm():
    far = _apc(at(inf("g", cohesion=5), REAR_L, facing=12), at(NAP, "0808"),
               at(inf("r", RU), DEF_HEX, facing=12), status="NO")
    near = _apc(at(inf("g", cohesion=5), REAR_L, facing=12), at(NAP, "0407"),
                at(inf("r", RU), DEF_HEX, facing=12), status="NO")
    assert [(m.value, m.rule) for m in far.modifiers] == [(1, "5.27")]
    assert near.modifiers == ()


def test_cat_25_village_infantry_dfe_counts_from_any_side():
    r = _apc(at(inf("g", cohesion=5), REAR_L, facing=12), at(inf("r", RU, dfe=1), DEF_HEX, facing=12),
             terrain={DEF_HEX: "village"})
    assert [m.value for m in r.modifiers] == [1]


def test_a16_cinc_drm_may_be_declined():
    r = _apc(at(inf("g", cohesion=5), REAR_L, facing=12), at(NAP, "0407"),
             at(inf("r", RU), DEF_HEX, facing=12), use_cinc=False)
    assert r.modifiers == () and r.pass_max == 5


def test_a18_dfe_summed_over_target_hexes_attacked_through_the_front():
    # g in 0403 facing 6 attacks 0404 and 0304; both defenders face 12, so 0403 is in both fronts.
    r = _apc(at(inf("g", cohesion=5), FRONT_L, facing=6), at(inf("r1", RU, dfe=1), DEF_HEX, facing=12),
             at(inf("r2", RU, dfe=2), "0304", facing=2), targets=(DEF_HEX, "0304"))
    assert sorted(m.value for m in r.modifiers) == [1, 2]


def test_schevardino_without_cinc_only_dfe():
    r = _apc(at(inf("g", cohesion=5), FRONT_L, facing=6), at(inf("r", RU, dfe=1), DEF_HEX, facing=12))
    assert [m.value for m in r.modifiers] == [1]


def test_9_45_stacked_units_follow_the_top_unit_artillery_never():
    b = board(at(inf("a1", brigade="A"), FRONT_L, facing=6), at(inf("a2", brigade="A"), FRONT_L, facing=6),
              at(art("gun"), FRONT_L, facing=6))
    assert committed_units(b, FRONT_L, ["a1", "a2", "gun"], passed=True) == ("a1", "a2")
    assert committed_units(b, FRONT_L, ["a1", "a2"], passed=False) == ()
    assert committed_units(b.update("a1", status="disordered"), FRONT_L, ["a1", "a2"], passed=True) == ()


def test_cat_79_apc_before_every_declaration_or_resolution_with_apc_owed_is_illegal():
    from referee.rulesets.triumph_and_glory.commitment import commitment_order_errors, resolution_order_errors
    assert [e.rule for e in commitment_order_errors(declarations_closed=False)] == ["9.44"]
    assert commitment_order_errors(declarations_closed=True) == []
    errs = resolution_order_errors(["guy-a"])
    assert [(e.rule, e.code, e.alternatives) for e in errs] == [("9.46", "commitment_pending", ("guy-a",))]
    assert resolution_order_errors([]) == []
