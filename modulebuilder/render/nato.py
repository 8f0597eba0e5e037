"""NATO unit symbols (APP-6 / MIL-STD-2525 land units, friendly frame) from a unit type name or a function
code, with the echelon mark above the frame and the common modifiers.

Accepted: a type name (``infantry``, ``armor``, ``mechanized``, ``reconnaissance``, ...), a 2525 function
id (``UCI---``, ``UCIZ--``, ``UCA---``, ...), or a whole 15-character 2525C symbol id such as
``SFGPUCIZ---F---`` (the echelon is read from its 12th character).  Echelons: ``team`` Ø, ``squad`` ●,
``section`` ●●, ``platoon`` ●●●, ``company`` I, ``battalion`` II, ``regiment`` III, ``brigade`` X,
``division`` XX, ``corps`` XXX, ``army`` XXXX.  Modifiers: ``hq`` (the staff below the frame's left
edge), ``reinforced`` (+) / ``reduced`` (−) beside the echelon, ``task_force`` (a bracket over it).

The icons are drawn with ImageDraw's methods into a :class:`~modulebuilder.render.drawing.Recorder`, so
the same geometry is rasterised for the module and written as vector paths on the sheets."""
from __future__ import annotations

from modulebuilder.render.drawing import Layer, Recorder, Shape

SUPERSAMPLE = 4
INK = (0, 0, 0, 255)

# Type names and their icon parts.  Each part is one mark drawn inside the frame.
TYPES: dict[str, tuple[str, ...]] = {
    "infantry": ("cross",),
    "light_infantry": ("cross",),
    "mechanized": ("cross", "track"),
    "mechanized_infantry": ("cross", "track"),
    "motorized": ("cross", "wheel_bar"),
    "motorized_infantry": ("cross", "wheel_bar"),
    "airborne": ("cross", "wings"),
    "mountain": ("cross", "peak"),
    "armor": ("track",),
    "armour": ("track",),
    "tank": ("track",),
    "cavalry": ("slash",),
    "reconnaissance": ("slash",),
    "recon": ("slash",),
    "armored_cavalry": ("slash", "track"),
    "artillery": ("dot",),
    "field_artillery": ("dot",),
    "self_propelled_artillery": ("dot", "track"),
    "engineer": ("engineer",),
    "anti_tank": ("chevron",),
    "antitank": ("chevron",),
    "air_defense": ("dome",),
    "headquarters": (),
    "supply": ("supply_bar",),
}

# MIL-STD-2525C land unit function ids (characters 5-10 of the symbol id), for the types above.
FUNCTION_IDS: dict[str, str] = {
    "UCI": "infantry", "UCIL": "light_infantry", "UCIM": "motorized", "UCIZ": "mechanized", "UCIA": "airborne",
    "UCIO": "mountain", "UCA": "armor", "UCAT": "armor", "UCAW": "armor", "UCAA": "anti_tank",
    "UCR": "reconnaissance", "UCRV": "armored_cavalry", "UCF": "field_artillery", "UCFH": "field_artillery",
    "UCFHE": "self_propelled_artillery", "UCE": "engineer", "UCD": "air_defense", "USS": "supply",
}

# 2525C echelon characters (position 12) and the marks printed above the frame.
ECHELON_CODES = {"A": "team", "B": "squad", "C": "section", "D": "platoon", "E": "company", "F": "battalion",
                 "G": "regiment", "H": "brigade", "I": "division", "J": "corps", "K": "army"}
ECHELON_MARKS = {"team": "Ø", "squad": "●", "section": "●●", "platoon": "●●●", "company": "I",
                 "battalion": "II", "regiment": "III", "brigade": "X", "division": "XX", "corps": "XXX",
                 "army": "XXXX"}


class UnknownUnitType(ValueError):
    pass


def resolve(unit_type: str) -> tuple[str, str | None]:
    """(type name, echelon or None) for a type name, a function id or a 2525 symbol id."""
    t = unit_type.strip()
    key = t.lower().replace("-", "_").replace(" ", "_")
    if key in TYPES:
        return key, None
    code = t.upper()
    echelon = None
    if len(code) == 15 and code[2] == "G":         # a whole symbol id: S F G P UCIZ-- - F ---
        echelon = ECHELON_CODES.get(code[11])
        code = code[4:10]
    fid = code.rstrip("-")
    while fid:
        if fid in FUNCTION_IDS:
            return FUNCTION_IDS[fid], echelon
        fid = fid[:-1]
    raise UnknownUnitType(f"unit type {unit_type!r}: not a NATO type ({', '.join(sorted(TYPES))}) "
                          "nor a MIL-STD-2525 land unit function id such as UCI--- or UCIZ--")


