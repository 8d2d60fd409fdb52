#!/usr/bin/env bash
# Tuning experiment for the band kernel, on the GPU machine from the repository root: builds
# linescope-gpu-bench once per variant of the kernel's build-time knobs and times the sweeps
# and openings with each, all in one run so that the figures compare.
#   tests/bench/run-band-variants.sh "NAME:FLAGS" ...   e.g. "t512:-DLINESCOPE_BAND_THREADS=512"
# ONLY=skew (any --only list) times other workloads and prints every row of their tables.
set -u
cd "$(dirname "$0")/../.."
OUT=${OUT:-./bench-out}
ONLY=${ONLY:-}
mkdir -p "$OUT"
for v in "$@"; do
  name=${v%%:*}
  flags=${v#*:}
  dir=/tmp/gbv-$name
  { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLINESCOPE_ENGINE_ONLY=ON -DCMAKE_CUDA_ARCHITECTURES=90 \
      "-DCMAKE_CUDA_FLAGS=$flags" > "$OUT/build-$name.log" 2>&1 &&
    cmake --build "$dir" --target linescope-gpu-bench -j "$(nproc)" >> "$OUT/build-$name.log" 2>&1; } ||
    { echo "$name: build failed"; tail -20 "$OUT/build-$name.log"; continue; }
  echo "== $name ($flags)"
  mkdir -p "$OUT/$name"
  timeout 120 "$dir/tests/bench/linescope-gpu-bench" --only "${ONLY:-sweep640,sweep4k,open4096}" --no-check \
    --out "$OUT/$name" > "$OUT/bench-$name.log" 2>&1
  if [ -n "$ONLY" ]; then
    grep -E "^\| " "$OUT/bench-$name.log"
  else
    grep -E "^\| (sweep|open 4096×4096 u8, (30|45)°, λ=(41|501)) .*auto" "$OUT/bench-$name.log" | cut -d'|' -f2,4
  fi
done
