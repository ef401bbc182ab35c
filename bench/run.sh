#!/usr/bin/env bash
# The README's main command (until the demos exist): install missing Debian
# packages, build in Release, run the benchmark against libccd, FCL and Bullet.
# Arguments are passed to mk_bench (try --help); MK_BUILD_DIR picks the build folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/.ci/deps.sh"
mk_install_deps
build=${MK_BUILD_DIR:-$root/build}
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$build" -j"$(nproc)" --target mk_bench
"$build/bench/mk_bench" "$@"
