#!/usr/bin/env bash
# From a fresh Debian 12 clone to LineScope running on the bundled samples, in one command
# (the README's):
#   1. installs the build dependencies (packaging/install-deps.sh: apt, skipped when present),
#   2. configures the "release" CMake preset and builds the command line into build/,
#   3. runs the command-line demo on resources/samples/, then opens the desktop application
#      on the fingerprint when there is a display:
#        - a sweep of openings over 90 angles on the fingerprint: supremum, orientation map,
#          angular spectrum;
#        - the skew of the music sheet (printed; made with a known +1.5°) and the deskewed page;
#        - an opening at 30° of the oriented texture (keeps the strokes near 30°);
#        - a closing along the measured skew that keeps only the staff lines.
#
#   ./packaging/quickstart-demo.sh [OUTDIR]      (default: ./linescope-demo-out)
#
# Idempotent: a second run rebuilds only what changed and overwrites the outputs.
# LINESCOPE_JOBS sets the parallel build jobs (default: the number of cores).
set -euo pipefail

out=$(realpath -m "${1:-linescope-demo-out}")  # relative to where the user stands
cd "$(dirname "${BASH_SOURCE[0]}")/.."
jobs=${LINESCOPE_JOBS:-$(nproc)}
samples=resources/samples
cli=build/app/linescope-cli

./packaging/install-deps.sh

echo "== configure (cmake --preset release)"
cmake --preset release
echo "== build linescope-cli (cmake --build --preset release --target linescope-cli -j $jobs)"
cmake --build --preset release --target linescope-cli -j "$jobs"

mkdir -p "$out"
echo
echo "== demo: outputs in $out"

# Angles are degrees counter-clockwise from East, as on screen (design.md §1).
echo
echo "-- 1. sweep: openings of the fingerprint by a 15-pixel segment at 0°, 2°, … 178°"
"$cli" sweep --length 15 --angles 0:180:2 --op open "$samples/fingerprint.png" --out-dir "$out/fingerprint-sweep"

echo
echo "-- 2. skew of the music sheet (generated with a skew of +1.5°)"
skew_json=$("$cli" skew --deskew "$out/music_sheet-deskewed.png" --border white "$samples/music_sheet.png")
echo "$skew_json" | tee "$out/music_sheet-skew.json"
angle=$(sed -n 's/.*"angle": *\([-+0-9.eE]*\).*/\1/p' <<<"$skew_json")
[ -n "$angle" ] || { echo "demo: no angle in the skew output" >&2; exit 1; }
printf 'skew estimate: %+.2f degrees (the sheet was made at +1.50)\n' "$angle"

echo
echo "-- 3. opening of the oriented texture by a 31-pixel segment at 30°"
"$cli" open --length 31 --angle 30 "$samples/oriented_texture.png" "$out/oriented_texture-open-30.png"

echo
printf -- '-- 4. closing of the music sheet by a 101-pixel segment along the skew (%+.2f°): the staff lines\n' "$angle"
"$cli" close --length 101 --angle "$angle" "$samples/music_sheet.png" "$out/music_sheet-staff-lines.png"

echo
echo "== written:"
(cd "$out" && find . -type f -printf '%P\t%s bytes\n' | sort) | sed "s|^|  $out/|"

# With a display, the desktop application on the fingerprint (close its window to finish);
# without one (a server, CI), the command-line demo above is the demo.
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && [ -z "${LINESCOPE_NO_GUI:-}" ]; then
  echo
  echo "== build and start the desktop application (cmake --build --preset release --target linescope)"
  cmake --build --preset release --target linescope -j "$jobs"
  exec build/app/linescope "$samples/fingerprint.png"
else
  echo
  echo "(no display: the desktop application was not started; on a desktop run build/app/linescope)"
fi
