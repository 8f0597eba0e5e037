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
  # Editable, as a plain .pth line naming the project (pyproject's package-dir), not setuptools' import-hook
  # finder, which every Python process of the venv imported at start (~20 ms, docs/speed.md section 1).
  .venv/bin/python -m pip install -q -e "$extras"
  touch "$stamp"
fi
if [ $want_test = 1 ]; then
  # The third ruleset, installed from its own folder as a stranger's plugin would be (issue 13), before any test
  # process starts, so that every test sees it registered (tests/engine/test_third_ruleset.py checks it is
  # current).  Keyed by the folder's content, so an unchanged folder is not reinstalled.
  bh=examples/bridgehead
  bh_stamp=.venv/.bridgehead-$(find "$bh" -path "$bh/build" -prune -o -path '*egg-info*' -prune -o -name __pycache__ -prune \
           -o -type f -print | LC_ALL=C sort | xargs sha1sum | sha1sum | cut -c1-12)
  if [ ! -f "$bh_stamp" ]; then
    .venv/bin/python -m pip install -q --no-deps --no-build-isolation --no-index "./$bh" >/dev/null 2>&1 \
      || .venv/bin/python -m pip install -q --no-deps "./$bh"
    rm -f .venv/.bridgehead-*; touch "$bh_stamp"
  fi
fi
# The editable install leaves the project's modules uncompiled; where the environment forbids writing bytecode
# (PYTHONDONTWRITEBYTECODE) every `referee check` compiled its 85 modules again (0.24 s of its start-up).
# compileall writes only what is missing or stale, and Python ignores a .pyc older than its source.
.venv/bin/python -m compileall -q referee modulebuilder > /dev/null

if [ $want_test = 1 ]; then
  # System packages the tests use, installed in one apt run so parallel test workers never race on
  # the apt lock: pdftoppm (look at PDFs), PostgreSQL (storage suite), and what the real VASSAL engine
  # check needs (Xvfb, a JDK, the engine's library jars; the list is shared/tools/vassal-check's).
  apt_needed=()
  command -v pdftoppm >/dev/null || apt_needed+=(poppler-utils)
  # The CMYK sheets' default output profile (FOGRA39L_coated.icc) ships with TeX Live's base package.
  [ -f /usr/share/texlive/texmf-dist/tex/generic/colorprofiles/FOGRA39L_coated.icc ] || apt_needed+=(texlive-base)
  ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || apt_needed+=(postgresql)
  command -v javac >/dev/null || apt_needed+=(default-jdk)
  command -v xvfb-run >/dev/null || apt_needed+=(xvfb xauth)
  command -v chromium >/dev/null || apt_needed+=(chromium)
  for pkg in libcommons-lang3-java libcommons-io-java libslf4j-java liblogback-java libmiglayout-java \
             libbatik-java libxmlgraphics-commons-java libxml-commons-external-java libcommons-codec-java \
             libhttpcore5-java libtimingframework-java libmaven3-core-java libswingx-java libgetopt-java; do
    dpkg -s "$pkg" >/dev/null 2>&1 || apt_needed+=("$pkg")
  done
  if [ ${#apt_needed[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
    echo "setup: installing Debian packages: ${apt_needed[*]}" >&2
    $SUDO apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${apt_needed[@]}" >/dev/null
  fi
fi
