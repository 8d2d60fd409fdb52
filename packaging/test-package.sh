#!/usr/bin/env bash
# Builds LineScope's Debian package and checks it the way a new user meets it: a fresh
# Debian 12 root (debootstrap --variant=minbase, the host's apt sources) gets the package
# with `apt-get install ./linescope_*.deb`, which must pull every run-time dependency; then,
# inside that root,
#   - lintian finds no error or warning in the package;
#   - the installed files are where the desktop looks for them (launcher, AppStream
#     metadata, icons, man pages, samples);
#   - linescope-cli runs on the installed samples: the skew of the music sheet (made at
#     +1.5°) must come out within 0.1°, and an opening must write its image;
#   - import linescope (when the package has the Python module) gives the CLI's skew there;
#   - linescope --help answers without a display, and without one it refuses to start with a
#     clear message instead of crashing;
#   - the GUI starts under Xvfb, computes the orientation view of the fingerprint and saves a
#     screenshot (linescope --screenshot), which must show the orientation colours;
#   - the root has no libcuda, so the CUDA backend, if the package has it, must fall back to
#     the CPU and say so.
# Any failure stops the script with a non-zero exit and the step's name.
#
#   ./packaging/test-package.sh [--deb FILE] [--root DIR] [--keep] [--out DIR]
#     --deb FILE  check this package instead of building one (cmake --preset release + cpack)
#     --root DIR  the fresh root (default: a new folder under /var/tmp; must not exist)
#     --keep      keep the root afterwards (for a look around: chroot DIR)
#     --out DIR   where the screenshot and the logs go (default build/package/check)
# Needs root (debootstrap, chroot, mount) and Debian's package registry.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
src=$(pwd)

deb="" root="" keep=0 out="$src/build/package/check"
while (($#)); do
  case $1 in
    --deb) deb=$(realpath "$2"); shift 2 ;;
    --root) root=$2; shift 2 ;;
    --keep) keep=1; shift ;;
    --out) out=$(realpath -m "$2"); shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-package: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
[ "$(id -u)" -eq 0 ] || { echo "test-package: needs root (debootstrap, chroot, mount)" >&2; exit 1; }

step() { echo; echo "== test-package: $*"; }
die() { echo "test-package: FAILED: $*" >&2; exit 1; }

# --- the package
if [ -z "$deb" ]; then
  step "build the package (release preset, cpack)"
  ./packaging/install-deps.sh
  jobs=${LINESCOPE_JOBS:-$(nproc)}
  cmake --preset release
  cmake --build --preset release -j "$jobs"  # cpack installs, which builds everything first
  rm -f build/package/linescope_*.deb
  cpack --config build/CPackConfig.cmake -G DEB -B build/package
  deb=$(ls build/package/linescope_*.deb)
  deb=$(realpath "$deb")
fi
[ -f "$deb" ] || die "no package $deb"
checker=${LINESCOPE_CHECKER:-$src/build/tests/packaging/linescope-check-screenshot}
[ -x "$checker" ] || { cmake --preset release >/dev/null && cmake --build --preset release --target linescope-check-screenshot; }
step "package $(basename "$deb")"
dpkg-deb --field "$deb" Package Version Architecture Depends Recommends
dpkg-deb --contents "$deb" | awk '{print "  " $NF}' | grep -v '/$'

step "lintian (Debian's package checks): no errors or warnings"
command -v lintian >/dev/null || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q lintian; }
mkdir -p "$out"
lint_status=0
lintian --fail-on error,warning "$deb" >"$out/lintian.txt" 2>&1 || lint_status=$?
grep -v "running with root privileges" "$out/lintian.txt" || true
((lint_status == 0)) || die "lintian (exit $lint_status)"
echo "  ok lintian"

