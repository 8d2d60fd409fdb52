#!/usr/bin/env bash
# Makes the user guide's screenshots (docs/screenshots/guide/) with the desktop application's
# --screenshot mode, one window per view and per task, on the bundled samples, CPU backend.
# Under xvfb-run when there is no display (Mesa's llvmpipe draws the OpenGL viewport).
#
#   docs/tools/make-screenshots.sh [LINESCOPE] [OUTDIR]
#     LINESCOPE  the application (default build/app/linescope)
#     OUTDIR     default docs/screenshots/guide
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
app=$(realpath "${1:-build/app/linescope}")
out=${2:-docs/screenshots/guide}
samples=resources/samples
mkdir -p "$out"

shoot() {  # shoot NAME IMAGE [options...]
  local name=$1 image=$2
  shift 2
  tests/ui/run_with_display.sh "$app" --backend cpu --window-size 1440x900 "$@" \
    --screenshot "$out/$name.png" "$samples/$image"
}

# The views (docs/user-guide.md, "The views").
shoot view-original      fingerprint.png      --view original --threshold 128
shoot view-result        oriented_texture.png --view result --compare side-by-side --op open --angle 30 --length 31 \
  --no-contours
shoot view-supremum      oriented_texture.png --view supremum --compare split --op open --length 31 --angles 90 \
  --no-contours
shoot view-infimum       music_sheet.png      --view infimum --op close --length 25 --angles 90 --no-contours
shoot view-orientation   fingerprint.png      --view orientation --length 15 --angles 60 --no-contours
shoot view-strength      oriented_texture.png --view strength --op open --length 31 --angles 90 --no-contours
# Line kinds compared (docs/user-guide.md, "Which line? Line paths, segment, periodic").
shoot kinds-difference   music_sheet.png      --view result --compare kinds-difference --other-line segment --op close \
  --angle 30 --length 11 --no-contours
shoot kinds-side-by-side oriented_texture.png --view result --compare kinds-side-by-side --other-line segment \
  --op open --angle 30 --length 11 --no-contours
# The granulometry over a region drawn in the viewport (docs/user-guide.md, "The window").
tests/ui/run_with_display.sh "$app" --backend cpu --window-size 1280x800 --op open --angle 30 --length 21 \
  --no-contours --granulometry-region 120,140,220,160 --screenshot "$out/granulometry-region-1280x800.png" \
  "$samples/oriented_texture.png"
# The three tasks (docs/user-guide.md, "Tasks").
shoot task-fingerprint   task_fingerprint_whorl.png --view orientation --length 15 --angles 36 \
  --blend 0.6 --needles 16 --no-contours
shoot task-skew          task_score_skew_2.567.png  --view result --op close --angle 2.6 --length 151 \
  --angles -10:10.25:0.25 --no-contours
shoot task-texture       task_texture_78.6_128.5.png --view orientation --op open --length 76 --angles 180 \
  --no-contours
# The lesson mode (docs/user-guide.md, "A lesson: opening by a line, step by step"), at a
# projector's 1920×1080 and 1280×800.
lesson() {  # lesson NAME SIZE IMAGE [options...]
  local name=$1 size=$2 image=$3
  shift 3
  tests/ui/run_with_display.sh "$app" --backend cpu --window-size "$size" --lesson "$@" \
    --screenshot "$out/$name.png" "$samples/$image"
}
opening=(--op open --angle 30 --length 9 --angles 90 --pin 203,178)
lesson lesson-overview   1920x1080 oriented_texture.png "${opening[@]}"
lesson lesson-step-1     1920x1080 oriented_texture.png "${opening[@]}" --lesson-zoom 44 --lesson-step 1
lesson lesson-step-2     1920x1080 oriented_texture.png "${opening[@]}" --lesson-zoom 44 --lesson-step 2
lesson lesson-step-3     1920x1080 oriented_texture.png "${opening[@]}" --lesson-zoom 44
lesson lesson-difference 1920x1080 oriented_texture.png "${opening[@]}" --lesson-zoom 3 --lesson-difference
lesson lesson-closing-1280x800 1280x800 music_sheet.png --op close --angle 0 --length 8 --angles 90 --pin 300,120 \
  --lesson-zoom 30
# The orientation-field workbench (docs/user-guide.md, "Inspecting a fingerprint's orientation
# field"): the bundled print and a degraded synthetic whorl (seed 10 of tests/tasks/prints,
# written by linescope-task-eval beside the application's build) at 1920×1080 and 1280×800.
field() {  # field NAME SIZE IMAGE [options...]
  local name=$1 size=$2 image=$3
  shift 3
  tests/ui/run_with_display.sh "$app" --backend cpu --window-size "$size" --field-workbench "$@" \
    --screenshot "$out/$name.png" "$image"
}
field field-sample-tensor 1920x1080 "$samples/fingerprint.png" --field-left needles --field-right tensor
taskeval=$(dirname "$app")/../tests/tasks/linescope-task-eval
if [[ -x $taskeval ]]; then
  prints=$(mktemp -d)
  "$taskeval" orientation --count 1 --seed 10 --write "$prints" >/dev/null
  degraded=$prints/print_10_degraded.png
  field field-degraded-quality-1280x800 1280x800 "$degraded" --field-left needles --field-right coherence
  field field-degraded-difference 1920x1080 "$degraded" --field-left needles --field-right difference
  field field-degraded-mask-1280x800 1280x800 "$degraded" --field-left mask --field-right tensor
  rm -r "$prints"
else
  echo "no $taskeval: the degraded print's workbench screenshots are left as they are" >&2
fi
echo "screenshots in $out"
