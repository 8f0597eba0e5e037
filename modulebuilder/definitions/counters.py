"""Counters files: checks that need more than the schema, and the typed model they become.

Ids are unique across all the counters files of a game because set-ups, logs and VASSAL pieces refer to
units by id alone; units and leaders share one namespace for the same reason (a set-up line names either).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
import difflib
import os
import re
from typing import Iterable, Sequence

from ..model import ActivationGroup, CounterSet, Face, Leader, Marker, Unit, Values
from .entries import Entry, entries
from .game import unknown_kinds
from .problems import Problem
from .yamlpos import Located

FACE_FIELDS = ("assault", "cohesion", "ma", "dfe", "fire", "eff_range", "max_range")

# Unit fields the model types itself; every other field of a unit (declared by its ruleset or its game, such
# as a classic game's attack, defence, movement) is kept as written in ``Unit.fields``.  The placement fields
# are here because a resolved unit carries its placement too.
TYPED_UNIT_FIELDS = frozenset({"id", "name", "short_name", "kind", "side", "ag", "corps", "brigade", "flags", "size",
                               "count", "echelon", "back", "disordered", "cav_type", "art", *FACE_FIELDS,
                               "hex", "facing", "status", "box", "formation"})
TYPED_LEADER_FIELDS = frozenset({"id", "name", "short_name", "side", "flags", "count", "orders_rating",
                                 "delay_rating", "drm", "command_range", "ma", "hex", "box"})

# "Dumon a" -> "Dumon": a designation ending in a space and one lower-case letter is one counter of a
# multi-counter brigade (T&G digest §2.1).
_BRIGADE_SUFFIX = re.compile(r"(.*\S)\s+[a-z]")


def derive_brigade(name: str) -> str | None:
    """The brigade a designation belongs to, or None for a unit that is a whole brigade by itself."""
    m = _BRIGADE_SUFFIX.fullmatch(name.strip())
    return m.group(1) if m else None


@dataclass(frozen=True)
class CounterEntries:
    """Every definition of a game's counters files, in file order."""
    activation_groups: tuple[Entry, ...]
    units: tuple[Entry, ...]
    leaders: tuple[Entry, ...]
    markers: tuple[Entry, ...]

    @classmethod
    def of(cls, docs: Iterable[Located]) -> "CounterEntries":
        docs = list(docs)
        return cls(*(tuple(e for d in docs for e in entries(d, section))
                     for section in ("activation_groups", "units", "leaders", "markers")))

    def pieces(self) -> dict[str, Entry]:
        """Units and leaders by id (the first definition wins; later ones are reported as duplicates)."""
        out: dict[str, Entry] = {}
        for e in self.units + self.leaders:
            if e.text("id") is not None:
                out.setdefault(e.data["id"], e)
        return out


def check_counters(found: CounterEntries, kinds: Sequence[str] = ()) -> list[Problem]:
    """Problems the schema cannot see: duplicate ids, unknown activation groups, ranges out of order, kinds
    that are not among ``kinds`` (the unit types the ruleset and the game declare; empty: any)."""
    return [
        *_duplicates(found.units + found.leaders, "unit or leader"),
        *_duplicates(found.activation_groups, "activation group"),
        *_duplicates(found.markers, "marker"),
        *_markers_named_like_pieces(found),
        *_art_files(found),
        *_activation_group_refs(found),
        *_ranges(found.units),
        *unknown_kinds(found.units, kinds),
    ]


def _duplicates(items: Sequence[Entry], what: str) -> Iterable[Problem]:
    first: dict[str, Entry] = {}
    for e in items:
        uid = e.text("id")
        if uid is None:
            continue
        if uid in first:
            yield e.problem("id", f"duplicate {what} id {uid!r} (first defined at {first[uid].where})")
        else:
            first[uid] = e


def _markers_named_like_pieces(found: CounterEntries) -> Iterable[Problem]:
    """Ids are unique across units, leaders and markers: a module finds a piece's picture and properties by
    its id, so a marker named like a unit would show on the unit."""
    pieces = found.pieces()
    for marker in found.markers:
        uid = marker.text("id")
        piece = pieces.get(uid) if uid is not None else None
        if piece is not None:
            what = "unit" if piece.section == "units" else "leader"
            yield marker.problem("id", f"duplicate id {uid!r}: the {what} at {piece.where} has it (ids are unique "
                                       "across units, leaders and markers)")


