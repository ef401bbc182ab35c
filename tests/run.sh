#!/usr/bin/env bash
# The README's test command: install missing Debian packages, build, run every
# Check suite through ctest. Environment:
#   MK_BUILD_DIR   build folder (default: build/ in the checkout)
#   MK_CMAKE_ARGS  extra CMake arguments (e.g. -DMK_SANITIZE=ON)
#   MK_TEST_SCALE  multiplies the random-case counts of the suites (soaks)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/.ci/deps.sh"
mk_install_deps
build=${MK_BUILD_DIR:-$root/build}
# shellcheck disable=SC2086
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release ${MK_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"
ctest --test-dir "$build" --output-on-failure -j"$(nproc)"
