"""The referee link ships compiled (modulebuilder/vassal/link/classes): they are the source's, byte for byte, and
every module carries them and names the component in its buildFile."""
from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

import pytest

from modulebuilder.vassal import enginecheck, link


def test_the_shipped_classes_are_compiled_from_the_source(tmp_path: Path, engine: None) -> None:
    if shutil.which("javac") is None:
        pytest.fail("javac is needed to rebuild the referee link (the VASSAL engine's set-up installs a JDK)")
    jar = Path(enginecheck.work_dir() / "Vengine.jar")
    built = link.compile_classes(tmp_path, jar)
    assert [p.relative_to(tmp_path).as_posix() for p in built] == [n for n, _ in link.class_entries()]
    for p, (name, data) in zip(built, link.class_entries()):
        assert p.read_bytes() == data, f"{name} differs from the source: run compile_classes and commit"


def test_the_classes_are_for_java_11() -> None:
    for name, data in link.class_entries():
        assert data[:4] == b"\xca\xfe\xba\xbe"
        assert int.from_bytes(data[6:8], "big") == 55, name          # class file version 55 = Java 11


def test_every_module_carries_the_link(tmp_path: Path) -> None:
    from modulebuilder.cli import main
    root = Path(__file__).resolve().parents[2]
    assert main(["build", str(root / "examples" / "tiny" / "scenario.yaml"), "--out", str(tmp_path)]) == 0
    with zipfile.ZipFile(tmp_path / "tiny.vmod") as z:
        names = z.namelist()
        assert [n for n in names if n.startswith("refereelink/")] == [n for n, _ in link.class_entries()]
        assert b"<refereelink.RefereeLink/>" in z.read("buildFile.xml")
