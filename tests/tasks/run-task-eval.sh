#!/usr/bin/env bash
# Issue 6's figures from scratch, in one command (a fresh Debian 12 machine):
#   1. installs the build dependencies (packaging/install-deps.sh) and the generators' and
#      peers' packages: lilypond (with ghostscript) and libleptonica-dev;
#   2. builds linescope-task-eval with the release preset;
#   3. renders the scores and text pages at 300 dpi, makes the rotated, degraded skew set;
#   4. runs the three evaluations and writes their Markdown tables and per-item CSV into OUTDIR.
#
#   tests/tasks/run-task-eval.sh [OUTDIR] [K]   (default OUTDIR: ./task-eval-out, K: 1)
# K evaluates every K-th page of the skew set (the whole set of 1056 pages takes about an
# hour on 2 cores, most of it the Hough and radial-projection peers).
set -euo pipefail
out=$(realpath -m "${1:-task-eval-out}")
every=${2:-1}
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
jobs=${LINESCOPE_JOBS:-$(nproc)}

./packaging/install-deps.sh
need=()
for p in lilypond ghostscript libleptonica-dev; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$' || need+=("$p")
done
if ((${#need[@]})); then
  sudo_=(); [ "$(id -u)" -ne 0 ] && sudo_=(sudo)
  "${sudo_[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update
  "${sudo_[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi

cmake --preset release
cmake --build --preset release --target linescope-task-eval -j "$jobs"
eval_=build/tests/tasks/linescope-task-eval
mkdir -p "$out"
tests/tasks/pages/render_pages.sh "$out/pages-clean"
"$eval_" make-skew-set "$out/pages-clean" "$out/skew-set"
"$eval_" skew "$out/skew-set" --every "$every" --csv "$out/skew.csv" | tee "$out/skew.md"
"$eval_" orientation --count 50 --csv "$out/orientation.csv" | tee "$out/orientation.md"
"$eval_" texture --count 100 --seed 1001 --csv "$out/texture.csv" | tee "$out/texture.md"
echo "task evaluation: tables in $out/{skew,orientation,texture}.md"
