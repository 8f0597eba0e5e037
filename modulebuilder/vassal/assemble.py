"""The whole .vmod from scenarios: images (cached), pieces, grid, holding boxes, set-ups, buildFile.

Deterministic: entries in a fixed order with fixed dates, ids derived from unit ids, no wall clock -- the
same scenarios give a byte-identical module.  Everything slow (drawing the map and the counters) goes
through :class:`cache.ImageCache`, so a rebuild with nothing changed only re-zips.
"""
from __future__ import annotations

import dataclasses
import io
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from PIL import Image

from ..hexgrid import HexLayout
from ..model import CounterSet, GameDef, MapDef, Scenario, Unit
from ..render.art import art_digest
from ..render.counters import BackTreatment, back_treatment
from ..render.faces import face_jobs, render_faces
from ..render.map import map_layout
from ..render.template import template_key
from . import about, cup, holding, ids, link, play, twohex
from ..dice import Die
from .turns import turn_track
from .buildfile import DEFAULT_ZOOM, MapSpec, ModuleSpec, build_file
from .metadata import VASSAL_TARGETS
from .cache import ImageCache, key_of
from .gridmap import VassalHexGrid, vassal_grid
from .metadata import moduledata
from .pieces import image_name, piece_specs, prototype_name, spec_prototype
from .setupfile import DeckPlacement, box_groups, saved_game_text, scenario_placements, vsav_bytes
from .traits import Piece
from .zipio import deterministic_zip
from ..render.charts import chart_pngs
from ..render.map_art import art_layout, screen_art, screen_layout
from .mapnames import module_map_png

HOLDING_MAP = "Holding"
# The view a map is fitted into when it opens: the player window's map area on a 1600 x 1000 screen
# (toolbar, chat and menus take the rest); the opening zoom is the largest that shows the whole map there.
FIT_VIEW = (1560, 720)


@dataclass(frozen=True)
class BuildResult:
    path: Path
    seconds: float
    images_rendered: int
    images_cached: int


def png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


def merged_counters(scenarios: Sequence[Scenario]) -> CounterSet:
    """All counters of all scenarios, each id once (first definition wins), in definition order."""
    seen: set[tuple[str, str]] = set()
    parts: dict[str, list] = {"activation_groups": [], "units": [], "leaders": [], "markers": []}
    for s in scenarios:
        for attr, items in parts.items():
            for item in getattr(s.counters, attr):
                if (attr, item.id) not in seen:
                    seen.add((attr, item.id))
                    items.append(item)
    return CounterSet(**{k: tuple(v) for k, v in parts.items()})


def default_counter_size(mapdef: MapDef, hex_size: float | None) -> int:
    # A counter a little smaller than the hex's inner circle (sqrt(3)/2 * size across) stays inside it.
    return max(40, round(1.2 * float(hex_size or art_hex_size(mapdef) or mapdef.style.hex_size)))


def art_hex_size(mapdef: MapDef) -> float | None:
    """The hex size (centre to corner, pixels) of the map's art, None without art."""
    if mapdef.art is None:
        return None
    return art_layout(mapdef).size


# --------------------------------------------------------------------------------------------- images

def module_back(scenarios: Sequence[Scenario]) -> BackTreatment:
    """The look of unit backs in a module: one palette serves every set-up, so its scenarios must agree."""
    looks = {back_treatment(s.ruleset) for s in scenarios}
    if len(looks) > 1:
        raise ValueError("all scenarios of one module must use the same ruleset's counter backs "
                         f"({', '.join(sorted({s.ruleset for s in scenarios}))})")
    return looks.pop()


def _piece_image(job_piece: object, img: Image.Image, spacing: int) -> Image.Image:
    """The image as the module stores it: two-hex unit faces padded about their set-up hex (twohex.py)."""
    if isinstance(job_piece, Unit) and job_piece.size == 2:
        return twohex.anchored_face(img, spacing)
    return img


