"""Paint the map art of Orne Bridgehead: art/orne.jpg, as an author would in a drawing program, from the same
terrain the map file gives the rules (maps/orne.yaml: terrain, river, bridges, roads, place names).

The hex grid starts at an offset from the image's corner (the centre of hex 0101 is at ORIGIN), with a margin
for the title cartouche below; the map file places the grid on the art by the centres of 0101 and 1612, which
this script prints.  The same input gives the same picture (fixed random seed, no clock), so the picture in the
repository is what `python art/paint_map.py` writes.

    python examples/orne-1944/art/paint_map.py        # writes examples/orne-1944/art/orne.jpg
"""
from __future__ import annotations

import hashlib
import math
import random
from pathlib import Path

import yaml
from PIL import Image, ImageDraw, ImageFilter, ImageFont

HERE = Path(__file__).resolve().parent
MAP = HERE.parent / "maps" / "orne.yaml"
OUT = HERE / "orne.jpg"

SIZE = 54.0                       # centre to corner, pixels
ORIGIN = (101.0, 87.0)            # the centre of hex 0101: the grid is 47 px from the left edge, 40 from the top
BOTTOM = 150                      # the cartouche's band below the grid
SQ3 = math.sqrt(3)
FONT = Path(__file__).resolve().parents[3] / "modulebuilder" / "fonts" / "DejaVuSansCondensed-Bold.ttf"
FONT_REGULAR = FONT.with_name("DejaVuSansCondensed.ttf")


def centre(hex_id: str) -> tuple[float, float]:
    """Flat-topped hexes, columns straight, the even columns half a hex lower (the map's grid)."""
    col, row = int(hex_id[:2]), int(hex_id[2:])
    x = ORIGIN[0] + (col - 1) * 1.5 * SIZE
    y = ORIGIN[1] + (row - 1) * SQ3 * SIZE + (SQ3 / 2 * SIZE if col % 2 == 0 else 0.0)
    return x, y


def corners(hex_id: str, size: float = SIZE) -> list[tuple[float, float]]:
    x, y = centre(hex_id)
    return [(x + size * math.cos(math.radians(60 * k)), y + size * math.sin(math.radians(60 * k))) for k in range(6)]


