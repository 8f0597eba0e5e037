"""Never a traceback: any YAML document, however wrong, gives problems (or a model), not an exception.

Documents are drawn from the vocabulary of the formats (field names, hex numbers, kinds) so they get past
the first schema check often enough to reach the semantic checks, which must cope with any shape.
"""
from __future__ import annotations

import io
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ruamel.yaml import YAML

from modulebuilder.definitions import Problem, check_resolved, validate_files

VOCABULARY = ["id", "name", "kind", "side", "ag", "assault", "cohesion", "ma", "dfe", "cav_type", "fire",
              "eff_range", "max_range", "disordered", "flags", "units", "leaders", "activation_groups",
              "markers", "grid", "terrain", "default", "hexes", "hexsides", "feature", "pairs", "roads",
              "elevation", "names", "setup", "unit", "hex", "facing", "status", "box", "reinforcements",
              "entry", "turns", "first", "last", "sides", "cinc", "map", "ruleset", "orientation", "shifted",
              "first_column", "first_row", "columns", "rows", "movement_costs", "colour", "io_rating",
              "orders_rating", "delay_rating", "drm", "command_range", "counters", "tables"]
values = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 13),
    st.sampled_from(["0101", "0202", "0304", "0909", "01x1", "infantry", "cavalry", "artillery", "pointy",
                     "flat", "even", "odd", "clear", "woods", "French", "g", "u", "#123456", "withdrawn",
                     "triumph-and-glory", "good", "map.yaml", "L"]),
)
documents = st.recursive(
    values,
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.sampled_from(VOCABULARY), inner, max_size=6)),
    max_leaves=30,
)
HEADERS = ["counters", "map", "scenario", "tables", "resolved-scenario"]


def as_yaml(data: object) -> str:
    out = io.StringIO()
    YAML().dump(data, out)
    return out.getvalue()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.dictionaries(st.sampled_from(VOCABULARY), documents, max_size=8), kind=st.sampled_from(HEADERS))
def test_any_document_of_any_kind_gives_problems_not_exceptions(data: dict, kind: str, tmp_path: Path) -> None:
    path = tmp_path / "doc.yaml"
    path.write_text(f"# yaml-language-server: $schema={kind}.schema.json\n" + as_yaml(data), encoding="utf-8")
    problems = validate_files([path])
    assert all(isinstance(p, Problem) and p.line >= 1 and p.column >= 1 for p in problems)


@settings(max_examples=150, deadline=None)
@given(data=st.dictionaries(st.sampled_from(VOCABULARY), documents, max_size=8))
def test_any_mapping_given_as_a_resolved_scenario_gives_problems(data: dict) -> None:
    assert all(isinstance(p, Problem) for p in check_resolved(data))
