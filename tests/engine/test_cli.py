"""``referee check`` (DESIGN §6): exit codes 0/1/3, JSON body, text report, one-line input errors, no traceback."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from referee.cli import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "logs"
INLINE = FIXTURES / "small-inline.yaml"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_json_output_has_rulings_and_state(capsys):
    code, out, err = run(capsys, "check", str(INLINE), "--format", "json")
    assert code == 0 and err == ""
    body = json.loads(out)
    assert set(body) == {"rulings", "state"}
    assert [r["index"] for r in body["rulings"]] == list(range(13))
    assert [r["verdict"] for r in body["rulings"]].count("illegal") == 3
    assert body["rulings"][12]["rolls"][0]["natural"] == 7
    assert body["state"]["turn"] == 1 and body["state"]["dice"]["mode"] == "players"


def test_strict_exits_3_when_a_move_was_illegal(capsys):
    code, out, _ = run(capsys, "check", str(INLINE), "--strict")
    assert code == 3 and json.loads(out)["rulings"]


def test_text_report(capsys):
    code, out, _ = run(capsys, "check", str(INLINE), "--format", "text")
    assert code == 0
    assert "== Turn 1 — Orders Phase ==" in out
    # Rolls in words, units by their printed names (issue #16; referee/report.py).
    assert ("Individual order (5.28): Guy a needs 6 or less (IO rating of the I Corps (Davout) AM, 5.28) on a d10 "
            "(70 %): 6 → 6: passes — the group is under orders for this activation") in out
    assert "−1 Kutuzov within 2 hexes of the group (5.28): pass on 0–5 (60 %) — roll owed" in out
    assert "✗ 7.34 not_enough_mp" in out and "legal instead: " in out
    assert "13 events ruled, 3 illegal." in out


def _write(tmp_path, doc, name="log.json"):
    p = tmp_path / name
    p.write_text(doc if isinstance(doc, str) else json.dumps(doc))
    return str(p)


def _inline_doc():
    from ruamel.yaml import YAML
    return YAML(typ="safe").load(INLINE.read_text())


@pytest.mark.parametrize("events, expected", [
    ([{"type": "teleport", "side": "French"}], "events[0].type: unknown event type 'teleport'"),
    ([{"type": "move", "side": "French", "unit": "xyz", "path": ["0205"]}],
     "events[0].unit: no unit 'xyz' in the scenario"),
    ([{"type": "move", "side": "French", "unit": "dumon-a", "path": ["0999"]}],
     "events[0].path[0]: no hex '0999' on the map"),
    ([{"type": "orders_delay", "side": "Russian", "roll": 10}], "events[0].roll: a d10 roll is 0–9, not 10"),
    ([{"type": "orders", "side": "French"}], "events[0].under_orders: missing"),
    ([{"type": "orders", "side": "Prussian", "under_orders": []}], "events[0].side: no side 'Prussian'"),
    ([{"type": "draw", "marker": "nope"}], "events[0].marker: no marker 'nope' in the scenario"),
])
def test_bad_events_exit_1_with_one_line_per_problem(capsys, tmp_path, events, expected):
    doc = _inline_doc()
    doc["events"] = events
    code, out, err = run(capsys, "check", _write(tmp_path, doc))
    assert code == 1 and out == ""
    assert err.startswith(expected), err
    assert "Traceback" not in err


def test_every_problem_is_reported_at_once(capsys, tmp_path):
    doc = _inline_doc()
    doc["events"] = [{"type": "nope"}, {"type": "roll", "roll": -1}, {"type": "face", "side": "French"}]
    code, _, err = run(capsys, "check", _write(tmp_path, doc))
    lines = err.strip().splitlines()
    assert code == 1 and len(lines) == 4
    assert lines[1] == "events[1].roll: a d10 roll is 0–9, not -1"
    assert lines[2:] == ["events[2].unit: missing", "events[2].facing: missing"]


def test_not_json_nor_yaml(capsys, tmp_path):
    code, _, err = run(capsys, "check", _write(tmp_path, "{ not json", "bad.json"))
    assert code == 1 and "not valid JSON" in err and err.count("\n") == 1


def test_scenario_breaking_design_4_is_bad_input(capsys, tmp_path):
    doc = _inline_doc()
    doc["scenario"]["units"][0]["hex"] = "9999"
    doc["scenario"]["units"][1]["kind"] = "dragoon"
    code, _, err = run(capsys, "check", _write(tmp_path, doc))
    assert code == 1
    assert all(line.startswith("scenario: ") for line in err.strip().splitlines())
    assert len(err.strip().splitlines()) >= 2


def test_unknown_scenario_id(capsys, tmp_path):
    code, _, err = run(capsys, "check", _write(tmp_path, {"scenario": "no-such-battle", "events": []}))
    assert code == 1 and err.startswith("scenario: no scenario 'no-such-battle'")


def test_vassal_logs_are_not_readable_yet_unless_the_reader_exists(capsys, tmp_path):
    p = tmp_path / "game.vlog"
    p.write_bytes(b"PK\x03\x04")
    code, _, err = run(capsys, "check", str(p))
    assert code == 1 and "Traceback" not in err
    if not (Path(__file__).resolve().parents[2] / "referee" / "logs" / "vassal.py").exists():
        assert "VASSAL log reader is not available yet" in err


def test_python_dash_m_referee_never_prints_a_traceback(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "referee", "check", str(tmp_path / "missing.json")],
                          capture_output=True, text=True, cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().endswith("cannot read (No such file or directory)")


def _deepest_json_list() -> int:
    """The deepest nested list the standard library's JSON reader parses from here (it recurses per level)."""
    depth = 1000
    while depth > 0:
        try:
            json.loads("[" * depth + "]" * depth)
            return depth
        except RecursionError:
            depth -= 10
    return 0


