"""Sanity checks of the Borodino game data (counters, map, scenarios, tables) against the rules digests.

The YAML is read with a plain ruamel.yaml safe load and checked without the definitions loader, so these tests
pin the data to the sources (gaps digest §13 and §18.7) on their own.  One test at the end also runs the loader
and the validator when they are available.
"""
from __future__ import annotations

import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parents[1]


def _load(rel: str):
    return YAML(typ="safe", pure=True).load((ROOT / rel).read_text(encoding="utf-8"))


FRENCH = _load("counters/borodino/french.yaml")
RUSSIAN = _load("counters/borodino/russian.yaml")
MARKERS = _load("counters/borodino/markers.yaml")
MAP = _load("maps/borodino.yaml")
BORODINO = _load("scenarios/borodino.yaml")
SCHEVARDINO = _load("scenarios/schevardino.yaml")
TABLES = _load("tables/borodino.yaml")

UNITS = {u["id"]: dict(u, side=f["side"]) for f in (FRENCH, RUSSIAN) for u in f["units"]}
LEADERS = {l["id"]: l for f in (FRENCH, RUSSIAN) for l in f["leaders"]}
AGS = {a["id"]: dict(a, side=f["side"]) for f in (FRENCH, RUSSIAN) for a in f["activation_groups"]}

GRID = MAP["grid"]


# --------------------------------------------------------------------------------------------- geometry

def _cr(h: str) -> tuple[int, int]:
    return int(h[:2]), int(h[2:])


def _on_map(h: str) -> bool:
    c, r = _cr(h)
    return (GRID["first_column"] <= c < GRID["first_column"] + GRID["columns"]
            and GRID["first_row"] <= r < GRID["first_row"] + GRID["rows"])


def _neighbours(h: str) -> set[str]:
    """Flat-top hexes, odd columns half a hex lower (the grid the set-up lists imply)."""
    assert GRID["orientation"] == "flat" and GRID["shifted"] == "odd"
    c, r = _cr(h)
    if c % 2:        # shifted column
        cells = [(c, r - 1), (c, r + 1), (c - 1, r), (c - 1, r + 1), (c + 1, r), (c + 1, r + 1)]
    else:
        cells = [(c, r - 1), (c, r + 1), (c - 1, r - 1), (c - 1, r), (c + 1, r - 1), (c + 1, r)]
    return {f"{a:02d}{b:02d}" for a, b in cells if a >= 0 and b >= 0}


def _adjacent(a: str, b: str) -> bool:
    return b in _neighbours(a)


def _hexes(spec: str) -> set[str]:
    """'3706-3707, 3806' -> {"3706", "3707", "3806"}; a range runs along one column or one row."""
    out: set[str] = set()
    for part in spec.replace(",", " ").split():
        if "-" in part:
            a, b = part.split("-")
            (ca, ra), (cb, rb) = _cr(a), _cr(b)
            if ca == cb:
                out |= {f"{ca:02d}{r:02d}" for r in range(ra, rb + 1)}
            else:
                assert ra == rb or abs(ca - cb) == 1, part
                if ra == rb:
                    out |= {f"{c:02d}{ra:02d}" for c in range(ca, cb + 1)}
                else:
                    out |= {a, b}
        else:
            out.add(part)
    return out


# --------------------------------------------------------------------------------------------- set-up helpers

def _placements(scn) -> list[dict]:
    return list(scn["setup"])


def _units_in(scn, hexes: set[str], ag=None, kind=None, corps=None) -> list[str]:
    out = []
    for p in _placements(scn):
        if p.get("hex") not in hexes or p["unit"] not in UNITS:
            continue
        u = UNITS[p["unit"]]
        if ag and u["ag"] != ag:
            continue
        if kind and u["kind"] != kind:
            continue
        if corps and u.get("corps") != corps:
            continue
        out.append(p["unit"])
    return out


