"""A scenario's starting position as a .vsav (the module's PredefinedSetup files), vassal.md §4.3 and §7.

Text: ``begin_save``, the version-check placeholder, one NullCommand whose sub-commands add every piece
and then every stack, the BoardPicker command of each map, ``end_save``.  Pieces are the palette pieces
with their prototypes expanded (as the engine writes them), at the engine's own pixel for the hex, facing
and Disorder layer set.  A stack lists its pieces bottom to top (Stack.getState), so our list order
(first = top) is reversed.  Ids come from ``ids.py``: the same scenario always gives the same bytes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Mapping, Sequence

from ..model import Orientation, Scenario
from ..model import Placement as SetupPlacement
from . import cup, ids, savecodec, seqenc
from .holding import reinforcement_key
from .metadata import VASSAL_VERSION, moduledata, savedata
from .pieces import PieceSpec, placed_piece
from .savecodec import Leaf, Seq
from .traits import add_piece
from .zipio import deterministic_zip

OBFUSCATION_KEY = 0x2a     # any byte works (vassal.md §4.2); a fixed one keeps the output reproducible


@dataclass(frozen=True)
class Placement:
    """One piece of a set-up, resolved to map pixels."""
    key: str                 # unit / leader id
    map_name: str
    x: int
    y: int
    facing: int | None = None
    disordered: bool = False


def stacks(placements: Sequence[Placement]) -> list[list[Placement]]:
    """Placements grouped by position, first-seen order; within a stack list order (first = top)."""
    groups: dict[tuple[str, int, int], list[Placement]] = {}
    for p in placements:
        groups.setdefault((p.map_name, p.x, p.y), []).append(p)
    return list(groups.values())


@dataclass(frozen=True)
class DeckPlacement:
    """The activation cup as a set-up fills it: where its DrawPile is and what is in it, bottom first."""
    map_name: str
    x: int
    y: int
    size: int
    keys: tuple[str, ...]


def saved_game_text(scenario_id: str, placements: Sequence[Placement], specs: Mapping[str, PieceSpec],
                    orientation: Orientation, map_names: Sequence[str], deck: DeckPlacement | None = None,
                    turn: str | None = None, notes: str | None = None) -> str:
    """The set-up's command text; with ``deck``, the cup's contents and ``SETUP_STACK`` (so the engine
    takes the deck from the save instead of placing a fresh, empty one as for a new game); ``turn`` is the
    turn tracker's ``TURN`` command (the scenario's own turns and phases, turns.py)."""
    adds: list[savecodec.Node] = [Leaf("")]
    stack_adds: list[savecodec.Node] = []
    if deck is not None:
        pids = []
        for key in deck.keys:
            pid = ids.piece_id(scenario_id, key)
            piece = placed_piece(specs[key], orientation, deck.map_name, deck.x, deck.y)
            adds.append(Leaf(add_piece(pid, piece)))
            pids.append(pid)
        did = ids.stack_id(scenario_id, cup.CUP)
        stack_adds.append(Leaf("+/" + seqenc.encode(
            [did, cup.deck_type(deck.size), cup.deck_state(deck.map_name, deck.x, deck.y, pids)], "/")))
    opener = next((p.key for p in placements if specs[p.key].unit), None)
    for stack in stacks(placements):
        pids = []
        for p in stack:
            pid = ids.piece_id(scenario_id, p.key)
            piece = placed_piece(specs[p.key], orientation, p.map_name, p.x, p.y, facing_hour=p.facing,
                                 disordered=p.disordered, opens_palette=p.key == opener)
            adds.append(Leaf(add_piece(pid, piece)))
            pids.append(pid)
        first = stack[0]
        sid = ids.stack_id(scenario_id, f"{first.map_name}@{first.x},{first.y}")
        state = seqenc.encode([first.map_name, first.x, first.y, *reversed(pids)], ";")
        stack_adds.append(Leaf("+/" + seqenc.encode([sid, "stack", state], "/")))
    boards = [Leaf(f"{name}BoardPicker\t{name}\t0\t0") for name in map_names]
    if deck is not None:
        boards.append(Leaf("SETUP_STACK\t"))
    if turn is not None:
        boards.append(Leaf(turn))
    if notes is not None:
        boards.append(Leaf("NOTES\t" + notes))
    tree = Seq((Leaf("begin_save"), Leaf(""), Seq(tuple(adds + stack_adds)), *boards, Leaf("end_save")))
    return savecodec.encode(tree)


def vsav_bytes(text: str, module_name: str, module_version: str, module_description: str,
               description: str, vassal_version: str = VASSAL_VERSION) -> bytes:
    return deterministic_zip([
        ("savedGame", savecodec.obfuscate(text, OBFUSCATION_KEY)),
        ("savedata", savedata(module_version, description, vassal_version)),
        ("moduledata", moduledata(module_name, module_version, module_description, vassal_version)),
    ])


def shows_back(p: SetupPlacement) -> bool:
    """Whether a unit starts back side up: Disordered (T&G) or in the Shaken formation (M&P: the reverse
    face with no marker, 6.3.1); every other M&P formation is a marker on the front."""
    return p.status == "disordered" or p.formation == "shaken"


def scenario_placements(scenario: Scenario, main_map: str, centre: Callable[[str], tuple[int, int]],
                        box_cells: Mapping[str, Sequence[tuple[int, int]]], holding_map: str) -> list[Placement]:
    """Every unit and leader of ``scenario``: set-up hexes on the main map, the rest in holding boxes."""
    out: list[Placement] = []
    for p in scenario.setup:
        if p.hex is not None:
            x, y = centre(p.hex)
            out.append(Placement(p.unit, main_map, x, y, p.facing, shows_back(p)))
    placed = {p.key for p in out}
    for box, groups in box_groups(scenario).items():
        cells = box_cells[box]
        for i, group in enumerate(groups):
            x, y = cells[min(i, len(cells) - 1)]
            # A unit both set up on the map and listed as a reinforcement is placed once, on the map.
            out += [Placement(uid, holding_map, x, y) for uid in group if uid not in placed]
            placed.update(group)
    return out


def box_groups(scenario: Scenario) -> dict[str, list[list[str]]]:
    """Off-map units by holding box: ``box key -> groups`` (one stack each), in scenario order.

    Reinforcements go to ``reinforcement-<turn>`` (``reinforcement-later`` when a condition decides),
    one group per reinforcement entry; units set up in a box go there, one group per side.
    """
    out: dict[str, list[list[str]]] = {}
    in_reinforcements = set()
    for r in scenario.reinforcements:
        key = reinforcement_key(r.turn)
        out.setdefault(key, []).append(list(r.units))
        in_reinforcements.update(r.units)
    sides: dict[str, str] = {u.id: u.side for u in scenario.counters.units}
    sides.update({ldr.id: ldr.side for ldr in scenario.counters.leaders})
    by_box: dict[str, dict[str, list[str]]] = {}
    for p in scenario.setup:
        if p.box is None or p.unit in in_reinforcements:
            continue
        key = reinforcement_key(None) if p.box == "reinforcement" else p.box
        by_box.setdefault(key, {}).setdefault(sides.get(p.unit, ""), []).append(p.unit)
    for key, per_side in by_box.items():
        out.setdefault(key, []).extend(per_side.values())
    pool = cup.cup_setup(scenario).pool
    if pool:
        sides.update({m.id: m.side or "" for m in scenario.counters.markers})
        sides.update({am.marker.id: am.marker.side or "" for am in cup.activation_markers(scenario.counters)})
        per_side_pool: dict[str, list[str]] = {}
        for key in pool:
            per_side_pool.setdefault(sides.get(key, ""), []).append(key)
        out[cup.POOL] = list(per_side_pool.values())
    return out
