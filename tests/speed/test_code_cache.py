"""``cache.remembered_code``: generated source (the records' __init__) compiled once and its code object
kept in the user's cache by its text (docs/speed.md §1).  A hit is the same code; a changed text, a corrupt or
foreign entry, or a cache that is off compiles afresh."""
from __future__ import annotations

from pathlib import Path

import pytest

from modulebuilder.definitions import cache

SOURCE = "def check(x):\n    return x == 41 + 1\n"


def run(code) -> bool:
    ns: dict = {}
    exec(code, ns)
    return ns["check"](42)


@pytest.fixture
def where(tmp_path, monkeypatch) -> Path:
    monkeypatch.setenv("HEXWARGAME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HEXWARGAME_CACHE", "")
    return tmp_path / "cache" / "validators"


def entries(where: Path) -> list[Path]:
    return sorted(where.glob("*.code")) if where.is_dir() else []


def test_a_hit_is_the_code_compiled_the_first_time(where, monkeypatch):
    first = cache.remembered_code("validators", SOURCE, "<t>")
    assert run(first) and len(entries(where)) == 1
    monkeypatch.setattr("builtins.compile", lambda *a, **k: pytest.fail("compiled again"))
    again = cache.remembered_code("validators", SOURCE, "<t>")
    assert again == first and run(again)


def test_another_text_is_another_entry(where):
    cache.remembered_code("validators", SOURCE, "<t>")
    other = cache.remembered_code("validators", SOURCE.replace("41", "40"), "<t>")
    assert not run(other) and len(entries(where)) == 2


@pytest.mark.parametrize("damage", [lambda b: b[:-3], lambda b: b + b"x", lambda b: b"0" * 40 + b[40:],
                                    lambda b: b""])
def test_a_corrupt_entry_is_a_miss_and_is_rewritten(where, damage):
    cache.remembered_code("validators", SOURCE, "<t>")
    [entry] = entries(where)
    good = entry.read_bytes()
    entry.write_bytes(damage(good))
    assert run(cache.remembered_code("validators", SOURCE, "<t>"))
    assert entry.read_bytes() == good
    assert run(cache.remembered_code("validators", SOURCE, "<t>"))


def test_a_body_that_is_another_code_under_the_old_hash_line_is_a_miss(where):
    """A body swapped for another valid code object (it unmarshals): only the hash line tells, so it must be
    checked before the body is trusted."""
    import marshal
    cache.remembered_code("validators", SOURCE, "<t>")
    [entry] = entries(where)
    good = entry.read_bytes()
    head = good.partition(b"\n")[0]
    entry.write_bytes(head + b"\n" + marshal.dumps(compile("def check(x):\n    return False\n", "<t>", "exec")))
    assert run(cache.remembered_code("validators", SOURCE, "<t>"))
    assert entry.read_bytes() == good


def test_an_entry_whose_hash_matches_but_whose_body_is_another_code_is_still_that_text_s(where):
    """The name is the text's hash: a valid entry under it can only be the code of that text."""
    code = cache.remembered_code("validators", SOURCE, "<t>")
    [entry] = entries(where)
    assert entry.stem == cache._digest(
        f"{__import__('sys').version}\0{__import__('marshal').version}\0<t>\0".encode() + SOURCE.encode())
    assert run(code)


def test_off_compiles_and_writes_nothing(where, monkeypatch):
    monkeypatch.setenv("HEXWARGAME_CACHE", "off")
    assert run(cache.remembered_code("validators", SOURCE, "<t>"))
    assert entries(where) == []


def test_a_folder_others_may_write_is_not_read(where):
    cache.remembered_code("validators", SOURCE, "<t>")
    where.chmod(0o777)
    try:
        assert cache.remembered_code("validators", SOURCE, "<t>") is not None
        assert not cache._private(where)
    finally:
        where.chmod(0o700)


RECORD_PROBE = """
import json, sys
compiled = []
sys.addaudithook(lambda e, a: compiled.append(a[1]) if e == "compile" and a[1] == "<record __init__>" else None)
from modulebuilder.records import field, record

@record(frozen=True, slots=True)
class Point:
    x: int
    y: int = 2
    tags: list = field(default_factory=list)

p = Point(1)
print(json.dumps({"compiled": len(compiled), "point": [p.x, p.y, p.tags], "repr": repr(Point(3, 4, [5]))}))
"""


def test_a_record_s_init_is_compiled_once_then_read_from_the_cache(tmp_path):
    """records._compile_init's source goes through remembered_code (a one-event check builds ~16 record
    classes' instances: 364.1 -> 352.5 M instructions)."""
    import json
    import os
    import subprocess
    import sys
    env = {**os.environ, "HEXWARGAME_CACHE_DIR": str(tmp_path / "cache"), "HEXWARGAME_CACHE": ""}

    def run(**extra):
        out = subprocess.run([sys.executable, "-c", RECORD_PROBE], capture_output=True, text=True, check=True,
                             env={**env, **extra}).stdout
        return json.loads(out)
    first, second, off = run(), run(), run(HEXWARGAME_CACHE="off")
    assert first["compiled"] == 1 and second["compiled"] == 0 and off["compiled"] == 1
    for r in (first, second, off):
        assert r["point"] == [1, 2, []] and r["repr"] == "Point(x=3, y=4, tags=[5])"
    assert len(list((tmp_path / "cache" / "records").glob("*.code"))) == 1
