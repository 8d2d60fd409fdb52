#!/usr/bin/env bash
# Runs the GPU suites on the GPU machine from a bundle carried there (see DEVELOPERS.md):
#   here:  ../shared/tools/gpu-bundle.sh .devbundle build/tests/test_cuda_*
#   there: tests/gpu/run-gpu-suites.sh .devbundle/bundle.tar.xz [full|sanitize|all]
# full: every suite at full scale; sanitize: compute-sanitizer memcheck and racecheck on
# reduced runs (LINESCOPE_TEST_SCALE, the large-image tests left out). Logs go to $OUT.
set -uo pipefail
bundle=${1:?bundle.tar.xz}
what=${2:-all}
out=${OUT:-./gpu-out}
mkdir -p "$out" /tmp/b
tar xJf "$bundle" -C /tmp/b && . /tmp/b/env.sh || { echo "cannot unpack $bundle"; exit 1; }
nvidia-smi -L
status=0
suites=$(cd /tmp/b/bin && ls test_cuda_* 2>/dev/null)
if [ "$what" = full ] || [ "$what" = all ]; then
  for t in $suites; do
    echo "==== $t"
    start=$SECONDS
    /tmp/b/bin/$t 2>&1 | tee "$out/$t.log" | grep -E "^(PASS|FAIL|SKIP|QWARN|Totals)|GPU:" | head -60
    rc=${PIPESTATUS[0]}
    echo "==== $t: exit $rc in $((SECONDS - start)) s"
    [ "$rc" = 0 ] || status=1
  done
fi
if [ "$what" = sanitize ] || [ "$what" = all ]; then
  cs=$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)
  for tool in memcheck racecheck; do
    for t in $suites; do
      # Every test function except the large-image ones, at a small scale.
      fns=$(/tmp/b/bin/$t -functions 2>/dev/null | sed 's/()//' | grep -v -i -E 'large|initTestCase|cleanupTestCase' | tr '\n' ' ')
      echo "==== $tool $t: $fns"
      start=$SECONDS
      LINESCOPE_TEST_SCALE=${SANITIZE_SCALE:-0.03} "$cs" --tool "$tool" --error-exitcode 3 \
        /tmp/b/bin/$t $fns > "$out/$tool-$t.log" 2>&1
      rc=$?
      grep -E "ERROR SUMMARY|RACECHECK SUMMARY|Totals" "$out/$tool-$t.log" | tail -3
      echo "==== $tool $t: exit $rc in $((SECONDS - start)) s"
      [ "$rc" = 0 ] || status=1
    done
  done
fi
exit $status
