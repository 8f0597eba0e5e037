"""The engine's Undo, pressed by the recorder (undo-script.json): the step undone is not ruled, and the referee's
final position is the board's.  Before, an undone move and its correction were both ruled (7.31 already_moved)
and the referee kept the unit on the hex of the undone move."""
from __future__ import annotations

from .recordings import engine_final, fixture, read, referee_final, ruled


def test_undone_steps_are_not_read():
    events = read("undo.vlog", "tiny.vmod").events
    assert [e for e in events if e["type"] == "move"] == [
        # 0203 -> 0304 undone; then 0303 and a turn clockwise, the turn undone: the move as it stands
        {"type": "move", "side": "French", "unit": "dumon-a", "path": ["0303"]},
        {"type": "move", "side": "French", "unit": "dumon-b", "path": ["0304"]},
        # Lepic 0105 -> 0205 undone, then the typo before it: neither is read
    ]
    assert not any(e["type"] == "unreadable" for e in events)


def test_every_move_left_is_legal_and_the_final_position_is_the_board_s():
    result = ruled("undo.vlog", "tiny.vmod")
    assert all(r.legal for r in result.rulings), [r.to_dict() for r in result.rulings if not r.legal]
    board = engine_final(fixture("undo.vrecord.txt"), fixture("undo.vlog"))
    mine = referee_final(result)
    assert mine == {uid: hex_ for uid, hex_ in board.items() if uid in mine}
    assert board["dumon-a"] == "0303" and board["lepic"] == mine["lepic"] == "0105"
    assert result.game.state.board.units["dumon-a"].facing == 2       # the undone turn is not kept


def test_the_undo_pairs_follow_the_engine_s_pointer():
    from modulebuilder.vassal.savefile import Step
    from referee.logs.vassal_steps import UNDO_REPORT, undo_pairs

    def s(i: int, undo: bool = False) -> Step:
        return Step(i, (UNDO_REPORT + "x *",) if undo else ("CHAT x",))
    # A B undo(B) undo(A)
    assert undo_pairs([s(1), s(2), s(3, True), s(4, True)]) == {3: 2, 4: 1}
    # A B undo(B) C undo(C) undo -> the pointer is on undo(B): B is done again, not paired
    assert undo_pairs([s(1), s(2), s(3, True), s(4), s(5, True), s(6, True)]) == {3: 2, 5: 4}


def test_schevardino_command_typed_in_the_chat():
    # '!command morand' was "did not understand 'morand'", and every Schevardino move then 3.0 no_activation.
    log = read("schevardino-command.vlog", "borodino-facts.vmod")
    assert log.scenario.id == "schevardino"                        # from the module's set-up
    result = ruled("schevardino-command.vlog", "borodino-facts.vmod")
    assert [(r.type, r.verdict) for r in result.rulings] == [
        ("activate_command", "legal"), ("move", "legal"), ("unreadable", "illegal"), ("roll", "illegal")]
    assert log.events[0] == {"type": "activate_command", "command": "morand", "side": "French"}   # its side
    assert log.events[1]["path"] == ["4314", "4214"]               # the undone 4314 move is not ruled
    assert result.rulings[2].errors[0].message == "step 5: cannot read '!comand friant': unknown command 'comand'"
    board = engine_final(fixture("schevardino-command.vrecord.txt"), fixture("schevardino-command.vlog"))
    assert board["fr-mr-gratien"] == result.game.state.board.units["fr-mr-gratien"].hex == "4214"
