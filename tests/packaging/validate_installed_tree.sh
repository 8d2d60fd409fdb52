#!/usr/bin/env bash
# Installs the build into a scratch prefix with `cmake --install` (what CPack packs) and checks
# the tree: the desktop files validate there (packaging/validate-desktop.sh PREFIX), every
# man page renders, and the executables and samples are where the desktop entry and the
# Samples menu look for them.
#   validate_installed_tree.sh BUILD_DIR PREFIX
set -euo pipefail
build=$1 prefix=$2
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
rm -rf "$prefix"
cmake --install "$build" --prefix "$prefix" >/dev/null
for f in bin/linescope bin/linescope-cli share/man/man1/linescope.1.gz share/man/man1/linescope-cli.1.gz \
  share/doc/linescope/copyright share/doc/linescope/user-guide.md share/linescope/samples/fingerprint.png; do
  [ -e "$prefix/$f" ] || { echo "FAIL: $f is not installed"; exit 1; }
done
if command -v groff >/dev/null; then
  for page in "$prefix"/share/man/man1/*.1.gz; do
    warnings=$(zcat "$page" | groff -man -ww -z 2>&1)
    [ -z "$warnings" ] || { echo "FAIL: $page: $warnings"; exit 1; }
  done
fi
"$src/packaging/validate-desktop.sh" "$prefix"
echo "installed tree in $prefix: valid"
