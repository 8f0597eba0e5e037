"""The broken-file corpus: each file in tests/broken/ is wrong in one way (c_many_errors in several), and
validating it prints exactly these lines.  The lines are the contract an author sees, so they are spelled
out in full, line and column included."""
from __future__ import annotations

from pathlib import Path

import pytest

from modulebuilder.definitions import DefinitionError, load_counters, load_map, load_scenario, validate_files

ROOT = Path(__file__).resolve().parent.parent
BROKEN_DIR = ROOT / "tests" / "broken"

EXPECTED: list[tuple[str, list[str]]] = [
    ('c_ag_other_side.yaml', [
        "tests/broken/c_ag_other_side.yaml:7:56: units[0].ag: activation group 'vi-corps' belongs to Russian, not French",
    ]),
    ('c_assault_on_artillery.yaml', [
        'tests/broken/c_assault_on_artillery.yaml:7:60: units[0].assault: artillery units have no assault',
    ]),
    ('c_bad_cav_type.yaml', [
        "tests/broken/c_bad_cav_type.yaml:7:68: units[0].cav_type: must be one of L, H, C (got 'D')",
    ]),
    ('c_bad_colour.yaml', [
        'tests/broken/c_bad_colour.yaml:5:42: activation_groups[0].colour: must be a colour like "#2b4c9b" (got \'blue\')',
    ]),
    ('c_bad_id.yaml', [
        'tests/broken/c_bad_id.yaml:5:10: activation_groups[0].id: must be a lower-case id of letters, digits and hyphens, like "i-corps" (got \'I_Corps\')',
    ]),
    ('c_dfe_on_cavalry.yaml', [
        'tests/broken/c_dfe_on_cavalry.yaml:7:103: units[0].dfe: cavalry units have no dfe',
    ]),
    ('c_duplicate_id.yaml', [
        "tests/broken/c_duplicate_id.yaml:8:10: units[1].id: duplicate unit or leader id 'dumon-a' (first defined at tests/broken/c_duplicate_id.yaml:7)",
    ]),
    ('c_duplicate_key.yaml', [
        'tests/broken/c_duplicate_key.yaml:4:1: file: YAML syntax error: found duplicate key "side" with value "Russian" (original value: "French")',
    ]),
    ('c_eff_gt_max.yaml', [
        'tests/broken/c_eff_gt_max.yaml:7:80: units[0].eff_range: effective range 5 is greater than maximum range 4',
    ]),
    ('c_io_rating_range.yaml', [
        'tests/broken/c_io_rating_range.yaml:5:64: activation_groups[0].io_rating: must be at most 9 (got 12)',
    ]),
    ('c_many_errors.yaml', [
        'tests/broken/c_many_errors.yaml:7:5: units[0].cohesion: required field missing',
        "tests/broken/c_many_errors.yaml:8:49: units[1].ag: no activation group 'ii-corps' (did you mean 'i-corps'?)",
        'tests/broken/c_many_errors.yaml:8:104: units[1].dfe: cavalry units have no dfe',
        "tests/broken/c_many_errors.yaml:9:10: units[2].id: duplicate unit or leader id 'dumon-a' (first defined at tests/broken/c_many_errors.yaml:7)",
        'tests/broken/c_many_errors.yaml:9:84: units[2].eff_range: effective range 3 is greater than maximum range 2',
        "tests/broken/c_many_errors.yaml:9:118: units[2].ma: must be an integer (got 'four')",
    ]),
    ('c_missing_cohesion.yaml', [
        'tests/broken/c_missing_cohesion.yaml:7:5: units[0].cohesion: required field missing',
    ]),
    ('c_no_side.yaml', [
        'tests/broken/c_no_side.yaml:4:5: leaders[0].side: required field missing',
    ]),
    ('c_positive_drm.yaml', [
        'tests/broken/c_positive_drm.yaml:5:79: leaders[0].drm: must be at most 0 (got 2)',
    ]),
    ('c_unknown_ag.yaml', [
        "tests/broken/c_unknown_ag.yaml:7:56: units[0].ag: no activation group 'i-crops' (did you mean 'i-corps'?)",
    ]),
    ('c_unknown_field.yaml', [
        'tests/broken/c_unknown_field.yaml:7:5: units[0].dfe: required field missing',
        "tests/broken/c_unknown_field.yaml:7:97: units[0].dfee: unknown field 'dfee' (did you mean 'dfe'?)",
    ]),
    ('c_unknown_kind.yaml', [
        "tests/broken/c_unknown_kind.yaml:7:42: units[0].kind: unknown unit type 'infantr' (did you mean 'infantry'? known: infantry, cavalry, artillery; a game declares more under unit_types)",
    ]),
    ('c_wrong_type.yaml', [
        "tests/broken/c_wrong_type.yaml:7:87: units[0].cohesion: must be an integer (got 'five')",
    ]),
    ('c_yaml_syntax.yaml', [
        "tests/broken/c_yaml_syntax.yaml:6:1: file: YAML syntax error: expected ',' or '}', but got '<stream end>' (while parsing a flow mapping started at line 5)",
    ]),
    ('m_bad_hex_name.yaml', [
        'tests/broken/m_bad_hex_name.yaml:5:51: terrain.hexes.woods[1]: must be a hex number in quotes, like "0304" (got \'05a6\')',
    ]),
    ('m_bad_orientation.yaml', [
        "tests/broken/m_bad_orientation.yaml:4:21: grid.orientation: must be one of pointy, flat (got 'square')",
    ]),
    ('m_hex_twice.yaml', [
        "tests/broken/m_hex_twice.yaml:9:15: terrain.hexes.village[0]: hex '0404' already has terrain 'woods'",
    ]),
    ('m_hexside_twice.yaml', [
        "tests/broken/m_hexside_twice.yaml:8:39: hexsides[1].hexes[1]: the stream between '0305' and '0304' is already listed",
    ]),
    ('m_missing_grid.yaml', [
        'tests/broken/m_missing_grid.yaml:3:1: grid: required field missing',
    ]),
    ('m_non_adjacent_hexside.yaml', [
        "tests/broken/m_non_adjacent_hexside.yaml:8:22: hexsides[1].hexes[1]: hexes '0304' and '0306' are not adjacent, so they share no hexside",
    ]),
    ('m_non_adjacent_road.yaml', [
        "tests/broken/m_non_adjacent_road.yaml:7:46: roads[0].hexes[2]: hex '0401' is not adjacent to '0201' before it",
    ]),
    ('m_pairs_odd.yaml', [
        'tests/broken/m_pairs_odd.yaml:7:43: hexsides[0].hexes: pairs: true needs an even number of hexes (got 3)',
    ]),
    ('m_terrain_off_map.yaml', [
        "tests/broken/m_terrain_off_map.yaml:5:43: terrain.hexes.woods[0]: hex '0909' is not on the map (columns 1-8, rows 1-8)",
    ]),
    ('m_three_hexes.yaml', [
        'tests/broken/m_three_hexes.yaml:7:30: hexsides[0].hexes: must have at most 2 items (got 3)',
    ]),
    ('m_unquoted_hex.yaml', [
        'tests/broken/m_unquoted_hex.yaml:8:13: terrain.hexes.woods[0]: must be a hex number in quotes, like "0304" (got 506)',
    ]),
    ('s_bad_status.yaml', [
        "tests/broken/s_bad_status.yaml:12:53: setup[0].status: must be one of good, disordered (got 'routed')",
    ]),
    ('s_bad_turns.yaml', [
        'tests/broken/s_bad_turns.yaml:9:35: turns.start: must be a time like "06:00" (got "6 o\'clock")',
    ]),
    ('s_broken_map.yaml', [
        "tests/broken/m_terrain_off_map.yaml:5:43: terrain.hexes.woods[0]: hex '0909' is not on the map (columns 1-8, rows 1-8)",
    ]),
    ('s_disordered_no_back.yaml', [
        "tests/broken/s_disordered_no_back.yaml:11:55: setup[0].status: 'platov-a' has no Disordered side (flag no_back)",
        'tests/broken/s_disordered_no_back.yaml:12:34: setup[1].status: leaders have no status',
    ]),
    ('s_facing_hexside.yaml', [
        'tests/broken/s_facing_hexside.yaml:12:42: setup[0].facing: facing 3 points at a hexside; on a pointy map a unit faces a vertex (2, 4, 6, 8, 10, 12)',
    ]),
    ('s_hex_and_box.yaml', [
        'tests/broken/s_hex_and_box.yaml:12:21: setup[0].hex: not allowed with box (a unit in a box has no hex)',
    ]),
    ('s_leader_facing.yaml', [
        'tests/broken/s_leader_facing.yaml:12:35: setup[0].facing: leaders have no facing',
    ]),
    ('s_missing_fields.yaml', [
        # Its header is Triumph & Glory's scenario schema, which requires the ruleset it is combined for.
        'tests/broken/s_missing_fields.yaml:3:1: ruleset: required field missing',
        'tests/broken/s_missing_fields.yaml:3:1: setup: required field missing',
    ]),
    ('s_missing_map_file.yaml', [
        'tests/broken/s_missing_map_file.yaml:6:6: map: no such file: examples/tiny/no-such-map.yaml',
    ]),
    ('s_twohex_off_map.yaml', [
        "tests/broken/s_twohex_off_map.yaml:12:31: setup[0].hex: the right half of this two-hex unit (the neighbour of 0804 at 3 o'clock) is off the map",
    ]),
    ('s_no_facing.yaml', [
        'tests/broken/s_no_facing.yaml:12:5: setup[0].facing: a unit on the map needs a facing',
    ]),
    ('s_reinforcement_off_map.yaml', [
        "tests/broken/s_reinforcement_off_map.yaml:14:31: reinforcements[0].entry[0]: hex '0810' is not on the map (columns 1-8, rows 1-8)",
    ]),
    ('s_undefined_terrain.yaml', [
        "examples/tiny/map.yaml:16:13: terrain.hexes.woods[0]: terrain 'woods' has no row in movement_costs.rows of tests/broken/support/tables_no_woods.yaml",
    ]),
    ('s_unit_off_map.yaml', [
        "tests/broken/s_unit_off_map.yaml:13:26: setup[1].hex: hex '0903' is not on the map (columns 1-8, rows 1-8)",
    ]),
    ('s_unit_twice.yaml', [
        "tests/broken/s_unit_twice.yaml:13:12: setup[1].unit: 'dumon-a' is already placed at setup[0]",
        "tests/broken/s_unit_twice.yaml:15:14: reinforcements[0].units[0]: 'dumon-a' is already placed at setup[0]",
    ]),
    ('s_unknown_cinc.yaml', [
        "tests/broken/s_unknown_cinc.yaml:8:24: sides.French.cinc: leader 'kutuzov' is on side Russian, not French",
        "tests/broken/s_unknown_cinc.yaml:8:50: sides.Russian.cinc: no leader 'barclay' in the counters files",
    ]),
    ('s_unknown_unit.yaml', [
        "tests/broken/s_unknown_unit.yaml:12:12: setup[0].unit: no unit or leader 'dumon-c' in the counters files (did you mean 'dumon-b'?)",
    ]),
    ('t_bad_cost.yaml', [
        "tests/broken/t_bad_cost.yaml:5:49: movement_costs.rows.clear.artillery: must be a whole number of movement points, P (prohibited) or {cost, disorders} (got 'X') (tables of ruleset triumph-and-glory)",
    ]),
]


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    # Messages name files as given on the command line; the table assumes paths from the repository root.
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("name, lines", EXPECTED, ids=[name for name, _ in EXPECTED])
def test_broken_file_reports_exactly(name: str, lines: list[str]) -> None:
    assert [str(p) for p in validate_files([f"tests/broken/{name}"])] == lines


