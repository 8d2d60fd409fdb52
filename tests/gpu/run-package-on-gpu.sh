#!/usr/bin/env bash
# On the GPU machine: the packaged binaries (linescope-cli and linescope taken from the .deb
# built with CUDA) find the NVIDIA driver and use the GPU, give the CPU's pixels, fall back
# to the CPU and say so when the GPU is hidden, and the desktop application draws through
# EGL on the GPU. Then the CUDA suites carried in the same bundle.
#   here:  dpkg-deb -x build/package/linescope_*.deb /tmp/debx
#          QT_PLUGINS="platforms/libqminimalegl.so platforms/libqoffscreen.so" \
#            ../shared/tools/gpu-bundle.sh .devbundle /tmp/debx/usr/bin/linescope-cli \
#            /tmp/debx/usr/bin/linescope build/tests/packaging/linescope-check-screenshot \
#            build/tests/test_cuda_*
#   there: tests/gpu/run-package-on-gpu.sh .devbundle/bundle.tar.xz
# Logs and screenshots go to $OUT.
set -uo pipefail
bundle=${1:?bundle.tar.xz}
out=${OUT:-./gpu-out}
mkdir -p "$out" /tmp/b
tar xJf "$bundle" -C /tmp/b && . /tmp/b/env.sh || { echo "cannot unpack $bundle"; exit 1; }
export __EGL_VENDOR_LIBRARY_FILENAMES=/usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json
nvidia-smi -L
samples=resources/samples
status=0
check() {  # check NAME COMMAND...
  local name=$1
  shift
  if "$@"; then echo "PASS: $name"; else echo "FAIL: $name"; status=1; fi
}

linescope-cli --version | tee "$out/version.txt"
check "--backend auto picks CUDA when the driver is present" grep -q "^backend auto: cuda, " "$out/version.txt"
CUDA_VISIBLE_DEVICES= linescope-cli --version | tee "$out/version-hidden.txt"
check "with the GPU hidden it picks the CPU and says why" grep -q "^backend auto: cpu; cuda is unavailable: " \
  "$out/version-hidden.txt"
linescope-cli skew "$samples/music_sheet.png" >"$out/skew.json" 2>"$out/skew.stderr"
cat "$out/skew.json" "$out/skew.stderr"
check "skew on the GPU without a fallback notice" bash -c "! grep -q 'CPU backend' '$out/skew.stderr'"
for b in cuda cpu; do
  linescope-cli sweep --backend "$b" --length 21 --angles 0:180:3 "$samples/fingerprint.png" --out-dir "$out/sweep-$b" \
    >"$out/sweep-$b.log" 2>&1
done
same=1
for f in "$out"/sweep-cpu/*.png "$out"/sweep-cpu/*.tif*; do
  [ -e "$f" ] || continue
  cmp -s "$f" "$out/sweep-cuda/$(basename "$f")" || { echo "differs: $(basename "$f")"; same=0; }
done
check "the CUDA sweep's images equal the CPU's bit for bit" test "$same" = 1
ls "$out/sweep-cuda"

for platform in minimalegl offscreen; do
  QT_QPA_PLATFORM=$platform timeout 120 linescope --view orientation --length 15 --angles 60 --needles 16 \
    --blend 0.7 --window-size 1600x1000 --screenshot "$out/gpu-window-$platform.png" "$samples/fingerprint.png" \
    >"$out/gui-$platform.log" 2>&1
  echo "gui on $platform: exit $?"
  tail -5 "$out/gui-$platform.log"
  [ -f "$out/gpu-window-$platform.png" ] && linescope-check-screenshot "$out/gpu-window-$platform.png" \
    --min-orientation-colour 0.05
done

for t in test_cuda_classic test_cuda_contours test_cuda_line_morph test_gpu_views test_skew test_sweep; do
  [ -x "/tmp/b/bin/$t" ] || continue
  start=$SECONDS
  "/tmp/b/bin/$t" >"$out/$t.log" 2>&1
  rc=$?
  echo "$t: exit $rc in $((SECONDS - start)) s: $(grep -E '^Totals' "$out/$t.log")"
  [ "$rc" = 0 ] || status=1
done
exit $status
