#!/usr/bin/env bash
# The README's main command: install missing Debian packages, build in Release,
# run the falling-polytopes A/B demo (stock narrowphase vs minkowski, every
# engine built, every GJK variant). Arguments go to falling_polytopes (--help);
# MK_BUILD_DIR picks the build folder. Output (CSV, PNG) goes to ./out by default.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
. "$root/.ci/deps.sh"
mk_install_deps
build=$(mk_build_target "$root" falling_polytopes)
"$build/demos/falling_polytopes" "$@"
