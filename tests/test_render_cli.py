"""The ``counters``, ``sheets`` and ``map`` sub-commands on small definition files."""
from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from modulebuilder.cli import main

COUNTERS = """\
game: demo
side: French
activation_groups:
  - {id: i-corps, name: "I Corps", colour: "#2b4c9b", text_colour: "#ffffff", label: "I", io_rating: 6}
units:
  - {id: dumon-a, name: "Dumon a", kind: infantry, ag: i-corps, corps: CM, assault: 4, cohesion: 5, ma: 4, dfe: 1,
     disordered: {assault: 3, cohesion: 4}}
  - {id: cuir, name: "1 Cuir", kind: cavalry, ag: i-corps, assault: 6, cohesion: 7, ma: 6, cav_type: H,
     flags: [no_back]}
leaders:
  - {id: napoleon, name: Napoleon, orders_rating: 3, delay_rating: null, drm: -2, command_range: 3, ma: null}
markers:
  - {id: under-orders, name: Under Orders, text: "UO", back_text: "NO", count: 3, colour: "#f4e04d"}
"""

MAP = """\
id: demo
title: "Demo field"
grid: {orientation: pointy, shifted: even, first_column: 1, first_row: 1, columns: 5, rows: 4}
terrain:
  default: clear
  hexes:
    woods: ["0202"]
    village: ["0303"]
hexsides:
  - {hexes: ["0101", "0102"], feature: stream}
roads:
  - {name: Road, kind: road, hexes: ["0101", "0201", "0301"]}
"""


@pytest.fixture()
def files(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "counters").mkdir()
    (tmp_path / "maps").mkdir()
    c = tmp_path / "counters" / "demo.yaml"
    c.write_text(COUNTERS)
    m = tmp_path / "maps" / "demo.yaml"
    m.write_text(MAP)
    return c, m


def test_counters_writes_one_png_per_face(files: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "faces"
    assert main(["counters", str(files[0]), "--size", "1/2", "--dpi", "600", "--out", str(out)]) == 0
    names = sorted(p.name for p in out.glob("*.png"))
    assert names == ["cuir-front.png", "dumon-a-back.png", "dumon-a-front.png", "napoleon-front.png",
                     "under-orders-back.png", "under-orders-front.png"]
    assert Image.open(out / "dumon-a-front.png").size == (300, 300)


def test_sheets_writes_pdfs_and_reports_progress(files: tuple[Path, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheets"
    assert main(["sheets", str(files[0]), "--paper", "a4", "--layout", "both", "--back-offset", "0.5,-1",
                 "--dpi", "150", "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == {"counters-duplex.pdf", "counters-gutter.pdf", "calibration.pdf"}
    err = capsys.readouterr().err
    assert "counter faces: 6/6" in err
    assert (out / "counters-duplex.pdf").read_bytes().startswith(b"%PDF-1.6")


def test_sheets_takes_any_counter_size_and_rejects_nonsense(files: tuple[Path, Path], tmp_path: Path) -> None:
    # Issue #14: 7/8", 0.6" and 15 mm were refused; any size a cutter can make is a size.
    for size in ("7/8", "0.6in", "15mm"):
        assert main(["sheets", str(files[0]), "--size", size, "--out", str(tmp_path / size.replace("/", "_"))]) == 0
    for bad in ("seven", "0", "12in"):
        with pytest.raises(SystemExit):
            main(["sheets", str(files[0]), "--size", bad, "--out", str(tmp_path / "x")])


def test_text_that_cannot_fit_is_one_line_naming_counter_and_field(files: tuple[Path, Path], tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    files[0].write_text(COUNTERS.replace('"Dumon a"', '"Leib-Grenadier-Regiment Jekaterinoslaw"'))
    assert main(["counters", str(files[0]), "--size", "1/2", "--out", str(tmp_path / "x")]) == 1
    err = [line for line in capsys.readouterr().err.strip().splitlines() if not line.startswith("counter faces:")]
    assert len(err) == 1 and "dumon-a" in err[0] and "name" in err[0]


def test_map_writes_png_and_print_pdfs(files: tuple[Path, Path], tmp_path: Path) -> None:
    out = tmp_path / "map"
    assert main(["map", str(files[1]), "--hex-size", "30", "--dpi", "72", "--out", str(out)]) == 0
    assert {p.name for p in out.iterdir()} == {"demo.png", "demo-full.pdf", "demo-tiles-letter.pdf"}
    assert Image.open(out / "demo.png").width > 5 * 30 * 1.7


def test_sheets_copies_option_prints_extra_counters(files: tuple[Path, Path], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sheets"
    assert main(["sheets", str(files[0]), "--dpi", "72", "--copies", "dumon-a=40", "--copies", "under-orders=200",
                 "--out", str(out)]) == 0
    # 40 + 1 + 1 + 200 counters on 130-slot Letter sheets: 2 sheets, front and back each.
    assert "2 sheet(s) of 13x10" in capsys.readouterr().err
    assert main(["sheets", str(files[0]), "--copies", "nobody=2", "--out", str(out)]) == 1
    assert "nobody" in capsys.readouterr().err
