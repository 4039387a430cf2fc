#!/usr/bin/env bash
# Build crtrig with AddressSanitizer and UndefinedBehaviorSanitizer and run the
# fast tests and the case runner under them (README, "Development").
#
#   1. `setup.py build` with -fsanitize=address,undefined -fno-sanitize-recover=all
#      into a separate directory (WORKDIR/lib): the developer's in-place build
#      (src/crtrig/*.so) and build/ are left alone.
#   2. `python -m pytest tests -m "not slow"` and `python -m crtrig cases --strict`
#      against that build (PYTHONPATH; the script checks where crtrig was imported
#      from), with libasan preloaded (the interpreter itself is not instrumented)
#      and the C++ runtime, libstdc++.so.6, preloaded right after it,
#      ASAN_OPTIONS=halt_on_error=1:detect_leaks=0 and UBSAN_OPTIONS=halt_on_error=1.
#      Why libstdc++ too: ASan looks up the real __cxa_throw once, when it starts;
#      if libstdc++ is not loaded by then (python3 does not need it; onnxruntime's
#      and matplotlib's extensions bring it in later), the first C++ exception
#      thrown anywhere in the process aborts in ASan's interceptor ("CHECK
#      failed: ... real___cxa_throw"): as shipped, both matplotlib's ft2font and
#      onnxruntime's pybind11 module met it, each an exception that they throw
#      and catch in ordinary use. Preloaded, it is the same libstdc++.so.6 the
#      extensions would load (found by its soname, the way they find it), and
#      every test runs in the one sanitized pass, C++ extensions included.
#      CRTRIG_TEST_ASAN=1 is set too (tests/sanitizer_marks.py): ASan's shadow
#      memory alone is larger than any address-space limit (RLIMIT_AS), so a
#      child process so limited cannot start.  Children that tests limit only
#      as a guard (`crtrig verify`, the case runner on hostile files) run
#      without the limit, their tests still checked here; the tests whose point
#      is the limit (bounded memory of a huge case, the thread pool's address
#      space) skip, with their reason listed by pytest -rs.  The normal test
#      runs (.ci/run) run all of them with their limits.
#      allocator_may_return_null=1 too: a test asks numpy for 64 PiB and expects its
#      MemoryError, which ASan would otherwise turn into an abort.
#      Reports go to WORKDIR/reports, so that one in a child process (the
#      CRTRIG_TARGET tests start some) counts too.
#   3. Exit status 0 only if both runs pass and no sanitizer error report was
#      written (warnings are shown but do not count).
#
# Usage: tools/check_sanitizers.sh [extra pytest arguments, e.g. -k overlap]
# Environment: PYTHON (default: python) must have the test dependencies, Cython,
#   setuptools and numpy installed; CC (default gcc); WORKDIR (default: a new
#   temporary directory).  Linux with GCC's libasan (clang's runtime works too
#   when CC=clang and it prints its libasan path).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python}"
export CC="${CC:-gcc}"
WORKDIR="${WORKDIR:-$(mktemp -d /tmp/crtrig-sanitizers.XXXXXX)}"
LIB="$WORKDIR/lib"
REPORTS="$WORKDIR/reports"
mkdir -p "$WORKDIR" "$REPORTS"
rm -f "$REPORTS"/*

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

SANITIZE="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer -g"
step "build with $SANITIZE into $LIB"
(
    cd "$ROOT"
    CFLAGS="$SANITIZE" LDFLAGS="-fsanitize=address,undefined" \
        "$PYTHON" setup.py -q build --force --build-base "$WORKDIR/build" --build-lib "$LIB" \
        > "$WORKDIR/build.log" 2>&1
) || { tail -40 "$WORKDIR/build.log"; fail "the sanitizer build failed (log: $WORKDIR/build.log)"; }
ls "$LIB"/crtrig/_core*.so > /dev/null || fail "no _core extension in $LIB/crtrig"
# -g in CFLAGS keeps the debug info setup.py strips by default (symbolized reports).
for so in "$LIB"/crtrig/_core*.so "$LIB"/crtrig/_verify*.so; do
    sections="$(readelf -S "$so")"
    grep -q '\.debug_info' <<<"$sections" || fail "$so has no debug info (setup.py stripped it)"
done
grep -q "'debug_info': '-g in CFLAGS'" "$LIB/crtrig/_build_info.py" \
    || fail "_build_info.py does not say that debug info was kept"

LIBASAN="$("$CC" -print-file-name=libasan.so)"
[ -f "$LIBASAN" ] || fail "$CC does not know where libasan.so is ($LIBASAN)"
# By soname: the dynamic loader finds the libstdc++ that C++ extensions would load.
LIBSTDCXX="libstdc++.so.6"

run_sanitized() {
    # from WORKDIR, so that no source tree is on sys.path; PYTHONPATH puts the build first
    (cd "$WORKDIR" && env PYTHONPATH="$LIB" LD_PRELOAD="$LIBASAN:$LIBSTDCXX" CRTRIG_TEST_ASAN=1 \
        ASAN_OPTIONS="halt_on_error=1:detect_leaks=0:allocator_may_return_null=1:log_path=$REPORTS/asan" \
        UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$REPORTS/ubsan" \
        "$PYTHON" "$@")
}

# Every file in REPORTS is shown; an error report (ASan's "ERROR:", UBSan's "runtime
# error:", or a "SUMMARY:" line) fails the run.  A warning alone does not: ASan warns
# when it returns NULL for the 64 PiB request above.
check_reports() {
    if compgen -G "$REPORTS/*" > /dev/null; then
        cat "$REPORTS"/* >&2
        if grep -lE "ERROR: (Address|UndefinedBehavior)Sanitizer|runtime error:|^SUMMARY: " "$REPORTS"/* >&2; then
            fail "sanitizer reports in $REPORTS ($1)"
        fi
        mkdir -p "$WORKDIR/warnings"
        mv "$REPORTS"/* "$WORKDIR/warnings/"  # shown once
    fi
}

step "where crtrig comes from"
where="$(run_sanitized -c 'import crtrig, crtrig._core as c; print(crtrig.__file__, c.SIMD_TARGET)')"
echo "$where"
case "$where" in
    "$LIB"/*) ;;
    *) fail "crtrig was not imported from the sanitizer build in $LIB" ;;
esac
# Both preloads took (the loader only warns when one cannot be found).
preloaded="$(run_sanitized -c '
maps = {line.split()[-1] for line in open("/proc/self/maps") if len(line.split()) > 5}
print(" ".join(sorted(p for p in maps if "/libasan.so" in p or "/libstdc++.so" in p)))')"
echo "preloaded: $preloaded"
case "$preloaded" in
    *libasan.so*) ;;
    *) fail "libasan is not loaded (LD_PRELOAD=$LIBASAN:$LIBSTDCXX)" ;;
esac
case "$preloaded" in
    *libstdc++.so*) ;;
    *) fail "$LIBSTDCXX is not loaded (LD_PRELOAD=$LIBASAN:$LIBSTDCXX): is it installed?" ;;
esac
echo "CRTRIG_TEST_ASAN=1: children that tests limit with RLIMIT_AS only as a guard run without the limit;"
echo "  the tests whose point is the limit skip (ASan's shadow memory does not fit under it; reasons below)"

status=0
step "pytest -m 'not slow' $*"
run_sanitized -m pytest "$ROOT/tests" -m "not slow" -q -rs -p no:cacheprovider "$@" || status=$?
check_reports "pytest"
[ "$status" -eq 0 ] || fail "pytest failed under the sanitizers (status $status)"

step "python -m crtrig cases --strict"
run_sanitized -m crtrig cases --strict > "$WORKDIR/cases.log" 2>&1 || status=$?
tail -1 "$WORKDIR/cases.log"
check_reports "cases"
[ "$status" -eq 0 ] || { tail -20 "$WORKDIR/cases.log"; fail "the case runner failed (status $status)"; }

step "clean: no AddressSanitizer or UndefinedBehaviorSanitizer report"