def _activation_group_refs(found: CounterEntries) -> Iterable[Problem]:
    groups = {e.data["id"]: e for e in found.activation_groups if e.text("id") is not None}
    for unit in found.units:
        ag = unit.text("ag")
        if ag is None:
            continue
        group = groups.get(ag)
        if group is None:
            yield unit.problem("ag", f"no activation group {ag!r}{_suggest(ag, groups)}")
        elif unit.side is not None and group.side is not None and group.side != unit.side:
            yield unit.problem("ag", f"activation group {ag!r} belongs to {group.side}, not {unit.side}")


def _ranges(units: Sequence[Entry]) -> Iterable[Problem]:
    for unit in units:
        eff, top = unit.integer("eff_range"), unit.integer("max_range")
        if eff is not None and top is not None and eff > top:
            yield unit.problem("eff_range", f"effective range {eff} is greater than maximum range {top}")


def _suggest(name: str, known: Iterable[str]) -> str:
    close = difflib.get_close_matches(name, list(known), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


# --------------------------------------------------------------------------------------------- model

def build_counters(found: CounterEntries, factors: Sequence[str] = ()) -> CounterSet:
    """The model of checked entries (call only when :func:`check_counters` and the schema found nothing)."""
    return CounterSet(
        activation_groups=tuple(build_activation_group(e) for e in found.activation_groups),
        units=tuple(build_unit(e, factors) for e in found.units),
        leaders=tuple(build_leader(e) for e in found.leaders),
        markers=tuple(build_marker(e) for e in found.markers),
    )


def build_activation_group(e: Entry) -> ActivationGroup:
    d = e.data
    return ActivationGroup(
        id=d["id"], name=d["name"], side=e.side or "", colour=d["colour"], io_rating=d.get("io_rating"),
        markers=d.get("markers", 2), label=d.get("label", ""), army=d.get("army"),
        text_colour=d.get("text_colour", "#000000"), flags=frozenset(d.get("flags", ())),
    )


def build_unit(e: Entry, factors: Sequence[str] = ()) -> Unit:
    """``Unit.fields``: the fields its ruleset and game declare beyond the typed ones, as written (the game's
    ``factors`` first, in the game's order, then the others in file order)."""
    d = e.data
    extra = [f for f in factors if f in d] + [k for k in d if k not in TYPED_UNIT_FIELDS and k not in factors]
    front = Face(**{k: d.get(k) for k in FACE_FIELDS})
    flags = frozenset(d.get("flags", ()))
    # The back face repeats the front except where ``disordered`` says otherwise; no_back = no back face.
    back = None if "no_back" in flags else replace(front, **d.get("disordered", {}))
    return Unit(
        id=d["id"], name=d["name"], kind=d["kind"], side=e.side or "", ag=d.get("ag", ""), front=front, back=back,
        cav_type=d.get("cav_type"), corps=d.get("corps", ""),
        brigade=d["brigade"] if "brigade" in d else derive_brigade(d["name"]),
        flags=flags, source=e.where, size=d.get("size", 1), short_name=d.get("short_name"),
        count=d.get("count", 1), echelon=d.get("echelon"),
        fields=Values({k: d[k] for k in extra}),
        back_fields=Values(d.get("back", {})),
        art=art_path(e) if isinstance(d.get("art"), str) else None,
    )


def art_path(e: Entry) -> str:
    """The unit's ``art:`` as a path from here (it is written relative to its counters file)."""
    return os.path.abspath(os.path.join(os.path.dirname(e.doc.file), e.data["art"]))


def _art_files(found: CounterEntries) -> Iterable[Problem]:
    """A unit's own counter art must be there: the error points at its ``art:`` line."""
    for unit in found.units:
        if isinstance(unit.data.get("art"), str) and not os.path.isfile(art_path(unit)):
            yield unit.problem("art", f"no such file: {art_path(unit)}")


def build_leader(e: Entry) -> Leader:
    d = e.data
    return Leader(
        id=d["id"], name=d["name"], side=e.side or "", orders_rating=d.get("orders_rating"),
        delay_rating=d.get("delay_rating"), drm=d.get("drm"), command_range=d.get("command_range"), ma=d.get("ma"),
        flags=frozenset(d.get("flags", ())), source=e.where, short_name=d.get("short_name"),
        count=d.get("count", 1), fields=Values({k: v for k, v in d.items() if k not in TYPED_LEADER_FIELDS}),
    )


def build_marker(e: Entry) -> Marker:
    d = e.data
    return Marker(
        id=d["id"], name=d["name"], text=d["text"], count=d.get("count", 1),
        colour=d.get("colour", "#f0e6c8"), text_colour=d.get("text_colour", "#000000"),
        back_text=d.get("back_text"), side=e.side, source=e.where,
    )
