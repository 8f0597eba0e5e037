"""The legal listing's kept candidates (``candidates``, issue #17 (c)) never go stale: at every position of a
sample game and of random play, ``legal_actions`` with the candidates kept from earlier positions lists exactly
what it lists from scratch — the same actions in the same order.

The incremental listing is asked first at each position (so it reads the entries the earlier positions left),
then the from-scratch one (which reads and keeps none)."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from referee.engine.replay import new_game, step
from referee.logs import read_log
from referee.play import play_game
from referee.rulesets.triumph_and_glory import RULESET, candidates

from .games import FR, RU, basic
from .test_random_play import skirmish

ROOT = Path(__file__).resolve().parents[2]


def from_scratch(state: Any) -> list[dict[str, Any]]:
    with candidates.from_scratch():
        return RULESET.legal_actions(state)


class Checked:
    """The ruleset, its ``legal_actions`` compared with the from-scratch listing at every call."""

    def __init__(self) -> None:
        self.positions = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(RULESET, name)

    def legal_actions(self, state: Any) -> list[dict[str, Any]]:
        got = RULESET.legal_actions(state)
        assert got == from_scratch(state), f"stale candidates at position {self.positions}"
        self.positions += 1
        return got


def test_kept_candidates_equal_from_scratch_over_the_sample_game():
    """The first 1,500 events of the sample *Borodino* game (the whole game: the baseline listings' `cmp`)."""
    log = read_log(ROOT / "tests/fixtures/logs/sample-borodino.json")
    game = new_game(log.ruleset, log.scenario, log.dice, log.seed)
    kept_before = candidates.hits[0]
    moves = 0
    for i, event in enumerate(log.events[:1500]):
        if game.pending is None and not log.ruleset.is_over(game.state):
            got = log.ruleset.legal_actions(game.state)
            assert got == from_scratch(game.state), f"stale candidates before event {i}"
            moves += sum(a["type"] == "move" for a in got)
        _, game, _ = step(game, i, event)
    assert moves > 10_000                          # the positions compared list moves ...
    assert candidates.hits[0] - kept_before > 1_000   # ... and most of them came from kept entries


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), busy=st.booleans())
def test_kept_candidates_equal_from_scratch_in_random_play(seed, busy):
    checked = Checked()
    sc = skirmish(seed, turns=2) if busy else basic(turns=1)
    g = play_game(checked, sc, seed)
    assert RULESET.is_over(g.game.state)
    assert checked.positions == len(g.events)


def test_equal_states_list_the_same_whatever_path_led_there():
    """A state reached with kept candidates lists what the same state lists when met first (a fresh game
    replayed to it without ever listing)."""
    sc = skirmish(5, turns=2)
    g = play_game(RULESET, sc, 5)
    fresh = new_game(RULESET, sc, "referee", g.seed)
    listed = new_game(RULESET, sc, "referee", g.seed)
    for i, e in enumerate(g.events):
        if i % 7 == 0:
            assert RULESET.legal_actions(listed.state) == RULESET.legal_actions(fresh.state)
        RULESET.legal_actions(listed.state)
        _, listed, _ = step(listed, i, e)
        _, fresh, _ = step(fresh, i, e)


# ------------------------------------------------------------------------ the movement entries, board by board

HEXES = [f"{c:02d}{r:02d}" for c in range(1, 11) for r in range(1, 11)]
change = st.tuples(st.sampled_from(["place", "facing", "status", "restack"]), st.integers(0, 5),
                   st.sampled_from(HEXES), st.sampled_from([2, 4, 6, 8, 10, 12]))


@settings(max_examples=60, deadline=None)
@given(start=st.lists(st.sampled_from(HEXES), min_size=6, max_size=6, unique=True),
       changes=st.lists(change, min_size=1, max_size=12))
def test_kept_paths_follow_every_change_of_friends_and_enemies(start, changes):
    """Units of both sides moved, turned, disordered and re-stacked at random, one change per position: the
    moves listed for every unit, from the entries kept since earlier positions, equal a from-scratch search
    (an enemy that comes next to a hex the search only watched included)."""
    from referee.rulesets.triumph_and_glory.legal import paths_to_all
    from referee.rulesets.triumph_and_glory.movement import MoveContext

    from .helpers import at, board, cav, changed, inf

    units = [inf("f1", ma=2), cav("f2", ma=4), inf("f3", ma=3), inf("r1", side=RU, ma=2), cav("r2", side=RU, ma=4),
             inf("r3", side=RU, ma=3)]
    b = board(*(at(u, h, facing=12 if u.side == FR else 6) for u, h in zip(units, start)), columns=10, rows=10,
              terrain={"0404": "woods", "0505": "village", "0707": "woods"})
    ctx = MoveContext()

    def listing(b):
        return {u.id: paths_to_all(b, u.id, "normal", ctx) for u in units}

    listing(b)
    for kind, i, hex_, facing in changes:
        b = changed(b, units[i].id, kind, hex_, facing)
        got = listing(b)
        with candidates.from_scratch():
            assert got == listing(b)


def test_kept_entries_hold_no_board_and_the_chain_stays_bounded():
    """Memory: listing at every position keeps entries in the positions' own memos, linked at most
    ``MEMO_CHAIN`` positions back, and no entry holds a Board (whose memo would chain every earlier position)."""
    from referee.rulesets.triumph_and_glory.board import MEMO_CHAIN, Board

    class LastMoving:
        state: Any = None

        def __getattr__(self, name: str) -> Any:
            return getattr(RULESET, name)

        def legal_actions(self, state: Any) -> list[dict[str, Any]]:
            got = RULESET.legal_actions(state)
            if any(a["type"] == "move" for a in got):
                self.state = state
            return got

    ruleset = LastMoving()
    play_game(ruleset, skirmish(3, turns=2), 3)
    board = ruleset.state.board
    depth, inh = 0, board.inherited
    while inh is not None:
        depth += 1
        for entry in inh[0].values():
            if isinstance(entry, tuple) and len(entry) == 3 and isinstance(entry[1], candidates.SideRegion):
                region = entry[1]
                assert not any(isinstance(getattr(region, s), Board) for s in candidates.SideRegion.__slots__)
        inh = inh[2]
    assert 1 <= depth <= MEMO_CHAIN
    kinds = {k[0] for k in board.cache if isinstance(k, tuple) and k and k[0] in ("moves", "fire", "charge", "front")}
    assert kinds                                   # the final position's listing kept entries of its own
