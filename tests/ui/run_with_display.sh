#!/usr/bin/env bash
# Runs a GUI test: as is when there is a display, else under xvfb-run (a virtual X server;
# Mesa gives OpenGL there). ctest calls it for the tests labelled gui, so `ctest` works the
# same from a desktop, over ssh and in CI (where packaging/quickstart-test.sh already starts
# one xvfb-run around all of ctest and this wrapper then runs the test directly).
set -euo pipefail
if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ] || [ "${QT_QPA_PLATFORM:-}" = offscreen ]; then
  exec "$@"
fi
if ! command -v xvfb-run >/dev/null; then
  echo "no display and no xvfb-run (apt-get install xvfb xauth)" >&2
  exit 1
fi
exec xvfb-run --auto-servernum --server-args="-screen 0 1920x1080x24" "$@"
