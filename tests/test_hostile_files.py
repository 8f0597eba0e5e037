"""Files a player may be sent, read by the command-line tools under a memory limit: each hostile one is refused
with one line, exit 1, no traceback, and a peak memory (the process's maximum resident set) of at most 200 MB.

Each command runs in a child process with its address space capped (``RLIMIT_AS``, 1 GiB: a safety net so a
regression fails fast instead of taking the machine) and its peak measured by ``getrusage`` in a wrapper
process that has no other child.  Before these bounds the same files made ``modulebuilder validate`` grow to
gigabytes (YAML aliases), ``referee check`` die of MemoryError (a 2 GiB file, ``/dev/zero``) or wait forever
(a FIFO)."""
from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import NamedTuple

import pytest

from modulebuilder.vassal import savecodec
from modulebuilder.vassal.savefile import read_game

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "vassal_logs" / "fixtures"
PEAK_MB = 200
ADDRESS_SPACE = 1 << 30
TIMEOUT = 60

# The wrapper: runs the command with its address space capped, then reports the child's peak resident set.
_WRAPPER = """
import resource, subprocess, sys
def cap():
    resource.setrlimit(resource.RLIMIT_AS, ({limit}, {limit}))
try:
    code = subprocess.run(sys.argv[2:], preexec_fn=cap, timeout={timeout}).returncode
except subprocess.TimeoutExpired:
    code = "timeout"
with open(sys.argv[1], "w") as f:
    f.write(f"{{code}} {{resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss}}")
"""


class Run(NamedTuple):
    code: int | str
    peak_mb: float
    lines: list[str]            # stdout and stderr, non-empty lines