# gaps §18.7, Borodino: (hexes, number of units, filter)
BORODINO_FRENCH = [
    ("4108-4109", 4, dict(corps="OG", kind="infantry")),
    ("4209-4210", 2, dict(corps="YG")),
    ("4308-4309", 2, dict(corps="WL")),
    ("4110-4112", 5, dict(ag="fr-guard", kind="cavalry")),
    ("4409-4411, 4508-4509", 9, dict(ag="fr-guard", kind="artillery")),
    ("3614, 3713, 3813", 3, dict(corps="MR")),
    ("4005-4007", 4, dict(corps="FR")),
    ("3714-3715, 3815", 3, dict(corps="GR")),
    ("3905-3906", 4, dict(corps="DS")),
    ("3706-3707, 3806-3807", 7, dict(corps="CM")),
    ("3709", 1, dict(ag="fr-i-corps", kind="artillery")),
    ("3607-3610", 8, dict(kind="artillery")),
    ("3708", 1, dict(ag="fr-i-corps", kind="artillery")),
    ("3710-3712", 7, dict(ag="fr-iii-corps", kind="infantry")),
    ("3611-3613", 5, dict(ag="fr-iii-corps", kind="artillery")),
    ("3618-3619", 4, dict(corps="DL")),
    ("3817-3818", 4, dict(corps="BR")),
    ("3916-3917", 2, dict(corps="LC")),
    ("3622-3623, 3721-3722", 4, dict(ag="fr-iv-corps", kind="cavalry")),
    ("3517-3519", 6, dict(ag="fr-iv-corps", kind="artillery")),
    ("3801-3802", 3, dict(corps="KR")),
    ("3900-3901", 2, dict(corps="KN")),
    ("4001, 4100", 2, dict(corps="SB")),
    ("3801, 3900, 4000", 3, dict(ag="fr-v-corps", kind="artillery")),
    ("3810-3811", 3, dict(corps="TH", kind="infantry")),
    ("3911", 1, dict(corps="OC")),
    ("4012", 1, dict(ag="fr-viii-corps", kind="cavalry")),
    ("3910", 2, dict(ag="fr-viii-corps", kind="artillery")),
    ("4203-4204, 4303-4304, 4405", 9, dict(ag="fr-i-cav-corps", kind="cavalry")),
    ("4403", 2, dict(ag="fr-i-cav-corps", kind="artillery")),
    ("4205-4206, 4305-4306, 4406-4407", 9, dict(ag="fr-ii-cav-corps", kind="cavalry")),
    ("4207", 2, dict(ag="fr-ii-cav-corps", kind="artillery")),
    ("4015-4515", 6, dict(ag="fr-iii-cav-corps")),
    ("4202, 4302", 3, dict(ag="fr-iv-cav-corps", kind="cavalry")),
    ("4402", 1, dict(ag="fr-iv-cav-corps", kind="artillery")),
    ("4505", 2, dict(ag="fr-i-corps-cav")),
    ("4407", 2, dict(ag="fr-iii-corps-cav", kind="cavalry")),
    ("4506", 1, dict(ag="fr-iii-corps-cav", kind="artillery")),
]

BORODINO_RUSSIAN = [
    ("1624", 2, dict(ag="ru-1st-army-independents", kind="infantry")),
    ("3217, 3316", 2, dict(corps="LG", kind="infantry")),
    ("2717-2718", 2, dict(ag="ru-1st-army-independents")),
    ("2720-2721", 2, dict(ag="ru-1st-army-independents")),
    ("2623, 2421", 2, dict(ag="ru-1st-army-independents")),
    ("1617-1618, 1716-1717, 1816-1817, 1916", 8, dict(ag="ru-1st-army-independents")),
    ("1821, 1920", 2, dict(corps="Mil")),
    ("2023-2025", 3, dict(corps="4")),
    ("1923-1924", 2, dict(corps="17")),
    ("1520, 1620", 2, dict(ag="ru-ii-corps", kind="artillery")),
    ("2221, 2320, 2420, 2519", 4, dict(corps="11")),
    ("2220, 2319, 2419", 3, dict(corps="23")),
    ("2719", 1, dict(ag="ru-iv-corps", kind="artillery")),
    ("2716, 2816", 2, dict(corps="7")),
    ("2715, 2815", 2, dict(corps="24")),
    ("2716, 2816", 2, dict(ag="ru-vi-corps", kind="artillery")),
    ("1317-1318, 1417-1418", 5, dict(ag="ru-i-cav-corps")),
    ("2119, 2219, 2318, 2418", 5, dict(ag="ru-ii-cav-corps")),
    ("2517-2518, 2617-2619", 5, dict(ag="ru-iii-cav-corps")),
    ("3215, 3213", 2, dict(ag="ru-2nd-army-independents", kind="infantry")),
    ("2810-2811", 2, dict(ag="ru-2nd-army-independents", kind="infantry")),
    ("2812", 1, dict(corps="CGD")),
    ("2710-2711", 4, dict(ag="ru-2nd-army-independents", kind="cavalry")),
    ("3001-3002, 3100-3101", 4, dict(ag="ru-2nd-army-independents", kind="cavalry")),
    ("2801-2805", 5, dict(corps="Mil")),
    ("2507-2508, 2608", 3, dict(ag="ru-2nd-army-independents", kind="artillery")),
    ("3010, 3008, 2812", 3, dict(ag="ru-2nd-army-independents", kind="artillery")),
    ("3102-3104", 3, dict(corps="1G")),
    ("3003-3004", 2, dict(corps="3")),
    ("3105-3106", 2, dict(ag="ru-iii-corps", kind="infantry")),
    ("3203, 3102-3104", 5, dict(ag="ru-iii-corps", kind="artillery")),
    ("3113-3114", 4, dict(corps="12")),
    ("3014-3015", 4, dict(corps="26")),
    ("3113-3114", 2, dict(ag="ru-vii-corps", kind="artillery")),
    ("3008-3010", 3, dict(corps="2G")),
    ("2908-2909", 2, dict(corps="27")),
    ("2907", 2, dict(ag="ru-viii-corps", kind="artillery")),
    ("2913-2914, 2814", 6, dict(ag="ru-iv-cav-corps", kind="cavalry")),
    ("2915", 1, dict(ag="ru-iv-cav-corps", kind="artillery")),
    ("2311-2313, 2412-2415", 7, dict(ag="ru-guard", kind="infantry")),
    ("2212-2214", 3, dict(ag="ru-guard", kind="cavalry")),
    ("2015, 2115-2117, 2215-2217", 20, dict(ag="ru-1st-army-artillery-reserve")),
]

