"""VASSAL formats: the module (.vmod) writer and the save/log (.vsav/.vlog) reader (see README.md here).

Modules, lowest layer first (formats: /work/shared/formats/vassal.md):

* ``seqenc``      VASSAL's SequenceEncoder escaping, the brick every other string is built from
* ``traits``      piece traits (decorators) and whole pieces as type/state strings
* ``facing``      clock-hour facings <-> FreeRotator states
* ``pieces``      our units, leaders and markers as prototypes, palette pieces and placed pieces
* ``gridmap``     our hex grid conventions -> VASSAL HexGrid/HexGridNumbering, and the engine's hex naming
* ``holding``     the off-map board of boxes (reinforcements by turn, withdrawn, recovery, eliminated)
* ``ids``         stable piece-slot and piece ids derived from unit ids
* ``zipio``       deterministic zips out, bounded zip reading in; ``errors``: VassalFileError
* ``savecodec``   ``!VCSK`` obfuscation and the command tree grammar, both ways
* ``setupfile``   a scenario's set-up as a .vsav;  ``metadata``: moduledata/savedata
* ``buildfile``   buildFile.xml;  ``assemble``: the whole .vmod (with ``cache``);  ``commands``: the CLI
* ``savefile``    reading pieces and steps out of a .vsav/.vlog;  ``modulefile``: reading a .vmod's grids
* ``cup``         the activation markers and their deck;  ``turns``: the turn track;  ``play``: die and phases
* ``about``       About screen, sources page, scenario notes;  ``mapnames``: the module's map image
* ``enginecheck`` running the real engine (shared/tools/vassal-check, and ``probe/VProbe.java``) and parsing it
"""
