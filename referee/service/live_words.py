"""The referee's lines for VASSAL's chat: the report's wording (``referee.report``), a line per chat message.

A plain legal act is one line; the detail follows where a player needs it: an illegal act's reason and what
would be legal instead, each roll with its target, modifiers and chance, the results, what is awaited from whom,
and "on the board:" for every result that changes a piece (the players move the counters; the link says so).
"""
from __future__ import annotations

from typing import Any, Mapping

from referee.report import Words, event_summary, ruling_from_dict, ruling_lines, words_for

# A result whose effect changes a counter on the board (its status or its hex): the players must follow it.
BOARD_EFFECTS = ("disorder", "rout", "eliminat", "retreat", "advance", "destroy", "rallied", "recover", "shatter",
                 "removed", "captured", "withdraw")


# VASSAL's die pressed in a game whose dice the referee rolls: the roll is not the player's to make.
REFEREE_ROLLS = ("VASSAL's die is not used in this game: the referee rolls every die the rules owe, with the act "
                 "that owes it (see its line above)")


def words(scenario: Any, ruleset: Any) -> Words:
    return words_for(scenario, ruleset)


def lines(ruling: Mapping[str, Any], event: Mapping[str, Any], w: Words, chain: str | None = None) -> list[str]:
    """The chat lines of one ruling (the first names the act, its verdict and rules)."""
    r = ruling_from_dict(ruling)
    out = [line.strip() for line in ruling_lines(r, event, w)]
    out += board_lines(ruling, w)
    if chain and any(roll.get("natural") is not None for roll in ruling.get("rolls", ())) \
            and event.get("type") != "roll":
        out.append(f"dice chain head {chain[:16]}")
    return out


def board_lines(ruling: Mapping[str, Any], w: Words) -> list[str]:
    out = []
    for res in ruling.get("results", ()):
        effect = str(res.get("effect", ""))
        if res.get("unit") and any(k in effect for k in BOARD_EFFECTS):
            extra = res.get("to") or res.get("hex") or res.get("path")
            where = f" to {' '.join(extra) if isinstance(extra, list) else extra}" if extra else ""
            out.append(f"on the board: {w.name(res['unit'])} {effect.replace('_', ' ')}{where} [{res.get('rule')}]")
    return out


def refused(event: Mapping[str, Any], why: str, w: Words) -> str:
    """A step the hosted game refused outright (another side's act, the referee's dice...): one line."""
    summary = event_summary(event, w)
    return f"{event.get('type')}{' ' + summary if summary else ''}: not ruled — {why}"
