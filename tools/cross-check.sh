#!/usr/bin/env bash
# Compiles the C++ core for the other platforms R users have, without linking
# (-fsyntax-only): ARM64 (Apple silicon, Linux on ARM) with the aarch64 cross
# compiler and Windows with MinGW-w64, as R's toolchains do (-std=gnu++17).
# The core is std, Eigen and Boost only, so it needs no R headers of the
# target; it catches x86 intrinsics and attributes left unguarded, and
# headers or calls one platform's library lacks. Installs Debian's cross
# compilers when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
RSCRIPT="${RSCRIPT:-Rscript}"
compilers="aarch64-linux-gnu-g++ x86_64-w64-mingw32-g++-posix"
packages="g++-aarch64-linux-gnu g++-mingw-w64-x86-64-posix"

missing=""
for compiler in $compilers; do command -v "$compiler" > /dev/null 2>&1 || missing="yes"; done
if [ -n "$missing" ]; then
  if command -v apt-get > /dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "cross-check: installing Debian's cross compilers"
    apt-get update -qq > /dev/null
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $packages > /dev/null
  else
    echo "cross-check: needs $compilers (Debian and Ubuntu: apt-get install $packages)" >&2
    exit 1
  fi
fi

includes="-Isrc"
for package in RcppEigen BH; do
  includes="$includes -I$("$RSCRIPT" -e "cat(system.file('include', package = '$package'))")"
done
# One pool of (compiler, file) jobs on all cores, so neither compiler's
# longest files wait for the other's.
jobs="$(getconf _NPROCESSORS_ONLN 2> /dev/null || echo 2)"
failed="$(
  for compiler in $compilers; do
    find src/core -name '*.cpp' | sed "s|^|$compiler |"
  done | xargs -P "$jobs" -L 1 sh -c '"$0" -std=gnu++17 -fsyntax-only -Wno-ignored-attributes '"$includes"' "$1" || echo "FAILED $0 $1"' |
    grep '^FAILED' || true
)"
if [ -n "$failed" ]; then
  echo "$failed" >&2
  echo "cross-check: the core does not compile for every platform" >&2
  exit 1
fi
echo "cross-check: the core compiles with $compilers"
