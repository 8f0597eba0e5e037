"""The turn track: one VASSAL TurnTracker whose turns and phases are each set-up's own.

VASSAL cannot hide a TurnTracker's toolbar button per scenario (3.6 has no property gate on it), so a module
with several scenarios has ONE tracker ("Turn") with a ``ListTurnLevel`` of every scenario's turn labels and a
nested ``ListTurnLevel`` of every scenario's phases.  A ListTurnLevel keeps an "active" flag per item and its
"Next" skips inactive items (ListTurnLevel.advance), so each set-up's ``TURN`` command switches on only its
own turns and phases and starts on its first turn: Borodino shows ``Turn 1 (0600): Orders Phase`` and steps
through its 12 turns, Schevardino ``Turn 1: Command Activation`` and its 5.

The phases are the rules' sequence of play, which modulebuilder may not import from the referee: T&G 3.0 A–F
(gaps §1: CinC movement last) and Schevardino's command activation then each side in turn (gaps §13.1,
``options.side_order``).  A scenario may list its own (``options.phases``), a ruleset its own (its
definitions contribution's ``x-module``, play.py); a ruleset without any has turns only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..model import Scenario
from . import seqenc
from .errors import VassalFileError
from .play import game_phases, ruleset_phases

TRACKER_ID = "TurnTracker0"      # the engine numbers TurnTrackers in build order; the module has one
TURN_PROPERTY, PHASE_PROPERTY = "Turn", "Phase"
TG_PHASES = ("Orders Phase", "Initiative Phase", "Activation Phase", "Reserve Activation Phase",
             "Morale Phase", "CinC Movement Phase")


def turn_labels(scenario: Scenario) -> tuple[str, ...]:
    tt = scenario.turns
    return tuple(f"Turn {n} ({tt.label(n)})" if tt.start else f"Turn {n}" for n in range(tt.first, tt.last + 1))


def phases(scenario: Scenario) -> tuple[str, ...]:
    """The scenario's phases in order (empty: the track counts turns only)."""
    listed = scenario.options.get("phases")
    if isinstance(listed, (list, tuple)) and listed:
        return tuple(str(p) for p in listed)
    declared = game_phases(scenario)
    if declared:
        return declared
    contributed = ruleset_phases(scenario)
    if contributed:
        return contributed
    if scenario.ruleset != "triumph-and-glory":
        return ()
    if scenario.options.get("activation_markers", True) is False:      # Schevardino, gaps §13.1
        order = scenario.options.get("side_order") or [s.name for s in scenario.sides]
        return ("Command Activation",) + tuple(f"{side} Movement and Combat" for side in order)
    return TG_PHASES


@dataclass(frozen=True)
class TurnTrack:
    """The tracker's two lists (every scenario's items, each once, first-seen order)."""
    labels: tuple[str, ...]
    phases: tuple[str, ...]

    def state(self, scenario: Scenario) -> str:
        """``TurnTracker.getState`` for a set-up: current level, then the turn level's state with the phase
        level's nested in it (``current;currentSub;first;activeFlags[;sub]``, ListTurnLevel.getState)."""
        own_labels, own_phases = turn_labels(scenario), phases(scenario)
        first = self.labels.index(own_labels[0])
        turn_fields: list[str | int | bool] = [first, 0, first, _flags(self.labels, own_labels)]
        if self.phases:
            p_first = self.phases.index(own_phases[0]) if own_phases else 0
            flags = _flags(self.phases, own_phases) if own_phases else _flags(self.phases, self.phases)
            turn_fields.append(seqenc.encode([p_first, 0, p_first, flags], ";"))
        return seqenc.encode([0, seqenc.encode(turn_fields, ";")], "|")

    def command(self, scenario: Scenario) -> str:
        return f"TURN{TRACKER_ID}\t{self.state(scenario)}"


def _flags(items: Sequence[str], on: Sequence[str]) -> str:
    return seqenc.encode([i in on for i in items], ",")


def turn_track(scenarios: Sequence[Scenario]) -> TurnTrack:
    labels = tuple(dict.fromkeys(lb for s in scenarios for lb in turn_labels(s)))
    all_phases = tuple(dict.fromkeys(p for s in scenarios for p in phases(s)))
    return TurnTrack(labels, all_phases)


# --------------------------------------------------------------------------------------------- reading a save

@dataclass(frozen=True)
class TrackShown:
    """Where a save's turn tracker stands, in the scenario's own turns and phases."""
    turn: int                 # the scenario's turn number
    label: str                # "Turn 2", "Turn 1 (0600)": the track's own words
    phase: str | None         # "Russian Movement and Combat"; None on a track of turns only

    def __str__(self) -> str:
        return self.label if self.phase is None else f"{self.label}: {self.phase}"


def tracker_state(commands: Sequence[str]) -> str | None:
    """The state of the module's tracker in a save's commands (its ``TURN`` restore command), or None."""
    head = f"TURN{TRACKER_ID}\t"
    found = [c[len(head):] for c in commands if c.startswith(head)]
    return found[-1] if found else None


def track_shown(state: str, scenario: Scenario, what: str) -> TrackShown:
    """The turn and phase a tracker state shows (``TurnTrack.state``'s fields read back): the current item is
    the k-th of the items its set-up switched on, which is the scenario's k-th turn (and phase).  A state that
    does not fit the scenario's turns and phases is a :class:`VassalFileError` saying so."""
    try:
        turn_fields = seqenc.decode(seqenc.decode(state, "|")[1], ";")
        label, k = _nth_on(turn_fields, turn_labels(scenario), "turns")
        own_phases = phases(scenario)
        phase = None
        if own_phases and len(turn_fields) > 4:
            phase, _ = _nth_on(seqenc.decode(turn_fields[4], ";"), own_phases, "phases")
    except (IndexError, ValueError) as e:
        raise VassalFileError(f"{what}: its turn track ({state[:80]!r}) does not fit {scenario.name}'s turns and "
                              f"phases ({e})") from None
    return TrackShown(scenario.turns.first + k, label, phase)


def _nth_on(fields: Sequence[str], own: Sequence[str], kind: str) -> tuple[str, int]:
    """ListTurnLevel ``current;currentSub;first;activeFlags``: the current item as the scenario's own."""
    current = int(fields[0])
    on = [i for i, flag in enumerate(fields[3].split(",")) if flag == "true"]
    if len(on) != len(own):
        raise ValueError(f"{len(on)} {kind} switched on, the scenario has {len(own)}")
    if current not in on:
        raise ValueError(f"the current item of its {kind} is not one of the scenario's")
    k = on.index(current)
    return own[k], k
