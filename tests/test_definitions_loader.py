"""Loading the example game into the typed model, and the resolved scenario of DESIGN §4 both ways."""
from __future__ import annotations

import json
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from modulebuilder.definitions import (DefinitionError, load_counters, load_map, load_resolved, load_scenario,
                                       load_tables, resolve, validate_files)
from modulebuilder.definitions.counters import derive_brigade
from modulebuilder.definitions.schemas import validator
from modulebuilder.model import Face, Placement, Reinforcement, TurnTrack

ROOT = Path(__file__).resolve().parent.parent
TINY = ROOT / "examples" / "tiny"

# DESIGN §4's example, verbatim except for its "..." placeholders (a unit's remaining fields, the tables).
DESIGN_EXAMPLE = """
ruleset: triumph-and-glory
map:
  grid: {orientation: pointy, shifted: even, first_column: 1, first_row: 1, columns: 8, rows: 8}
  terrain: {default: clear, hexes: {"0304": village, "0506": woods}}
  hexsides: [{hexes: ["0304", "0305"], feature: stream}]
  roads: [["0101", "0202", "0302"]]
  elevation: {"0707": 1}
  names: {"0304": Borodino}
  markers: [{type: on_fire, hex: "0304"}, {type: bridge_destroyed, hexes: ["0606", "0706"]}]
leaders: [{id: napoleon, name: Napoleon, side: French, orders_rating: 3, delay_rating: null, drm: -2,
           command_range: 3, ma: 8, hex: "0108"}]
activation_groups: [{id: i-corps, name: "I Corps (Davout)", side: French, colour: "#2b4c9b", io_rating: 6, markers: 2}]
units:
  - {id: dumon-a, name: "Dumon a", kind: infantry, side: French, ag: i-corps, assault: 4, cohesion: 5, ma: 4,
     dfe: 1, hex: "0404", facing: 12, status: good, disordered: {assault: 3, cohesion: 4}}
  - {id: psk-b, name: "Psk b", kind: infantry, side: French, ag: i-corps, assault: 3, cohesion: 5, ma: 4, dfe: 1,
     box: withdrawn}
sides: {French: {cinc: napoleon}, Russian: {cinc: kutuzov}}
turns: 12
special_rules: [BOR-5, BOR-NAPOLEON]
tables: {movement_costs: {rows: {clear: {infantry: 1, cavalry: 1, artillery: 2, commander: 1}}}}
start: {turn: 2, phase: orders}
"""


@pytest.fixture(autouse=True)
def _at_repo_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


@pytest.fixture
def tiny(_at_repo_root: None):
    return load_scenario("examples/tiny/scenario.yaml")


# --------------------------------------------------------------------------------------------- example

def test_the_example_game_validates() -> None:
    assert validate_files(sorted(TINY.glob("*.yaml"))) == []


def test_tiny_counters(tiny) -> None:
    c = tiny.counters
    assert [g.id for g in c.activation_groups] == ["i-corps", "vi-corps"]
    assert [u.id for u in c.units] == ["dumon-a", "dumon-b", "lepic", "i-art", "psk-a", "psk-b", "vi-art", "sumsky"]
    assert [x.id for x in c.leaders] == ["napoleon", "kutuzov"]
    dumon = c.unit("dumon-a")
    assert (dumon.side, dumon.brigade, dumon.corps) == ("French", "Dumon", "CM")
    assert dumon.front == Face(assault=4, cohesion=5, ma=4, dfe=1)
    assert dumon.back == Face(assault=3, cohesion=4, ma=4, dfe=1)      # unlisted back values = front
    assert c.unit("lepic").brigade is None and c.unit("lepic").cav_type == "H"
    art = c.unit("i-art")
    assert (art.fire, art.eff_range, art.max_range, art.assault) == (4, 2, 4, None)
    assert c.leaders[0].delay_rating is None and c.leaders[0].drm == -2
    assert {m.id for m in c.markers} == {"orders", "disordered"}
    assert dumon.source == "examples/tiny/french.yaml:21"


def test_tiny_map(tiny) -> None:
    m = tiny.map
    assert (m.grid.orientation, m.grid.columns, m.grid.rows) == ("pointy", 8, 8)
    assert m.terrain_of("0404") == "village" and m.terrain_of("0101") == "clear"
    assert m.hexside_features("0405", "0404") == ("stream", "bridge")
    assert m.roads[0].name == "Village Road" and len(m.roads[0].hexes) == 8
    assert dict(m.elevation) == {"0606": 1, "0607": 1}
    assert m.names["0404"] == "Tinyvka" and m.style.hex_size == 48


