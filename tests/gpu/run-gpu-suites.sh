#!/usr/bin/env bash
# Runs the GPU suites on the GPU machine from a bundle carried there (see DEVELOPERS.md):
#   here:  ../shared/tools/gpu-bundle.sh .devbundle build/tests/test_cuda_* [build/tests/test_engine_queue …]
#   there: tests/gpu/run-gpu-suites.sh .devbundle/bundle.tar.xz [full|sanitize|all]
# full: every suite in the bundle at full scale; sanitize: compute-sanitizer's memcheck,
# racecheck, initcheck and synccheck on the CUDA suites (test_cuda_*), each on a small case
# set: LINESCOPE_TEST_SCALE (SANITIZE_SCALE, default 0.03) shrinks every loop of random
# cases while keeping every kernel, pixel type, path and edge case, the large-image tests
# are left out, and Qt Test's watchdog is raised (QTEST_FUNCTION_TIMEOUT, ms) because the
# tools slow the kernels down 10–100×. SANITIZE_LIMIT (s, default 300) bounds each run;
# SANITIZE_TOOLS and SANITIZE_SUITES choose among the tools and suites; SANITIZE_JOBS > 1
# runs each function (and data row) as its own process, that many at once.
# Logs go to $OUT; a summary line per run, and the exit status is non-zero if any failed.
set -uo pipefail
bundle=${1:?bundle.tar.xz}
what=${2:-all}
out=${OUT:-./gpu-out}
mkdir -p "$out" /tmp/b
tar xJf "$bundle" -C /tmp/b && . /tmp/b/env.sh || { echo "cannot unpack $bundle"; exit 1; }
nvidia-smi -L
status=0
if [ "$what" = full ] || [ "$what" = all ]; then
  for t in $(cd /tmp/b/bin && ls test_* 2>/dev/null); do
    echo "==== $t"
    start=$SECONDS
    /tmp/b/bin/$t 2>&1 | tee "$out/$t.log" | grep -E "^(FAIL|SKIP|QWARN|Totals)|GPU:|^   Loc" | head -60
    rc=${PIPESTATUS[0]}
    echo "==== $t: exit $rc in $((SECONDS - start)) s"
    [ "$rc" = 0 ] || status=1
  done
fi
if [ "$what" = sanitize ] || [ "$what" = all ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  jobs=${SANITIZE_JOBS:-1}
  # One run: a suite's functions (jobs = 1) or one function:tag (jobs > 1: the runs share
  # the GPU, which racecheck leaves mostly idle while the host replays its shadow memory).
  sanitize_run() {
    local tool=$1 t=$2 cases=$3 log="$out/$1-$2${4:+-$4}.log" start=$SECONDS rc summary done
    QTEST_FUNCTION_TIMEOUT=${QTEST_FUNCTION_TIMEOUT:-3600000} LINESCOPE_TEST_SCALE=${SANITIZE_SCALE:-0.03} \
      LINESCOPE_UNDER_SANITIZER=$tool \
      timeout "${SANITIZE_LIMIT:-300}" "$cs" --tool "$tool" --error-exitcode 3 \
      /tmp/b/bin/$t -v1 $cases > "$log" 2>&1
    rc=$?
    summary=$(grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Totals" "$log" | tail -2 | tr '\n' ' ')
    done=$(grep -E "^PASS|^FAIL|^SKIP" "$log" | wc -l)
    echo "==== $tool $t ${4:-}: exit $rc in $((SECONDS - start)) s, $done functions done: $summary"
    return $rc
  }
  for tool in ${SANITIZE_TOOLS:-memcheck racecheck initcheck synccheck}; do
    pids=()
    for t in ${SANITIZE_SUITES:-$(cd /tmp/b/bin && ls test_cuda_* 2>/dev/null)}; do
      if [ "$jobs" -le 1 ]; then
        fns=$(/tmp/b/bin/$t -functions 2>/dev/null | sed 's/()//' | grep -v -i -E 'large|initTestCase|cleanupTestCase' | tr '\n' ' ')
        sanitize_run "$tool" "$t" "$fns" || status=1
      else
        while read -r _ fn tag; do
          case "$fn" in *[Ll]arge*) continue ;; esac
          sanitize_run "$tool" "$t" "$fn${tag:+:$tag}" "$fn${tag:+-$tag}" &
          pids+=($!)
          while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do sleep 1; done
        done < <(/tmp/b/bin/$t -datatags 2>/dev/null)
      fi
    done
    for p in "${pids[@]}"; do wait "$p" || status=1; done
  done
fi
exit $status
