#!/usr/bin/env bash
# The GPU benchmark in one command, on the GPU machine, from the repository root:
#   tests/bench/run-gpu-bench.sh [--quick] [more linescope-gpu-bench arguments]
#   PEER_ONLY=contours tests/bench/run-gpu-bench.sh --only contours   # the contours alone
# Builds linescope-gpu-bench in an engine-only configuration (no Qt, no OpenCV), runs it
# (engine, NPP, copy floor), then the OpenCV peer (cv2_peer.py), and ends with the combined
# table. Everything lands in $OUT (default ./bench-out): gpu-bench.{md,csv}, gpu-bench-summary.csv,
# cv2-peer.{md,csv}, combined.md, and the logs. Budget: well under 8 minutes.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-./bench-out}
mkdir -p "$OUT"
BUILD=${BUILD:-/tmp/gb}
INPUTS=${INPUTS:-/tmp/gb-inputs}
PEER_ONLY=${PEER_ONLY:-morph,contours}  # cv2_peer.py --only
QUICK=()
for a in "$@"; do [ "$a" = "--quick" ] && QUICK=(--quick); done
start=$(date +%s)

{
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  nvidia-smi -L 2>&1 || echo "nvidia-smi not available"
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw,utilization.gpu \
    --format=csv 2>&1 || true
  echo "CPUs: $(nproc)"
} | tee "$OUT/machine.txt"

echo "== configure + build (engine only) into $BUILD"
if ! { timeout 150 cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLINESCOPE_ENGINE_ONLY=ON \
         -DCMAKE_CUDA_ARCHITECTURES=90 >"$OUT/build.log" 2>&1 &&
       timeout 150 cmake --build "$BUILD" --target linescope-gpu-bench -j "$(nproc)" >>"$OUT/build.log" 2>&1; }; then
  echo "BUILD FAILED (last lines of $OUT/build.log):"
  tail -n 40 "$OUT/build.log"
  bench_status=build-failed
else
  echo "built in $(( $(date +%s) - start )) s"
  echo "== linescope-gpu-bench $*"
  # The bench's stdout is its tables; its inputs go to $INPUTS (outside $OUT: about 100 MB
  # with the contours images) for cv2.
  timeout 180 "$BUILD/tests/bench/linescope-gpu-bench" --out "$OUT" --dump-inputs "$INPUTS" "$@" 2>&1 |
    tee "$OUT/gpu-bench.log"
  bench_status=${PIPESTATUS[0]}
  echo "linescope-gpu-bench exit status: $bench_status (1: a check failed or a section stopped; 124: timed out)"
fi

echo "== OpenCV peer"
if python3 -c "import cv2, numpy" 2>/dev/null; then
  timeout 180 python3 tests/bench/cv2_peer.py --out "$OUT" --inputs "$INPUTS" --only "$PEER_ONLY" "${QUICK[@]}" 2>&1 |
    tee "$OUT/cv2-peer.log"
else
  echo "cv2/numpy not importable: OpenCV peer skipped" | tee "$OUT/cv2-peer.log"
fi

echo
python3 tests/bench/cv2_peer.py --combine "$OUT/gpu-bench-summary.csv" "$OUT/cv2-peer.csv" --out "$OUT/combined.md"
echo "bench status: $bench_status; total $(( $(date +%s) - start )) s; files in $OUT"