def counter_pngs(counters: CounterSet, size: int, cache: ImageCache, back: BackTreatment = "disordered",
                 spacing: int = 0, *, template: str | None = None, game: GameDef | None = None) -> dict[str, bytes]:
    """Every face as PNG bytes keyed like ``render.counter_images`` (``"<id>/front"``); two-hex units'
    faces are padded for pieces that turn about their set-up hex, ``spacing`` px from their second hex.
    ``template`` (a bundled id or file) draws them, else the series look of ``back``; ``game`` gives the
    template the game's side colours, NATO symbols and art."""
    game = game if game is not None and game != GameDef() else None
    jobs = face_jobs(counters, back, template)
    look = ((template_key(template),) if template else ()) + ((game,) if game is not None else ())
    # Only what changes a face's pixels is in its key: T&G faces keep their cache entries.
    keys = {j.key: key_of("face", j.piece, j.face, j.ag, size,
                          *((back,) if back != "disordered" else ()),
                          *((spacing,) if isinstance(j.piece, Unit) and j.piece.size == 2 else ()), *look,
                          *((d,) if (d := art_digest(game, j.piece)) else ()))
            for j in jobs}
    pieces = {j.key: j.piece for j in jobs}
    out = {k: cache.get(ck) for k, ck in keys.items()}
    missing = {k.split("/")[0] for k, v in out.items() if v is None}
    if missing:
        subset = CounterSet(counters.activation_groups,
                            tuple(u for u in counters.units if u.id in missing),
                            tuple(ldr for ldr in counters.leaders if ldr.id in missing),
                            tuple(m for m in counters.markers if m.id in missing))
        # Serially (workers=1): forking a pool from this process deadlocked intermittently on a busy
        # machine, and drawing every Borodino face in one process takes only about two seconds.
        for k, img in render_faces(subset, size, workers=1, back=back, template=template, game=game).items():
            data = png(_piece_image(pieces[k], img, spacing))
            cache.put(keys[k], data)
            out[k] = data
    return {k: v for k, v in out.items() if v is not None}


def map_png(mapdef: MapDef, hex_size: float | None, cache: ImageCache, counter_px: int) -> tuple[bytes, HexLayout]:
    """(PNG bytes, HexLayout) of the module's map (place names clear of ``counter_px`` counters,
    mapnames.py); the layout is recomputed, only the pixels are cached."""
    if mapdef.art is not None:
        return art_png(mapdef, hex_size, cache)
    layout, _ = map_layout(mapdef, hex_size)
    data = cache.get_or_make(key_of("map", mapdef, hex_size, counter_px),
                             lambda: module_map_png(mapdef, hex_size, counter_px))
    return data, layout


def art_png(mapdef: MapDef, hex_size: float | None, cache: ImageCache) -> tuple[bytes, HexLayout]:
    """The author's art as the module's map (its own pixels, or resized to ``hex_size``) and where the grid
    lies on it; the art carries its own names, so none is drawn."""
    assert mapdef.art is not None

    def make() -> bytes:
        img, _ = screen_art(mapdef, hex_size)
        return png(img)
    data = cache.get_or_make(key_of("map-art", mapdef.art.digest, mapdef.art.hexes, mapdef.grid, hex_size), make)
    return data, screen_layout(mapdef, hex_size)


# --------------------------------------------------------------------------------------------- module

CUP_BOXES = ((cup.CUP_BOX, cup.CUP, 1), (cup.DRAWN, cup.DRAWN_LABEL, 6), (cup.POOL, cup.POOL_LABEL, 2))


def holding_boxes(scenarios: Sequence[Scenario]) -> tuple[holding.Box, ...]:
    """Every box any scenario uses (plus the standard ones), each as wide as its largest use; the cup's
    boxes first when a scenario draws activation markers."""
    labels: dict[str, str] = {}
    cells: dict[str, int] = {}
    if any(cup.uses_cup(s) for s in scenarios):
        for key, label, n in CUP_BOXES:
            labels[key], cells[key] = label, n
    labels.update(holding.STANDARD_BOXES)
    for s in scenarios:
        labels.update(s.map.boxes)
    cells.update({k: 2 for k in labels if k not in cells})
    for s in scenarios:
        for key, groups in box_groups(s).items():
            cells[key] = max(cells.get(key, 1), len(groups))
    return holding.boxes(cells, labels)


