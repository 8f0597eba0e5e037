#!/bin/sh
# vonline.sh server PORT                          VASSAL's own server (VASSAL.chat.node.Server) on PORT, until killed
# vonline.sh player MODULE.vmod SETUP.vsav SCRIPT.json OUT.vlog
#                                                 one player's VASSAL on that server (VOnline.java), under Xvfb
# The engine, its libraries and the shared recorder's classes (VRecord, VCheck) come from the vassal-check tools'
# set-up ($VASSAL_CHECK_TOOLS, default /work/shared/tools/vassal-check), as modulebuilder/vassal/probe/vprobe.sh.
HERE=${VASSAL_CHECK_TOOLS:-/work/shared/tools/vassal-check}
ONLINE_DIR=$(cd "$(dirname "$0")" && pwd)
. "$HERE/engine_env.sh"
case "$1" in
server)
  # No status reports anywhere (-URL null); the server prints to stderr only.
  exec java -Xmx128m -cp "$CP" VASSAL.chat.node.Server -port "$2" -URL null
  ;;
player)
  shift
  # Compiled once per version of VOnline.java, into a folder named by its hash, made whole before it is
  # renamed into place: runs from other checkouts (another version) never change the classes a run uses.
  SUM=$(sha256sum "$ONLINE_DIR/VOnline.java" | cut -c1-16)
  OUT="$WORK/online-classes-$SUM"
  if [ ! -f "$OUT/VOnline.class" ]; then
    NEW=$(mktemp -d "$WORK/online-new.XXXXXX") || exit 3
    javac -nowarn -encoding UTF-8 -cp "$CP:$WORK/stubclasses:$WORK/classes" -d "$NEW" "$ONLINE_DIR/VOnline.java" ||
      { rm -rf "$NEW"; exit 3; }
    mv -T "$NEW" "$OUT" 2>/dev/null || rm -rf "$NEW"       # another run made it first: the same classes
  fi
  run=$(mktemp -d "$WORK/run.XXXXXX") || exit 3
  mkdir -p "$run/home"
  MOD=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
  SAV=$(cd "$(dirname "$2")" && pwd)/$(basename "$2")
  SCR=$(cd "$(dirname "$3")" && pwd)/$(basename "$3")
  LOG=$(cd "$(dirname "$4")" && pwd)/$(basename "$4")
  ( cd "$run" && HOME="$run/home" timeout "${VCHECK_TIMEOUT:-300}" xvfb-run -a -s "-screen 0 1600x1000x24" \
      java -Xmx1g -cp "$CP:$WORK/stubclasses:$WORK/classes:$OUT" VOnline "$MOD" "$SAV" "$SCR" "$LOG" \
      > "$run/output.log" 2>&1 )
  rc=$?
  grep -v '^$\| DEBUG \| INFO \|^[0-9:,]* |-\|^\s*at \|^\s*\.\.\. [0-9]* more' "$run/output.log"
  [ $rc = 124 ] && echo "VOnline: timed out after ${VCHECK_TIMEOUT:-300} s (VCHECK_TIMEOUT)"
  rm -rf "$run"
  exit $rc
  ;;
*)
  echo "usage: $0 server PORT | $0 player MODULE.vmod SETUP.vsav SCRIPT.json OUT.vlog" >&2
  exit 2
  ;;
esac