@pytest.mark.parametrize("where", ["document", "event", "event-near-limit"])
@pytest.mark.parametrize("fmt", ["json", "yaml"])
def test_deep_nesting_is_a_sentence_not_an_internal_error(capsys, tmp_path, where, fmt):
    """Bad input gets a clear error: a log nested thousands of levels deep (or an event nested nearly as deep
    as the reader allows, where the validators recurse) is refused with exit 1 and one sentence — it used to
    end in 'internal error: RecursionError'."""
    doc = _inline_doc()
    depth = {"document": 5000, "event": 3000, "event-near-limit": max(_deepest_json_list() - 15, 10)}[where]
    nest = "[" * depth + "]" * depth
    if where == "document":
        text = '{"events": ' + nest + "}"
    else:
        doc["events"] = [{"type": "orders", "side": "French", "under_orders": "NEST"}]
        text = json.dumps(doc).replace('"NEST"', nest)
    name = "deep.json" if fmt == "json" else "deep.yaml"
    if fmt == "yaml":
        text = "# a YAML log\n" + text          # not JSON: read by the YAML reader
    code, out, err = run(capsys, "check", _write(tmp_path, text, name))
    assert code == 1 and out == "", err
    assert "internal error" not in err and "Traceback" not in err
    assert "nested too deeply" in err or "events[0]" in err or "not valid JSON" in err, err


@given(st.lists(st.sampled_from(["a", ".", "..", "x.vlog", "b.VSAV", ".vlog", "..vlog", "c.", "", "d.json",
                                 "e.f.vlog", "g.VLOG"]), min_size=1, max_size=5), st.booleans())
def test_a_log_s_kind_is_read_from_its_suffix_as_pathlib_spells_it(parts, absolute):
    """cli._name and cli._suffix (so that a JSON check imports no pathlib) are Path.name and Path.suffix,
    lower-cased, for every path."""
    from referee.cli import _name, _suffix
    path = ("/" if absolute else "") + "/".join(parts)
    assert (_name(path), _suffix(path)) == (Path(path).name, Path(path).suffix.lower())


@given(st.lists(st.sampled_from(["a", ".", "..", "b.json", ""]), max_size=6), st.sampled_from(["", "/", "//", "///"]))
def test_a_log_is_read_and_named_by_the_name_pathlib_gives_it(parts, root):
    """jsonlog.spelled_as_pathlib (so that a JSON check imports no pathlib) is str(Path(path))."""
    from referee.logs.jsonlog import spelled_as_pathlib
    path = root + "/".join(parts)
    assert spelled_as_pathlib(path) == str(Path(path))


@pytest.mark.parametrize("given_as", ["{}", "{}/", "{}//.", "{0.parent}/./{0.name}"])
def test_a_log_is_named_and_opened_as_pathlib_spells_it(tmp_path, capsys, given_as):
    """``x/``, ``x//.`` and ``d/./x`` name the file ``x`` in messages and are read as ``x``, as when the
    reader used pathlib."""
    folder = tmp_path / "logs"
    folder.mkdir()
    missing = folder / "missing.json"
    code, _, err = run(capsys, "check", given_as.format(missing))
    assert (code, err) == (1, f"{missing}: cannot read (No such file or directory)\n")
    bad = folder / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "check", given_as.format(bad))
    assert code == 1 and err.startswith(f"{bad}:1:2: not valid JSON")
    code, out, _ = run(capsys, "check", given_as.format(INLINE), "--format", "json")
    assert code == 0 and len(json.loads(out)["rulings"]) == 13