def test_tiny_scenario(tiny) -> None:
    assert tiny.turns == TurnTrack(1, 4, "06:00", 75)
    assert tiny.turns.label(2) == "0715"
    assert [s.name for s in tiny.sides] == ["French", "Russian"] and tiny.sides[1].cinc == "kutuzov"
    # Units first, in set-up (stacking) order, then leaders.
    assert tiny.setup[0] == Placement("dumon-a", hex="0203", facing=2)
    assert [p.unit for p in tiny.setup[-2:]] == ["napoleon", "kutuzov"]
    assert Placement("psk-b", hex="0504", facing=10, status="disordered") in tiny.setup
    assert tiny.reinforcements == (Reinforcement(units=("sumsky",), entry=("0801",), turn=2),)
    assert tiny.tables["movement_costs"]["rows"]["woods"]["cavalry"] == {"cost": 3, "disorders": True}


def test_the_model_is_immutable(tiny) -> None:
    with pytest.raises(FrozenInstanceError):
        tiny.name = "x"
    with pytest.raises(TypeError):
        tiny.tables["odds"] = []


def test_single_file_loaders() -> None:
    assert load_map(TINY / "map.yaml").id == "tiny"
    assert len(load_counters([TINY / "french.yaml", TINY / "russian.yaml"]).units) == 8
    assert load_counters(TINY / "markers.yaml").markers[0].back_text == "NO"
    assert load_tables(TINY / "tables.yaml")["odds"][0] == (4, 1, 4)


def test_duplicate_ids_are_found_across_counters_files() -> None:
    with pytest.raises(DefinitionError) as caught:
        load_counters(["examples/tiny/french.yaml", "examples/tiny/french.yaml"])
    assert len(caught.value.problems) == 6          # its group, four units and a leader, each defined twice
    assert "duplicate activation group id 'i-corps'" in str(caught.value)


# --------------------------------------------------------------------------------------------- brigade

@pytest.mark.parametrize("name, brigade", [
    ("Dumon a", "Dumon"), ("Dumon b", "Dumon"), ("1 Gren  c", "1 Gren"), ("Lepic", None), ("Psk Jgr", None),
    ("Guard A", None), ("a", None),
])
def test_brigade_is_the_name_before_a_one_letter_suffix(name: str, brigade: str | None) -> None:
    assert derive_brigade(name) == brigade


@given(stem=st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ", min_size=1)
       .map(str.strip).filter(bool), letter=st.sampled_from("abcdefghijklmnopqrstuvwxyz"))
def test_any_stem_with_a_letter_suffix_is_its_brigade(stem: str, letter: str) -> None:
    assert derive_brigade(f"{stem} {letter}") == stem
    assert derive_brigade(f"{stem}{letter}") is None or " " in stem


# --------------------------------------------------------------------------------------------- resolved

def test_resolve_gives_a_schema_valid_document_that_loads_back_equal(tiny) -> None:
    doc = resolve(tiny)
    assert list(validator("resolved-scenario").iter_errors(doc)) == []
    assert load_resolved(doc) == tiny
    assert load_resolved(json.dumps(doc)) == tiny                       # JSON text
    assert doc["units"][0]["hex"] == "0203" and doc["units"][-1]["box"] == "reinforcement"
    assert doc["turns"] == {"first": 1, "last": 4, "start": "06:00", "minutes": 75}


def test_a_resolved_file_loads_by_path(tiny, tmp_path: Path) -> None:
    path = tmp_path / "tiny.json"
    path.write_text(json.dumps(resolve(tiny)), encoding="utf-8")
    assert load_resolved(path) == tiny
    assert load_resolved(str(path)) == tiny


def test_the_design_example_is_accepted() -> None:
    s = load_resolved(DESIGN_EXAMPLE)
    assert s.id == "inline" and s.ruleset == "triumph-and-glory"
    assert s.map.terrain_of("0506") == "woods" and s.map.hexside_features("0304", "0305") == ("stream",)
    assert s.map.roads[0].hexes == ("0101", "0202", "0302") and s.map.elevation["0707"] == 1
    assert [m.hexes for m in s.map.markers] == [("0304",), ("0606", "0706")]
    assert s.setup == (Placement("dumon-a", hex="0404", facing=12), Placement("psk-b", box="withdrawn"),
                       Placement("napoleon", hex="0108"))
    assert s.counters.unit("dumon-a").back == Face(assault=3, cohesion=4, ma=4, dfe=1)
    assert s.turns == TurnTrack(1, 12) and s.special_rules == ("BOR-5", "BOR-NAPOLEON")
    assert dict(s.start) == {"turn": 2, "phase": "orders"}
    assert load_resolved(resolve(s)) == s