def run_bounded(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> Run:
    report = tmp_path / "peak.txt"
    wrapper = _WRAPPER.format(limit=ADDRESS_SPACE, timeout=TIMEOUT)
    done = subprocess.run([sys.executable, "-c", wrapper, str(report), sys.executable, "-m", *args],
                          capture_output=True, text=True, cwd=tmp_path, timeout=TIMEOUT + 30,
                          env={**os.environ, "HEXWARGAME_CACHE": "off", **(env or {})})
    code, peak_kb = report.read_text().split()
    lines = [line for line in (done.stdout + done.stderr).splitlines() if line.strip()]
    return Run(int(code) if code.lstrip("-").isdigit() else code, int(peak_kb) / 1024, lines)


def assert_refused(run: Run, *words: str) -> str:
    """Exit 1, one line with ``words`` in it, no traceback, within the memory bound."""
    assert run.code == 1, run
    assert len(run.lines) == 1, run.lines
    assert not any("Traceback" in line or "internal error" in line for line in run.lines), run.lines
    for word in words:
        assert word in run.lines[0], run.lines[0]
    assert run.peak_mb <= PEAK_MB, f"peak {run.peak_mb:.0f} MB: {run.lines}"
    return run.lines[0]


# -- YAML aliases ------------------------------------------------------------------------------------------

def billion_laughs(indent: str = "") -> str:
    """The classic: nine aliases of nine aliases, nine levels (10^9 leaves), about 410 bytes."""
    lines = [f"{indent}a: &a [{', '.join(['lol'] * 9)}]"]
    for level, name in enumerate("bcdefghi"):
        prev = "abcdefghi"[level]
        lines.append(f"{indent}{name}: &{name} [{', '.join(['*' + prev] * 9)}]")
    return "\n".join(lines) + "\n"


def three_per_level(indent: str = "") -> str:
    """Sixty aliases, three per level over twenty levels: 3^21 ~ 10^10 leaves, under any count of aliases."""
    lines = [f"{indent}b0: &b0 [x, x, x]"]
    lines += [f"{indent}b{i}: &b{i} [*b{i - 1}, *b{i - 1}, *b{i - 1}]" for i in range(1, 21)]
    return "\n".join(lines) + "\n"


def test_the_billion_laughs_is_about_410_bytes() -> None:
    assert 380 <= len(billion_laughs()) <= 420
    assert three_per_level().count("*") == 60


def test_modulebuilder_validate_refuses_a_billion_laughs_at_once(tmp_path: Path) -> None:
    """Before: 6.1 GB in 60 s."""
    (tmp_path / "laughs.yaml").write_text(billion_laughs())
    line = assert_refused(run_bounded(tmp_path, "modulebuilder", "validate", "laughs.yaml"),
                          "laughs.yaml:", "alias", "HEXWARGAME_YAML_ALIAS_BUDGET")
    assert line.startswith("laughs.yaml:6:")          # the first alias past the budget, where it is written


def test_modulebuilder_validate_refuses_a_billion_laughs_in_a_scenario(tmp_path: Path) -> None:
    scenario = (ROOT / "scenarios" / "schevardino.yaml").read_text()
    (tmp_path / "scenario.yaml").write_text(scenario + "notes:\n" + billion_laughs("  "))
    assert_refused(run_bounded(tmp_path, "modulebuilder", "validate", "scenario.yaml"), "scenario.yaml:", "alias")
    assert_refused(run_bounded(tmp_path, "modulebuilder", "build", "scenario.yaml", "--out", "out"),
                   "scenario.yaml:", "alias")


@pytest.mark.parametrize("bomb", [billion_laughs, three_per_level], ids=["nine-per-level", "three-per-level"])
def test_referee_check_refuses_aliases_in_a_logs_inline_scenario(tmp_path: Path, bomb) -> None:
    """Before: 1.7 GB for a 7 KB log (nine per level); the three-per-level one ran until killed."""
    (tmp_path / "log.yaml").write_text("dice: players\nevents: []\nscenario:\n" + bomb("  "))
    assert_refused(run_bounded(tmp_path, "referee", "check", "log.yaml"), "log.yaml:", "alias")


def test_a_recursive_alias_is_refused(tmp_path: Path) -> None:
    (tmp_path / "log.yaml").write_text("dice: players\nevents: &e [1, *e]\nscenario: schevardino\n")
    assert_refused(run_bounded(tmp_path, "referee", "check", "log.yaml"), "log.yaml:2:", "contains itself")


# -- what is not a file, and files too large ----------------------------------------------------------------

@pytest.fixture
def sparse(tmp_path: Path) -> Path:
    """A 2 GiB file that takes no disk (truncate)."""
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(2 << 30)
    return path


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe.yaml"
    os.mkfifo(path)
    return path


def test_referee_check_refuses_a_2_gib_file_before_reading_it(tmp_path: Path, sparse: Path) -> None:
    """Before: 10 GB without a limit (MemoryError under one)."""
    assert_refused(run_bounded(tmp_path, "referee", "check", sparse.name), "huge.json", "2 GiB", "16 MiB",
                   "HEXWARGAME_MAX_TEXT_BYTES")


def test_modulebuilder_refuses_a_2_gib_file_before_reading_it(tmp_path: Path, sparse: Path) -> None:
    big = sparse.rename(tmp_path / "huge.yaml")
    for command in ("validate", "build"):
        extra = ["--out", "out"] if command == "build" else []
        assert_refused(run_bounded(tmp_path, "modulebuilder", command, big.name, *extra), "huge.yaml", "2 GiB")


@pytest.mark.parametrize("args", [["referee", "check"], ["referee", "verify"], ["modulebuilder", "validate"],
                                  ["modulebuilder", "map", "--out", "out"]], ids=" ".join)
def test_dev_zero_is_not_a_regular_file(tmp_path: Path, args: list[str]) -> None:
    """Before: ``referee check /dev/zero`` grew until the OOM killer stopped it."""
    assert_refused(run_bounded(tmp_path, *args, "/dev/zero"), "/dev/zero", "character device, not a regular file")


@pytest.mark.parametrize("args", [["referee", "check"], ["modulebuilder", "validate"]], ids=" ".join)
def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path, fifo: Path, args: list[str]) -> None:
    """Before: opening it waited for a writer, forever."""
    assert_refused(run_bounded(tmp_path, *args, fifo.name), "pipe.yaml", "FIFO, not a regular file")


