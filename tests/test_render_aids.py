"""Game aids from the scenario data: the set-up card lists every starting hex with its counters, the order
of battle every group, the turn track every turn with its arrivals, the tables the module's charts."""
from __future__ import annotations

import re
import shutil
import subprocess
import zlib
from pathlib import Path

import pytest

from modulebuilder.cli import main
from modulebuilder.definitions import load_scenario
from modulebuilder.render.aids import aids_pdf

ROOT = Path(__file__).resolve().parents[1]


def _text(pdf: Path) -> str:
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


def test_schevardino_aids(tmp_path: Path) -> None:
    s = load_scenario(ROOT / "scenarios/schevardino.yaml")
    assert main(["aids", str(ROOT / "scenarios/schevardino.yaml"), "--out", str(tmp_path)]) == 0
    pdf = tmp_path / "aids-schevardino.pdf"
    text = _text(pdf)
    for p in s.setup:
        if p.hex:
            assert p.hex in text, p.hex                     # every starting hex on the set-up card
    for ag in s.counters.activation_groups:
        if any(u.ag == ag.id for u in s.counters.units):
            assert ag.name in text
    assert "turn track" in text and "tables" in text
    for r in s.reinforcements:
        if r.turn is not None:
            assert f"turn {r.turn}, enters" in text
    data = pdf.read_bytes()
    assert b"/Subtype /Form" in data and b"/FontFile2" in data   # counters as vector forms, fonts embedded
    assert b"/Helvetica" not in data


def test_aids_are_byte_identical_run_to_run() -> None:
    s = load_scenario(ROOT / "scenarios/mp-sample.yaml")
    assert aids_pdf(s) == aids_pdf(s)


def test_turn_track_has_a_box_per_turn(tmp_path: Path) -> None:
    s = load_scenario(ROOT / "scenarios/borodino.yaml")
    (tmp_path / "a.pdf").write_bytes(aids_pdf(s))
    text = _text(tmp_path / "a.pdf")
    assert all(s.turns.label(t) in text for t in range(s.turns.first, s.turns.last + 1))


def test_aids_cli_writes_cmyk_with_the_output_intent(tmp_path: Path) -> None:
    """``aids --cmyk``: as the sheets: DeviceCMYK through the profile, the profile as output intent, no RGB
    operator anywhere, the chart rasters CMYK with their black text on the black plate alone."""
    from modulebuilder.render.cmyk import SYSTEM_PROFILES
    if not any(p.is_file() for p in SYSTEM_PROFILES):
        pytest.skip("no CMYK profile installed (Debian texlive-base ships FOGRA39L_coated.icc)")
    assert main(["aids", str(ROOT / "scenarios/schevardino.yaml"), "--out", str(tmp_path), "--cmyk"]) == 0
    data = (tmp_path / "aids-schevardino.pdf").read_bytes()
    assert b"/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX" in data and b"/DestOutputProfile" in data
    streams = [zlib.decompress(m) for m in re.findall(rb"/FlateDecode[^>]*>>\s*stream\n(.*?)\nendstream", data, re.S)]
    content = [s for s in streams if b" Tf " in s or b" re" in s]
    assert content and not any(re.search(rb" (rg|RG)\b", s) for s in content)
    assert b"/ColorSpace /DeviceRGB" not in data and b"/ColorSpace /DeviceCMYK" in data
    from PIL import Image

    from modulebuilder.render.aids import chart_image_for
    from modulebuilder.render.cmyk import cmyk_space
    chart = Image.new("RGB", (4, 1), (255, 255, 255))
    chart.putpixel((0, 0), (0, 0, 0))
    chart.putpixel((1, 0), (128, 128, 128))
    chart.putpixel((2, 0), (200, 30, 30))
    out = chart_image_for(cmyk_space(), chart)
    assert out.mode == "CMYK"
    assert out.getpixel((0, 0)) == (0, 0, 0, 255) and out.getpixel((1, 0)) == (0, 0, 0, 127)
    assert out.getpixel((3, 0)) == (0, 0, 0, 0)
    assert out.getpixel((2, 0))[1] > 150                      # a red: magenta and yellow, through the profile
    assert main(["aids", str(ROOT / "scenarios/schevardino.yaml"), "--out", str(tmp_path / "x"), "--cmyk",
                 "--cmyk-profile", str(tmp_path / "missing.icc")]) != 0
