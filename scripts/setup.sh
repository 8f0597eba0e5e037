#!/usr/bin/env bash
# Idempotent set-up: a virtual environment in .venv with the project installed (editable) and, with
# --test, the test extras and the system packages the test suite needs.  Safe to run again and again.
set -euo pipefail
cd "$(dirname "$0")/.."
want_test=0
[ "${1:-}" = "--test" ] && want_test=1

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PY" -m venv .venv
  .venv/bin/python -m pip install -q --upgrade pip
fi
stamp=.venv/.installed-$(sha1sum pyproject.toml | cut -c1-12)-$want_test
if [ ! -f "$stamp" ]; then
  if [ $want_test = 1 ]; then extras='.[test]'; else extras='.'; fi
  .venv/bin/python -m pip install -q -e "$extras"
  touch "$stamp"
fi

if [ $want_test = 1 ]; then
  apt_needed=()
  # Packages the tests call: pdftoppm (look at PDFs).  The VASSAL engine check installs its own
  # packages on first use (shared/tools/vassal-check/engine_env.sh).
  command -v pdftoppm >/dev/null || apt_needed+=(poppler-utils)
  if [ ${#apt_needed[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    $SUDO apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_needed[@]}" >/dev/null
  fi
fi
