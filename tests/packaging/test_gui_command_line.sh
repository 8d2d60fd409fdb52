#!/usr/bin/env bash
# linescope's command line as scripts and the package check use it (see app/gui/launch_options.h).
#   test_gui_command_line.sh LINESCOPE CHECKER SAMPLES_DIR OUTDIR MAN_PAGE
set -uo pipefail
app=$1 checker=$2 samples=$3 out=$4 man_page=$5
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
mkdir -p "$out"
failures=0 passes=0
pass() { echo "PASS: $*"; passes=$((passes + 1)); }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect STATUS PATTERN DESCRIPTION -- COMMAND...: the exit status and a line of its output
expect() {
  local want=$1 pattern=$2 what=$3
  shift 4
  local output status=0
  output=$("$@" 2>&1) || status=$?
  if ((status == want)) && grep -qE -- "$pattern" <<<"$output"; then
    pass "$what"
  else
    fail "$what: exit $status (want $want), output: $(head -c 400 <<<"$output")"
  fi
}
nodisplay=(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM)

expect 0 "--screenshot" "--help answers without a display" -- "${nodisplay[@]}" "$app" --help
expect 0 "^LineScope [0-9]" "--version answers without a display" -- "${nodisplay[@]}" "$app" --version
expect 1 "no display" "without a display it refuses to start, saying why" -- \
  "${nodisplay[@]}" "$app" "$samples/fingerprint.png"
expect 2 "--angle needs a number from 0 to 180" "an angle out of range is a usage mistake" -- \
  "${nodisplay[@]}" "$app" --angle 200
expect 2 "unknown view \"sideways\"" "an unknown view is named" -- "${nodisplay[@]}" "$app" --view sideways
expect 2 "--angles \"0:180:0\"" "a bad angle set is named" -- "${nodisplay[@]}" "$app" --angles 0:180:0
expect 2 "--granulometry-region needs X,Y,W,H" "a region without a width is named" -- \
  "${nodisplay[@]}" "$app" --granulometry-region 10,10,0,5
expect 2 "Unknown option" "an unknown option is a usage mistake" -- "${nodisplay[@]}" "$app" --frobnicate
expect 2 "one image at a time" "two images are a usage mistake" -- "${nodisplay[@]}" "$app" a.png b.png

# The manual page names every option --help lists (roff's \- and \fB..\fR taken out).
options=$("${nodisplay[@]}" "$app" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u)
man_text=$(sed -e 's/\\f[BIRP]//g' -e 's/\\-/-/g' "$man_page")
[ -n "$options" ] || fail "no options in --help"
for option in $options; do
  grep -qE -- "(^|[^a-z-])$option([^a-z-]|$)" <<<"$man_text" || fail "$option is not in $man_page"
done
pass "the manual page names all $(wc -w <<<"$options") options of --help"

# A platform without OpenGL (Qt's offscreen one): a clear message, not a crash in QOpenGLWidget.
# Under X11 the offscreen platform even has an OpenGL context, but no OpenGL widgets.
expect 1 "viewport needs OpenGL 3.3 in a window, but the Qt platform \"offscreen\" cannot show OpenGL widgets" \
  "without OpenGL widgets it exits 1, saying so" -- \
  env QT_QPA_PLATFORM=offscreen "$app" --backend cpu --screenshot "$out/none.png" "$samples/fingerprint.png"
expect 1 "viewport needs OpenGL 3.3 in a window" "the same without an X server" -- \
  "${nodisplay[@]}" QT_QPA_PLATFORM=offscreen "$app" --backend cpu --screenshot "$out/none.png" "$samples/fingerprint.png"

run_gui() { "$here/../ui/run_with_display.sh" "$app" --backend cpu "$@"; }
# A file that cannot be opened: one line with the reason, exit 1 (the file is read in the
# background, so the window was already up).
expect 1 "^linescope: error: cannot open '.*missing.png': no such file" "a missing image with --screenshot exits 1, saying why" -- \
  run_gui --screenshot "$out/none.png" "$out/missing.png"
echo "this is not an image" >"$out/not-an-image.png"
expect 1 "^linescope: error: cannot read '.*not-an-image.png': not an image" "a file that is no image exits 1, saying why" -- \
  run_gui --screenshot "$out/none.png" "$out/not-an-image.png"
# An 8x8 float image (PFM: rows bottom up) with NaN in its top right pixel: refused when it
# is read, with the engine's reason; it used to wait 180 s for views that never came.
{ printf 'Pf\n8 8\n-1.0\n'; for _ in $(seq 63); do printf '\x00\x00\x80\x3f'; done; printf '\x00\x00\xc0\x7f'; } >"$out/nan.pfm"
expect 1 "^linescope: error: cannot use '.*nan.pfm': the float image holds NaN at \(7, 0\)" \
  "a float image with NaN is refused at once, saying why" -- run_gui --screenshot "$out/none.png" "$out/nan.pfm"
rm -f "$out/orientation.png"
expect 0 "screenshot .*orientation.png \(1600x1000\)" "--screenshot saves the drawn window" -- \
  run_gui --view orientation --length 15 --angles 36 --blend 0.7 --needles 16 --window-size 1600x1000 \
  --screenshot "$out/orientation.png" "$samples/fingerprint.png"
expect 0 "strongly coloured" "the screenshot shows the orientation colours" -- \
  "$checker" "$out/orientation.png" --size 1600x1000 --min-orientation-colour 0.05
expect 1 "could not write the screenshot .*no-such-folder/s.png: " "a screenshot that cannot be written says why" -- \
  run_gui --window-size 800x500 --screenshot "$out/no-such-folder/s.png" "$samples/fingerprint.png"
# The same window on the original view has no orientation colours: the checker can fail.
expect 0 "screenshot" "--view original draws the image alone" -- \
  run_gui --view original --window-size 1600x1000 --screenshot "$out/original.png" "$samples/fingerprint.png"
expect 1 "FAIL: the orientation view" "the original view is not taken for the orientation view" -- \
  "$checker" "$out/original.png" --size 1600x1000 --min-orientation-colour 0.05

echo "$passes passed, $failures failed"
((failures == 0))