def test_table_covers_the_whole_corpus() -> None:
    on_disk = sorted(p.name for p in BROKEN_DIR.glob("*.yaml"))
    assert on_disk == sorted(name for name, _ in EXPECTED)
    assert len(on_disk) >= 30


def test_every_broken_file_reports_something() -> None:
    assert all(lines for _, lines in EXPECTED)


@pytest.mark.parametrize("path", sorted(BROKEN_DIR.rglob("*.yaml")), ids=lambda p: p.name)
def test_corpus_files_carry_the_schema_header(path: Path) -> None:
    assert path.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=")


def test_several_errors_in_one_file_are_all_reported_at_once() -> None:
    with pytest.raises(DefinitionError) as caught:
        load_counters("tests/broken/c_many_errors.yaml")
    fields = [p.path for p in caught.value.problems]
    assert fields == ["units[0].cohesion", "units[1].ag", "units[1].dfe", "units[2].id",
                      "units[2].eff_range", "units[2].ma"]
    assert str(caught.value).count("\n") == 5


def test_loaders_raise_the_same_problems_validate_reports() -> None:
    for loader, name in ((load_map, "m_non_adjacent_road.yaml"), (load_scenario, "s_unit_off_map.yaml")):
        with pytest.raises(DefinitionError) as caught:
            loader(f"tests/broken/{name}")
        assert [str(p) for p in caught.value.problems] == dict(EXPECTED)[name]


def test_a_scenario_reports_its_broken_map_under_the_map_file_name() -> None:
    (line,) = dict(EXPECTED)["s_broken_map.yaml"]
    assert line.startswith("tests/broken/m_terrain_off_map.yaml:")
