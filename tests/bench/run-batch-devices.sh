#!/usr/bin/env bash
# Batch throughput on the GPU machine (issue 19): skew of the 1056 A4 pages at 300 dpi of the
# skew set (tests/tasks/pages: 16 pages × 22 angles × clean PNG, scan and hard JPEG), on one
# GPU and on every GPU, each run's stage line saying which stage bounds it, and the angles of
# every run checked equal to the one-GPU run's.
#   here:  ../shared/tools/gpu-bundle.sh .devbundle build-gpu/app/linescope-cli \
#              build-gpu/tests/tasks/linescope-task-eval [build-gpu/tests/test_cuda_devices]
#          tar czf .devbundle/pages-clean.tar.gz -C DIR pages-clean   # render_pages.sh's output
#   there: tests/bench/run-batch-devices.sh .devbundle
# JOBS sets batch's --jobs (default: batch's own, one a core less two a GPU); RUNS lists the --devices values to time
# (default "0 all"; "default" gives no --devices, "cpu" times the CPU backend on every core instead). Logs and manifests'
# summaries go to $OUT, named after the run (commas as underscores).
set -uo pipefail
carry=${1:?the carried folder (.devbundle)}
out=${OUT:-./batch-out}
work=${WORK:-/tmp/batchwork}
mkdir -p "$out" /tmp/b "$work"
tar xJf "$carry/bundle.tar.xz" -C /tmp/b && . /tmp/b/env.sh || { echo "cannot unpack the bundle"; exit 1; }
tar xzf "$carry/pages-clean.tar.gz" -C "$work" || { echo "cannot unpack the clean pages"; exit 1; }
{
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  nvidia-smi -L
  echo "CPUs: $(nproc)"
} | tee "$out/machine.txt"

start=$SECONDS
if [ ! -f "$work/set/truth.csv" ]; then
  linescope-task-eval make-skew-set "$work/pages-clean" "$work/set" > "$out/make-set.log" 2>&1 ||
    { echo "make-skew-set failed"; tail -5 "$out/make-set.log"; exit 1; }
fi
pages=$(find "$work/set" -name '*.png' -o -name '*.jpg' | wc -l)
echo "== the set: $pages pages, $(du -sh "$work/set" | cut -f1), made in $((SECONDS - start)) s" | tee -a "$out/machine.txt"

status=0
jobs=(); [ -n "${JOBS:-}" ] && jobs=(--jobs "$JOBS")
for run in ${RUNS:-0 all}; do
  name=${run//,/_}
  rm -rf "$work/out-$name"
  if [ "$run" = cpu ]; then how=(--backend cpu); devices=()
  elif [ "$run" = default ]; then how=(--backend cuda); devices=()
  else how=(--backend cuda); devices=(--devices "$run"); fi
  echo "== batch skew ${devices[*]} ${jobs[*]} ${how[*]}"
  linescope-cli batch --inputs "$work/set" --out-dir "$work/out-$name" "${jobs[@]}" "${devices[@]}" \
    skew "${how[@]}" > "$out/batch-$name.out" 2> "$out/batch-$name.err"
  rc=$?
  cat "$out/batch-$name.out"
  echo "exit $rc"
  [ "$rc" = 0 ] || { status=1; tail -3 "$out/batch-$name.err"; }
  # input → angle, confidence from the manifest, for the comparison below
  sed -n 's/.*"input": *"\([^"]*\)".*"angle": *\([-0-9.e]*\).*"confidence": *\([-0-9.e]*\).*/\1 \2 \3/p' \
    "$work/out-$name/batch-manifest.jsonl" | sort > "$out/angles-$name.txt"
  echo "$(wc -l < "$out/angles-$name.txt") angles in the manifest"
done
first=$(set -- ${RUNS:-0 all}; echo "${1//,/_}")
for run in ${RUNS:-0 all}; do
  name=${run//,/_}
  if cmp -s "$out/angles-$first.txt" "$out/angles-$name.txt"; then echo "== $run: every angle equals $first's"
  else echo "== $run: angles DIFFER from $first's"; status=1; fi
done
exit $status
