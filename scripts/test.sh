#!/usr/bin/env bash
# The whole test suite, from a fresh clone: sets everything up, then runs pytest on both cores.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --test
exec .venv/bin/python -m pytest -n 2 -q "$@"
