#!/usr/bin/env bash
# Builds askrff with AddressSanitizer and UndefinedBehaviorSanitizer into a
# library of its own, runs the whole test suite (fuzz suite included) with the
# sanitizer runtimes preloaded into R, and fails on any report.
set -euo pipefail
cd "$(dirname "$0")/.."
R="${R:-R}"
RSCRIPT="${RSCRIPT:-Rscript}"
work="$(pwd)/askrff.sanitize"
rm -rf "$work"
mkdir -p "$work/lib"
flags="-g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined"
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
log="$work/tests.log"
status=0
LD_PRELOAD="$runtimes" \
  ASAN_OPTIONS="detect_leaks=0:halt_on_error=1:abort_on_error=1:allocator_may_return_null=1" \
  UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1" \
  ASKRFF_SANITIZE=1 NOT_CRAN=true R_LIBS="$work/lib" \
  "$RSCRIPT" -e 'library(testthat); library(askrff, lib.loc = Sys.getenv("R_LIBS"))' \
             -e 'r <- as.data.frame(test_dir("tests/testthat", package = "askrff", load_package = "none", reporter = "summary", stop_on_failure = FALSE))' \
             -e 'cat(sprintf("%d passed, %d failed\n", sum(r$passed), sum(r$failed) + sum(r$error)))' \
             -e 'quit(status = as.integer(sum(r$failed) + sum(r$error) > 0))' > "$log" 2>&1 || status=$?
tail -5 "$log"
if grep -qE "ERROR: AddressSanitizer|runtime error:|SUMMARY: (Address|UndefinedBehavior)Sanitizer" "$log"; then
  grep -nE -A30 "ERROR: AddressSanitizer|runtime error:" "$log" | head -80
  echo "sanitize: the sanitizers reported errors (full log: $log)"
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "sanitize: the tests failed under the sanitizers (exit $status; full log: $log)"
  exit 1
fi
echo "sanitize: no sanitizer reports"
