"""``referee check``'s command line read without argparse (``referee.cli.plain_check``, docs/speed.md §1) gives
argparse's answer or none: on generated command lines, every one it takes parses to the same values under
argparse, and every one argparse refuses it leaves to argparse."""
from __future__ import annotations

import contextlib
import io
import sys

from hypothesis import example, given, settings, strategies as st

from referee.cli import build_parser, cmd_check, main, plain_check

WORDS = ["check", "a.json", "b.yaml", "t1.vlog", "", "json", "text", "xml", "--format", "--format=json",
         "--format=text", "--format=", "--module", "--module=m.vmod", "--module=", "m.vmod", "--strict",
         "--strict=1", "--no-cache", "--no-c", "--form", "-h", "--help", "--", "-", "-1", "-x", "--x y", "rulesets",
         "serve", "--formats", "check", "--strict-dice", "--strict-d", "--from", "--from=s.vsav", "s.vsav", "--fro", "--dice-seed", "--dice-seed=ab12", "ab12", "--dice"]


def argparse_answer(argv: list[str]) -> dict | None:
    parser = build_parser(service=False)
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            ns = parser.parse_args(argv)
    except SystemExit:
        return None
    return vars(ns)


@settings(max_examples=800, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=7).map(lambda rest: ["check", *rest]) | st.lists(st.sampled_from(WORDS), max_size=7))
@example(["check", "a.json"])
@example(["check", "a.json", "--format", "text", "--strict", "--no-cache", "--module", "m.vmod"])
@example(["check", "--format=text", "a.json", "b.yaml"])
@example(["check", "a.json", "--strict", "b.yaml"])            # argparse: unrecognized arguments
@example(["check", "--module", "-1", "a.json"])                  # argparse: -1 is the module
@example(["check", "a.json", "--format", "json", "--format", "text"])
def test_plain_check_gives_argparse_s_answer_or_none(argv):
    fast = plain_check(argv)
    expected = argparse_answer(argv)
    if fast is None:
        return
    assert expected is not None, argv
    assert vars(fast) == expected, argv
    assert fast.func is cmd_check


def test_the_plain_command_lines_are_read_without_argparse():
    assert plain_check(["check", "x.json"]) is not None
    assert plain_check(["check", "a.vlog", "b.vlog", "--module", "m.vmod", "--format=text"]).log == ["a.vlog", "b.vlog"]
    for other in (["check"], ["check", "-h"], ["check", "--form", "json", "x"], ["rulesets"], [],
                  ["check", "x", "--format", "xml"], ["check", "x", "--", "y"]):
        assert plain_check(other) is None, other


def test_a_usage_error_still_gets_argparse_s_message(capsys):
    try:
        main(["check", "x.json", "--format", "xml"])
    except SystemExit as exc:
        assert exc.code == 2
    err = capsys.readouterr().err
    assert "invalid choice: 'xml'" in err and err.startswith("usage: referee check")
    assert "argparse" in sys.modules
