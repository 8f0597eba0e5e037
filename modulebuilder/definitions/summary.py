"""A few lines describing a loaded scenario, for ``modulebuilder summary``: enough to see at a glance that
the set-up is what the author meant (turns and times, units per side and kind)."""
from __future__ import annotations

from collections import Counter

from ..model import Scenario

KIND_ORDER = ("infantry", "cavalry", "artillery")


def summary_lines(s: Scenario) -> list[str]:
    g = s.map.grid
    t = s.turns
    times = f" ({t.label(t.first)}-{t.label(t.last)}, {t.minutes} min each)" if t.start and t.minutes else ""
    lines = [
        f"{s.id}: {s.name}",
        f"  ruleset: {s.ruleset}" + (f"; game {s.game.title or s.game.id} version {s.game.version}"
                                     if s.game.version else ""),
        f"  map: {s.map.id}, {g.columns} x {g.rows} hexes ({g.orientation}, shifted {g.shifted})",
        f"  turns: {t.first}-{t.last}{times}",
    ]
    arriving = {u for r in s.reinforcements for u in r.units}
    for side in s.sides:
        units = [u for u in s.counters.units if u.side == side.name]
        kinds = Counter(u.kind for u in units)
        # The game's own unit types in its order, then the usual three, then anything else as met.
        order = dict.fromkeys([*(t.id for t in s.game.unit_types), *KIND_ORDER, *(u.kind for u in units)])
        by_kind = ", ".join(f"{kinds[k]} {k}" for k in order if kinds[k])
        leaders = [x.name for x in s.counters.leaders if x.side == side.name]
        later = sum(1 for u in units if u.id in arriving) + sum(
            1 for x in s.counters.leaders if x.side == side.name and x.id in arriving)
        lines.append(f"  {side.name}: {len(units)} units ({by_kind or 'none'}); "
                     f"leaders: {', '.join(leaders) or 'none'}; reinforcements: {later}")
    return lines
