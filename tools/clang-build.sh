#!/usr/bin/env bash
# Builds askrff with clang and libc++, the toolchain of macOS (and of CRAN's
# macOS builders), into a library of its own, loads it and runs
# tools/clang-smoke.R: features, Gram matrices, a ridge fit and a GLM fit,
# against values computed in R. A libc++-only failure (a C++17 special
# function that libc++ lacks, a header libstdc++ includes implicitly) fails here.
# Installs Debian's clang and libc++ when they are missing.
set -euo pipefail
cd "$(dirname "$0")/.."
R="${R:-R}"
RSCRIPT="${RSCRIPT:-Rscript}"
work="$(pwd)/askrff.clang"

compiler() {
  for candidate in clang++ $(compgen -c clang++- | grep -E '^clang\+\+-[0-9]+$' | sort -t- -k2 -n -r); do
    if command -v "$candidate" > /dev/null 2>&1 &&
       echo '#include <vector>
int main() { std::vector<int> v(1); return v[0]; }' | "$candidate" -std=c++17 -stdlib=libc++ -x c++ - -o /dev/null > /dev/null 2>&1; then
      echo "$candidate"
      return 0
    fi
  done
  return 1
}

if ! CLANGXX="$(compiler)"; then
  if command -v apt-get > /dev/null 2>&1 && [ "$(id -u)" = 0 ]; then
    echo "clang-build: installing Debian's clang and libc++"
    apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends clang libc++-dev libc++abi-dev > /dev/null
  fi
  CLANGXX="$(compiler)" || {
    echo "clang-build: needs clang++ with libc++ (Debian and Ubuntu: apt-get install clang libc++-dev libc++abi-dev)" >&2
    exit 1
  }
fi
CLANG="${CLANGXX/clang++/clang}"

rm -rf "$work"
mkdir -p "$work/lib"
# -O2 as on CRAN's macOS builders; every compile and link through clang and libc++.
cat > "$work/Makevars" <<MAKEVARS
CC = $CLANG
CXX17 = $CLANGXX -stdlib=libc++
CXX17FLAGS = -O2 -Wall
SHLIB_CXX17LD = $CLANGXX -stdlib=libc++
MAKEVARS
# A copy of the sources, so the clang objects never mix with a normal build.
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | (mkdir -p "$work/src-copy" && tar -xf - -C "$work/src-copy")
R_MAKEVARS_USER="$work/Makevars" "$R" CMD INSTALL --no-test-load -l "$work/lib" "$work/src-copy" > "$work/install.log" 2>&1 ||
  { tail -40 "$work/install.log"; echo "clang-build: the build with $CLANGXX -stdlib=libc++ failed (full log: $work/install.log)"; exit 1; }
# The library must really be libc++'s, not libstdc++'s (ldd: Linux).
if command -v ldd > /dev/null 2>&1 && ! ldd "$work/lib/askrff/libs/askrff.so" | grep -q "libc++"; then
  echo "clang-build: askrff.so is not linked against libc++" >&2
  exit 1
fi
R_LIBS="$work/lib" "$RSCRIPT" tools/clang-smoke.R
echo "clang-build: $CLANGXX -stdlib=libc++ builds askrff, and the smoke test passes"