# --- a fresh Debian 12 root
command -v debootstrap >/dev/null || { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y debootstrap; }
root=${root:-$(mktemp -d /var/tmp/linescope-root.XXXXXX)}
[ -z "$(ls -A "$root" 2>/dev/null)" ] || die "$root is not empty: give a new --root"
mounts=()
cleanup() {
  local m
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  if ((keep)); then echo "test-package: the root is kept in $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT
mirror=$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -1)
mirror=${mirror:-http://deb.debian.org/debian}
step "debootstrap bookworm (minbase) into $root from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.debootstrap.log" 2>&1 ||
  { tail -30 "$root.debootstrap.log"; die "debootstrap"; }
rm -f "$root.debootstrap.log"
for m in proc sys dev dev/pts; do
  mount --bind "/$m" "$root/$m" && mounts+=("$root/$m")
done
# The host's sources (updates and security too): the package was built against them.
if [ -f /etc/apt/sources.list.d/debian.sources ]; then
  cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
  rm -f "$root/etc/apt/sources.list"
fi
# No service starts inside the root (dbus and friends are configured, not run).
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

step "apt-get install ./$(basename "$deb") (and xvfb xauth, to have a display)"
cp "$deb" "$root/tmp/"
in_root apt-get update -q
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "/tmp/$(basename "$deb")" xvfb xauth ||
  die "apt-get install of the package"
in_root dpkg -s linescope | sed -n 's/^\(Version\|Status\): /  \1: /p'

step "installed files"
app_id=io.github.linescope.LineScope
for f in /usr/bin/linescope /usr/bin/linescope-cli \
  /usr/share/applications/$app_id.desktop /usr/share/metainfo/$app_id.metainfo.xml \
  /usr/share/icons/hicolor/48x48/apps/$app_id.png /usr/share/icons/hicolor/scalable/apps/$app_id.svg \
  /usr/share/man/man1/linescope.1.gz /usr/share/man/man1/linescope-cli.1.gz \
  /usr/share/doc/linescope/copyright /usr/share/linescope/samples/music_sheet.png; do
  [ -e "$root$f" ] || die "missing $f"
  echo "  ok $f"
done
in_root sh -c 'command -v ldd >/dev/null && ldd /usr/bin/linescope /usr/bin/linescope-cli | grep "not found"' &&
  die "unresolved shared libraries"
in_root sh -c 'ls /usr/lib/*/libcuda.so* 2>/dev/null' && echo "  (this root has a libcuda)" || echo "  ok no libcuda in the root"

mkdir -p "$out"
samples=/usr/share/linescope/samples
step "linescope-cli on the samples"
in_root linescope-cli --version | tee "$out/version.txt"
grep -q "^backend auto: cpu; cuda is unavailable: " "$out/version.txt" ||
  die "linescope-cli --version should say that --backend auto uses the CPU here (no NVIDIA driver)"
in_root linescope-cli skew --backend auto $samples/music_sheet.png >"$out/skew.json" 2>"$out/skew.stderr" ||
  { cat "$out/skew.stderr"; die "linescope-cli skew"; }
cat "$out/skew.json" "$out/skew.stderr"
angle=$(sed -n 's/.*"angle": *\([-+0-9.eE]*\).*/\1/p' "$out/skew.json" | head -1)
awk -v a="$angle" 'BEGIN { exit !(a != "" && a - 1.5 < 0.1 && 1.5 - a < 0.1) }' ||
  die "the music sheet's skew came out as '$angle', not +1.5 ± 0.1"
echo "  ok skew $angle (made at +1.5)"
if in_root linescope-cli skew --backend cpu $samples/music_sheet.png 2>&1 | grep -qi "cuda"; then
  die "the CPU backend mentions CUDA"
fi
grep -qi "cpu" "$out/skew.stderr" || die "the auto backend did not say it fell back to the CPU (no libcuda here)"
echo "  ok the auto backend fell back to the CPU and said so"
in_root linescope-cli open --angle 30 --length 31 $samples/oriented_texture.png /tmp/open30.png
[ -s "$root/tmp/open30.png" ] || die "linescope-cli open wrote nothing"
echo "  ok open --angle 30 --length 31 wrote /tmp/open30.png"
if in_root linescope-cli skew /tmp/does-not-exist.png 2>"$out/missing.stderr"; then die "a missing file succeeded"; fi
grep -q "linescope-cli: error:" "$out/missing.stderr" || die "no clear message for a missing file"
echo "  ok a missing file: $(cat "$out/missing.stderr")"

step "import linescope (the Python package, when the package has it)"
if dpkg-deb --contents "$deb" | grep -q '/dist-packages/linescope/__init__.py$'; then
  # Its dependencies (python3, python3-numpy) came with the package; the same page's skew
  # must come out as the command line's, to the last digit.
  in_root python3 -c 'import linescope
print(repr(linescope.skew(linescope.imread("/usr/share/linescope/samples/music_sheet.png")).angle))' \
    >"$out/python-skew.txt" 2>&1 || { cat "$out/python-skew.txt"; die "import linescope and its skew in the root"; }
  py_angle=$(cat "$out/python-skew.txt")
  awk -v a="$angle" -v b="$py_angle" 'BEGIN { exit !(a != "" && a + 0 == b + 0) }' ||
    die "linescope.skew gave '$py_angle', linescope-cli skew '$angle'"
  echo "  ok import linescope; linescope.skew equals linescope-cli skew ($py_angle)"
else
  echo "  (no Python package in this .deb: it was built without LINESCOPE_PYTHON)"
fi

step "linescope (the desktop application)"
in_root linescope --version
in_root linescope --help | sed -n 1,5p
status=0
in_root linescope $samples/fingerprint.png 2>"$out/nodisplay.stderr" || status=$?
((status == 1)) && grep -q "no display" "$out/nodisplay.stderr" ||
  die "without a display linescope should exit 1 saying so (exit $status: $(cat "$out/nodisplay.stderr"))"
echo "  ok without a display: $(cat "$out/nodisplay.stderr")"
in_root xvfb-run --auto-servernum --server-args="-screen 0 1920x1080x24" \
  linescope --view orientation --length 15 --angles 60 --needles 16 --blend 0.7 --window-size 1600x1000 \
  --screenshot /tmp/linescope-window.png $samples/fingerprint.png 2>&1 | tee "$out/gui.log" ||
  die "the GUI under Xvfb"
[ -f "$root/tmp/linescope-window.png" ] || die "the GUI wrote no screenshot"
cp "$root/tmp/linescope-window.png" "$out/"
"$checker" "$out/linescope-window.png" --size 1600x1000 --min-orientation-colour 0.05 ||
  die "the screenshot does not show the orientation view"

step "passed: $(basename "$deb") installs on a fresh Debian 12, its CLI and GUI run (screenshot: $out/linescope-window.png)"
