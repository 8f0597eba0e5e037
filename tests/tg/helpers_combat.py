"""Positions for the combat tests (pointy 8x8 map, even rows shifted right; see tests/tg/helpers.py).

Around 0404 the neighbours are 1: 0503, 3: 0504, 5: 0505, 7: 0405, 9: 0304, 11: 0403.  A defender in 0404
facing 12 has front 0403 / 0503, flank positions 0304 / 0504 (9 and 3 o'clock), rear 0405 / 0505.
An attacker in 0403 faces 6 to have 0404 in its front; one in 0405 faces 12; one in 0503 faces 6.
"""
from __future__ import annotations

from .helpers import FR, RU

DEF_HEX = "0404"
FRONT_L, FRONT_R = "0403", "0503"          # 11 and 1 o'clock of 0404
FLANK_L, FLANK_R = "0304", "0504"          # 9 and 3 o'clock (f-3, f+3 for facing 12)
REAR_L, REAR_R = "0405", "0505"            # 7 and 5 o'clock
FACING_INTO = {FRONT_L: 6, FRONT_R: 6, REAR_L: 12, REAR_R: 12, FLANK_L: 2, FLANK_R: 10}

__all__ = ["FR", "RU", "DEF_HEX", "FRONT_L", "FRONT_R", "FLANK_L", "FLANK_R", "REAR_L", "REAR_R", "FACING_INTO"]
