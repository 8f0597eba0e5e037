"""The game declaration (issue 14): a game declares its unit types and factor fields, so `armor` is fine
where the game declares it and `cavlry` is still refused with a suggestion; its version (the module's), a
print count per unit and side colours are data the builders read."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from modulebuilder.definitions import DefinitionError, load_resolved, load_scenario, resolve, validate_files

GAME = {"id": "venn", "title": "Venn Crossing", "version": "1.2",
        "sides": {"Blue": {"colour": "#2b4c9b", "text_colour": "#ffffff"}, "Red": {"colour": "#9b2b2b"}},
        "unit_types": [{"id": "armor", "name": "Armor", "symbol": "armor"}, {"id": "mechanized"}],
        "factors": [{"id": "attack", "name": "Attack"}, {"id": "defence"}, {"id": "movement"}]}


def write_game(folder: Path, units: list[dict], game: dict | str | None = "game.yaml") -> Path:
    (folder / "game.yaml").write_text(json.dumps(GAME), encoding="utf-8")
    (folder / "map.yaml").write_text(json.dumps({"id": "m", "grid": {
        "orientation": "pointy", "shifted": "even", "first_column": 1, "first_row": 1, "columns": 6,
        "rows": 6}, "terrain": {"default": "clear"}}), encoding="utf-8")
    groups = [{"id": "blue", "name": "Blue TF", "side": "Blue", "colour": "#2b4c9b"},
              {"id": "red", "name": "Red KG", "side": "Red", "colour": "#9b2b2b"}]
    (folder / "counters.yaml").write_text(json.dumps({"game": "venn", "activation_groups": groups,
                                                       "units": units}), encoding="utf-8")
    scenario = {"id": "venn", "name": "Venn", "ruleset": "musket-and-pike", "map": "map.yaml",
                "counters": ["counters.yaml"], "sides": {"Blue": {}, "Red": {}}, "turns": 4,
                "setup": [{"unit": u["id"], "hex": f"0{i + 1}03", "facing": 12} for i, u in enumerate(units)]}
    if game is not None:
        scenario["game"] = game
    (folder / "scenario.yaml").write_text(json.dumps(scenario), encoding="utf-8")
    return folder / "scenario.yaml"


TANK = {"id": "tk", "name": "14 Tk", "kind": "armor", "side": "Blue", "ag": "blue", "echelon": "battalion",
        "attack": 6, "defence": 4, "movement": 8, "back": {"attack": 3}, "count": 2}
RIFLES = {"id": "rif", "name": "1/27", "kind": "infantry", "side": "Red", "ag": "red", "attack": 4,
          "defence": "(4)", "movement": 4}


def problems(path: Path) -> list[str]:
    return [f"{p.path}: {p.message}" for p in validate_files([path])]


def test_a_declared_unit_type_and_factor_fields_load(tmp_path: Path) -> None:
    s = load_scenario(write_game(tmp_path, [TANK, RIFLES]))
    tank = s.counters.unit("tk")
    assert (tank.kind, tank.echelon, tank.count) == ("armor", "battalion", 2)
    assert dict(tank.fields) == {"attack": 6, "defence": 4, "movement": 8} and dict(tank.back_fields) == {"attack": 3}
    assert dict(s.counters.unit("rif").fields) == {"attack": 4, "defence": "(4)", "movement": 4}
    assert s.game.version == "1.2" and s.game.unit_type("armor").symbol == "armor"
    assert [f.id for f in s.game.factors] == ["attack", "defence", "movement"]
    assert (s.side_style("Blue").colour, s.side_style("Red").text_colour) == ("#2b4c9b", None)
    assert load_resolved(resolve(s)) == s


def test_the_game_may_be_written_inline(tmp_path: Path) -> None:
    s = load_scenario(write_game(tmp_path, [TANK], game=GAME))
    assert s.game.version == "1.2" and s.counters.unit("tk").fields["attack"] == 6


def test_a_misspelt_kind_is_refused_with_a_suggestion(tmp_path: Path) -> None:
    path = write_game(tmp_path, [{**TANK, "kind": "armour"}, {**RIFLES, "kind": "cavlry"}])
    assert problems(path) == [
        "units[0].kind: unknown unit type 'armour' (did you mean 'armor'? known: infantry, cavalry, artillery, "
        "armor, mechanized; a game declares more under unit_types)",
        "units[1].kind: unknown unit type 'cavlry' (did you mean 'cavalry'? known: infantry, cavalry, artillery, "
        "armor, mechanized; a game declares more under unit_types)"]


def test_armor_is_refused_where_no_game_declares_it(tmp_path: Path) -> None:
    path = write_game(tmp_path, [TANK], game=None)
    found = problems(path)
    assert "units[0].kind: unknown unit type 'armor' (known: infantry, cavalry, artillery; a game declares more " \
           "under unit_types)" in found
    # A factor no one declared (where an installed ruleset has such a field, e.g. examples/bridgehead's
    # classic-hex, the message goes on to say whose it is).
    assert any(p.startswith("units[0].attack: unknown field 'attack'") for p in found), found


def test_a_misspelt_factor_is_an_unknown_field_with_a_suggestion(tmp_path: Path) -> None:
    tank = {k: v for k, v in TANK.items() if k != "attack"} | {"atack": 6}
    assert problems(write_game(tmp_path, [tank])) == ["units[0].atack: unknown field 'atack' (did you mean 'attack'?)"]


def test_back_values_only_for_declared_factors(tmp_path: Path) -> None:
    tank = {**TANK, "back": {"attack": 3, "range": 2}}
    assert problems(write_game(tmp_path, [tank])) == ["units[0].back.range: unknown field 'range'"]


def test_a_count_of_zero_is_refused(tmp_path: Path) -> None:
    assert problems(write_game(tmp_path, [{**TANK, "count": 0}])) == ["units[0].count: must be at least 1 (got 0)"]


def test_a_game_file_is_checked_on_its_own(tmp_path: Path) -> None:
    bad = {**GAME, "version": 1.2, "factors": [{"id": "attack"}, {"id": "attack"}, {"id": "name"}],
           "unit_types": [{"id": "Armor"}]}
    path = tmp_path / "game.yaml"
    path.write_text("# yaml-language-server: $schema=schemas/game.schema.json\n" + json.dumps(bad), encoding="utf-8")
    found = problems(path)
    assert "version: must be a version like \"1.2\" or \"2.0-beta\" (got 1.2); put it in quotes" in found
    assert "unit_types[0].id: must be a lower-case id of letters, digits and hyphens, like \"i-corps\" (got " \
           "'Armor')" in found
    good = {**GAME, "factors": [{"id": "attack"}, {"id": "attack"}, {"id": "name"}]}
    path.write_text(json.dumps(good), encoding="utf-8")           # no header: told by its keys
    assert problems(path) == ["factors[1].id: factor 'attack' is already declared at factors[0]",
                              "factors[2].id: 'name' is a field every unit has; name the factor otherwise"]


def test_borodino_declares_nothing_and_resolves_as_before() -> None:
    doc = resolve(load_scenario("scenarios/borodino.yaml"))
    assert "game" not in doc and not any("count" in u or "echelon" in u for u in doc["units"])


@pytest.mark.parametrize("field, value", [("count", 3), ("echelon", "division")])
def test_count_and_echelon_are_every_games_fields(field: str, value: object) -> None:
    from tests.test_definitions_rulesets import mp_design_scenario

    doc = mp_design_scenario()
    doc["units"][0][field] = value
    assert getattr(load_resolved(doc).counters.unit("yellow"), field) == value
    tg = {**doc, "ruleset": "triumph-and-glory"}
    with pytest.raises(DefinitionError) as caught:
        load_resolved(tg)
    assert not any(p.path == f"units[0].{field}" for p in caught.value.problems)