SCHEVARDINO_LINES = [
    ("4307-4310", 9, dict()),
    ("4307-4310", 7, dict(corps="CM")),
    ("4307-4310", 2, dict(ag="fr-i-corps", kind="artillery")),
    ("4215, 4315, 4415", 5, dict()),
    ("4515, 4615, 4715", 6, dict()),
    ("5009", 2, dict(ag="fr-ii-cav-corps", kind="artillery")),
    ("4008", 1, dict(ag="ru-iv-cav-corps", kind="artillery")),
    ("4006-4007", 2, dict(ag="ru-2nd-army-independents", kind="infantry")),
    ("4009-4010", 2, dict(ag="ru-2nd-army-independents", kind="infantry")),
    ("3807-3808", 2, dict(corps="27")),
    ("3810-3812", 6, dict(ag="ru-iv-cav-corps", kind="cavalry")),
    ("3604, 3704", 4, dict(ag="ru-2nd-army-independents", kind="cavalry")),
    ("3106, 3206, 3306", 3, dict(corps="2G")),
    ("3106, 3206, 3306", 2, dict(ag="ru-viii-corps", kind="artillery")),
]


# --------------------------------------------------------------------------------------------- counters

def test_every_file_has_the_schema_header():
    for rel, schema in [("counters/borodino/french.yaml", "counters"), ("counters/borodino/russian.yaml", "counters"),
                        ("counters/borodino/markers.yaml", "counters"), ("maps/borodino.yaml", "map"),
                        ("scenarios/borodino.yaml", "scenario"), ("scenarios/schevardino.yaml", "scenario"),
                        ("tables/borodino.yaml", "tables")]:
        first = (ROOT / rel).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# yaml-language-server: $schema="), rel
        # The schema combined for the game's ruleset (docs/definitions.md "Definitions per ruleset").
        assert first.endswith(f"modulebuilder/schemas/triumph-and-glory/{schema}.schema.json"), rel
        target = (ROOT / rel).parent / first.split("=", 1)[1]
        assert target.resolve() == (ROOT / f"modulebuilder/schemas/triumph-and-glory/{schema}.schema.json").resolve(), rel


def test_sample_value_files_say_so():
    for rel in ("counters/borodino/french.yaml", "counters/borodino/russian.yaml", "counters/borodino/markers.yaml",
                "tables/borodino.yaml"):
        head = "\n".join((ROOT / rel).read_text(encoding="utf-8").splitlines()[:6]).lower()
        assert "sample" in head, rel


