#!/bin/sh
# vprobe.sh MODULE.vmod SETUP.vsav OUTDIR [ARGS...]: run VProbe.java (what a player sees) in the REAL engine.
# Uses the vassal-check tools' set-up (engine jar, libraries, VCheck helpers: $VASSAL_CHECK_TOOLS, default
# /work/shared/tools/vassal-check) and a 1600x1000 virtual screen, so screenshots show the whole player window.
HERE=${VASSAL_CHECK_TOOLS:-/work/shared/tools/vassal-check}
PROBE_DIR=$(cd "$(dirname "$0")" && pwd)
. "$HERE/engine_env.sh"
# One folder per version of the source (checkouts of different versions may run at once on one machine): compiled
# into a fresh folder that is then renamed into place, so a run never sees another's half-written classes.
OUT="$WORK/probe-classes-$(cksum < "$PROBE_DIR/VProbe.java" | cut -d' ' -f1)"
if ! cmp -s "$PROBE_DIR/VProbe.java" "$OUT/VProbe.java"; then
  NEW=$(mktemp -d "$WORK/probe-new.XXXXXX") || exit 3
  javac -nowarn -encoding UTF-8 -cp "$CP:$WORK/stubclasses:$WORK/classes" -d "$NEW" "$PROBE_DIR/VProbe.java" || exit 3
  cp "$PROBE_DIR/VProbe.java" "$NEW/"
  mv -T "$NEW" "$OUT" 2>/dev/null || rm -rf "$NEW"      # another run put the same classes there first
fi
run=$(mktemp -d "$WORK/run.XXXXXX") || exit 3
mkdir -p "$run/home"
MOD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SAV=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
mkdir -p "$3"
DST=$(cd "$3" && pwd)
shift 3
( cd "$run" && HOME="$run/home" timeout "${VCHECK_TIMEOUT:-300}" xvfb-run -a -s "-screen 0 1600x1000x24" \
    java -Xmx1g -cp "$CP:$WORK/stubclasses:$WORK/classes:$OUT" VProbe "$MOD" "$SAV" "$DST" "$@" > "$run/output.log" 2>&1 )
rc=$?
grep -v '^$\| DEBUG \| INFO \|^[0-9:,]* |-\|^\s*at \|^\s*\.\.\. [0-9]* more' "$run/output.log"
rm -rf "$run"
exit $rc
