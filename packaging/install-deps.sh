#!/usr/bin/env bash
# Installs LineScope's build and test dependencies on Debian 12 (bookworm) with apt.
# Idempotent: when every package is already installed it touches nothing and needs no
# root; otherwise it runs apt-get update and installs only the missing ones, through
# sudo when not root. Non-interactive (DEBIAN_FRONTEND=noninteractive, -y).
#
#   ./packaging/install-deps.sh            # install what is missing
#   ./packaging/install-deps.sh --list     # print the package list and exit
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config   # C++20 compiler, CMake >= 3.25 with presets, Ninja
  qt6-base-dev libqt6opengl6-dev                 # Qt 6 Core/Gui/Widgets/Test (+ platform plugins), OpenGL/OpenGLWidgets (the viewport)
  qt6-charts-dev                                 # Qt 6 Charts (the angular-spectrum dock)
  libopencv-dev                                  # image files in app/, the OpenCV oracle tests, resources/tools
  zlib1g-dev                                     # PNG text chunks: export recipes (app/io), forged chunks (tests/badinput)
  libimgui-dev                                   # Dear ImGui overlay (render/)
  libgl-dev libegl-dev                           # OpenGL and EGL headers and loaders (render/)
  xvfb xauth libgl1-mesa-dri                     # xvfb-run + Mesa OpenGL: GUI tests without a display
  dpkg-dev                                       # dpkg-shlibdeps: the .deb's dependencies (cpack)
  desktop-file-utils appstream libxml2-utils shared-mime-info  # validators of the desktop files (label packaging)
  groff-base                                     # renders the man pages (label docs)
  clang libclang-rt-14-dev                       # libFuzzer, ASan and UBSan for the fuzz targets (tests/fuzz, CI's fuzz step)
  pybind11-dev python3-dev python3-numpy        # the Python package (python/: import linescope)
  libdlpack-dev                                  # its GPU arrays (DLPack) where CUDA is built
  python3-pytest                                 # its tests (tests/python, label python)
  python3-dask python3-distributed               # linescope.dask (batches and tiles on any Dask scheduler) and its tests on a LocalCluster; the .deb only recommends them
)

if [ "${1:-}" = "--list" ]; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q '^install ok installed$'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

as_root=(env DEBIAN_FRONTEND=noninteractive)
if [ "$(id -u)" -ne 0 ]; then
  if ! command -v sudo >/dev/null 2>&1; then
    echo "install-deps: missing packages (${missing[*]}); run as root or install sudo" >&2
    exit 1
  fi
  as_root=(sudo "${as_root[@]}")
fi

echo "install-deps: installing ${missing[*]}"
"${as_root[@]}" apt-get update
"${as_root[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
