"""``buildFile.xml``: the module's component tree (vassal.md §2), written with lxml.

Tags are Java class names; attributes are written in sorted order, as the engine itself saves them, so
the output depends only on the input.  Piece and prototype texts are plain text nodes (never CDATA, which
the engine ignores).

lxml (4 MiB resident) is imported when the XML is written, not with this module: the module builder
imports this for the specs long before, and the map image it draws first is the build's memory peak.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from lxml import etree

from .gridmap import VassalHexGrid
from .metadata import VASSAL_VERSION
from ..dice import D10, Die
from .pieces import PALETTE_OPENER, PieceSpec
from .seqenc import encode
from .traits import OPEN_PALETTE, Piece, add_piece
from .turns import PHASE_PROPERTY, TURN_PROPERTY, TurnTrack

P = "VASSAL.build."
BOARD = P + "module.map.boardPicker.Board"


@dataclass(frozen=True)
class Zone:
    """A named region of an off-map board: VASSAL reports a piece in it by this name."""
    name: str
    polygon: tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class MapSpec:
    name: str                          # the map id used in piece states and commands (mapName)
    image: str
    grid: VassalHexGrid | None = None  # the hex grid of the main map
    zones: tuple[Zone, ...] = ()       # the boxes of the holding map
    button: str = ""                   # toolbar button of a secondary (windowed) map
    decks: tuple[Mapping[str, str], ...] = ()   # DrawPile attributes (the activation cup, cup.py)


@dataclass(frozen=True)
class ModuleSpec:
    name: str
    version: str
    description: str
    sides: tuple[str, ...]
    prototypes: tuple[tuple[str, Piece], ...]
    pieces: tuple[PieceSpec, ...]
    maps: tuple[MapSpec, ...]
    turns: TurnTrack
    setups: tuple[tuple[str, str], ...]    # (menu name, .vsav entry name)
    counter_size: int = 60
    two_hex_width: int | None = None    # palette cell width of two-hex pieces (their padded image width)
    palette_order: tuple[str, ...] = field(default=())   # top-level palette folders in this order
    charts: tuple[tuple[str, str], ...] = ()     # (chart title, image name): the Charts window's tabs
    about_image: str = ""                        # Help > About <name> (an image in images/)
    about_page: str = ""                         # Help > <name>: sources (an HTML entry of the module)
    zoom_levels: tuple[float, ...] = (0.25, 0.4, 0.6, 0.8, 1.0, 1.5)
    zoom_start: float = 1.0                      # the main map opens at this level (one of zoom_levels)
    vassal_version: str = VASSAL_VERSION         # the engine version the module declares (metadata.py)
    die: Die = D10                               # the toolbar's dice button (play.py)
    components: tuple[str, ...] = ()             # the module's own Java components, by class name (link/)


def _el(parent: etree._Element | None, tag: str, attrs: Mapping[str, str] | None = None,
        text: str | None = None) -> etree._Element:
    # Component classes are written relative to VASSAL.build; plain tags ("entry") stay as they are.
    tag = tag if tag.startswith("VASSAL.") or "." not in tag else P + tag
    if parent is None:
        from lxml import etree
        el = etree.Element(tag)
    else:
        el = parent.makeelement(tag)
        parent.append(el)
    for k in sorted(attrs or {}):
        el.set(k, attrs[k])
    if text is not None:
        el.text = text
    return el


def build_file(spec: ModuleSpec) -> bytes:
    max_gpid = max((p.gpid for p in spec.pieces), default=0)
    root = _el(None, "GameModule", {
        "ModuleOther1": "", "ModuleOther2": "", "VassalVersion": spec.vassal_version, "description": spec.description,
        "name": spec.name, "nextPieceSlotId": str(max_gpid + 1), "version": spec.version})
    _el(root, "module.BasicCommandEncoder")
    doc = _el(root, "module.Documentation")
    if spec.about_image:
        _el(doc, "module.documentation.AboutScreen", {"fileName": spec.about_image, "title": f"About {spec.name}"})
    if spec.about_page:
        _el(doc, "module.documentation.HelpFile", {"fileName": spec.about_page, "fileType": "archive",
                                                   "title": f"{spec.name}: version and sources"})
    roster = _el(root, "module.PlayerRoster", {"buttonKeyStroke": "", "buttonText": "Retire",
                                               "buttonToolTip": "Switch sides"})
    for side in spec.sides:
        _el(roster, "entry", text=side)
    _el(root, "module.GlobalOptions", {"autoReport": "Always", "chatterHTMLSupport": "Never",
                                       "nonOwnerUnmaskable": "Never", "playerIdFormat": "$PlayerName$",
                                       "promptString": "Opponents can unmask my pieces"})
    _el(root, "module.Chatter")
    _el(root, "module.KeyNamer")
    _el(root, "module.properties.GlobalProperties")
    protos = _el(root, "module.PrototypesContainer")
    for name, piece in spec.prototypes:
        _el(protos, "module.PrototypeDefinition", {"description": "", "name": name}, add_piece("null", piece))
    for i, m in enumerate(spec.maps):
        _map(root, m, spec.zoom_levels if i == 0 else DEFAULT_ZOOM, spec.zoom_start if i == 0 else 1.0)
    _palette(root, spec)
    _dice(root, spec.die)
    _turn_tracker(root, spec.turns)
    if spec.charts:
        _charts(root, spec.charts)
    _el(root, "module.NotesWindow", {"buttonText": "Notes", "hotkey": "78,520", "icon": "", "name": "Notes",
                                     "tooltip": "Notes: the scenario's, and your own"})
    for name, file in spec.setups:
        _el(root, "module.PredefinedSetup", {"description": "", "file": file, "isMenu": "false", "name": name,
                                             "useFile": "true"})
    for cls in spec.components:
        root.append(root.makeelement(cls))       # a class of the module's own, not of VASSAL.build
    _el(root, "VASSAL.i18n.Language")
    from lxml import etree
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8", standalone=False, pretty_print=True)


DEFAULT_ZOOM = (0.25, 0.4, 0.6, 0.8, 1.0, 1.5)


def zoom_attributes(levels: tuple[float, ...], start: float) -> dict[str, str]:
    """``zoomLevels``/``zoomStart``: the start is 1-based and counted from the LARGEST level (vassal.md §2)."""
    ordered = sorted(set(levels))
    return {"zoomLevels": ",".join(_num(z) for z in ordered),
            "zoomStart": str(len(ordered) - ordered.index(start))}


def _num(z: float) -> str:
    return f"{z:.3f}".rstrip("0").rstrip(".") if z != int(z) else f"{int(z)}.0"


def _map(root: etree._Element, m: MapSpec, zoom_levels: tuple[float, ...], zoom_start: float) -> None:
    fmt = "$pieceName$ moves $previousLocation$ -> $location$ *"
    attrs = {
        "allowMultiple": "false", "backgroundcolor": "255,255,255", "buttonName": m.button, "changeFormat": "$message$",
        "color": "0,0,0", "createFormat": "$pieceName$ created in $location$ *", "edgeHeight": "0",
        "edgeWidth": "0", "hotkey": "", "icon": "/images/map.gif" if m.button else "", "launch": "false",
        "mapName": m.name, "markMoved": "Never", "markUnmovedHotkey": "", "markUnmovedIcon": "/images/unmoved.gif",
        "markUnmovedText": "", "markUnmovedTooltip": "", "moveToFormat": fmt, "moveWithinFormat": fmt,
        "thickness": "3",
    }
    if m.button:
        attrs["launch"] = "true"    # a windowed map behind a toolbar button (the holding boxes)
    mp = _el(root, "module.Map", attrs)
    picker = _el(mp, "module.map.BoardPicker", {
        "addColumnText": "Add column", "addRowText": "Add row", "boardPrompt": "Select board", "slotHeight": "125",
        "slotScale": "0.2", "slotWidth": "350", "title": "Choose Boards"})
    board = _el(picker, BOARD, {"image": m.image, "name": m.name, "reversible": "false"})
    if m.grid is not None:
        grid = _el(board, "module.map.boardPicker.board.HexGrid", m.grid.grid_attributes())
        _el(grid, "module.map.boardPicker.board.mapgrid.HexGridNumbering", m.grid.numbering_attributes())
    elif m.zones:
        zoned = _el(board, "module.map.boardPicker.board.ZonedGrid")
        for z in m.zones:
            path = ";".join(f"{x},{y}" for x, y in z.polygon)
            _el(zoned, "module.map.boardPicker.board.mapgrid.Zone", {
                "highlightProperty": "", "locationFormat": "$name$", "name": z.name, "path": path,
                "useHighlight": "false", "useParentGrid": "false"})
    _el(mp, "module.map.StackMetrics", {"bottom": "40,0", "disabled": "false", "down": "37,0", "exSepX": "6",
                                        "exSepY": "18", "top": "38,0", "unexSepX": "3", "unexSepY": "5",
                                        "up": "39,0"})
    for child in ("ForwardToKeyBuffer", "Scroller", "ForwardToChatter", "MenuDisplayer", "MapCenterer",
                  "StackExpander", "PieceMover", "KeyBufferer", "SelectionHighlighters"):
        _el(mp, "module.map." + child)
    _el(mp, "module.map.HighlightLastMoved", {"color": "255,0,0", "enabled": "true", "thickness": "2"})
    _el(mp, "module.map.CounterDetailViewer", {
        "delay": "700", "display": "from top-most layer only", "fontSize": "11", "hotkey": "",
        "minDisplayPieces": "2", "showgraph": "true", "showtext": "true", "version": "4", "zoomlevel": "1.0"})
    for deck in m.decks:
        _el(mp, "module.map.DrawPile", deck)
    _el(mp, "module.map.Zoomer", {"inTooltip": "Zoom in", "outTooltip": "Zoom out", "pickTooltip": "Select zoom",
                                  **zoom_attributes(zoom_levels, zoom_start)})


def _palette(root: etree._Element, spec: ModuleSpec) -> None:
    """The Counters palette, docked at the left of the player window and open when a game starts.

    The engine docks the first PieceWindow but always starts it collapsed (PieceWindow.dockMe calls
    ``splitPane.hideLeft()``, 3.6 and 3.7 alike), and a palette in a window of its own opens only once a
    player has opened it before (VisibilityOption).  So a StartupGlobalKeyCommand sends OPEN_PALETTE to the
    one unit of the set-up marked ``OpensPalette=true``, whose Global Hotkey presses the palette's Alt+C
    (pieces.py).  The engine runs it at every game start, so after closing a game and opening another in
    the same session it closes the palette again: Alt+C (the Counters button) opens it.
    """
    window = _el(root, "module.PieceWindow", {
        "defaultWidth": "820", "hidden": "false", "hotkey": "67,520", "icon": "/images/counter.gif",
        "name": "Counters", "scale": "1.0", "text": "Counters", "tooltip": "Counters palette"})
    _el(root, "module.StartupGlobalKeyCommand", {
        "deckCount": "0", "filter": f"{PALETTE_OPENER} = true", "hotkey": OPEN_PALETTE,
        "name": "Open the Counters palette", "reportFormat": "", "reportSingle": "true", "singleMap": "true"})
    folders: dict[tuple[str, ...], etree._Element] = {}

    # One tab per side (and Markers); in a tab a list of groups on the left, and the chosen group's
    # counters side by side on the right, so the short docked pane shows whole groups at once.
    tabs = _el(window, "widget.TabWidget", {"entryName": "Counters"})
    leaves = {p.palette_path for p in spec.pieces if len(p.palette_path) > 1}

    def folder(path: tuple[str, ...]) -> etree._Element:
        if path not in folders:
            parent = tabs if len(path) == 1 else folder(path[:-1])
            if path in leaves:
                folders[path] = _el(parent, "widget.PanelWidget", {
                    "entryName": path[-1], "fixed": "true", "nColumns": "12", "scale": "0.75", "vert": "false"})
            else:
                folders[path] = _el(parent, "widget.ListWidget", {
                    "divider": "560", "entryName": path[-1], "height": "0", "scale": "1.0", "width": "0"})
        return folders[path]

    for top in spec.palette_order:
        folder((top,))
    size = str(spec.counter_size)
    for p in spec.pieces:
        width = str(spec.two_hex_width) if p.hexes == 2 and spec.two_hex_width else size
        _el(folder(p.palette_path), "widget.PieceSlot", {"entryName": p.name, "gpid": str(p.gpid),
                                                         "height": size, "width": width},
            add_piece("null", p.palette_piece()))


def _dice(root: etree._Element, die: Die) -> None:
    # A natural d10 reads 0-9 (0 is zero, DESIGN §5): one 10-sided die, each roll minus one (plus = first
    # face - 1; a d6 read 1-6 has plus 0).  The lock* attributes stay false: the 3.6 engine rolls an empty
    # result when they are true.
    _el(root, "module.DiceButton", {
        "addToTotal": "0", "canDisable": "false", "hotkey": "68,520", "icon": "", "keepCount": "1",
        "keepDice": "false", "keepOption": ">", "lockAdd": "false", "lockDice": "false", "lockPlus": "false",
        "lockSides": "false", "nDice": str(die.count), "nSides": str(die.sides), "name": die.label, "plus": str(die.low - 1),
        "prompt": "false",
        "propertyGate": "", "reportFormat": "** $name$ = $result$ *** &lt;$PlayerName$&gt;",
        "reportTotal": "true", "sortDice": "false", "text": die.text,
        "tooltip": f"Roll {'a ' if die.count == 1 else ''}{die.label}, {die.lowest} to {die.highest}"})


def _turn_tracker(root: etree._Element, turns: TurnTrack) -> None:
    """One tracker (turns.py): the turn list, and the phases nested in it; Alt+T next, Alt+Shift+T back."""
    tracker = _el(root, "module.turn.TurnTracker", {
        "buttonText": "Turn", "hotkey": "", "icon": "", "length": "-1", "lengthStyle": "Maximum",
        "name": "Turn", "nexthotkey": "84,520", "plusButtonSize": "22", "prevhotkey": "84,195",
        "reportFormat": "* &lt;$PlayerName$&gt; Turn Updated from $oldTurn$ to $newTurn$",
        "turnButtonHeight": "22", "turnFormat": "$level1$: $level2$" if turns.phases else "$level1$"})
    level = _el(tracker, "module.turn.ListTurnLevel", {
        "configFirst": "false", "configList": "false", "list": encode(turns.labels, ","),
        "property": TURN_PROPERTY, "prompt": "", "turnFormat": "$value$"})
    if turns.phases:
        _el(level, "module.turn.ListTurnLevel", {
            "configFirst": "false", "configList": "false", "list": encode(turns.phases, ","),
            "property": PHASE_PROPERTY, "prompt": "", "turnFormat": "$value$"})


def _charts(root: etree._Element, charts: tuple[tuple[str, str], ...]) -> None:
    """Charts (toolbar, Alt+H): one tab per table of the tables file (render/charts.py)."""
    window = _el(root, "module.ChartWindow", {"description": "", "hotkey": "72,520", "icon": "", "name": "Charts",
                                             "text": "Charts", "tooltip": "The game's tables"})
    tabs = _el(window, "widget.TabWidget", {"entryName": "Charts"})
    for title, image in charts:
        _el(tabs, "widget.Chart", {"chartName": title, "description": "", "fileName": image})