def test_ids_unique_in_the_game():
    ids = [u["id"] for f in (FRENCH, RUSSIAN) for u in f["units"]]
    ids += [l["id"] for f in (FRENCH, RUSSIAN) for l in f["leaders"]]
    ids += [a["id"] for f in (FRENCH, RUSSIAN) for a in f["activation_groups"]]
    ids += [m["id"] for m in MARKERS["markers"]]
    dup = [k for k, n in Counter(ids).items() if n > 1]
    assert not dup


def test_about_250_units():
    assert 240 <= len(UNITS) <= 300
    assert sum(u["side"] == "French" for u in UNITS.values()) == 139
    assert sum(u["side"] == "Russian" for u in UNITS.values()) == 148


def test_unit_fields_by_kind():
    for u in UNITS.values():
        assert u["ag"] in AGS and AGS[u["ag"]]["side"] == u["side"], u["id"]
        if u["kind"] == "infantry":
            assert {"assault", "cohesion", "ma", "dfe"} <= u.keys()
            assert 1 <= u["assault"] <= 6 and 3 <= u["cohesion"] <= 7 and u["ma"] in (4, 5) and 0 <= u["dfe"] <= 2
        elif u["kind"] == "cavalry":
            assert {"assault", "cohesion", "ma", "cav_type"} <= u.keys() and "dfe" not in u
            assert 2 <= u["assault"] <= 5 and 4 <= u["cohesion"] <= 7 and 6 <= u["ma"] <= 8
        else:
            assert {"fire", "eff_range", "max_range", "cohesion", "ma"} <= u.keys()
            assert 1 <= u["fire"] <= 4 and u["eff_range"] <= u["max_range"] and u["ma"] in (4, 8)
        if "no_back" in u.get("flags", ()):
            assert "disordered" not in u
        else:
            assert "disordered" in u, u["id"]


def test_special_unit_kinds():
    cossacks = [u for u in UNITS.values() if u.get("cav_type") == "C"]
    assert len(cossacks) == 2 + 7 + 4        # Vlasov/3rd Bug, Platov (without his horse artillery), Karpov
    assert all("no_back" in u["flags"] and u["side"] == "Russian" for u in cossacks)
    militia = [u for u in UNITS.values() if "militia" in u.get("flags", ())]
    assert len(militia) == 7                  # BOR-MILITIA: seven militia units
    assert all(3 <= u["cohesion"] <= 4 for u in militia)
    jaegers = [u for u in UNITS.values() if "Jgr" in u["name"]]
    assert jaegers and all("jaeger" in u["flags"] and u["side"] == "Russian" for u in jaegers)
    res2 = sorted(u["fire"] for u in UNITS.values() if u["id"].startswith("ru-2w-res-"))
    assert res2 == [3, 3, 3, 4, 4, 4]
    horse = [u for u in UNITS.values() if u["kind"] == "artillery" and u["ma"] == 8]
    assert len(horse) >= 15


def test_leaders():
    nap, kut = LEADERS["napoleon"], LEADERS["kutuzov"]
    assert (nap["orders_rating"], nap["delay_rating"], nap["drm"], nap["command_range"], nap["ma"]) == (3, None, -2, 3, None)
    assert kut["orders_rating"] is None and kut["command_range"] == 2 and kut["ma"] == 4
    assert kut["drm"] <= 0 and kut["delay_rating"] is not None


def test_activation_groups():
    ru = [a for a in AGS.values() if a["side"] == "Russian"]
    assert Counter(a["army"] for a in ru) == {"1st": 7, "2nd": 5, "reserve": 2}
    assert AGS["ru-guard"]["army"] == "reserve" and "guard" in AGS["ru-guard"]["flags"]
    assert "artillery_reserve" in AGS["ru-1st-army-artillery-reserve"]["flags"]
    assert sum(1 for u in UNITS.values() if u["ag"] == "ru-1st-army-artillery-reserve") == 20
    cav_reserve = [a for a in AGS.values() if "cavalry_reserve" in a.get("flags", ())]
    assert len(cav_reserve) == 6 and all(a["side"] == "French" for a in cav_reserve)
    assert AGS["fr-guard"]["io_rating"] is None and "guard" in AGS["fr-guard"]["flags"]
    assert AGS["fr-i-corps"]["io_rating"] == 6     # Davout's AM, 5.28 example
    assert all(a["markers"] == 2 for a in AGS.values())
    colours = [a["colour"].lower() for a in AGS.values()]
    assert len(set(colours)) == len(colours)


