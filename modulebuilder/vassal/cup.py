"""The activation cup (T&G 5.31-5.35): activation markers (AMs) in a VASSAL deck, drawn at random.

Every activation group gets ``ActivationGroup.markers`` AMs (5.31; the counters file gives the count), each
a marker piece ``am-<ag id>-<n>`` with the properties ``MarkerId``, ``AG`` and ``IORating`` (the number
printed on it, 5.28) and a "Return to cup" command (Ctrl+R) that puts it back in the deck.  The deck is a
``DrawPile`` named :data:`CUP` on the holding board: it hands out a random AM on every draw (``shuffle`` =
Always), and "Draw specific cards" lets the initiative holder take the AM he chose to go first (5.32 step 3).

A scenario's set-up puts in the cup the AMs of every group that has a unit set up (5.32); the others -- the
groups that arrive later, and the special markers the scenario's rules use (Artillery Barrage 5.33, Murat's
AM, Destruction, Flanking Command) -- wait in the box :data:`POOL_LABEL`, to be put in when the rules say.
Which counters are special AMs is not in the data yet (a marker has no "activation" flag), so
:data:`SPECIAL_MARKERS` names them per special rule; a scenario with ``options.activation_markers: false``
(Schevardino: command activation) gets an empty cup.  Combined Group Activation (5.34) has no marker in the
Borodino data (not used there), so none is made.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..model import ActivationGroup, CounterSet, Marker, Scenario
from . import seqenc

CUP = "Activation cup"                       # the DrawPile's (deck's) name, also the box label around it
POOL = "am-pool"                             # holding-box key of the AMs out of the cup
POOL_LABEL = "Activation markers out of the cup"
DRAWN = "am-drawn"
DRAWN_LABEL = "Drawn activation markers"
CUP_BOX = "am-cup"
RETURN_COMMAND = "Return to cup"
RETURN_KEY = "82,130"                        # Ctrl+R
AM_PREFIX = "am-"
# special rule -> the marker ids of the special AMs it puts in play (the Borodino special rules, gaps §13.2)
SPECIAL_MARKERS: dict[str, tuple[str, ...]] = {
    "BOR-2": ("murat",),                              # Murat's AM activates the six cavalry-reserve commands
    "BOR-4": ("barrage-french", "barrage-russian"),   # Artillery Barrage AM, one per side (5.33)
    "BOR-5": ("destruction",),                        # Destruction AM
    "BOR-14": ("flanking-command",),                  # optional flank manoeuvre's Flanking Command AM
}
# BOR-2: the cavalry-reserve commands have no AMs of their own in the cup; Murat's AM activates them
MURAT_RULE, CAVALRY_RESERVE = "BOR-2", "cavalry_reserve"


@dataclass(frozen=True)
class ActivationMarker:
    """One AM piece: the marker drawn (its face) and the group it activates."""
    marker: Marker
    ag: str                  # activation group id ("" for a special AM)
    io_rating: int | None


def am_id(ag: ActivationGroup, n: int) -> str:
    return f"{AM_PREFIX}{ag.id}-{n}"


def am_text(ag: ActivationGroup) -> str:
    """What the AM shows: the group's label and its IO rating (5.28); "Nap" where none is printed."""
    rating = "Nap" if ag.io_rating is None else str(ag.io_rating)
    return f"{ag.label or ag.id} {rating}"


def activation_markers(counters: CounterSet) -> list[ActivationMarker]:
    """Every group's AMs, in definition order, ``markers`` of each (5.31)."""
    out = []
    for ag in counters.activation_groups:
        for n in range(1, ag.markers + 1):
            m = Marker(am_id(ag, n), f"AM {ag.name} {n}", am_text(ag), 1, ag.colour, ag.text_colour,
                       side=ag.side)
            out.append(ActivationMarker(m, ag.id, ag.io_rating))
    return out


def uses_cup(scenario: Scenario) -> bool:
    """Whether the scenario activates by drawing AMs (Schevardino activates commands instead); a game file
    says so for its own game (``cup``)."""
    if scenario.game.cup is not None:
        return scenario.game.cup and scenario.options.get("activation_markers", True) is not False
    return scenario.ruleset == "triumph-and-glory" and scenario.options.get("activation_markers", True) is not False


def special_markers(scenario: Scenario) -> list[str]:
    """Ids of the special AMs the scenario's rules use that exist in its counters, in rule order."""
    have = {m.id for m in scenario.counters.markers}
    return [mid for rule in scenario.special_rules for mid in SPECIAL_MARKERS.get(rule, ()) if mid in have]


