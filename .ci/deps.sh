#!/usr/bin/env bash
# Installs the Debian packages minkowski builds, tests and benchmarks against,
# only when some are missing (plus any packages named as arguments, e.g. CI's
# clang). Sourced by tests/run.sh, bench/run.sh and .ci/run.
mk_install_deps() {
    local pkgs="build-essential cmake pkg-config check libqhull-dev libccd-dev libfcl-dev libbullet-dev libode-dev gnuplot-nox $*"
    local missing=()
    for p in $pkgs; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "installing: ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >&2
}

# Configures a Release build in $MK_BUILD_DIR (default <root>/build) and builds
# one target; prints the build folder. Used by the README's main commands.
mk_build_target() {
    local root=$1 target=$2
    local build=${MK_BUILD_DIR:-$root/build}
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j"$(nproc)" --target "$target" >&2
    echo "$build"
}
