#!/usr/bin/env bash
# The main job on the bundled Borodino data, from a fresh clone: set up, validate every definition,
# summarise the scenarios, build the VASSAL module, the counter sheets and the map, and referee the
# sample game.  Everything lands in out/ (or the folder given as $1).  Starts nothing that keeps running.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
out=${1:-out}
mkdir -p "$out"
bin=.venv/bin
scenarios=(scenarios/borodino.yaml scenarios/schevardino.yaml)

step() { printf '\n== %s\n' "$*"; }

step "Validate every definition"
$bin/modulebuilder validate counters/borodino/*.yaml maps/borodino.yaml tables/borodino.yaml "${scenarios[@]}"

step "Scenarios"
$bin/modulebuilder summary "${scenarios[@]}"

step "VASSAL module -> $out/"
$bin/modulebuilder build "${scenarios[@]}" --out "$out"

step "Counter sheets (5/8\", Letter, duplex and gutter-fold) -> $out/sheets/"
$bin/modulebuilder sheets scenarios/borodino.yaml --size 5/8 --paper letter --layout both --out "$out/sheets"

step "Map (PNG and print PDF) -> $out/map/"
$bin/modulebuilder map maps/borodino.yaml --out "$out/map"

step "Referee the sample game -> $out/sample-game-report.txt"
$bin/referee check tests/fixtures/logs/sample-borodino.json --format text > "$out/sample-game-report.txt"
$bin/referee check tests/fixtures/logs/sample-borodino.json --format json > "$out/sample-game-rulings.json"
tail -n 15 "$out/sample-game-report.txt"

step "Done: $(ls "$out" | tr '\n' ' ')"
