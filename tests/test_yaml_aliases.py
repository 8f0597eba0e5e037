"""YAML aliases bounded by what they expand to (modulebuilder.yaml_aliases), the one check every YAML reader
of the project makes first: definitions, logs, counter templates and the service's YAML bodies."""
from __future__ import annotations

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
import pytest

from modulebuilder.definitions.yamlpos import YamlSyntaxError, parse_yaml
from modulebuilder.yaml_aliases import VALUE_WEIGHT, AliasBomb, check_aliases
from referee.logs import InputError
from referee.logs.jsonlog import parse_text

# A document: definitions k0, k1, ... each a flow sequence of scalars and aliases to earlier definitions
# (optionally one nested, anchored sequence), as a tree the test can weigh without any YAML reader.
_scalar = st.text(alphabet="abcxyz019", min_size=1, max_size=6).filter(lambda s: not s.isdigit())


@st.composite
def documents(draw: st.DrawFn) -> tuple[str, int]:
    """(YAML text, weight its aliases add when written out)."""
    weights: list[int] = []          # weight of each definition k<i> written out
    lines, added = [], 0
    for i in range(draw(st.integers(1, 7))):
        items, weight = [], VALUE_WEIGHT
        for _ in range(draw(st.integers(0, 6))):
            choice = draw(st.integers(0, 2)) if weights else 0
            if choice == 0:
                text = draw(_scalar)
                items.append(text)
                weight += VALUE_WEIGHT + len(text)
            elif choice == 1:
                j = draw(st.integers(0, len(weights) - 1))
                items.append(f"*k{j}")
                weight += weights[j]
                added += weights[j]
            else:                    # a nested sequence holding an alias
                j, text = draw(st.integers(0, len(weights) - 1)), draw(_scalar)
                items.append(f"[*k{j}, {text}]")
                weight += VALUE_WEIGHT + weights[j] + VALUE_WEIGHT + len(text)
                added += weights[j]
        lines.append(f"d{i}: &k{i} [{', '.join(items)}]")
        weights.append(weight)
    return "\n".join(lines) + "\n", added


@given(documents(), st.integers(1, 3000))
@settings(max_examples=300, deadline=None)
def test_a_document_is_refused_exactly_when_its_aliases_expand_past_the_budget(doc: tuple[str, int],
                                                                               budget: int) -> None:
    text, added = doc
    yaml.safe_load(text)                              # the generated text is YAML
    allowed = max(budget, len(text))
    if added > allowed:
        with pytest.raises(AliasBomb):
            check_aliases(text, budget)
    else:
        check_aliases(text, budget)


@given(documents())
@settings(max_examples=100, deadline=None)
def test_the_libyaml_and_the_reference_parser_count_alike(doc: tuple[str, int]) -> None:
    """A document libyaml rejects (YAML 1.2 only: ``{b:}``) is counted with ruamel.yaml's parser."""
    text, added = doc
    budget = max(1, added - 1)
    twelve = "{b:}: 1\n" + text                      # libyaml: a syntax error; ruamel.yaml: a valid key
    expected = added > max(budget, len(twelve))
    try:
        check_aliases(twelve, budget)
        refused = False
    except AliasBomb:
        refused = True
    assert refused == expected


def test_the_budget_is_an_environment_variable(monkeypatch: pytest.MonkeyPatch) -> None:
    text = "a: &a [" + ", ".join(["x" * 50] * 20) + "]\nb: [" + ", ".join(["*a"] * 2000) + "]\n"
    with pytest.raises(AliasBomb) as err:
        check_aliases(text)
    assert err.value.line == 2 and "HEXWARGAME_YAML_ALIAS_BUDGET" in err.value.message
    monkeypatch.setenv("HEXWARGAME_YAML_ALIAS_BUDGET", "5_000_000")
    check_aliases(text)


def test_the_definitions_reader_and_the_log_reader_refuse_with_the_place() -> None:
    text = "a: &a [" + ", ".join(["lol"] * 9) + "]\n" + "".join(
        f"{n}: &{n} [{', '.join(['*' + p] * 9)}]\n" for p, n in zip("abcdefgh", "bcdefghi"))
    with pytest.raises(YamlSyntaxError) as err:
        parse_yaml(text, "laughs.yaml")
    assert str(err.value).startswith("laughs.yaml:6:") and "alias" in str(err.value)
    with pytest.raises(InputError) as bad:
        parse_text(text, "log.yaml")
    (line,) = bad.value.problems
    assert line.startswith("log.yaml:6:") and "alias" in line


def test_anchors_and_merges_within_the_budget_read_as_before() -> None:
    text = "base: &base {strength: 4, morale: 3}\nunits:\n  - <<: *base\n    id: a\n  - <<: *base\n    id: b\n"
    doc = parse_yaml(text, "units.yaml")
    assert doc.data["units"] == [{"strength": 4, "morale": 3, "id": "a"}, {"strength": 4, "morale": 3, "id": "b"}]
    assert parse_text(text)["units"][1]["id"] == "b"