def test_a_resolved_document_given_as_a_mapping_is_checked_too() -> None:
    doc = {"ruleset": "triumph-and-glory",
           "map": {"grid": {"orientation": "flat", "shifted": "odd", "first_column": 1, "first_row": 1,
                            "columns": 4, "rows": 4}},
           "activation_groups": [{"id": "g", "name": "G", "side": "A", "colour": "#000000", "io_rating": 5}],
           "units": [{"id": "u", "name": "U", "kind": "cavalry", "side": "A", "ag": "g", "assault": 3,
                      "cohesion": 5, "ma": 6, "cav_type": "L", "hex": "0505", "facing": 12}]}
    with pytest.raises(DefinitionError) as caught:
        load_resolved(doc, source="test")
    assert [str(p) for p in caught.value.problems] == [
        "test:1:1: units[0].facing: facing 12 points at a hexside; on a flat map a unit faces a vertex "
        "(1, 3, 5, 7, 9, 11)",
        "test:1:1: units[0].hex: hex '0505' is not on the map (columns 1-4, rows 1-4)",
    ]


@pytest.mark.parametrize("change, expected", [
    ("kind: infantry, side: French, ag: i-corps, assault: 4, cohesion: 5, ma: 4,\n     dfe: 1, hex: \"0404\"",
     "<inline>:15:5: units[0].facing: a unit on the map needs a facing"),
    ("kind: infantry, side: French, ag: ii-corps, assault: 4, cohesion: 5, ma: 4,\n     dfe: 1, hex: \"0404\", facing: 12",
     "<inline>:15:70: units[0].ag: no activation group 'ii-corps' (did you mean 'i-corps'?)"),
    ("kind: cavalry, side: French, ag: i-corps, assault: 4, cohesion: 5, ma: 4,\n     dfe: 1, hex: \"0404\", facing: 12",
     "<inline>:15:5: units[0].cav_type: required field missing"),
])
def test_resolved_problems_have_document_paths(change: str, expected: str) -> None:
    text = DESIGN_EXAMPLE.replace(
        "kind: infantry, side: French, ag: i-corps, assault: 4, cohesion: 5, ma: 4,\n     dfe: 1, hex: \"0404\", facing: 12",
        change, 1)
    with pytest.raises(DefinitionError) as caught:
        load_resolved(text)
    assert expected in [str(p) for p in caught.value.problems]


def test_resolved_syntax_errors_are_problems_too() -> None:
    with pytest.raises(DefinitionError) as caught:
        load_resolved('{"ruleset": ', source="log.json")
    (problem,) = caught.value.problems
    assert problem.file == "log.json" and problem.message.startswith("YAML syntax error")


@pytest.mark.parametrize("doc, expected", [
    ("no/such/scenario.json", "no/such/scenario.json:1:1: file: file not found"),
    ({"ruleset": object()}, "<inline>:1:1: file: not a JSON-like document: cannot use a object value"),
    ("ruleset: x", "<inline>:1:1: map: required field missing"),
])
def test_load_resolved_refuses_what_is_not_a_document(doc: object, expected: str) -> None:
    with pytest.raises(DefinitionError) as caught:
        load_resolved(doc)  # type: ignore[arg-type]
    assert str(caught.value.problems[0]) == expected


def test_musket_and_pike_unit_size_and_formation_round_trip() -> None:
    doc = """
ruleset: musket-and-pike
map: {grid: {orientation: flat, shifted: odd, first_column: 1, first_row: 1, columns: 6, rows: 6}}
activation_groups: [{id: left, name: Left wing, side: Royalist, colour: "#aa0000", io_rating: null}]
units:
  - {id: pikes-1, name: Pikes, kind: infantry, side: Royalist, ag: left, assault: 4, cohesion: 5, ma: 4, dfe: 0,
     size: 2, flags: [heavy, pikes], hex: "0303", facing: 1, formation: hedgehog}
"""
    s = load_resolved(doc)
    assert s.counters.unit("pikes-1").size == 2
    assert s.setup == (Placement("pikes-1", hex="0303", facing=1, formation="hedgehog"),)
    assert load_resolved(resolve(s)) == s
    with pytest.raises(DefinitionError) as caught:
        load_resolved(doc.replace("size: 2", "size: 3").replace("hedgehog", "square"))
    assert [p.message for p in caught.value.problems] == [
        "must be one of 1, 2 (got 3)",
        "must be one of normal, shaken, broken, hedgehog, open_order, column (got 'square')"]


def test_short_names_survive_loading_and_the_resolved_round_trip() -> None:
    s = load_scenario(ROOT / "scenarios" / "borodino.yaml")
    u = s.counters.unit("ru-lg-preobrazhensky")
    assert (u.name, u.short_name) == ("Preobrazhensky", "Preobr")
    assert s.counters.unit("ru-lg-semenovsky").short_name is None
    doc = resolve(s)
    assert next(x for x in doc["units"] if x["id"] == "ru-lg-preobrazhensky")["short_name"] == "Preobr"
    assert load_resolved(doc).counters.unit("ru-lg-preobrazhensky").short_name == "Preobr"
