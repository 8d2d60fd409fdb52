#!/usr/bin/env bash
# Builds the libFuzzer targets (the fuzz preset: clang, build-fuzz/, only these targets) and
# runs each for SECONDS from a seed corpus made here and now (no binary files in git):
#   image_loader   the bad-input generator's images under 64 KiB (tests/badinput)
#   cli_args       one command line per subcommand, and the option names of app/cli as a dictionary
#   json_writers   a few byte strings
# CI runs it with 20 s a target; the long runs of tests/fuzz/README.md use 600. Exit status 1
# when a target finds anything (crash, sanitizer report, leak, hang, uncaught exception,
# out-of-memory); its reproducer is kept in WORKDIR/artifacts.
#   tests/fuzz/run_fuzzers.sh [SECONDS] [WORKDIR]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
seconds=${1:-20}
work=$(realpath -m "${2:-build-fuzz/fuzz-run}")
jobs=${LINESCOPE_JOBS:-2}

cmake --preset fuzz
cmake --build --preset fuzz -j "$jobs"
bin=build-fuzz/tests/fuzz

rm -rf "$work"
mkdir -p "$work/artifacts" "$work/generated" "$work/corpus/image_loader" "$work/corpus/cli_args" \
  "$work/corpus/json_writers"
build-fuzz/tests/badinput/linescope-make-bad-inputs "$work/generated"
find "$work/generated" -type f -size -64k -exec cp {} "$work/corpus/image_loader/" \;
# cli_args: the first byte picks the command (0 open … 4 tophat, 5 sweep, 6 skew, 7 spectrum,
# 8 orientation, 9 contours), NUL bytes separate the arguments.
seed() { printf "$2" >"$work/corpus/cli_args/$1"; }
seed open '\0--length\0003\0--angle=30.5\0--backend\0cpu\0in.png\0out.png'
seed sweep '\5--length\00041\0--angles\0000:180:1\0--op\0close\0in.png\0--out-dir\0dir'
seed skew '\6--refine-range\0002\0--refine-step\0000.01\0--reduction\0004\0--border\0white\0page.png\0--deskew\0o.png'
seed spectrum '\7--peaks\0004\0--min-prominence\0000.1\0--angles\0000:180:2\0tex.png'
seed orientation '\10--block\00016\0--angle-count\00012\0--method\0pixel\0--smoothing\0001\0print.png'
seed contours '\11--threshold\0001e-3\0--mode\0ccomp\0--approx\0simple\0--json\0o.json\0--svg-image\0in.png'
seed help '\5--help'
grep -ohE '"--[a-z-]+"' app/cli/*.cpp | sort -u >"$work/cli.dict"
printf '"nan"\n"inf"\n"-1e400"\n"0x1p3"\n"0:180:0"\n"="\n"--"\n"-h"\n' >>"$work/cli.dict"
for i in 1 2 3; do head -c $((i * 97)) "$work/corpus/image_loader/good.png" >"$work/corpus/json_writers/seed$i"; done

failed=()
run() {  # run NAME OPTIONS...
  local name=$1 status=0
  shift
  echo "== fuzz_$name: $seconds s"
  "$bin/fuzz_$name" -max_total_time="$seconds" -timeout=25 -print_final_stats=1 \
    -artifact_prefix="$work/artifacts/$name-" "$@" "$work/corpus/$name" >"$work/$name.log" 2>&1 || status=$?
  grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|^Done|^stat::(number_of_executed_units|peak_rss_mb|new_units_added)' \
    "$work/$name.log" || true
  if ((status != 0)); then
    failed+=("fuzz_$name")
    echo "fuzz_$name FAILED (exit $status); its report:"
    grep -vE '^#[0-9]+[[:space:]]' "$work/$name.log" | tail -60
  fi
}
# -close_fd_mask: 1 closes the targets' stdout (--help texts); 3 also stderr, for the loader,
# whose readImage sends fd 2 to a temporary file during imread: libFuzzer and the sanitizers
# then report on their own copy of stderr instead of into that file.
run image_loader -max_len=65536 -close_fd_mask=3
run cli_args -max_len=4096 -dict="$work/cli.dict" -close_fd_mask=1
run json_writers -close_fd_mask=1

if ((${#failed[@]})); then
  echo "fuzzing FAILED: ${failed[*]} (reproducers in $work/artifacts: run the target on one to replay it)"
  exit 1
fi
echo "fuzzing passed: 3 targets, $seconds s each"
