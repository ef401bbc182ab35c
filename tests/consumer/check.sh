#!/usr/bin/env bash
# Install minkowski from build dir $1 into a scratch prefix, then build and run
# a consumer through find_package (static and shared) and through pkg-config.
set -euo pipefail
build=$1
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$here" -B "$scratch/build" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/build" >/dev/null
"$scratch/build/consumer_static"
pcdir=$(find "$scratch/prefix" -name minkowski.pc -printf '%h\n' | head -n1)
libdir=$(dirname "$pcdir")
LD_LIBRARY_PATH="$libdir" "$scratch/build/consumer_shared"
# shellcheck disable=SC2046
cc -std=c11 "$here/consumer.c" -o "$scratch/consumer_pc" \
    $(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs minkowski)
LD_LIBRARY_PATH="$libdir" "$scratch/consumer_pc"
echo "install check: find_package (static, shared) and pkg-config consumers passed"