def special_marker_ids(scenarios: Sequence[Scenario]) -> set[str]:
    return {mid for s in scenarios for mid in special_markers(s)}


@dataclass(frozen=True)
class CupSetup:
    in_cup: tuple[str, ...]       # piece keys in the deck, bottom first
    pool: tuple[str, ...]         # AMs and special AMs waiting outside the cup


def cup_setup(scenario: Scenario) -> CupSetup:
    """Where a scenario's AMs start: the cup holds the AMs of every group with a unit set up (5.32)."""
    if not uses_cup(scenario):
        return CupSetup((), ())
    on_map = {ag for ag in (_ag_of(scenario, p.unit) for p in scenario.setup if p.hex) if ag}
    murat = MURAT_RULE in scenario.special_rules
    groups = {ag.id: ag for ag in scenario.counters.activation_groups}
    in_cup, pool = [], []
    for am in activation_markers(scenario.counters):
        ag = groups[am.ag]
        starts_in = am.ag in on_map and not (murat and CAVALRY_RESERVE in ag.flags)
        (in_cup if starts_in else pool).append(am.marker.id)
    specials = special_markers(scenario)
    if murat and "murat" in specials and any(CAVALRY_RESERVE in ag.flags and ag.id in on_map for ag in groups.values()):
        in_cup.append("murat")
        specials.remove("murat")
    return CupSetup(tuple(in_cup), tuple(pool + specials))


def _ag_of(scenario: Scenario, unit_id: str) -> str | None:
    for u in scenario.counters.units:
        if u.id == unit_id:
            return u.ag
    return None


# --------------------------------------------------------------------------------------------- the deck

# DrawPile attributes (buildFile) and the same settings as the Deck's type string the engine writes into
# saves (Deck.getType, field order of 3.6.0 to 3.7.26; vassal.md §3.5 and the Deck source).

def drawpile_attributes(x: int, y: int, size: int, board: str) -> dict[str, str]:
    return {
        "name": CUP, "owningBoard": board, "x": str(x), "y": str(y), "width": str(size), "height": str(size),
        "allowMultiple": "false", "allowSelect": "true", "faceDown": "Never", "drawFaceUp": "false",
        "shuffle": "Always", "reversible": "false", "draw": "true", "color": "0,0,0",
        "reshufflable": "false", "canSave": "false", "maxStack": "10", "expressionCounting": "false",
        "countExpressions": "", "hotkeyOnEmpty": "false", "emptyHotkey": "", "restrictOption": "false",
        "restrictExpression": "", "selectDisplayProperty": "$BasicName$", "selectSortProperty": "",
        "faceDownFormat": "", "faceDownHotkey": "", "shuffleFormat": "",
        "shuffleHotkey": "", "shuffleCommand": "Shuffle", "reverseFormat": "", "reverseHotkey": "",
        "reverseCommand": "Reverse", "reshuffleCommand": "", "reshuffleMessage": "", "reshuffleHotkey": "",
        "reshuffleTarget": "", "reportFormat": "", "drawMultipleMessage": "Draw multiple markers",
        "drawSpecificMessage": "Draw a chosen marker", "faceUpMessage": "Face up", "faceDownMessage": "Face down",
    }


def deck_type(size: int) -> str:
    """``deck;...``: the Deck.getType() of :func:`drawpile_attributes` (what the engine saves)."""
    a = drawpile_attributes(0, 0, size, "")
    fields: list[str | int | bool] = [
        True, a["color"], size, size, a["faceDown"], a["shuffle"], False, True, False,
        "", "", "", CUP, a["shuffleFormat"], "", "", False, False, "", "", 10, "", False, "", False, "",
        a["selectDisplayProperty"], "", False, "", a["shuffleCommand"], a["reverseCommand"], "",
        a["drawMultipleMessage"], a["drawSpecificMessage"], a["faceUpMessage"], a["faceDownMessage"]]
    return "deck;" + seqenc.encode(fields, ";")


def deck_state(map_id: str, x: int, y: int, piece_ids: Sequence[str]) -> str:
    """``map;x;y;faceDown[;id,id,...]`` (Deck.getState), contents bottom first."""
    fields: list[str | int | bool] = [map_id, x, y, False]
    if piece_ids:
        fields.append(seqenc.encode(piece_ids, ","))
    return seqenc.encode(fields, ";")
