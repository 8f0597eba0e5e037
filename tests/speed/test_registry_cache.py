"""The ruleset registry remembers importlib.metadata's answer under a fingerprint of the import path
(referee/engine/registry.py): a check that finds it imports no importlib.metadata, and any change to what the
entry points are read from is seen."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, sys
from referee.engine import registry
ids = registry.available()
metadata = "importlib.metadata" in sys.modules
from importlib.metadata import entry_points   # after the registry has answered: the truth to compare with
truth = sorted(ep.name for ep in entry_points(group="referee.rulesets"))
print(json.dumps({"ids": ids, "truth": truth, "values": registry._entry_points(), "metadata": metadata}))
"""


@pytest.fixture
def env(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    return {**os.environ, "HEXWARGAME_CACHE_DIR": str(tmp_path / "cache"), "HEXWARGAME_CACHE": "",
            "PYTHONPATH": os.pathsep.join([str(ROOT), str(plugins)])}, plugins


def probe(env: dict, *, metadata_imported: bool) -> dict:
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, env=env, cwd=ROOT,
                         check=True)
    result = json.loads(out.stdout)
    assert result["ids"] == result["truth"]
    assert result["metadata"] == metadata_imported
    return result


def plugin(plugins: Path, name: str, value: str) -> Path:
    info = plugins / f"{name}_ruleset-1.0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}-ruleset\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[referee.rulesets]\n{name} = {value}\n")
    return info


def test_a_warm_registry_imports_no_importlib_metadata(env):
    env, _ = env
    cold = probe(env, metadata_imported=True)
    warm = probe(env, metadata_imported=False)
    assert warm["values"] == cold["values"] and "triumph-and-glory" in warm["ids"]


def test_a_distribution_installed_or_edited_afterwards_is_seen(env):
    env, plugins = env
    probe(env, metadata_imported=True)
    probe(env, metadata_imported=False)
    info = plugin(plugins, "newcomer", "newcomer_pkg:RULESET")
    assert "newcomer" in probe(env, metadata_imported=True)["ids"]
    (info / "entry_points.txt").write_text("[referee.rulesets]\nnewcomer = newcomer_pkg.v2:RULESET\n")
    os.utime(info / "entry_points.txt", ns=(1, 1))          # an edit in place, even one that sets the time back
    assert probe(env, metadata_imported=True)["values"]["newcomer"] == "newcomer_pkg.v2:RULESET"
    for f in info.iterdir():
        f.unlink()
    info.rmdir()
    assert "newcomer" not in probe(env, metadata_imported=True)["ids"]


@pytest.mark.parametrize("damage", [b"", b"garbage", b"0" * 40 + b" " + b"0" * 40 + b"\n{}"])
def test_a_damaged_entry_is_recomputed(env, tmp_path, damage):
    env, _ = env
    good = probe(env, metadata_imported=True)
    entry, = (tmp_path / "cache" / "entry-points").glob("*.json")
    entry.write_bytes(damage)
    assert probe(env, metadata_imported=True)["values"] == good["values"]
    assert probe(env, metadata_imported=False)["values"] == good["values"]


def test_off_means_importlib_metadata_every_time(env):
    env, _ = env
    env = {**env, "HEXWARGAME_CACHE": "off"}
    probe(env, metadata_imported=True)
    probe(env, metadata_imported=True)


def test_an_entry_in_a_folder_others_may_write_is_not_read(env, tmp_path):
    env, _ = env
    probe(env, metadata_imported=True)
    os.chmod(tmp_path / "cache" / "entry-points", 0o777)
    probe(env, metadata_imported=True)


def test_two_import_paths_keep_an_entry_each(env, tmp_path):
    env, plugins = env
    other = {**env, "PYTHONPATH": str(ROOT)}         # without the plugins folder
    probe(env, metadata_imported=True)
    probe(other, metadata_imported=True)
    probe(env, metadata_imported=False)
    probe(other, metadata_imported=False)
    assert len(list((tmp_path / "cache" / "entry-points").glob("*.json"))) == 2


@pytest.mark.parametrize("value", ["json:dumps", "json : dumps", "json:JSONDecoder.decode", "json", "json:dumps [extra]"])
def test_an_entry_point_value_loads_as_importlib_metadata_loads_it(value):
    from importlib.metadata import EntryPoint

    from referee.engine import registry
    assert registry._load(value) is EntryPoint(name="x", value=value, group="g").load()


def test_a_file_made_in_a_folder_of_the_import_path_is_no_reason_to_ask_importlib_metadata_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The project's own folder is on the import path (its editable install) and gets files all the time (a
    database, a build, the tests' own): when the fingerprint held each folder's mtime, every one made the next
    check a miss (seen as a flaky test_startup under pytest -n 2 in a fresh clone).  A distribution added
    there still changes it."""
    from referee.engine import registry
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    before = registry._fingerprint()
    (tmp_path / "referee.sqlite-wal").write_bytes(b"x")
    (tmp_path / "build").mkdir()
    assert registry._fingerprint() == before
    dist = tmp_path / "newgame-1.0.dist-info"
    dist.mkdir()
    (dist / "entry_points.txt").write_text("[referee.rulesets]\nnewgame = newgame:RULESET\n")
    assert registry._fingerprint() != before
