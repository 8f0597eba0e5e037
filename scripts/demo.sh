#!/usr/bin/env bash
# The main job on the bundled Borodino data: validate every definition, summarise the scenarios,
# build the module, the counter sheets and the map, and referee the sample game.  Output in out/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec .venv/bin/python -m modulebuilder demo --out out "$@"
