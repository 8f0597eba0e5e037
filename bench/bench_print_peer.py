"""Counter sheets side by side with the LaTeX ``wargame`` peer, in the same run.

    .venv/bin/python bench/bench_print_peer.py [--peer DIR] [--runs 3]

The peer (``counters.tex``: 250 double-sided 5/8" NATO chits, 500 faces, A4) is read from ``--peer``, the
``PRINT_PEER`` environment variable, or ``../shared/peers/print`` beside the repository.  Our side draws
*the same chits* (parsed from that file: symbol, echelon, identifier, parent, attack-defence-movement,
the reduced factors on the back, the two side colours) with the bundled ``nato`` template, 5/8" on A4,
duplex, and both sides run as a fresh process each time (start-up, imports and font loading included,
as pdflatex's are).  Runs are interleaved (peer, ours, peer, ours, ...) and the median taken.

Measured per face: (1) the sheets PDF, (2) PDF plus 300 dpi PNG pages (peer: pdflatex then pdftoppm),
(3) PDF bytes, (4) whether every font is embedded (pdffonts).  Targets: (1) >= 10x faster, (2) >= 5x
faster, (3) <= 2x the peer's bytes, (4) all embedded.  When pdflatex or the peer file is missing it says
so and measures our side alone."""
from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CHIT = re.compile(r"^\s*(u\d+)/\.style=\{side (a|b),wgu=\{(.*)\}\},\s*$")
FLIP = re.compile(r"^\s*(u\d+) flipped/\.style=.*chit/3 factors=\{(\d+),(\d+),(\d+)\}")
SIDE_COLOURS = {"a": "#9FC5E8", "b": "#F4A6A6"}     # the peer's \definecolor sidea / sideb


def find_peer(arg: str | None) -> Path | None:
    for cand in (arg, os.environ.get("PRINT_PEER"), ROOT.parent / "shared/peers/print",
                 ROOT.parents[1] / "shared/peers/print"):
        if cand and (Path(cand) / "counters.tex").is_file():
            return Path(cand)
    return None


def _split_args(s: str) -> list[str]:
    """Split TikZ style arguments at top-level commas ({[fill=black]artillery} stays one)."""
    out, depth, cur = [], 0, ""
    for ch in s:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "{"
        depth -= ch == "}"
        cur += ch
    out.append(cur)
    return out


def peer_chits(tex: Path) -> list[dict]:
    """The chits of the peer's sheet as counter records for our template."""
    chits: dict[str, dict] = {}
    for line in tex.read_text(encoding="utf-8").splitlines():
        m = CHIT.match(line)
        if m:
            uid, side, args = m.groups()
            main, echelon, ident, parent, a, d, mv = _split_args(args)
            kind = re.sub(r"[{}]|\[[^\]]*\]", "", main).strip()
            chits[uid] = {"id": uid, "name": ident, "parent": parent, "kind": kind, "echelon": echelon,
                          "attack": int(a), "defence": int(d), "movement": int(mv), "colour": SIDE_COLOURS[side]}
            continue
        m = FLIP.match(line)
        if m and m.group(1) in chits:
            chits[m.group(1)]["back"] = dict(zip(("attack", "defence", "movement"), map(int, m.groups()[1:])))
    return list(chits.values())


def ours(tex: Path, out: Path, png: bool) -> None:
    """Our build of the peer's sheet (run in a fresh process by the benchmark)."""
    from fractions import Fraction

    from modulebuilder.render.print_items import PrintItem
    from modulebuilder.render.print_job import PrintOptions, write_sheets
    from modulebuilder.render.template import load_template, template_drawing
    opts = PrintOptions(Fraction(5, 8), "a4", 300, layout="duplex", png=png)
    t = load_template("nato")
    faces, items = {}, []
    for c in peer_chits(tex):
        for face in ("front", "back"):
            faces[f"{c['id']}/{face}"] = template_drawing(t, c, face, opts.size_px, dpi=opts.dpi)
        items.append(PrintItem(c["id"], f"{c['id']}/front", f"{c['id']}/back"))
    write_sheets(faces, items, out, opts)


def timed(cmd: list[str], cwd: Path, env: dict | None = None) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - t