def test_markers():
    ids = {m["id"]: m for m in MARKERS["markers"]}
    assert ids["under-orders"]["back_text"] and ids["on-fire"]["back_text"] == "Rubble"
    for need in ("barrage-french", "barrage-russian", "murat", "destruction", "flanking-command", "cavalry-charge",
                 "bridge-destroyed", "orders-delay-drm", "turn", "initiative"):
        assert need in ids
    assert "2/5" in ids["murat"]["text"]


# --------------------------------------------------------------------------------------------- map

def test_map_grid_and_fixed_points():
    assert GRID["orientation"] == "flat" and GRID["shifted"] == "odd"
    # the set-up lists name these as adjacent groups
    assert _adjacent("4001", "4100") and _adjacent("3801", "3900") and _adjacent("3900", "4000")
    terrain = MAP["terrain"]["hexes"]
    assert "3417" in terrain["redoubt"]
    sides = MAP["hexsides"]

    def features(a, b):
        out = set()
        for s in sides:
            hx = s["hexes"]
            pairs = list(zip(hx[::2], hx[1::2])) if s.get("pairs") else [tuple(hx)]
            if any({a, b} == set(p) for p in pairs):
                out.add(s["feature"])
        return out
    bridges = [s for s in sides if s["feature"] == "bridge" and "3813" in s["hexes"]]
    assert bridges, "the bridge over the Kalatcha at 3813"
    other = next(h for h in bridges[0]["hexes"] if h != "3813")
    assert _adjacent("3813", other) and "stream" in features("3813", other)
    assert any(m["type"] == "rubble" and "3213" in (m.get("hexes") or [m.get("hex")]) for m in MAP["markers"])
    assert MAP["names"]["3213"].startswith("Shmynovskaya")
    assert SCHEVARDINO["victory"]["hex"] in terrain["redoubt"]
    assert 1 in MAP["elevation"] and -1 in MAP["elevation"]
    assert {"clear", "cultivated", "woods", "village", "redoubt", "marsh", "rough"} >= set(terrain) | {MAP["terrain"]["default"]}


def test_map_hexsides_roads_and_hexes_are_consistent():
    every = [h for hx in MAP["terrain"]["hexes"].values() for h in hx]
    assert all(_on_map(h) for h in every)
    assert len(every) == len(set(every)), "a hex has two terrain types"
    for s in MAP["hexsides"]:
        hx = s["hexes"]
        pairs = list(zip(hx[::2], hx[1::2])) if s.get("pairs") else [tuple(hx)]
        for a, b in pairs:
            assert _on_map(a) and _on_map(b) and _adjacent(a, b), (s["feature"], a, b)
    for road in MAP["roads"]:
        hx = road["hexes"]
        assert all(_on_map(h) for h in hx)
        assert all(_adjacent(a, b) for a, b in zip(hx, hx[1:])), road.get("name")
    new_road = next(r for r in MAP["roads"] if r["name"] == "New Smolensk Road")["hexes"]
    assert _hexes("4015-4515") <= set(new_road)
    assert "3813" in new_road and "3814" in new_road
    assert "4400" in next(r for r in MAP["roads"] if r["name"] == "Old Smolensk Road")["hexes"]


def test_entry_and_edge_hexes_on_map():
    for h in ["5108", "4400"] + [f"{c}00" for c in range(24, 29)] + [f"{c}00" for c in range(35, 52)]:
        assert _on_map(h), h
    assert _cr("5108")[0] == GRID["first_column"] + GRID["columns"] - 1     # east edge
    assert GRID["first_row"] == 0                                          # row 00 is the south edge


# --------------------------------------------------------------------------------------------- scenarios

@pytest.mark.parametrize("scn", [BORODINO, SCHEVARDINO], ids=["borodino", "schevardino"])
def test_setup_on_map_with_vertex_facings(scn):
    for p in scn["setup"]:
        assert _on_map(p["hex"]), p
        assert p["unit"] in UNITS or p["unit"] in LEADERS, p
        if p["unit"] in UNITS:
            assert p["facing"] in (1, 3, 5, 7, 9, 11), p
    ids = [p["unit"] for p in scn["setup"]]
    assert len(ids) == len(set(ids))
    for r in scn.get("reinforcements") or []:
        assert all(_on_map(h) for h in r["entry"])
        assert all(u in UNITS for u in r["units"])
        assert not set(r["units"]) & set(ids)


