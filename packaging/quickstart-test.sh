#!/usr/bin/env bash
# From a fresh Debian 12 clone to a tested build, in one command (the README's):
#   1. installs the build dependencies (packaging/install-deps.sh: apt, skipped when present),
#   2. configures and builds the "release" CMake preset into build/ (Ninja, Release),
#   3. runs every test suite with CTest (labels engine, oracle, cli, render, session, gui), under xvfb-run when
#      there is no display.
# Idempotent: a second run rebuilds only what changed. Extra arguments go to ctest, e.g.
#   ./packaging/quickstart-test.sh -L engine
# LINESCOPE_JOBS sets the parallel build/test jobs (default: the number of cores).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

jobs=${LINESCOPE_JOBS:-$(nproc)}

./packaging/install-deps.sh

echo "== configure (cmake --preset release)"
cmake --preset release
echo "== build (cmake --build --preset release -j $jobs)"
cmake --build --preset release -j "$jobs"

echo "== test (ctest --preset release)"
ctest_cmd=(ctest --preset release --parallel "$jobs" "$@")
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
  # No display (CI, ssh): a virtual X server for anything that opens a window.
  ctest_cmd=(xvfb-run --auto-servernum --server-args="-screen 0 1920x1080x24" "${ctest_cmd[@]}")
fi
"${ctest_cmd[@]}"
