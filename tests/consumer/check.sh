#!/usr/bin/env bash
# Install minkowski from build dir $1 into a scratch prefix, then build and run
# consumers of the core (static, shared) and of each adapter (ODE, float and
# double Bullet) through find_package and through pkg-config; and the same
# consumers with minkowski as a subproject (add_subdirectory) of theirs.
set -euo pipefail
build=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
src=$(cd "$here/../.." && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
run_all() { # folder with the built consumers
    for exe in consumer_static consumer_ode consumer_bullet consumer_bullet64; do
        "$1/$exe"
    done
}

cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$here" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/build" -j"$(nproc)" >/dev/null
run_all "$scratch/build"
pcdir=$(find "$scratch/prefix" -name minkowski.pc -printf '%h\n' | head -n1)
libdir=$(dirname "$pcdir")
LD_LIBRARY_PATH="$libdir" "$scratch/build/consumer_shared"
echo "install check: find_package consumers (core static and shared, ODE, Bullet float and double) passed"

pc() { PKG_CONFIG_PATH="$pcdir" pkg-config "$@"; }
# shellcheck disable=SC2046
cc -std=c11 "$here/consumer.c" -o "$scratch/consumer_pc" $(pc --cflags --libs minkowski)
# shellcheck disable=SC2046
cc -std=c11 "$here/consumer_ode.c" -o "$scratch/consumer_ode_pc" $(pc --cflags --libs minkowski-ode)
# shellcheck disable=SC2046
c++ -std=c++17 "$here/consumer_bullet.cpp" -o "$scratch/consumer_bullet_pc" $(pc --cflags --libs minkowski-bullet)
# shellcheck disable=SC2046
c++ -std=c++17 "$here/consumer_bullet.cpp" -o "$scratch/consumer_bullet64_pc" \
    $(pc --cflags --libs minkowski-bullet64)
for exe in consumer_pc consumer_ode_pc consumer_bullet_pc consumer_bullet64_pc; do
    LD_LIBRARY_PATH="$libdir" "$scratch/$exe"
done
echo "install check: pkg-config consumers (minkowski, minkowski-ode, minkowski-bullet, minkowski-bullet64) passed"

# As a subproject, with the parent's own warning flags on (they apply to its
# targets only; minkowski's -Werror is off there, MK_WERROR).
cmake -S "$here" -B "$scratch/sub" -DMK_SOURCE_DIR="$src" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_C_FLAGS="-Wall -Wextra" -DCMAKE_CXX_FLAGS="-Wall -Wextra" >/dev/null
cmake --build "$scratch/sub" -j"$(nproc)" >/dev/null
run_all "$scratch/sub"
echo "install check: subproject (add_subdirectory) consumers passed"
