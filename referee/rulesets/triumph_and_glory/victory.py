"""Victory conditions of the two *Borodino* scenarios (gaps digest §13, special rules 15–16).

* **Borodino** (totalled at the end of the game): the French score **3 VP** for each Russian AG that collapsed,
  **10** for the Russian Imperial Guard; the Russians **4 VP** for each French AG that collapsed, **10** for the
  French Imperial Guard; **10 VP** to the side occupying hex **3417** at the end [inferred timing].  Most VP
  wins; the tie rule is unknown — engine default: no winner.  Which AGs are "the Guard" is module data (AGs
  flagged ``guard`` or listed in the scenario option ``guard_ags``); engine default: each Guard AG that
  collapses is worth 10.
* **Schevardino**: whoever occupies the Schevardino Redoubt at the end of turn 5 wins; "occupies" = has a
  combat unit in it [inferred]; neither → no winner.  The redoubt's hex is map data: the hex named
  Schevardino/Shevardino, else the only ``redoubt`` hex, else the scenario option ``redoubt_hex``.
"""
from __future__ import annotations

from typing import Iterable, Mapping

from modulebuilder.records import record
from .board import Board

__all__ = ["VP_PER_AG", "GUARD_VP", "OBJECTIVE_HEX", "OBJECTIVE_VP", "VpAward", "occupier", "borodino_vp",
           "vp_totals", "winner", "redoubt_hex", "schevardino_winner"]

VP_PER_AG: Mapping[str, int] = {"French": 3, "Russian": 4}      # VP the scorer earns per enemy AG collapsed
GUARD_VP = 10
OBJECTIVE_HEX = "3417"
OBJECTIVE_VP = 10


@record(frozen=True, slots=True)
class VpAward:
    side: str
    vp: int
    reason: str


def occupier(board: Board, hex_id: str) -> str | None:
    """The side with a combat unit in ``hex_id`` (never both, 6.22), or None."""
    return board.side_at(hex_id) if board.on_map(hex_id) else None


def borodino_vp(board: Board, collapsed_ags: Iterable[str], guard_ags: Iterable[str] = (),
                objective: str = OBJECTIVE_HEX) -> tuple[VpAward, ...]:
    """Special rules 15–16: every award, for the ruling's ``results`` and the final score."""
    scenario = board.static.scenario
    ags = {a.id: a for a in scenario.counters.activation_groups} if scenario else {}
    guards = set(guard_ags) | {a.id for a in ags.values() if "guard" in a.flags}
    sides = [s.name for s in scenario.sides] if scenario else list(VP_PER_AG)
    awards: list[VpAward] = []
    for ag in collapsed_ags:
        loser = ags[ag].side
        scorer = next(s for s in sides if s != loser)
        vp = GUARD_VP if ag in guards else VP_PER_AG.get(scorer, 0)
        awards.append(VpAward(scorer, vp, f"{ags[ag].name} collapsed"))
    held = occupier(board, objective)
    if held is not None:
        awards.append(VpAward(held, OBJECTIVE_VP, f"occupies {objective}"))
    return tuple(awards)


def vp_totals(awards: Iterable[VpAward], sides: Iterable[str] = ("French", "Russian")) -> dict[str, int]:
    out = {s: 0 for s in sides}
    for a in awards:
        out[a.side] = out.get(a.side, 0) + a.vp
    return out


def winner(totals: Mapping[str, int]) -> str | None:
    """Most VP wins; a tie has no winner (tie rule unknown)."""
    ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def redoubt_hex(board: Board) -> str | None:
    """The Schevardino Redoubt: scenario option ``redoubt_hex``, else the hex so named, else the only redoubt."""
    scenario = board.static.scenario
    if scenario and scenario.options.get("redoubt_hex"):
        return str(scenario.options["redoubt_hex"])
    names = board.map.names
    for h, name in names.items():
        if "evardino" in name.lower() and board.static.terrain(h) == "redoubt":
            return h
    redoubts = [h for h in board.grid if board.static.terrain(h) == "redoubt"]
    return redoubts[0] if len(redoubts) == 1 else None


def schevardino_winner(board: Board, hex_id: str | None = None) -> str | None:
    """The side occupying the redoubt at the end of the last turn; None when nobody (or the hex is unknown)."""
    h = hex_id or redoubt_hex(board)
    return occupier(board, h) if h else None
