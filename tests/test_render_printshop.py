"""Print-shop output: sheet templates (home and die-cut) with exact gaps, the die line on its own layer
in a spot colour, CMYK through an ICC profile with its output intent, any counter size."""
from __future__ import annotations

import re
import zlib
from fractions import Fraction
from pathlib import Path

import pytest

from modulebuilder.cli import main
from modulebuilder.render.print_job import PrintOptions, build_print_job
from modulebuilder.render.samples import sample_counters
from modulebuilder.render.sheet_templates import length, sheet_template, sheet_templates

F = Fraction


def _contents(data: bytes) -> list[str]:
    out = []
    for ref in re.findall(rb"/Contents (\d+) 0 R", data):
        m = re.search(rb"\n" + ref + rb" 0 obj\n.*?stream\n(.*?)\nendstream", data, re.S)
        out.append(zlib.decompress(m.group(1)).decode("latin-1"))
    return out


def test_lengths_in_inches_and_millimetres() -> None:
    assert length("5/8") == F(5, 8) and length("0.6in") == F(3, 5) and length("7/8") == F(7, 8)
    assert abs(float(length("16mm")) - 16 / 25.4) < 1e-9 and abs(float(length("3mm")) * 25.4 - 3) < 1e-9


def test_every_sheet_template_names_its_source() -> None:
    for t in sheet_templates().values():
        assert t.source, t.id
    assert {"letter", "a4", "tgc-large-punchout", "factory-punchboard-a3"} <= set(sheet_templates())


@pytest.mark.parametrize("sheet", ["tgc-large-punchout", "tgc-medium-punchout", "factory-punchboard-a3"])
def test_die_cut_sheets_keep_their_gap_between_cut_lines(sheet: str) -> None:
    t = sheet_template(sheet)
    geo = PrintOptions(F(5, 8), sheet=sheet).geometry("duplex")
    gap = float(t.gap_in) * 72
    a, b = geo.slot(0, 0), geo.slot(0, 1)
    assert b.x - a.right == pytest.approx(gap) and geo.slot(1, 0).y - a.bottom == pytest.approx(gap)
    # The whole grid with its bleed stays inside the trimmed sheet less its margin.
    box, trim = geo.grid_box("front"), geo.trim
    m = float(t.margin_in) * 72
    assert box.x >= trim.x + m - 1e-6 and box.right <= trim.right - m + 1e-6
    assert box.y >= trim.y + m - 1e-6 and box.bottom <= trim.bottom - m + 1e-6
    assert geo.edge_bleed_pt <= gap / 2 + 1e-9


def test_trim_bleed_and_art_boxes_of_a_die_cut_sheet(tmp_path: Path) -> None:
    build_print_job(sample_counters(8), tmp_path, PrintOptions(F(5, 8), sheet="tgc-large-punchout"))
    data = (tmp_path / "counters-duplex.pdf").read_bytes()
    trim = [float(v) for v in re.search(rb"/TrimBox \[([^\]]*)\]", data).group(1).split()]
    assert trim[2] - trim[0] == pytest.approx(8.25 * 72) and trim[3] - trim[1] == pytest.approx(10.5 * 72)
    media = [float(v) for v in re.search(rb"/MediaBox \[([^\]]*)\]", data).group(1).split()]
    assert media[2] == pytest.approx(8.75 * 72)            # a 1/4" slug on each side holds the crop marks


def test_die_line_is_a_spot_colour_layer_on_the_front_pages(tmp_path: Path) -> None:
    build_print_job(sample_counters(8), tmp_path, PrintOptions(F(5, 8), die_line=True))
    data = (tmp_path / "counters-duplex.pdf").read_bytes()
    assert b"/Type /OCG /Name (Die line)" in data and b"/OCProperties" in data
    assert b"/Separation /DieCut /DeviceCMYK" in data
    front, back = _contents(data)[:2]
    assert "/OC /OC1 BDC" in front and "/CSDieCut CS 1 SCN" in front and "EMC" in front
    assert "/OC" not in back                                # cut from the front only
    geo = PrintOptions(F(5, 8)).geometry("duplex")
    c = geo.slot(0, 0)
    assert f"{c.x:.4f}".rstrip("0").rstrip(".") + " " in front  # the first cut box, at its exact position


def test_cmyk_output_has_an_output_intent_and_no_rgb(tmp_path: Path) -> None:
    from modulebuilder.render.cmyk import SYSTEM_PROFILES
    if not any(p.is_file() for p in SYSTEM_PROFILES):
        pytest.skip("no CMYK profile installed (Debian texlive-base ships FOGRA39L_coated.icc)")
    build_print_job(sample_counters(8), tmp_path, PrintOptions(F(5, 8), cmyk=True))
    data = (tmp_path / "counters-duplex.pdf").read_bytes()
    assert b"/OutputIntents [<< /Type /OutputIntent /S /GTS_PDFX" in data and b"/DestOutputProfile" in data
    forms = [zlib.decompress(m) for m in re.findall(rb"/Subtype /Form .*?stream\n(.*?)\nendstream", data, re.S)]
    assert forms and not any(re.search(rb" rg\b| RG\b", f) for f in forms)
    assert all(b" k" in f for f in forms if b"re f" in f)
    # Black text is printed on the black plate alone (registration), not as four-colour black.
    assert any(b"0 0 0 1 k" in f for f in forms)


def test_sheets_cli_takes_any_size_and_the_print_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "s"
    assert main(["sheets", str(root / "examples/tiny/scenario.yaml"), "--size", "7/8", "--sheet", "a4",
                 "--die-line", "--out", str(out)]) == 0
    assert (out / "counters-duplex.pdf").read_bytes().startswith(b"%PDF")
    assert main(["sheets", str(root / "examples/tiny/scenario.yaml"), "--size", "16mm", "--out", str(tmp_path / "m")]) == 0
    with pytest.raises(SystemExit):
        main(["sheets", str(root / "examples/tiny/scenario.yaml"), "--size", "12in", "--out", str(tmp_path / "x")])
    assert "choose between" in capsys.readouterr().err