def module_bytes(scenarios: Sequence[Scenario], cache: ImageCache, *, counter_size: int | None = None,
                 hex_size: float | None = None, vassal: str = "3.7", template: str | None = None) -> tuple[str, bytes]:
    """(file stem, .vmod bytes) of a module holding every scenario as a predefined set-up, declared for
    the engine ``vassal`` ("3.6" or "3.7", metadata.VASSAL_TARGETS).  The pieces are drawn by ``template``,
    else the game file's template, else the series look of the scenarios' ruleset."""
    if not scenarios:
        raise ValueError("no scenario to build")
    if vassal not in VASSAL_TARGETS:
        raise ValueError(f"--vassal must be one of {', '.join(VASSAL_TARGETS)}, not {vassal!r}")
    vassal_version = VASSAL_TARGETS[vassal]
    maps: dict[str, MapDef] = {}
    for s in scenarios:
        maps.setdefault(s.map.id, s.map)
    first_map = scenarios[0].map
    if len({m.grid.orientation for m in maps.values()}) > 1:
        # One palette, one prototype per side and kind: the facing rotator is built for one orientation.
        raise ValueError("all scenarios of one module must use maps of the same orientation (pointy or flat)")
    size = counter_size or default_counter_size(first_map, hex_size)
    counters = merged_counters(scenarios)
    back = module_back(scenarios)
    game = scenarios[0].game
    template = template or game.template
    ams = cup.activation_markers(counters) if any(cup.uses_cup(s) for s in scenarios) else []
    specs = piece_specs(counters, back, ams=ams, special_ams=frozenset(cup.special_marker_ids(scenarios)),
                        back_side=game.back_side, facing=lambda kind: play.facing(scenarios[0], kind))
    ids.check_unique(((p.key, p.gpid) for p in specs), "piece slot ids")
    by_key = {p.key: p for p in specs}

    images: list[tuple[str, bytes]] = []
    map_specs: list[MapSpec] = []
    centres = {}
    grids: dict[str, VassalHexGrid] = {}
    layouts: list[HexLayout] = []
    for mid, mapdef in maps.items():
        data, layout = map_png(mapdef, hex_size, cache, size)
        if not map_specs:
            main_size = Image.open(io.BytesIO(data)).size      # the map that opens first is fitted to the view
        image = f"map-{mid}.png"
        images.append((image, data))
        grids[mid] = vassal_grid(mapdef.grid, layout.center)
        centres[mid] = layout.center
        layouts.append(layout)
        map_specs.append(MapSpec(map_name(mapdef, len(maps)), image, grid=grids[mid]))
    spacing = two_hex_spacing(layouts, counters)
    drawn = dataclasses.replace(counters, markers=counters.markers + tuple(am.marker for am in ams))
    for k, data in counter_pngs(drawn, size, cache, back, spacing, template=template, game=game).items():
        uid, face = k.split("/")
        images.append((image_name(uid, face), data))
    boxes = holding_boxes(scenarios)
    hold = holding.layout(boxes, size)
    images.append(("holding.png", holding.render(boxes, hold)))
    deck_at = hold.cells[cup.CUP_BOX][0] if ams else None
    map_specs.append(MapSpec(HOLDING_MAP, "holding.png", zones=hold.zones(boxes), button="Holding boxes",
                             decks=(cup.drawpile_attributes(*deck_at, size, HOLDING_MAP),) if deck_at else ()))

    track = turn_track(scenarios)
    setups, setup_entries = [], []
    name = first_map.title or first_map.id
    version = about.module_version(scenarios)
    description = "; ".join(s.name for s in scenarios)
    for s in scenarios:
        centre = centres[s.map.id]
        placements = scenario_placements(s, map_name(s.map, len(maps)),
                                         lambda h, c=centre: _round(c(h)), hold.cells, HOLDING_MAP)
        deck = DeckPlacement(HOLDING_MAP, *deck_at, size, cup.cup_setup(s).in_cup) if deck_at else None
        text = saved_game_text(s.id, placements, by_key, s.map.grid.orientation,
                               [m.name for m in map_specs], deck, track.command(s), about.scenario_notes(s))
        file = f"{s.id}.vsav"
        setups.append((s.name, file))
        setup_entries.append((file, vsav_bytes(text, name, version, description, s.name, vassal_version)))

    orientation = first_map.grid.orientation
    proto_specs = {(p.side or "", p.kind): p for p in reversed(specs)}     # the first piece of each
    prototypes = tuple((prototype_name(side or None, kind), Piece(spec_prototype(proto_specs[side, kind], orientation)))
                       for side, kind in sorted(proto_specs))
    sides = tuple(dict.fromkeys(sd.name for s in scenarios for sd in s.sides))
    chart_entries = module_charts(scenarios)
    images += [(img, data) for _, img, data in chart_entries]
    info = about.about_text(name, version, vassal_version, scenarios)
    images.append(("about.png", about.about_png(info)))
    fit = fit_zoom(main_size)
    spec = ModuleSpec(name=name, version=version, description=description, sides=sides,
                      prototypes=prototypes, pieces=tuple(specs), maps=tuple(map_specs),
                      turns=track, setups=tuple(setups), counter_size=size,
                      two_hex_width=twohex.padded_size(size, spacing)[0] if spacing else None,
                      palette_order=sides + ("Markers",), charts=tuple((t, img) for t, img, _ in chart_entries),
                      about_image="about.png", about_page="help/about.html",
                      zoom_levels=tuple(sorted({*DEFAULT_ZOOM, fit})), zoom_start=fit, vassal_version=vassal_version,
                      die=module_die(scenarios), components=(link.COMPONENT,))
    entries = [("buildFile.xml", build_file(spec)), ("moduledata", moduledata(name, version, description, vassal_version))]
    entries += [(f"images/{n}", d) for n, d in sorted(images)]
    entries.append(("help/about.html", about.about_html(info)))
    entries += setup_entries
    entries += link.class_entries()          # the referee link's compiled classes (link/), named in the buildFile
    return first_map.id, deterministic_zip(entries)


