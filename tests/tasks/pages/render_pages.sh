#!/bin/sh
# Renders LineScope's clean skew pages to OUTDIR as 8-bit grey PNGs at 300 dpi:
#   scores/*.ly  with LilyPond 2.24  → score-NAME-pageN.png (A4, 2480×3508)
#   text/*.ps    with Ghostscript    → text-NAME.png (A4 2480×3508; letter.ps 2550×3300)
# Usage: tests/tasks/pages/render_pages.sh OUTDIR
set -eu
if [ $# -ne 1 ]; then echo "usage: $0 OUTDIR" >&2; exit 2; fi
here=$(cd "$(dirname "$0")" && pwd)
out=$1
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for ly in "$here"/scores/*.ly; do
  name=$(basename "$ly" .ly)
  lilypond -s --png -dresolution=300 -dpixmap-format=pnggray -o "$tmp/$name" "$ly"
  # One page gives NAME.png, several give NAME-pageN.png: name them all score-NAME-pageN.png.
  if [ -f "$tmp/$name.png" ]; then
    mv "$tmp/$name.png" "$out/score-$name-page1.png"
  else
    for p in "$tmp/$name"-page*.png; do
      mv "$p" "$out/score-$(basename "$p")"
    done
  fi
done
for ps in "$here"/text/*.ps; do
  name=$(basename "$ps" .ps)
  [ "$name" = prolog ] && continue
  gs -q -dSAFER -dNOPAUSE -dBATCH -sDEVICE=pnggray -r300 -dTextAlphaBits=4 -dGraphicsAlphaBits=4 \
     -o "$out/text-$name.png" "$here/text/prolog.ps" "$ps"
done
ls "$out"