@pytest.mark.parametrize("spec,count,filt", BORODINO_FRENCH + BORODINO_RUSSIAN,
                         ids=[f"{s}:{n}" for s, n, _ in BORODINO_FRENCH + BORODINO_RUSSIAN])
def test_borodino_setup_lines(spec, count, filt):
    assert len(_units_in(BORODINO, _hexes(spec), **filt)) == count


def test_borodino_whole_armies():
    placed = {p["unit"]: p for p in BORODINO["setup"]}
    assert set(UNITS) <= set(placed), "every unit is on the map at the start"
    assert placed["napoleon"]["hex"] == "3908"
    assert _on_map(placed["kutuzov"]["hex"])
    cossacks = [placed[u]["hex"] for u in ("ru-cos-vlasov", "ru-cos-3rd-bug")]
    assert all(h == "2226" or _adjacent(h, "2226") for h in cossacks)
    for div in ("mr", "fr", "gr", "cm"):
        assert sum(1 for p in BORODINO["setup"] if p["hex"] in _hexes("3607-3610")
                   and p["unit"].startswith(f"fr-{div}-art-")) == 2
    assert any(UNITS[u]["ma"] == 8 for u in _units_in(BORODINO, _hexes("3517-3519")))
    assert BORODINO["turns"] == {"first": 1, "last": 12, "start": "06:00", "minutes": 75}
    assert BORODINO["sides"] == {"French": {"cinc": "napoleon"}, "Russian": {"cinc": "kutuzov"}}
    assert not BORODINO.get("reinforcements")


def test_setup_stacking_limits():
    for scn in (BORODINO, SCHEVARDINO):
        by_hex = {}
        for p in scn["setup"]:
            if p["unit"] in UNITS:
                by_hex.setdefault(p["hex"], []).append(UNITS[p["unit"]])
        for h, us in by_hex.items():
            art = [u for u in us if u["kind"] == "artillery"]
            line = [u for u in us if u["kind"] != "artillery"]
            if any("militia" in u.get("flags", ()) for u in us):
                assert len(us) == 1, h
            if not line and all(u["ag"] == "ru-1st-army-artillery-reserve" for u in art):
                assert len(art) <= 3, h
                continue
            assert len(us) <= 3, h
            assert len({u["side"] for u in us}) == 1, h
            if line:
                assert len({u["kind"] for u in line}) == 1 and len(art) <= 1, h
                if len(line) == 3 or (len(line) == 2 and art):
                    brig = {u.get("brigade") or u["name"].rsplit(" ", 1)[0] for u in line}
                    assert len(brig) == 1 and all(len(u["name"].rsplit(" ", 1)[-1]) == 1 for u in line), h
            else:
                assert len(art) <= 2 and len({u["ag"] for u in art}) == 1 and sum(u["fire"] for u in art) <= 8, h


@pytest.mark.parametrize("spec,count,filt", SCHEVARDINO_LINES, ids=[f"{s}:{n}" for s, n, _ in SCHEVARDINO_LINES])
def test_schevardino_setup_lines(spec, count, filt):
    assert len(_units_in(SCHEVARDINO, _hexes(spec), **filt)) == count


def test_schevardino_specifics():
    placed = [p for p in SCHEVARDINO["setup"]]
    ii_cav = [p for p in placed if p["unit"] in UNITS and UNITS[p["unit"]]["ag"] == "fr-ii-cav-corps"
              and UNITS[p["unit"]]["kind"] == "cavalry"]
    assert len(ii_cav) == 9 and all(p["hex"] == "4819" or _adjacent(p["hex"], "4819") for p in ii_cav)
    reinf = {r["ag"]: r for r in SCHEVARDINO["reinforcements"]}
    assert len(reinf["fr-i-cav-corps"]["units"]) == 11 and reinf["fr-i-cav-corps"]["entry"] == ["5108"]
    assert len(reinf["fr-v-corps"]["units"]) == 8 and reinf["fr-v-corps"]["entry"] == ["4400"]
    assert reinf["fr-v-corps"]["turn"] == 3
    assert all(UNITS[u]["ag"] == "fr-v-corps" for u in reinf["fr-v-corps"]["units"])
    assert all(UNITS[u]["ag"] == "fr-i-cav-corps" for u in reinf["fr-i-cav-corps"]["units"])
    assert SCHEVARDINO["turns"] == 5
    assert all(not side.get("cinc") for side in SCHEVARDINO["sides"].values())
    opts = SCHEVARDINO["options"]
    cmds = opts["commands"]
    assert len([c for c in cmds.values() if c["side"] == "French"]) == 6
    assert opts["active_commands"] == ["compans", "ru-schevardino"]
    assert opts["commands_active_from_turn"] == {"ru-2nd-grenadiers": 2}
    assert opts["command_earliest_turn"] == {"fr-v-corps": 3}
    assert len(cmds["compans"]["units"]) == 9 and len(cmds["morand"]["units"]) == 5 and len(cmds["friant"]["units"]) == 6
    # every unit of the scenario belongs to exactly one command
    in_play = [p["unit"] for p in placed] + [u for r in SCHEVARDINO["reinforcements"] for u in r["units"]]
    in_cmds = [u for c in cmds.values() for u in c["units"]]
    assert sorted(in_play) == sorted(in_cmds)
    # the Russians in this scenario are east of the French restriction line; the French start west of it
    assert all(_cr(p["hex"])[0] >= 36 for p in placed if UNITS[p["unit"]]["side"] == "French")
    assert SCHEVARDINO["victory"]["turn"] == 5


