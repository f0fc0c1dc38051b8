#!/usr/bin/env bash
# Builds askrff with AddressSanitizer and UndefinedBehaviorSanitizer into a
# library of its own, runs the whole test suite (fuzz suite included) with the
# sanitizer runtimes preloaded into R, a test file per process and two at a
# time, and fails on any report or failed test.
set -euo pipefail
cd "$(dirname "$0")/.."
R="${R:-R}"
RSCRIPT="${RSCRIPT:-Rscript}"
work="$(pwd)/askrff.sanitize"
rm -rf "$work"
mkdir -p "$work/lib"
# -g1: the line tables a report's stack trace needs, without the rest of
# the debug information (a quarter of the compile time)
flags="-g1 -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
cat > "$work/Makevars" <<MAKEVARS
CXX17FLAGS = $flags
CXXFLAGS = $flags
LDFLAGS = -fsanitize=address,undefined
MAKEVARS
# A copy of the sources, so the sanitized objects never mix with a normal build.
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | (mkdir -p "$work/src-copy" && tar -xf - -C "$work/src-copy")
ASKRFF_KEEP_DEBUG=true R_MAKEVARS_USER="$work/Makevars" "$R" CMD INSTALL --no-test-load -l "$work/lib" "$work/src-copy" > "$work/install.log" 2>&1 ||
  { tail -40 "$work/install.log"; exit 1; }
runtimes="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libubsan.so)"
# One R process per test file, two at a time (the machine's two cores),
# the largest files first so that the last to finish is a short one.
logs="$work/logs"
mkdir -p "$logs"
export LD_PRELOAD_RUNTIMES="$runtimes" SANITIZE_LOGS="$logs" RSCRIPT
run_file() {
  name="$(basename "$1" .R)"
  LD_PRELOAD="$LD_PRELOAD_RUNTIMES" \
    ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:allocator_may_return_null=1" \
    UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
    ASKRFF_SANITIZE=1 NOT_CRAN=true \
    "$RSCRIPT" -e 'library(testthat); library(askrff, lib.loc = Sys.getenv("R_LIBS"))' \
               -e 'r <- as.data.frame(test_file(commandArgs(TRUE)[1], package = "askrff", load_package = "none", reporter = "summary", stop_on_failure = FALSE))' \
               -e 'cat(sprintf("%d passed, %d failed\n", sum(r$passed), sum(r$failed) + sum(r$error)))' \
               -e 'quit(status = as.integer(sum(r$failed) + sum(r$error) > 0))' "$1" > "$SANITIZE_LOGS/$name.log" 2>&1 ||
    echo "$name" >> "$SANITIZE_LOGS/failed"
}
export -f run_file
(cd tests/testthat && ls -S test-*.R | R_LIBS="$work/lib" xargs -P 2 -I{} bash -c 'run_file "$@"' _ {})
log="$work/tests.log"
cat "$logs"/*.log > "$log"
awk '/ passed, [0-9]+ failed$/ { p += $1; f += $3 } END { printf "%d passed, %d failed\n", p, f }' "$log"
if grep -qE "ERROR: AddressSanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior)Sanitizer" "$log"; then
  grep -nE -A30 "ERROR: AddressSanitizer|runtime error:" "$log" | head -80
  echo "sanitize: the sanitizers reported errors (full log: $log)"
  exit 1
fi
if [ -s "$logs/failed" ]; then
  echo "sanitize: tests failed under the sanitizers: $(tr '\n' ' ' < "$logs/failed")(logs in $logs)"
  exit 1
fi
echo "sanitize: no sanitizer reports"