def fonts_embedded(pdf: Path) -> str:
    if not shutil.which("pdffonts"):
        return "pdffonts not installed"
    rows = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout.splitlines()[2:]
    bad = [r.split()[0] for r in rows if not re.search(r"\byes\s+\S+\s+\S+\s+\d+\s+\d+\s*$", r)
           or " no " in r.split("Identity-H")[-1][:8]]
    embedded = [r for r in rows if re.search(r"\s(yes)\s+(yes|no)\s+(yes|no)\s+\d+\s+\d+\s*$", r)]
    return f"{len(embedded)}/{len(rows)} fonts embedded" + (f" (not: {', '.join(bad)})" if len(embedded) < len(rows) else "")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peer", help="folder with the peer's counters.tex (or set PRINT_PEER)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--ours", nargs=2, metavar=("TEX", "OUT"), help=argparse.SUPPRESS)
    ap.add_argument("--png", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.ours:
        ours(Path(args.ours[0]), Path(args.ours[1]), args.png)
        return 0

    peer = find_peer(args.peer)
    pdflatex, pdftoppm = shutil.which("pdflatex"), shutil.which("pdftoppm")
    if peer is None:
        print("peer: counters.tex not found (give --peer DIR or PRINT_PEER); measuring ours alone, no ratios")
    if pdflatex is None:
        print("peer: pdflatex is not installed (Debian: texlive-games texlive-latex-base texlive-latex-recommended "
              "texlive-pictures texlive-fonts-recommended texlive-latex-extra); measuring ours alone, no ratios")
    tex = (peer / "counters.tex") if peer else None
    if tex is None:
        print("cannot build our side without the peer's chit list either")
        return 1
    chits = peer_chits(tex)
    faces = 2 * len(chits)
    print(f"sheet: {len(chits)} double-sided 5/8\" chits = {faces} faces, A4 ({tex})")
    work = Path(tempfile.mkdtemp(prefix="bench-print-peer-"))
    try:
        shutil.copy(tex, work / "counters.tex")
        me = [sys.executable, str(Path(__file__).resolve())]
        t = {"peer_pdf": [], "peer_png": [], "ours_pdf": [], "ours_png": []}
        run_peer = pdflatex is not None
        for r in range(args.runs):
            if run_peer:
                t["peer_pdf"].append(timed([pdflatex, "-interaction=nonstopmode", "-halt-on-error", "counters.tex"], work))
                if pdftoppm:
                    for old in work.glob("page-*.png"):
                        old.unlink()
                    t["peer_png"].append(t["peer_pdf"][-1] + timed([pdftoppm, "-r", "300", "-png", "counters.pdf", "page"], work))
            o = work / f"ours-{r}"
            t["ours_pdf"].append(timed(me + ["--ours", str(tex), str(o)], ROOT))
            t["ours_png"].append(timed(me + ["--ours", str(tex), str(work / f"ours-png-{r}"), "--png"], ROOT))
        med = {k: statistics.median(v) for k, v in t.items() if v}
        ours_pdf = work / "ours-0" / "counters-duplex.pdf"
        if (work / "ours-1" / "counters-duplex.pdf").exists():
            same = ours_pdf.read_bytes() == (work / "ours-1" / "counters-duplex.pdf").read_bytes()
            print(f"ours: byte-identical run to run: {same}")
        print(f"{'':28}{'peer':>12}{'ours':>12}{'ratio':>10}")

        def row(label: str, p: float | None, o: float, unit: str, better_low: bool = True) -> None:
            ratio = f"{p / o:.1f}x" if p else "-"
            ps = f"{p:.2f}{unit}" if p else "-"
            print(f"{label:28}{ps:>12}{o:.2f}{unit:>3}{ratio:>10}".replace(f"{o:.2f}{unit:>3}", f"{o:.2f}{unit}".rjust(12)))

        pp = med.get("peer_pdf")
        row("sheets PDF, ms/face", pp and pp * 1000 / faces, med["ours_pdf"] * 1000 / faces, "")
        pg = med.get("peer_png")
        row("PDF + 300 dpi PNG, ms/face", pg and pg * 1000 / faces, med["ours_png"] * 1000 / faces, "")
        ob = ours_pdf.stat().st_size / faces
        pb = (work / "counters.pdf").stat().st_size / faces if (work / "counters.pdf").exists() else None
        print(f"{'PDF bytes/face':28}{(f'{pb:.0f}' if pb else '-'):>12}{ob:>12.0f}"
              f"{(f'{ob / pb:.2f}x of peer' if pb else '-'):>16}")
        print(f"fonts: ours {fonts_embedded(ours_pdf)}"
              + (f"; peer {fonts_embedded(work / 'counters.pdf')}" if pb else ""))
        if pp:
            print(f"targets: PDF >= 10x faster: {pp / med['ours_pdf']:.1f}x; PDF+PNG >= 5x faster: "
                  f"{(pg / med['ours_png']) if pg else float('nan'):.1f}x; bytes <= 2x: {ob / pb:.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