def module_die(scenarios: Sequence[Scenario]) -> Die:
    """The one dice button: the die the scenarios' rulesets roll (they must agree)."""
    dice = {play.die(s) for s in scenarios}
    if len(dice) > 1:
        raise ValueError("all scenarios of one module must roll the same die "
                         f"({', '.join(sorted(d.text for d in dice))})")
    return dice.pop()


def fit_zoom(size: tuple[int, int], view: tuple[int, int] = FIT_VIEW) -> float:
    """The largest zoom (two decimals, rounded down) at which a map of ``size`` px fits ``view``, at most 1."""
    z = min(view[0] / size[0], view[1] / size[1], 1.0)
    return max(0.05, int(z * 100) / 100)


def module_charts(scenarios: Sequence[Scenario]) -> list[tuple[str, str, bytes]]:
    """(title, image name, PNG) of every chart of the scenarios' tables files, each table once."""
    out: list[tuple[str, str, bytes]] = []
    seen: set[str] = set()
    for s in scenarios:
        if not s.tables:
            continue
        for chart, data in chart_pngs(s.tables):
            if chart.image_name not in seen:
                seen.add(chart.image_name)
                out.append((chart.short_name, chart.image_name, data))
    return out


def two_hex_spacing(layouts: Sequence[HexLayout], counters: CounterSet) -> int:
    """Hex-centre spacing for two-hex pieces (0 when there are none).  One image serves every map, so the
    maps of a module with two-hex units must share a hex size."""
    if not any(u.size == 2 for u in counters.units):
        return 0
    spacings = {twohex.pair_spacing(layout) for layout in layouts}
    if len(spacings) != 1:
        raise ValueError("maps with different hex sizes cannot share two-hex pieces: build them separately")
    return spacings.pop()


def map_name(mapdef: MapDef, n_maps: int) -> str:
    """The map id in piece states: "Main Map" when there is one map, else each map's title."""
    return "Main Map" if n_maps == 1 else (mapdef.title or mapdef.id)


def _round(p: tuple[float, float]) -> tuple[int, int]:
    return round(p[0]), round(p[1])


def build(scenarios: Sequence[Scenario], out_dir: Path, *, counter_size: int | None = None,
          hex_size: float | None = None, vassal: str = "3.7", template: str | None = None) -> BuildResult:
    """Write ``<out_dir>/<map id>.vmod`` (unchanged bytes are not rewritten) with a cache in out_dir/.cache."""
    start = time.perf_counter()
    cache = ImageCache(out_dir / ".cache")
    stem, data = module_bytes(scenarios, cache, counter_size=counter_size, hex_size=hex_size, vassal=vassal,
                              template=template)
    path = out_dir / f"{stem}.vmod"
    out_dir.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_bytes() != data:
        tmp = path.with_suffix(".vmod.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    return BuildResult(path, time.perf_counter() - start, cache.misses, cache.hits)
