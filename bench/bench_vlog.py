"""Reading VASSAL files bounded: memory and time of ``referee check`` on hostile and on genuinely large files.

Each case runs ``referee check`` (or a module load) in a fresh process and reports its peak RSS
(``os.wait4``'s rusage) and wall time, and the reader's own time without the interpreter's start-up and
imports (``read s``, measured in a second process).  The peer, run in the same session, is what the reader did before it
read files as streams -- ``Path.read_bytes()`` of the whole file before any check -- so the ratio shows what
streaming saves on this machine today.  Cases:

* ``sparse-1GiB``: a 1 GiB file that is no zip at all (sparse: no disk used) -- refused by its end record;
* ``stored-1GiB``: a 1 GiB zip whose ``savedGame`` entry is 1 GiB stored -- refused on its declared size;
* ``bomb``: a 1 MiB deflated ``savedGame`` that inflates past the 64 MiB cap -- refused one chunk past it;
* ``module-300MiB``: the Tinyvka module padded with 300 MiB of stored images -- must load (``--module``).

Targets (issue #15): refusing a 1 GiB file in <= 1 s and <= 100 MiB RSS; the large module rules the log.
Usage: ``.venv/bin/python bench/bench_vlog.py [--keep DIR]``.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIX = ROOT / "tests" / "vassal_logs" / "fixtures"
GiB = 1024 ** 3
MiB = 1024 ** 2
PY = sys.executable


def run(argv: list[str]) -> tuple[float, float, int]:
    """(seconds, peak RSS MiB, exit code) of one fresh process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    return time.perf_counter() - start, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


READ = """
import sys, time
from pathlib import Path
from referee.logs import InputError
from referee.logs.vassal import read_vassal
module = Path(sys.argv[2]) if len(sys.argv) > 2 else None
start = time.perf_counter()
try:
    read_vassal(Path(sys.argv[1]), module)
except InputError:
    pass
print(f"{time.perf_counter() - start:.3f}")
"""


def read_seconds(argv: list[str]) -> float:
    """The reader's own time (imports excluded): refusing the file, or reading the log with the module."""
    return float(subprocess.run([PY, "-c", READ, *argv], capture_output=True, text=True, check=True).stdout)


def make_files(d: Path) -> dict[str, Path]:
    sparse = d / "sparse-1GiB.vlog"
    with open(sparse, "wb") as f:
        f.truncate(GiB)
    stored = d / "stored-1GiB.vlog"
    block = b"\0" * (16 * MiB)
    with zipfile.ZipFile(stored, "w", zipfile.ZIP_STORED, allowZip64=True) as z:
        with z.open(zipfile.ZipInfo("savedGame"), "w", force_zip64=True) as w:
            for _ in range(GiB // len(block)):
                w.write(block)
    bomb = d / "bomb.vlog"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as z:
        with z.open("savedGame", "w") as w:
            for _ in range(5):
                w.write(block)              # 80 MiB of zeros: about 80 KiB deflated
    module = d / "module-300MiB.vmod"
    with zipfile.ZipFile(FIX / "tiny.vmod") as src, zipfile.ZipFile(module, "w", zipfile.ZIP_STORED) as z:
        for n in src.namelist():
            z.writestr(n, src.read(n))
        for i in range(300 * MiB // len(block)):
            z.writestr(f"images/padding-{i}.png", block)
    return {"sparse-1GiB": sparse, "stored-1GiB": stored, "bomb": bomb, "module-300MiB": module}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", help="make the files in this folder and keep them")
    args = ap.parse_args()
    d = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-vlog-"))
    d.mkdir(parents=True, exist_ok=True)
    files = make_files(d)
    referee = [PY, "-m", "referee.cli", "check"]
    peer = [PY, "-c", "import sys, pathlib; pathlib.Path(sys.argv[1]).read_bytes()"]
    base = run([PY, "-c", "import referee.cli, referee.logs.vassal"])
    print(f"{'case':16} {'referee s':>10} {'read s':>7} {'MiB':>7} {'exit':>5}   {'peer s':>7} {'MiB':>7}   "
          "ratio s / MiB")
    print(f"{'(imports only)':16} {base[0]:10.2f} {'':7} {base[1]:7.0f}")
    ok = True
    for name, path in files.items():
        argv = referee + ([str(FIX / "tiny.vlog"), "--module", str(path)] if name.startswith("module")
                          else [str(path)])
        mine = run(argv)
        reading = read_seconds([str(FIX / "tiny.vlog"), str(path)] if name.startswith("module") else [str(path)])
        theirs = run(peer + [str(path)])
        print(f"{name:16} {mine[0]:10.2f} {reading:7.3f} {mine[1]:7.0f} {mine[2]:5d}   {theirs[0]:7.2f} "
              f"{theirs[1]:7.0f}   {theirs[0] / mine[0]:5.1f}x / {theirs[1] / mine[1]:5.1f}x")
        if name.startswith("module"):
            ok &= mine[2] == 0                                  # a genuine large module is ruled with
        else:
            ok &= mine[2] == 1 and reading <= 1.0 and mine[1] <= 100
    if not args.keep:
        for p in files.values():
            p.unlink()
        d.rmdir()
    print("targets met" if ok else "TARGETS MISSED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
