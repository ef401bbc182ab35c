#!/usr/bin/env bash
# The benchmark: install missing Debian packages, build in Release, run mk_bench
# against libccd, FCL and Bullet. Arguments are passed to mk_bench (try --help);
# MK_BUILD_DIR picks the build folder.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/.ci/deps.sh"
mk_install_deps
build=$(mk_build_target "$root" mk_bench)
"$build/bench/mk_bench" "$@"
