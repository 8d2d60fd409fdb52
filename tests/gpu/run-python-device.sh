#!/usr/bin/env bash
# The Python package's GPU arrays on the GPU machine (no OpenCV there, so an engine-only
# module: operators, sweeps, spectra, orientation field, skew, contours of binary images and
# GPU arrays; deskew, host thresholds, otsu_threshold and files skip), against PyTorch and
# CuPy of the machine's Python. From the repository root, there:
#   tests/gpu/run-python-device.sh [pytest arguments]
#   SANITIZE=1 tests/gpu/run-python-device.sh -k "torch_tensors_equal and open-paths"   # under compute-sanitizer memcheck
# PYTHON (default /opt/torch/.venv/bin/python) must have numpy, pytest, pybind11 and torch or
# cupy; the DLPack header is taken from CuPy's copy when the system has none. Logs in $OUT.
set -uo pipefail
cd "$(dirname "$0")/../.."
out=${OUT:-./gpu-out}
build=${BUILD:-/tmp/pyb}
python=${PYTHON:-/opt/torch/.venv/bin/python}
mkdir -p "$out"
dlpack=""
if [ ! -f /usr/include/dlpack/dlpack.h ]; then
  header=$("$python" -c "import cupy, os; print(os.path.join(os.path.dirname(cupy.__file__), '_core/include/cupy/_dlpack/dlpack.h'))" 2>/dev/null)
  [ -f "$header" ] || { echo "no dlpack.h (neither libdlpack-dev nor CuPy's)"; exit 1; }
  mkdir -p /tmp/dlpack-include/dlpack && cp "$header" /tmp/dlpack-include/dlpack/ && dlpack=-DLINESCOPE_DLPACK_INCLUDE_DIR=/tmp/dlpack-include
fi
start=$SECONDS
if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DLINESCOPE_ENGINE_ONLY=ON -DLINESCOPE_PYTHON=ON \
         -DLINESCOPE_BUILD_TESTS=OFF -DCMAKE_CUDA_ARCHITECTURES=90 -DPython3_EXECUTABLE="$python" \
         -Dpybind11_DIR="$("$python" -m pybind11 --cmakedir)" $dlpack >"$out/python-build.log" 2>&1 &&
       cmake --build "$build" --target linescope_python -j "$(nproc)" >>"$out/python-build.log" 2>&1; }; then
  echo "BUILD FAILED"; tail -n 40 "$out/python-build.log"; exit 1
fi
echo "built in $((SECONDS - start)) s"
run=("$python" -m pytest -q -p no:cacheprovider tests/python/test_device_arrays.py "$@")
[ "${SANITIZE:-0}" = 1 ] && run=(compute-sanitizer --tool memcheck --error-exitcode 3 "${run[@]}")
PYTHONPATH="$build/python" PYTHONDONTWRITEBYTECODE=1 "${run[@]}" 2>&1 | tee "$out/python-device.log" | tail -n 60
exit "${PIPESTATUS[0]}"
