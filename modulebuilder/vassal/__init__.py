"""VASSAL formats: the module (.vmod) writer and the save/log (.vsav/.vlog) codec and reader.

Layers, lowest first (see /work/shared/formats/vassal.md for the formats themselves):

* ``seqenc``     VASSAL's SequenceEncoder escaping, the brick every other string is built from
* ``traits``     piece traits (decorators) and whole pieces as type/state strings
* ``facing``     clock-hour facings <-> FreeRotator states
* ``gridmap``    our hex grid conventions -> VASSAL HexGrid/HexGridNumbering attributes
* ``ids``        stable piece-slot and piece ids derived from unit ids
* ``savecodec``  zip + ``!VCSK`` obfuscation + the command tree grammar (reading and writing)
* ``savefile``   reading pieces out of a .vsav/.vlog (used by the referee)
* ``setupfile``  a scenario's set-up as a .vsav
* ``buildfile``  buildFile.xml and moduledata
* ``assemble``   the whole .vmod, deterministic and cached; ``commands`` is its CLI
"""
