#!/usr/bin/env bash
# Validates LineScope's desktop integration: the desktop entry, the AppStream metainfo, the
# MIME package and the tree they make once installed, with the icons.
#
#   packaging/validate-desktop.sh            checks the source files, staged into a temporary
#                                            tree the way the install rules lay them out
#   packaging/validate-desktop.sh PREFIX     checks an installed tree instead, e.g. the one
#                                            `cmake --install build --prefix DIR` wrote
#
# Exit status: 0 when everything is valid; 1 when a file fails (each failure names the file);
# 77 when a tool is missing (the Debian package that provides it is named), which CTest's
# SKIP_RETURN_CODE turns into a skip.
set -euo pipefail

app_id=io.github.linescope.LineScope
icon_sizes=(16 22 24 32 48 64 128 256 512)
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

# --- tools -----------------------------------------------------------------------------------
missing=()
for tool_package in desktop-file-validate:desktop-file-utils appstreamcli:appstream \
                    xmllint:libxml2-utils update-mime-database:shared-mime-info; do
  command -v "${tool_package%%:*}" >/dev/null || missing+=("${tool_package%%:*} (Debian package ${tool_package#*:})")
done
if ((${#missing[@]})); then
  printf 'validate-desktop: missing %s\n' "${missing[@]}"
  exit 77
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# --- the tree to check -----------------------------------------------------------------------
declare -A source_of=()  # staged file -> its source file, so that failures name the source
if (($# > 0)); then
  share=$(cd "$1" && pwd)/share
else
  # The install map (source -> destination under the prefix); the install rules follow it.
  share=$work/stage/share
  stage() {  # stage SOURCE DESTINATION (under share/)
    mkdir -p "$(dirname "$share/$2")"
    cp "$root/$1" "$share/$2"
    source_of[$share/$2]=$1
  }
  stage "packaging/linux/$app_id.desktop" "applications/$app_id.desktop"
  stage "packaging/linux/$app_id.metainfo.xml" "metainfo/$app_id.metainfo.xml"
  stage "packaging/linux/$app_id-mime.xml" "mime/packages/$app_id.xml"
  stage "resources/icons/linescope.svg" "icons/hicolor/scalable/apps/$app_id.svg"
  for n in "${icon_sizes[@]}"; do
    stage "resources/icons/hicolor/${n}x$n/apps/$app_id.png" "icons/hicolor/${n}x$n/apps/$app_id.png"
  done
fi
desktop=$share/applications/$app_id.desktop
metainfo=$share/metainfo/$app_id.metainfo.xml
mime=$share/mime/packages/$app_id.xml

failures=0
fail() {  # fail FILE MESSAGE...
  local file=$1
  shift
  if [[ -v source_of[$file] ]]; then file=${source_of[$file]}; fi
  echo "FAIL $file: $*"
  failures=$((failures + 1))
}
for f in "$desktop" "$metainfo" "$mime"; do
  [[ -f $f ]] || fail "$f" "missing"
done
((failures == 0)) || exit 1

# --- each file by its own validator ----------------------------------------------------------
# desktop-file-validate exits 0 on warnings; ours must have none (hints, such as two main
# categories, are advice and pass).
echo "== desktop-file-validate $desktop"
out=$(desktop-file-validate "$desktop" 2>&1) && status=0 || status=$?
[[ -z $out ]] || echo "$out"
if ((status != 0)) || grep -qE ': (error|warning): ' <<<"$out"; then
  fail "$desktop" "desktop-file-validate reports errors or warnings"
fi

# --strict fails on every issue above the pedantic level (errors, warnings, infos).
echo "== appstreamcli validate --no-net --pedantic --strict $metainfo"
appstreamcli validate --no-net --pedantic --strict "$metainfo" || fail "$metainfo" "appstreamcli validate failed"

# xmllint checks the XML; update-mime-database, run on a private copy, checks it is a MIME
# package (it reports bad elements but still exits 0) and compiles its types.
echo "== xmllint --noout $mime; update-mime-database on a copy"
xmllint --noout "$mime" || fail "$mime" "not well-formed XML"
mkdir -p "$work/mime/packages"
cp "$mime" "$work/mime/packages/"
# It prints problems on stdout and nothing else there; stderr only says the folder is not searched.
out=$(update-mime-database "$work/mime" 2>/dev/null)
if [[ -n $out ]]; then
  echo "$out"
  fail "$mime" "update-mime-database rejects it"
fi
declared=$(xmllint --xpath '//*[local-name()="mime-type"]/@type' "$mime" 2>/dev/null |
             grep -o 'type="[^"]*"' | sed 's/^type="\(.*\)"$/\1/')
for t in $declared; do
  grep -qx "$t" "$work/mime/types" 2>/dev/null || fail "$mime" "type $t not compiled into the database"
done

# --- the files agree with one another --------------------------------------------------------
echo "== cross-checks"
desktop_key() { sed -n "s/^$1=//p" "$desktop" | head -n1; }
launchable=$(xmllint --xpath 'string(/component/launchable[@type="desktop-id"])' "$metainfo")
[[ $launchable == "$app_id.desktop" ]] ||
  fail "$metainfo" "launchable '$launchable' is not the desktop entry $app_id.desktop"
[[ $(xmllint --xpath 'string(/component/id)' "$metainfo") == "$app_id" ]] || fail "$metainfo" "id is not $app_id"

exec_binary=$(desktop_key Exec | awk '{print $1}')
xmllint --xpath '/component/provides/binary/text()' "$metainfo" | grep -qx "$exec_binary" ||
  fail "$metainfo" "provides no binary '$exec_binary' (the desktop entry's Exec)"

# The media types: the same in both files, and each one known to shared-mime-info or to our
# own package.
desktop_types=$(desktop_key MimeType | tr ';' '\n' | sed '/^$/d' | sort)
metainfo_types=$(xmllint --xpath '/component/provides/mediatype/text()' "$metainfo" | sort)
[[ $desktop_types == "$metainfo_types" ]] ||
  fail "$metainfo" "provided media types differ from $desktop's MimeType:" \
       "$(diff <(echo "$desktop_types") <(echo "$metainfo_types") | sed -n 's/^[<>] //p' | tr '\n' ' ')"
known_types=$(cat /usr/share/mime/types "$work/mime/types" 2>/dev/null | sort -u)
for t in $desktop_types; do
  grep -qx "$t" <<<"$known_types" || fail "$desktop" "MimeType $t is defined neither by shared-mime-info nor by $mime"
done

# The icon the entry names, at every size (a PNG of that size) and scalable.
icon=$(desktop_key Icon)
[[ $icon == "$app_id" ]] || fail "$desktop" "Icon '$icon' is not $app_id"
for n in "${icon_sizes[@]}"; do
  png=$share/icons/hicolor/${n}x$n/apps/$icon.png
  if [[ ! -f $png ]]; then
    fail "$png" "missing"
    continue
  fi
  # The PNG signature, then IHDR: width and height (32-bit big-endian) at bytes 16 and 20,
  # colour type at byte 25, 6 = RGBA (the rounded corners need alpha).
  read -r -a b <<<"$(od -An -tu1 -w26 -N26 "$png")"
  w=$(( (b[16] << 24) | (b[17] << 16) | (b[18] << 8) | b[19] ))
  h=$(( (b[20] << 24) | (b[21] << 16) | (b[22] << 8) | b[23] ))
  [[ ${b[1]} == 80 && ${b[2]} == 78 && ${b[3]} == 71 && $w == "$n" && $h == "$n" ]] ||
    fail "$png" "not a ${n}x$n PNG (${w}x$h)"
  [[ ${b[25]} == 6 ]] || fail "$png" "has no alpha channel (PNG colour type ${b[25]}, not 6)"
done
svg=$share/icons/hicolor/scalable/apps/$icon.svg
if [[ -f $svg ]]; then
  xmllint --noout "$svg" || fail "$svg" "not well-formed XML"
else
  fail "$svg" "missing"
fi

# --- the installed tree as software centres read it -----------------------------------------
echo "== appstreamcli validate-tree --no-net --pedantic --strict ${share%/share}"
appstreamcli validate-tree --no-net --pedantic --strict "${share%/share}" ||
  fail "${share%/share}" "appstreamcli validate-tree failed"

if ((failures)); then
  echo "validate-desktop: $failures failure(s)"
  exit 1
fi
echo "validate-desktop: all valid"