def parchment(w: int, h: int, rng: random.Random) -> Image.Image:
    """A warm paper with broad blotches and a fine grain."""
    low = Image.new("RGB", (w // 60 + 2, h // 60 + 2))
    low.putdata([(222 + rng.randint(-10, 8), 211 + rng.randint(-10, 8), 170 + rng.randint(-12, 8))
                 for _ in range(low.width * low.height)])
    base = low.resize((w, h), Image.BICUBIC)
    # Pillow's effect_noise draws from the C library's rand(), whose state any other code in the process may have
    # advanced: the grain is a seeded byte stream instead, levels spread as effect_noise's sigma of 18 spreads them.
    seed = rng.getrandbits(64).to_bytes(8, "big")
    grain = Image.frombytes("L", (w, h), hashlib.shake_256(seed).digest(w * h))
    grain = grain.point(lambda v: 97 + v * 62 // 255).convert("RGB")
    return Image.blend(base, grain, 0.06)


def fields(img: Image.Image, hexes: list[str], rng: random.Random) -> None:
    """Patchwork of fields in the open country: small tilted plots of wheat, pasture and fallow."""
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    tones = [(214, 196, 120), (186, 196, 120), (200, 186, 140), (170, 182, 110), (222, 206, 150)]
    for h in hexes:
        cx, cy = centre(h)
        for _ in range(3):
            x, y = cx + rng.uniform(-30, 30), cy + rng.uniform(-28, 28)
            a = math.radians(rng.uniform(-25, 25))
            w, l = rng.uniform(14, 26), rng.uniform(18, 34)
            pts = [(x + dx * math.cos(a) - dy * math.sin(a), y + dx * math.sin(a) + dy * math.cos(a))
                   for dx, dy in ((-l / 2, -w / 2), (l / 2, -w / 2), (l / 2, w / 2), (-l / 2, w / 2))]
            d.polygon(pts, fill=rng.choice(tones) + (120,))
    img.alpha_composite(layer)


def hill(img: Image.Image, hexes: list[str]) -> None:
    """Contour rings round the crest, darker towards the top."""
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    xs, ys = zip(*(centre(h) for h in hexes))
    cx, cy = sum(xs) / len(xs), sum(ys) / len(ys)
    rx, ry = (max(xs) - min(xs)) / 2 + SIZE * 1.1, (max(ys) - min(ys)) / 2 + SIZE * 1.0
    for k in range(6):
        f = 1 - k * 0.16
        d.ellipse((cx - rx * f, cy - ry * f, cx + rx * f, cy + ry * f), fill=(176 - k * 8, 150 - k * 9, 96 - k * 6, 70),
                  outline=(120, 90, 50, 170), width=2)
    img.alpha_composite(layer.filter(ImageFilter.GaussianBlur(1.2)))


def woods(img: Image.Image, hexes: list[str], rng: random.Random) -> None:
    """Crowns of trees, dark below and lit from the upper left."""
    d = ImageDraw.Draw(img)
    for h in hexes:
        cx, cy = centre(h)
        for _ in range(22):
            r = rng.uniform(7, 12)
            x, y = cx + rng.uniform(-SIZE * 0.7, SIZE * 0.7), cy + rng.uniform(-SIZE * 0.62, SIZE * 0.62)
            d.ellipse((x - r + 2, y - r + 3, x + r + 2, y + r + 3), fill=(52, 70, 38, 255))
            d.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randint(70, 95), rng.randint(110, 135), 62, 255))
            d.ellipse((x - r * 0.5 - 2, y - r * 0.5 - 2, x + r * 0.2, y + r * 0.2), fill=(120, 156, 84, 255))


def town(img: Image.Image, hexes: list[str], rng: random.Random) -> None:
    """Houses along the street: small tilted roofs of tile and slate."""
    d = ImageDraw.Draw(img)
    for h in hexes:
        cx, cy = centre(h)
        for _ in range(11):
            x, y = cx + rng.uniform(-26, 26), cy + rng.uniform(-22, 22)
            a = math.radians(rng.choice((0, 90)) + rng.uniform(-12, 12))
            w, l = rng.uniform(6, 9), rng.uniform(9, 15)
            pts = [(x + dx * math.cos(a) - dy * math.sin(a), y + dx * math.sin(a) + dy * math.cos(a))
                   for dx, dy in ((-l / 2, -w / 2), (l / 2, -w / 2), (l / 2, w / 2), (-l / 2, w / 2))]
            d.polygon([(px + 1.5, py + 2) for px, py in pts], fill=(90, 70, 60))
            d.polygon(pts, fill=rng.choice([(168, 74, 52), (150, 66, 50), (120, 116, 116), (176, 92, 62)]),
                      outline=(80, 50, 40))


def smooth(points: list[tuple[float, float]], steps: int = 6) -> list[tuple[float, float]]:
    """A Catmull-Rom curve through ``points``."""
    if len(points) < 3:
        return points
    pts = [points[0]] + points + [points[-1]]
    out = []
    for i in range(1, len(pts) - 2):
        p0, p1, p2, p3 = pts[i - 1], pts[i], pts[i + 1], pts[i + 2]
        for k in range(steps):
            t = k / steps
            out.append(tuple(0.5 * (2 * p1[j] + (-p0[j] + p2[j]) * t + (2 * p0[j] - 5 * p1[j] + 4 * p2[j] - p3[j]) * t * t
                                    + (-p0[j] + 3 * p1[j] - 3 * p2[j] + p3[j]) * t ** 3) for j in (0, 1)))
    out.append(points[-1])
    return out


def midpoint(a: str, b: str) -> tuple[float, float]:
    (ax, ay), (bx, by) = centre(a), centre(b)
    return (ax + bx) / 2, (ay + by) / 2


def river(img: Image.Image, pairs: list[tuple[str, str]], rng: random.Random, height: int) -> None:
    """The Orne along its hexsides, wider than a road, with a darker bank."""
    mids = [midpoint(a, b) for a, b in pairs]
    mids.sort(key=lambda p: p[1])
    # a gentle meander, within a quarter hex of the hexsides it follows
    mids = [(x + 9 * math.sin(y / 97.0) + rng.uniform(-2, 2), y) for x, y in mids]
    mids = [(mids[0][0], 0.0)] + mids + [(mids[-1][0], float(height - BOTTOM + 30))]
    line = smooth(mids)
    d = ImageDraw.Draw(img)
    d.line(line, fill=(70, 96, 120), width=17, joint="curve")
    d.line(line, fill=(98, 140, 178), width=12, joint="curve")
    d.line([(x - 2, y) for x, y in line], fill=(150, 186, 212), width=3, joint="curve")


def relaxed(points: list[tuple[float, float]], passes: int = 2) -> list[tuple[float, float]]:
    """Each inner point moved towards its neighbours' midpoint: a road through hex centres runs straight
    instead of stepping up and down half a hex from column to column."""
    for _ in range(passes):
        points = [points[0]] + [((a[0] + 2 * b[0] + c[0]) / 4, (a[1] + 2 * b[1] + c[1]) / 4)
                                for a, b, c in zip(points, points[1:], points[2:])] + [points[-1]]
    return points


def road(img: Image.Image, hexes: list[str], rng: random.Random, path: bool = False) -> None:
    pts = smooth(relaxed([(x + rng.uniform(-3, 3), y + rng.uniform(-3, 3)) for x, y in (centre(h) for h in hexes)]))
    d = ImageDraw.Draw(img)
    if path:
        for i in range(0, len(pts) - 1, 2):
            d.line(pts[i:i + 2], fill=(120, 92, 60), width=3)
        return
    d.line(pts, fill=(92, 66, 40), width=8, joint="curve")
    d.line(pts, fill=(196, 160, 104), width=4, joint="curve")


def bridge(img: Image.Image, a: str, b: str) -> None:
    (ax, ay), (bx, by) = centre(a), centre(b)
    mx, my = (ax + bx) / 2, (ay + by) / 2
    ang = math.atan2(by - ay, bx - ax)
    ux, uy = math.cos(ang), math.sin(ang)
    px, py = -uy, ux
    hl, hw = 16, 6
    pts = [(mx - ux * hl - px * hw, my - uy * hl - py * hw), (mx + ux * hl - px * hw, my + uy * hl - py * hw),
           (mx + ux * hl + px * hw, my + uy * hl + py * hw), (mx - ux * hl + px * hw, my - uy * hl + py * hw)]
    d = ImageDraw.Draw(img)
    d.polygon(pts, fill=(150, 140, 124), outline=(60, 50, 40))


def grid(img: Image.Image, hexes: list[str]) -> None:
    """The printed grid: thin brown lines and each hex's number at its top."""
    layer = Image.new("RGBA", img.size, (0, 0, 0, 0))
    d = ImageDraw.Draw(layer)
    small = ImageFont.truetype(str(FONT_REGULAR), 10)
    for h in hexes:
        d.polygon(corners(h), outline=(90, 70, 40, 120))
        x, y = centre(h)
        d.text((x, y - SIZE * 0.72), h, font=small, fill=(70, 56, 36, 200), anchor="mm")
    img.alpha_composite(layer)


def labels(img: Image.Image, names: dict[str, str]) -> None:
    d = ImageDraw.Draw(img)
    f = ImageFont.truetype(str(FONT), 15)
    for h, name in names.items():
        x, y = centre(h)
        y += SIZE * 0.58
        d.text((x + 1, y + 1), name, font=f, fill=(245, 236, 210), anchor="mm")
        d.text((x, y), name, font=f, fill=(40, 30, 20), anchor="mm")


def cartouche(img: Image.Image, title: str) -> None:
    w, h = img.size
    d = ImageDraw.Draw(img)
    top = h - BOTTOM + 38
    d.rectangle((30, top, 640, h - 24), fill=(238, 228, 196), outline=(70, 50, 30), width=3)
    d.rectangle((37, top + 7, 633, h - 31), outline=(70, 50, 30), width=1)
    d.text((56, top + 18), title, font=ImageFont.truetype(str(FONT), 30), fill=(50, 36, 24))
    d.text((58, top + 60), "Hill 112 and the Orne, 10 July 1944  ·  one hex = 500 m",
           font=ImageFont.truetype(str(FONT_REGULAR), 15), fill=(70, 50, 30))
    # the north arrow
    cx, cy = w - 90, top + 40
    d.polygon([(cx, cy - 34), (cx + 12, cy + 14), (cx, cy + 6), (cx - 12, cy + 14)], fill=(50, 36, 24))
    d.text((cx, cy + 30), "N", font=ImageFont.truetype(str(FONT), 18), fill=(50, 36, 24), anchor="mm")


def paint() -> tuple[Image.Image, dict[str, tuple[int, int]]]:
    data = yaml.safe_load(MAP.read_text(encoding="utf-8"))
    g = data["grid"]
    hexes = [f"{c:02d}{r:02d}" for c in range(g["first_column"], g["first_column"] + g["columns"])
             for r in range(g["first_row"], g["first_row"] + g["rows"])]
    last = hexes[-1]
    w = int(centre(last)[0] + SIZE + 47)
    h = int(centre(f"{g['columns']:02d}{g['rows']:02d}")[1] + SQ3 / 2 * SIZE + BOTTOM)
    rng = random.Random(1944)
    img = parchment(w, h, rng).convert("RGBA")
    terrain = {t: list(hs) for t, hs in data["terrain"]["hexes"].items()}
    open_country = [x for x in hexes if not any(x in hs for hs in terrain.values())]
    fields(img, open_country, rng)
    hill(img, terrain.get("hill", []))
    for feature in data["hexsides"]:
        if feature["feature"] == "river":
            hs = feature["hexes"]
            river(img, [(hs[i], hs[i + 1]) for i in range(0, len(hs), 2)], rng, h)
    for r in data["roads"]:
        road(img, r["hexes"], rng, path=r.get("kind") == "path")
    for feature in data["hexsides"]:
        if feature["feature"] == "bridge":
            bridge(img, *feature["hexes"])
    woods(img, terrain.get("woods", []), rng)
    town(img, terrain.get("town", []), rng)
    grid(img, hexes)
    labels(img, data.get("names", {}))
    cartouche(img, "ORNE BRIDGEHEAD")
    first = f"{g['first_column']:02d}{g['first_row']:02d}"
    return img.convert("RGB"), {first: tuple(round(v) for v in centre(first)),
                                last: tuple(round(v) for v in centre(last))}


if __name__ == "__main__":
    picture, anchors = paint()
    picture.save(OUT, quality=90, optimize=True)
    print(f"wrote {OUT} ({picture.width} x {picture.height}); grid: {anchors}")
