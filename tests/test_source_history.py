"""Comments and docstrings say what the code does and why; measurements and the history of the work live in docs/
(docs/speed.md's "Figures behind the code", or the doc of that part).  A comment or docstring under modulebuilder/ or
referee/ that cites an issue ("issue 12", "#18") or a dated session, or carries a timing figure (µs, ms, seconds of
CPU, instructions counted, "5x faster", a share of a check, a rate per second), fails here with its file, line and
text."""
from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("modulebuilder", "referee")
# Parts whose comments are being rewritten by other work, not checked yet: empty this list once they are.
NOT_YET_CHECKED: tuple[str, ...] = ()

NUMBER = r"\d(?:[\d,]*\d)?(?:\.\d+)?"
CITATION = re.compile(r"(?i)\bissues?\s*#?\s*\d+|\(#\d+\)|\b(?:first|second|third|fourth|fifth|sixth|seventh|eighth|"
                      r"ninth|tenth) session\b|\b\d{1,2} (?:January|February|March|April|"
                      r"May|June|July|August|September|October|November|December)\b(?! 1812)")
TIMING = re.compile("|".join([
    rf"{NUMBER}\s*(?:µs|μs|ns|ms)\b",                                   # 1.8 µs, ~15 ms
    rf"{NUMBER}\s*(?:[KMG]\s+)?instructions\b",                         # ~58 M instructions
    rf"{NUMBER}\s*[x×]\s*(?:faster|slower|cheaper|dearer|the)\b",      # ~20x cheaper, 6x the standard library's
    r"\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|twenty|a hundred)\s+times\s+(?:faster|slower|cheaper|"
    r"as\s+much|as\s+fast)\b",                                            # ten times as much
    rf"{NUMBER}\s*s\s+(?:of\s+(?:CPU|wall|a|the|its)\b|idle\b|in one go\b)",   # 0.3 s of a short check
    rf"~\s*{NUMBER}\s*s\b",                                             # ~1 s
    rf"\btook\s+~?{NUMBER}",                                            # took 0.62 s
    rf"{NUMBER}\s*%\s+of\s+(?:a|an|the|its)\b[^.;]{{0,40}}\b(?:check|replay|submission|CPU|start-up)",
    rf"{NUMBER}\s*(?:[A-Za-z]+)?/s\b",                                 # 500 submissions/s, 8.95 MB/s
    r"\b(?:cachegrind|profiled|profiling showed|measured at)\b",
]))


def sources() -> list[Path]:
    out = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if not any(rel == skip or rel.startswith(skip + "/") for skip in NOT_YET_CHECKED):
                out.append(path)
    return out


def prose(path: Path) -> list[tuple[int, str]]:
    """Every comment and every string that stands as a statement (docstrings), line by line."""
    text = path.read_text(encoding="utf-8")
    out = [(tok.start[0], tok.string) for tok in tokenize.generate_tokens(io.StringIO(text).readline)
           if tok.type == tokenize.COMMENT]
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            out += [(node.lineno + i, line) for i, line in enumerate(node.value.value.splitlines())]
    return out


def findings(paths: list[Path]) -> list[str]:
    out = []
    for path in paths:
        for line, text in prose(path):
            for what, pattern in (("cites an issue or a session", CITATION), ("carries a timing figure", TIMING)):
                if m := pattern.search(text):
                    where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                    out.append(f"{where}:{line}: {what} ({m.group(0)!r}): {text.strip()}")
    return out


def test_no_comment_or_docstring_cites_an_issue_or_carries_a_timing_figure():
    found = findings(sources())
    assert not found, "say what and why; move the figure to docs/ (docs/speed.md):\n" + "\n".join(found)


@pytest.mark.parametrize("text, bad", [
    ("# measured: 1.8 µs a move", True), ("# ~58 M instructions", True), ("# (issue 12, point 2)", True),
    ("# it decided the move (#18)", True), ("# ~20x cheaper than ruamel", True), ("# ~0.3 s of a short check", True),
    ("# 12 % of a one-event check", True), ("# 500 submissions/s", True), ("# 2 December, sixth session", True),
    ("# 7 September 1812", False), ("# a session of the link", False), ("# the d10 shows 0-9", False),
    ("# 16 MiB, the zip entry cap", False), ("# at most 1.8 hex sizes wide", False)])
def test_the_patterns_find_figures_and_citations_but_not_the_game_s_numbers(tmp_path, text, bad):
    path = tmp_path / "probe.py"
    path.write_text(f"x = 1  {text}\n", encoding="utf-8")
    assert bool(findings([path])) is bad