def test_a_vlog_that_is_a_device_or_a_fifo_is_refused(tmp_path: Path, fifo: Path) -> None:
    (tmp_path / "zero.vlog").symlink_to("/dev/zero")
    assert_refused(run_bounded(tmp_path, "referee", "check", "zero.vlog"), "zero.vlog", "character device")
    fifo.rename(tmp_path / "pipe.vlog")
    assert_refused(run_bounded(tmp_path, "referee", "check", "pipe.vlog"), "pipe.vlog", "FIFO")
    assert_refused(run_bounded(tmp_path, "referee", "check", str(FIXTURES / "tiny.vlog"), "--module", "pipe.vlog"),
                   "pipe.vlog", "FIFO")


def test_the_text_cap_refuses_one_byte_over_and_can_be_raised(tmp_path: Path) -> None:
    log = (ROOT / "tests" / "fixtures" / "logs" / "sample-borodino.json").read_bytes()
    (tmp_path / "log.json").write_bytes(log)
    cap = {"HEXWARGAME_MAX_TEXT_BYTES": str(len(log) - 1)}
    assert_refused(run_bounded(tmp_path, "referee", "check", "log.json", env=cap), "log.json", "more than")
    done = run_bounded(tmp_path, "referee", "check", "log.json", env={"HEXWARGAME_MAX_TEXT_BYTES": str(len(log))})
    assert done.code == 0, done.lines[-3:]


# -- zip and XML bombs --------------------------------------------------------------------------------------

def _tiny_with(tmp_path: Path, name: str, **entries: bytes) -> Path:
    """tiny.vlog with some entries replaced (or added); without its ``moduledata`` unless one is given (the
    referee would otherwise name the module it cannot find a scenario for, from a folder of tests)."""
    with zipfile.ZipFile(FIXTURES / "tiny.vlog") as z:
        kept = {n: z.read(n) for n in z.namelist() if n != "moduledata"}
    kept.update(entries)
    path = tmp_path / name
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in kept.items():
            z.writestr(n, data)
    return path


def test_a_zip_bomb_vlog_is_refused_at_its_entry_cap(tmp_path: Path) -> None:
    bomb = _tiny_with(tmp_path, "bomb.vlog", savedGame=b"0" * (200 << 20))
    assert bomb.stat().st_size < 1 << 20
    assert_refused(run_bounded(tmp_path, "referee", "check", bomb.name), "bomb.vlog", "savedGame", "16 MiB",
                   "zip bomb")


def _saved_game(commands: list[str]) -> bytes:
    """tiny.vlog's savedGame with ``commands`` after its own, obfuscated as VASSAL writes it."""
    text = read_game(FIXTURES / "tiny.vlog").text
    return savecodec.obfuscate(text + "".join("\x1b" + c for c in commands), 0x33)


def test_a_vlog_of_millions_of_tiny_commands_is_refused_before_parsing(tmp_path: Path) -> None:
    """Before: 7 MiB of one-character commands (14 MiB obfuscated, 20 KB on disk) took minutes and 500 MB;
    splitting the save's text copied its rest once per command."""
    path = _tiny_with(tmp_path, "tiny-commands.vlog", savedGame=_saved_game(["x"] * 3_500_000))
    assert path.stat().st_size < 1 << 20
    assert_refused(run_bounded(tmp_path, "referee", "check", path.name), "tiny-commands.vlog", "commands and fields",
                   "zip bomb")


def test_a_vlog_just_under_every_cap_stays_within_the_memory_bound(tmp_path: Path) -> None:
    """Just under the entry cap (16 MiB obfuscated) and the separators' (524,288): read, parsed and ruled within
    200 MB."""
    saved = _saved_game(["y" * 15] * 500_000)
    assert 14 << 20 < len(saved) < 16 << 20
    path = _tiny_with(tmp_path, "big.vlog", savedGame=saved)
    run = run_bounded(tmp_path, "referee", "check", path.name)
    assert run.code == 0 and run.peak_mb <= PEAK_MB, (run.code, run.peak_mb, run.lines[-3:])


def test_a_zip_of_many_entries_is_refused_from_its_end_record(tmp_path: Path) -> None:
    path = tmp_path / "many.vlog"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_STORED) as z:
        for i in range(120_000):
            z.writestr(zipfile.ZipInfo(f"e{i}"), b"")
    assert_refused(run_bounded(tmp_path, "referee", "check", path.name), "many.vlog", "120000 zip entries")


