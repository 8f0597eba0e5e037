"""The parsed-scenario cache (modulebuilder.definitions.cache): keyed by content, safe with several writers and
against corrupt entries, off on request; a check gives the same bytes with it cold, warm and off."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from modulebuilder.definitions import DefinitionError, cache, load_resolved, load_scenario
from modulebuilder.definitions import scenario as scenario_module

from .checks import check, private_cache_env, short_sample

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json"


@pytest.fixture
def game(tmp_path, monkeypatch):
    """A copy of the Borodino definitions (scenario, map, counters, tables) and an empty cache folder."""
    for part in ("scenarios", "maps", "counters/borodino", "tables"):
        shutil.copytree(ROOT / part, tmp_path / "game" / part)
    monkeypatch.setenv("HEXWARGAME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("HEXWARGAME_CACHE", raising=False)
    monkeypatch.chdir(tmp_path / "game")
    return tmp_path / "game"


@pytest.fixture
def loads(monkeypatch):
    """How many times the real loader ran."""
    calls = []
    real = scenario_module.check_scenario

    def counting(*a, **kw):
        calls.append(a)
        return real(*a, **kw)
    monkeypatch.setattr(scenario_module, "check_scenario", counting)
    return calls


def entries(game: Path) -> list[Path]:
    return sorted((game.parent / "cache" / "scenarios").glob("*.pickle"))


def test_a_hit_is_the_scenario_the_loader_gives(game, loads):
    fresh = load_scenario("scenarios/borodino.yaml")
    first = cache.load_scenario("scenarios/borodino.yaml")
    second = cache.load_scenario("scenarios/borodino.yaml")
    assert len(loads) == 2                      # load_scenario itself, then the miss; the hit loads nothing
    assert first == fresh and second == fresh
    assert second.source == fresh.source        # provenance too (not part of ==)
    assert second is not first
    assert len(entries(game)) == 1


def test_an_edited_file_the_scenario_names_is_a_miss(game, loads):
    before = cache.load_scenario("scenarios/borodino.yaml")
    counters = game / "counters" / "borodino" / "french.yaml"
    text = counters.read_text(encoding="utf-8")
    name = before.counters.units[0].name
    assert f"name: {name}" in text or f'name: "{name}"' in text
    counters.write_text(text.replace(name, name + " (edited)", 1), encoding="utf-8")
    after = cache.load_scenario("scenarios/borodino.yaml")
    assert len(loads) == 2
    assert after.counters.units[0].name == name + " (edited)"
    assert cache.load_scenario("scenarios/borodino.yaml") == after and len(loads) == 2


def test_the_same_scenario_under_another_name_is_its_own_entry(game, loads):
    shutil.copy(game / "scenarios" / "borodino.yaml", game / "scenarios" / "copy.yaml")
    a = cache.load_scenario("scenarios/borodino.yaml")
    b = cache.load_scenario("scenarios/copy.yaml")
    assert a == b and a.source != b.source and len(loads) == 2


def test_a_broken_scenario_is_never_kept(game, loads):
    path = game / "scenarios" / "borodino.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("ruleset: triumph-and-glory", "ruleset: 7"),
                    encoding="utf-8")
    for _ in range(2):
        with pytest.raises(DefinitionError) as err:
            cache.load_scenario("scenarios/borodino.yaml")
    assert len(loads) == 2 and entries(game) == []
    with pytest.raises(DefinitionError) as uncached:
        load_scenario("scenarios/borodino.yaml")
    assert [str(p) for p in err.value.problems] == [str(p) for p in uncached.value.problems]


@pytest.mark.parametrize("damage", ["truncate", "flip", "empty", "other format"])
def test_a_corrupt_entry_is_a_miss_and_is_rewritten(game, loads, damage):
    good = cache.load_scenario("scenarios/borodino.yaml")
    [entry] = entries(game)
    blob = entry.read_bytes()
    entry.write_bytes({"truncate": blob[: len(blob) // 2],
                       "flip": blob[:-100] + bytes([blob[-100] ^ 0xFF]) + blob[-99:],
                       "empty": b"",
                       "other format": b"hexwargame parsed scenario 0\n" + blob[len(cache.FORMAT):]}[damage])
    assert cache.load_scenario("scenarios/borodino.yaml") == good
    assert len(loads) == 2
    assert entry.read_bytes() == blob              # the rewritten entry reads back
    assert cache.load_scenario("scenarios/borodino.yaml") == good and len(loads) == 2


def test_off_by_the_environment(game, loads, monkeypatch):
    monkeypatch.setenv("HEXWARGAME_CACHE", "off")
    cache.load_scenario("scenarios/borodino.yaml")
    cache.load_scenario("scenarios/borodino.yaml")
    assert len(loads) == 2 and not (game.parent / "cache").exists()


def test_a_folder_that_cannot_be_written_loads_uncached(game, loads, monkeypatch, tmp_path):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("HEXWARGAME_CACHE_DIR", str(blocker))
    assert cache.load_scenario("scenarios/borodino.yaml") == load_scenario("scenarios/borodino.yaml")


def test_a_folder_others_may_write_is_not_read(game, loads):
    cache.load_scenario("scenarios/borodino.yaml")
    folder = game.parent / "cache" / "scenarios"
    folder.chmod(0o777)
    try:
        cache.load_scenario("scenarios/borodino.yaml")
        assert len(loads) == 2                   # the entry may have been planted: not unpickled
    finally:
        folder.chmod(0o700)


def test_another_version_of_the_loader_is_a_miss(game, loads, monkeypatch):
    cache.load_scenario("scenarios/borodino.yaml")
    monkeypatch.setattr(cache, "code_fingerprint", lambda: b"another version of the code")
    cache.load_scenario("scenarios/borodino.yaml")
    assert len(loads) == 2 and len(entries(game)) == 2


def test_old_entries_are_pruned(game, monkeypatch):
    monkeypatch.setattr(cache, "MAX_ENTRIES", 3)
    text = (game / "scenarios" / "borodino.yaml").read_text(encoding="utf-8")
    for i in range(5):
        (game / "scenarios" / f"b{i}.yaml").write_text(text, encoding="utf-8")
        cache.load_scenario(f"scenarios/b{i}.yaml")
        os.utime(entries(game)[0], (1e9 + i, 1e9 + i))    # distinct ages even on a coarse clock
    assert len(entries(game)) == 3


def test_an_inline_resolved_scenario_is_kept_by_its_text(game):
    from ruamel.yaml import YAML
    doc = YAML(typ="safe", pure=True).load(
        (ROOT / "tests" / "fixtures" / "logs" / "small-inline.yaml").read_text(encoding="utf-8"))["scenario"]
    fresh = load_resolved(dict(doc))
    a = cache.load_resolved(dict(doc))
    b = cache.load_resolved(dict(doc))
    assert a == fresh == b and len(entries(game)) == 1
    changed = dict(doc, turns=doc["turns"] + 1)
    assert cache.load_resolved(changed).turns != a.turns and len(entries(game)) == 2


WRITER = """
import sys
from modulebuilder.definitions import cache
s = cache.load_scenario("scenarios/borodino.yaml")
print(len(s.counters.units), s.source)
"""


def test_many_processes_at_once_on_an_empty_cache(game):
    """Eight loads racing to write the same entry: every one gets the scenario, and the entry that is left reads
    back whole (written to a temporary file, then renamed)."""
    procs = [subprocess.Popen([sys.executable, "-c", WRITER], cwd=game, stdout=subprocess.PIPE, text=True,
                              env=dict(os.environ)) for _ in range(8)]
    outs = [p.communicate()[0] for p in procs]
    assert all(p.returncode == 0 for p in procs)
    assert len(set(outs)) == 1 and outs[0].split()[1].startswith("scenarios/borodino.yaml:")
    assert len(entries(game)) == 1
    assert not list((game.parent / "cache" / "scenarios").glob(".tmp-*"))
    assert cache._get(game.parent / "cache" / "scenarios", entries(game)[0].stem) is not None


def test_check_gives_the_same_bytes_cold_warm_and_off(tmp_path):
    log, env = short_sample(tmp_path, 200), private_cache_env(tmp_path)
    cold = check(log, env=env)
    assert len(list((tmp_path / "cache" / "scenarios").glob("*.pickle"))) == 1
    warm = check(log, env=env)
    off = check(log, "--no-cache", env=env)
    assert cold == warm == off
    assert len(json.loads(cold)["rulings"]) == 200


def test_the_code_fingerprint_covers_every_file_code_names():
    """The fingerprint's own listing (os.scandir) finds exactly what the patterns glob to, records.py too."""
    package = Path(cache.PACKAGE)
    globbed = sorted(str(f.relative_to(package)) for p in cache.CODE for f in package.glob(p))
    listed = [rel for rel, _ in cache._code_files()]
    assert listed == globbed and "records.py" in listed and "definitions/cache.py" in listed


_json_leaf = st.none() | st.booleans() | st.integers() | st.text(max_size=5)
_json_value = st.recursive(_json_leaf, lambda inner: st.lists(inner, max_size=3)
                           | st.dictionaries(st.text(max_size=4), inner, max_size=3), max_leaves=12)


@given(st.dictionaries(st.text(max_size=6), _json_value, max_size=6))
def test_a_values_mapping_pickles_to_the_same_items_without_its_init(items):
    """model.Values pickles its items as they are (read back without __init__'s pass over them, ~580 times
    per cached scenario): equal, same hash, the same nested Values and tuples, through the cache's pickler."""
    import pickle

    from modulebuilder.model import Values
    v = Values(items)
    back = pickle.loads(cache._pickle(v))
    assert type(back) is Values and back == v and hash(back) == hash(v)
    assert back._items == v._items and list(back) == list(v)
    assert [type(x) for _, x in back._items] == [type(x) for _, x in v._items]
