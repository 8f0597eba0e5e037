"""VASSAL 3.6 and 3.7 (docs/vassal-module.md): the same traits for both, and ``--vassal`` sets the declared
engine version.  Regression: the Layer trait carried 3.7's two only-property fields, which the 3.6 engine
dropped on re-encoding 279 of Borodino's palette pieces."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path

import pytest
from lxml import etree

from fixtures.vassal.scenarios import grid, scenario
from modulebuilder.vassal import enginecheck, seqenc
from modulebuilder.vassal.assemble import build
from modulebuilder.vassal.traits import layer

ROOT = Path(__file__).resolve().parents[1]
BORODINO = [ROOT / "scenarios" / "borodino.yaml", ROOT / "scenarios" / "schevardino.yaml"]


def test_the_layer_trait_has_the_31_fields_3_6_reads():
    fields = seqenc.decode(layer("Disorder", "x-back.png", "+ (D)", "Disorder", "70,130").type[len("emb2;"):], ";")
    assert len(fields) == 31 and fields[18] == "Disorder" and fields[30] == "1.0"


@pytest.mark.parametrize("target,declared", [("3.6", "3.6.0"), ("3.7", "3.7.0")])
def test_the_target_sets_the_declared_version_everywhere(tmp_path: Path, target: str, declared: str):
    vmod = zipfile.ZipFile(build([scenario(grid("flat", "even", 1, 1))], tmp_path, vassal=target).path)
    root = etree.fromstring(vmod.read("buildFile.xml"), etree.XMLParser(resolve_entities=False))
    assert root.get("VassalVersion") == declared
    assert f"<VassalVersion>{declared}</VassalVersion>".encode() in vmod.read("moduledata")
    setup = zipfile.ZipFile(__import__("io").BytesIO(vmod.read("small.vsav")))
    assert f"<VassalVersion>{declared}</VassalVersion>".encode() in setup.read("savedata")


def test_the_pieces_do_not_depend_on_the_target(tmp_path: Path):
    s = scenario(grid("flat", "even", 1, 1))
    a = zipfile.ZipFile(build([s], tmp_path / "a", vassal="3.6").path)
    b = zipfile.ZipFile(build([s], tmp_path / "b", vassal="3.7").path)
    strip = re.compile(rb'VassalVersion="[^"]*"')
    assert strip.sub(b"", a.read("buildFile.xml")) == strip.sub(b"", b.read("buildFile.xml"))


def test_an_unknown_target_is_refused_in_one_sentence(tmp_path: Path, capsys):
    from modulebuilder.cli import main
    with pytest.raises(SystemExit):
        main(["build", str(ROOT / "examples/tiny/scenario.yaml"), "--out", str(tmp_path), "--vassal", "3.5"])
    assert "invalid choice" in capsys.readouterr().err


@pytest.mark.vassal
@pytest.mark.skipif(not all(p.exists() for p in BORODINO), reason="the Borodino scenarios are not in this checkout")
def test_the_3_6_engine_re_encodes_every_borodino_piece_unchanged(engine, tmp_path: Path):
    from modulebuilder.definitions import load_scenario
    vmod = build([load_scenario(p) for p in BORODINO], tmp_path, vassal="3.6").path
    run = enginecheck.vcheck(vmod)
    assert run.ok, run.problems[:5]
    slots = [ln for ln in run.lines if ln.startswith("slot ")]
    assert len(slots) > 300
    assert [ln for ln in slots if "reEncodedIdentical=true" not in ln] == []
    assert "module: Borodino, 7 September 1812 v1.0 VassalVersion=3.6.0" in run.lines
