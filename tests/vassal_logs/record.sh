#!/bin/sh
# Regenerates the engine-written recordings in fixtures/ (needs the VASSAL engine: see
# /work/shared/tools/vassal-check/README.md; the first run installs it).  The tests only read the results.
#   tiny.vmod                the module our builder makes from examples/tiny (the Tinyvka scenario)
#   borodino-facts.vmod      the Borodino module's buildFile.xml, moduledata and set-ups: the grid, boxes and
#                            starting positions the reader needs, without 2.6 MB of images (an earlier build,
#                            for borodino.vlog; borodino-cup-facts.vmod: today's, with the activation cup)
#   <name>-script.json       what the engine plays (vrecord.sh actions: chat, moves, keys, menus, d10 rolls)
#   <name>.vlog              the log the engine itself wrote while playing it
#   <name>.vrecord.txt       the engine's account of each action (drop points, logged commands)
#   from-save-*.vsav         the engine's own Save Game (modulebuilder/vassal/probe, save=) of the position a log
#                            ended on, its turn track moved on with the tracker's Next (or not)
#   docs-script.json         made from docs/chat-notation.md (doc_examples.py): every example typed in the chat
#   zero-roll.vlog           an earlier recording of borodino-script.json in which the d10 showed 0 (the
#                            engine's dice are random, so this one cannot be made on demand)
# Set BORODINO_VMOD to an already built borodino.vmod to skip its (slow) build.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
FIX="$HERE/fixtures"
ROOT=$(cd "$HERE/../.." && pwd)
TOOLS=${VASSAL_CHECK_TOOLS:-/work/shared/tools/vassal-check}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
cd "$ROOT"

.venv/bin/modulebuilder build examples/tiny/scenario.yaml --out "$TMP/tiny"
cp "$TMP/tiny/tiny.vmod" "$FIX/tiny.vmod"
if [ -z "${BORODINO_VMOD:-}" ]; then
  .venv/bin/modulebuilder build scenarios/borodino.yaml scenarios/schevardino.yaml --out "$TMP/borodino"
  BORODINO_VMOD="$TMP/borodino/borodino.vmod"
fi

.venv/bin/python - "$FIX/tiny.vmod" "$BORODINO_VMOD" "$TMP" "$FIX/borodino-facts.vmod" <<'PY'
import sys, zipfile
from pathlib import Path
from modulebuilder.vassal.zipio import deterministic_zip
tiny, borodino, tmp, facts = sys.argv[1:]
for vmod in (tiny, borodino):
    with zipfile.ZipFile(vmod) as z:
        for n in z.namelist():
            if n.endswith(".vsav"):
                (Path(tmp) / n).write_bytes(z.read(n))
with zipfile.ZipFile(borodino) as z:
    keep = [n for n in z.namelist() if n in ("buildFile.xml", "moduledata") or n.endswith(".vsav")]
    Path(facts).write_bytes(deterministic_zip([(n, z.read(n)) for n in keep]))
    Path(facts.replace("borodino-facts", "borodino-cup-facts")).write_bytes(
        deterministic_zip([(n, z.read(n)) for n in keep]))
PY

record() {   # record NAME MODULE SETUP
  sh "$TOOLS/vrecord.sh" "$2" "$3" "$FIX/$1-script.json" "$TMP/$1.vlog" > "$FIX/$1.vrecord.txt" 2>&1 \
    || { cat "$FIX/$1.vrecord.txt"; exit 1; }
  cp "$TMP/$1.vlog" "$FIX/$1.vlog"
  echo "$1: $(tail -1 "$FIX/$1.vrecord.txt")"
}
record tiny "$FIX/tiny.vmod" "$TMP/tiny.vsav"
record typo "$FIX/tiny.vmod" "$TMP/tiny.vsav"
record claims "$FIX/tiny.vmod" "$TMP/tiny.vsav"
record borodino "$BORODINO_VMOD" "$TMP/borodino.vsav"
record undo "$FIX/tiny.vmod" "$TMP/tiny.vsav"
record schevardino-command "$BORODINO_VMOD" "$TMP/schevardino.vsav"
record borodino-game "$BORODINO_VMOD" "$TMP/borodino.vsav"        # the cup, an Undo, a typo, a roll
record schevardino-game "$BORODINO_VMOD" "$TMP/schevardino.vsav"  # !command, an Undo, a typo, a fire roll
record pbem-turn1 "$FIX/tiny.vmod" "$TMP/tiny.vsav"                # play by e-mail: turn 2 begins where 1 ended
.venv/bin/python "$HERE/pbem_setup.py" "$FIX/pbem-turn1.vlog" "$TMP/pbem-after1.vsav"
record pbem-turn2 "$FIX/tiny.vmod" "$TMP/pbem-after1.vsav"
sh "$TOOLS/vrecord.sh" "$FIX/tiny.vmod" "$TMP/tiny.vsav" "$FIX/pbem-turn2-script.json" "$FIX/pbem-turn2-rewound.vlog" \
  > "$TMP/rewound.txt" 2>&1 || { cat "$TMP/rewound.txt"; exit 1; }                  # the same turn from the start
record dice-typed "$BORODINO_VMOD" "$TMP/schevardino.vsav"      # rolls typed in the chat
record dice-turn1 "$BORODINO_VMOD" "$TMP/schevardino.vsav"      # an APC rolled with the die button
.venv/bin/python "$HERE/pbem_setup.py" "$FIX/dice-turn1.vlog" "$TMP/dice-after1.vsav"
record dice-turn2 "$BORODINO_VMOD" "$TMP/dice-after1.vsav"      # the next file: '!shock 1', no side typed
record dice-turn3 "$BORODINO_VMOD" "$TMP/dice-after1.vsav"      # from that save: a command, Anthing moved back
probe_save() {   # probe_save NAME [next=N]: the engine's own Save Game after stepping through dice-turn1.vlog
  name=$1; shift
  sh "$ROOT/modulebuilder/vassal/probe/vprobe.sh" "$BORODINO_VMOD" "$FIX/dice-turn1.vlog" "$TMP/probe" dismiss replay \
    "$@" "save=$FIX/$name.vsav" > "$TMP/$name.txt" 2>&1 || { cat "$TMP/$name.txt"; exit 1; }
  echo "$name: $(grep '^saved:' "$TMP/$name.txt")"
}
probe_save from-save-t1-russian next=2      # the track moved on to Turn 1: Russian Movement and Combat
probe_save from-save-t1-unmoved             # the track left at the set-up's Turn 1: Command Activation
record from-save-russian "$BORODINO_VMOD" "$FIX/from-save-t1-russian.vsav"          # --from: the Russian's file
sh "$TOOLS/vrecord.sh" "$BORODINO_VMOD" "$FIX/from-save-t1-unmoved.vsav" "$FIX/from-save-russian-script.json" \
  "$FIX/from-save-russian-unmoved.vlog" > "$FIX/from-save-russian-unmoved.vrecord.txt" 2>&1 \
  || { cat "$FIX/from-save-russian-unmoved.vrecord.txt"; exit 1; }          # the same file, the track unmoved
.venv/bin/python "$HERE/doc_examples.py" > "$FIX/docs-script.json"
record docs "$FIX/tiny.vmod" "$TMP/tiny.vsav"