def test_victory_and_rules():
    v = BORODINO["victory"]
    assert v["per_collapsed_ag"] == {"French": 3, "Russian": 4}
    assert v["collapsed_ag_exceptions"] == {"ru-guard": 10, "fr-guard": 10}
    assert v["hexes"] == {"3417": 10}
    for rule in ("BOR-1", "BOR-2", "BOR-3", "BOR-5", "BOR-STACK", "BOR-MILITIA", "BOR-JAEGER", "BOR-COSSACK"):
        assert rule in BORODINO["special_rules"]
    assert BORODINO["options"]["army_orders"] == {"1st": 3, "2nd": 2, "reserve": 1}


# --------------------------------------------------------------------------------------------- tables

def test_tables_cover_the_map():
    mc = TABLES["movement_costs"]
    used = set(MAP["terrain"]["hexes"]) | {MAP["terrain"]["default"]}
    assert used <= set(mc["rows"])
    assert {s["feature"] for s in MAP["hexsides"]} <= set(mc["hexsides"])
    for row in list(mc["rows"].values()) + list(mc["hexsides"].values()):
        for col in ("infantry", "cavalry", "artillery", "commander"):
            cell = row[col]
            assert cell == "P" or isinstance(cell, int) or (isinstance(cell, dict) and isinstance(cell["cost"], int))
    # values the digest gives
    assert mc["rows"]["clear"]["cavalry"] == 1 and mc["rows"]["clear"]["artillery"] == 2
    assert [mc["rows"]["cultivated"][c] for c in ("infantry", "cavalry", "artillery")] == [1, 2, 3]
    assert mc["rows"]["woods"]["cavalry"] == {"cost": 3, "disorders": True}
    assert mc["rows"]["village"]["infantry"] == 2
    assert mc["hexsides"]["river"]["infantry"] == "P" and mc["hexsides"]["steep"]["cavalry"] == 2
    odds = {(a, d): m for a, d, m in TABLES["odds"]}
    assert odds[(3, 2)] == 1 and odds[(2, 1)] == 2 and odds[(1, 3)] == -3
    assert TABLES["shock_terrain"]["rows"]["clear"] == 1
    bands = TABLES["shock_results"]
    assert bands[0]["max"] == -1 and bands[-1]["min"] == 10
    assert [b["result"] for b in TABLES["fire"]["results"]][1] == "cohesion_check"
    assert isinstance(TABLES["sample_values"], list) and all({"path", "value", "note"} <= set(s) for s in TABLES["sample_values"])


# --------------------------------------------------------------------------------------------- loader

def test_scenarios_load_and_validate_cleanly():
    defs = pytest.importorskip("modulebuilder.definitions")
    if not hasattr(defs, "load_scenario"):
        pytest.skip("modulebuilder.definitions.load_scenario not available")
    for rel in ("scenarios/borodino.yaml", "scenarios/schevardino.yaml"):
        scn = defs.load_scenario(str(ROOT / rel))
        assert scn.setup
    proc = subprocess.run([sys.executable, "-m", "modulebuilder", "validate",
                           "scenarios/borodino.yaml", "scenarios/schevardino.yaml", "maps/borodino.yaml",
                           "tables/borodino.yaml", "counters/borodino/french.yaml",
                           "counters/borodino/russian.yaml", "counters/borodino/markers.yaml"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
