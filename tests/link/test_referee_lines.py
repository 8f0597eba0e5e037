"""The referee link's chat lines in a .vlog: the engine's Undo skips them (they have no undo of their own), so
the reader's Undo pointer must skip them too."""
from __future__ import annotations

from modulebuilder.vassal.savefile import Step
from referee.logs.vassal_steps import REFEREE_LINE, UNDO_REPORT, referee_lines, undo_pairs


def act(i: int) -> Step:
    return Step(i, ("M/piece/Main Map/1/2/null/Main Map/3/4/null/tester", "CHAT* a moves 0101 -> 0102 *"))


def ruling(i: int) -> Step:
    return Step(i, (REFEREE_LINE + "[0] move French a → 0102: legal (7.11)",))


def undo(i: int) -> Step:
    return Step(i, (UNDO_REPORT + "a moves 0101 -> 0102 *",))


def test_an_undo_after_the_referee_s_line_takes_back_the_act_not_the_line() -> None:
    # Before: the pointer sat on the referee's line, so the Undo was read as undoing it and the move was ruled.
    assert undo_pairs([act(1), ruling(2), undo(3)]) == {3: 1}
    assert undo_pairs([act(1), ruling(2), act(3), ruling(4), undo(5)]) == {5: 3}


def test_only_steps_made_of_referee_lines_are_the_link_s() -> None:
    assert referee_lines(ruling(1))
    assert not referee_lines(act(1))
    assert not referee_lines(Step(1, ("CHAT&lt;Alice&gt; - * Referee: fake",)))
    assert not referee_lines(Step(1, ()))