def _parts(d: Recorder, parts: tuple[str, ...], x0: float, y0: float, x1: float, y1: float, lw: int) -> None:
    w, h = x1 - x0, y1 - y0
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    for p in parts:
        if p == "cross":
            d.line((x0, y0, x1, y1), fill=INK, width=lw)
            d.line((x0, y1, x1, y0), fill=INK, width=lw)
        elif p == "slash":
            d.line((x0, y1, x1, y0), fill=INK, width=lw)
        elif p == "track":                         # the armour oval
            d.ellipse((x0 + w * 0.2, y0 + h * 0.27, x1 - w * 0.2, y1 - h * 0.27), outline=INK, width=lw)
        elif p == "wheel_bar":
            d.line((cx, y0, cx, y1), fill=INK, width=lw)
        elif p == "wings":                         # the airborne arc below the cross
            d.ellipse((cx - w * 0.18, y1 - h * 0.32, cx, y1 - h * 0.08), outline=INK, width=lw)
            d.ellipse((cx, y1 - h * 0.32, cx + w * 0.18, y1 - h * 0.08), outline=INK, width=lw)
        elif p == "peak":
            d.polygon([(cx, y1 - h * 0.42), (cx - w * 0.14, y1), (cx + w * 0.14, y1)], fill=INK)
        elif p == "dot":
            r = h * 0.18
            d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=INK)
        elif p == "engineer":                      # the "E" lying on its back (a bridge)
            bx0, bx1, by0, by1 = x0 + w * 0.25, x1 - w * 0.25, cy - h * 0.14, cy + h * 0.14
            d.rectangle((bx0, by0, bx1, by0 + lw), fill=INK)
            for xx in (bx0, cx - lw / 2, bx1 - lw):
                d.rectangle((xx, by0, xx + lw, by1), fill=INK)
        elif p == "chevron":                       # anti-tank: an inverted V
            d.line((x0, y1, cx, y0), fill=INK, width=lw)
            d.line((cx, y0, x1, y1), fill=INK, width=lw)
        elif p == "dome":                          # air defence: the arc across the bottom
            d.ellipse((x0 + w * 0.1, y1 - h * 0.45, x1 - w * 0.1, y1 + h * 0.45), outline=INK, width=lw)
        elif p == "supply_bar":
            d.rectangle((x0, y1 - h * 0.3, x1, y1 - h * 0.3 + lw), fill=INK)


def symbol_layer(unit_type: str, width: int, height: int, at: tuple[int, int] = (0, 0),
                 fill: tuple[int, int, int] = (255, 255, 255), hq: bool = False) -> Layer:
    """The frame and icon ``width`` x ``height`` face pixels at ``at`` (the frame fills the box; with ``hq``
    the box's lower third holds the staff instead)."""
    name, _ = resolve(unit_type)
    bw, bh = width * SUPERSAMPLE, height * SUPERSAMPLE
    fh = int(bh * (0.72 if hq else 1.0))
    lw = max(SUPERSAMPLE, int(round(min(bw, fh) * 0.075)))
    d = Recorder()
    d.rectangle((0, 0, bw - 1, fh - 1), fill=fill + (255,))
    inner = (lw * 0.5, lw * 0.5, bw - 1 - lw * 0.5, fh - 1 - lw * 0.5)
    _parts(d, TYPES[name], *inner, lw)
    frame = Shape("rectangle", (0, 0, bw - 1, fh - 1), None, INK, lw)
    over: tuple[Shape, ...] = (frame,)
    if hq:
        over += (Shape("rectangle", (0, 0, lw - 1, bh - 1), INK),)
    return Layer(d.take(), width, height, SUPERSAMPLE, "lanczos", at, clip=(lw, lw, bw - 1 - lw, fh - 1 - lw),
                 over=over)


def echelon_mark(echelon: str | None, reinforced: bool = False, reduced: bool = False) -> str:
    """The text above the frame: the echelon mark, with + or − for a reinforced or reduced unit."""
    if not echelon:
        return ""
    key = echelon.strip().lower()
    if key.upper() in ECHELON_CODES:
        key = ECHELON_CODES[key.upper()]
    if key not in ECHELON_MARKS:
        raise ValueError(f"echelon {echelon!r}: choose one of {', '.join(ECHELON_MARKS)}")
    return ECHELON_MARKS[key] + ("+" if reinforced else "") + ("−" if reduced else "")