LAUGHS_XML = (b'<?xml version="1.0"?>\n<!DOCTYPE data [<!ENTITY l0 "lol">'
              + b"".join(b'<!ENTITY l%d "%s">' % (i, b"&l%d;" % (i - 1) * 10) for i in range(1, 10))
              + b"]>\n<data><name>&l9;</name><version>1</version></data>")
XXE_XML = (b'<?xml version="1.0"?>\n<!DOCTYPE data [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
           b"<data><name>&x;</name><version>1</version></data>")


@pytest.mark.parametrize("xml", [LAUGHS_XML, XXE_XML], ids=["billion-laughs", "external-entity"])
def test_hostile_xml_in_a_vlog_is_refused(tmp_path: Path, xml: bytes) -> None:
    path = _tiny_with(tmp_path, "x.vlog", moduledata=xml)
    assert_refused(run_bounded(tmp_path, "referee", "check", path.name), "x.vlog's moduledata",
                   "declares XML entities")


def _module_with(tmp_path: Path, build_file: bytes) -> Path:
    with zipfile.ZipFile(FIXTURES / "tiny.vmod") as z:
        kept = {n: z.read(n) for n in z.namelist()}
    kept["buildFile.xml"] = build_file
    path = tmp_path / "m.vmod"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for n, data in kept.items():
            z.writestr(n, data)
    return path


def test_hostile_xml_in_a_module_is_refused(tmp_path: Path) -> None:
    vlog = str(FIXTURES / "tiny.vlog")
    laughs = LAUGHS_XML.replace(b"<data>", b"<VASSAL.launch.BasicModule>").replace(
        b"</data>", b"</VASSAL.launch.BasicModule>").replace(b"DOCTYPE data", b"DOCTYPE VASSAL.launch.BasicModule")
    _module_with(tmp_path, laughs)
    assert_refused(run_bounded(tmp_path, "referee", "check", vlog, "--module", "m.vmod"),
                   "m.vmod's buildFile.xml", "declares XML entities")
    # 4 million empty tags (16 MiB, 16 KiB compressed) would be a 550 MB tree.
    _module_with(tmp_path, b"<r>" + b"<a/>" * ((16 << 20) // 4 - 4) + b"</r>")
    assert_refused(run_bounded(tmp_path, "referee", "check", vlog, "--module", "m.vmod"),
                   "m.vmod's buildFile.xml", "XML tags and attributes", "XML bomb")


# -- the service reads YAML with the same reader ------------------------------------------------------------

def test_the_service_refuses_the_three_per_level_aliases_with_a_sentence(client) -> None:
    """Before: 60 aliases passed the service's count of 64 and ran until the 30 s budget stopped it."""
    body = "dice: players\nevents: []\nscenario:\n" + three_per_level("  ")
    resp = client.post("/api/v1/check", data=body, content_type="application/yaml")
    assert resp.status_code == 422, resp.json
    message = resp.json["error"]["message"]
    assert "alias" in message and "\n" not in message


@pytest.fixture
def client(tmp_path: Path):
    from referee.service import create_app
    from referee.service.extension import ext
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}", "TESTING": True})
    yield app.test_client()
    with app.app_context():
        ext().close()


def test_a_log_of_a_million_empty_events_lists_a_thousand_problems(tmp_path: Path) -> None:
    """Before: a line per event (5 MB of ``{}`` is a million of them): a gigabyte and a minute to list."""
    events = ",".join(["{}"] * 1_000_000)
    (tmp_path / "empty.json").write_text('{"scenario": "schevardino", "dice": "players", "events": [' + events + "]}")
    run = run_bounded(tmp_path, "referee", "check", "empty.json")
    assert run.code == 1 and len(run.lines) == 1001, (run.code, len(run.lines))
    assert run.lines[0] == "events[0].type: unknown event type None (known: " + run.lines[0].split("(known: ")[1]
    assert run.lines[-1] == "events[1000:]: not checked, after 1,000 problems"
    assert run.peak_mb <= PEAK_MB, run.peak_mb
