#!/usr/bin/env bash
# Run the thread pool's C driver (tools/threads_driver.c): four application
# threads making split and inline sin/cos calls and window fills at once, each
# result compared with a one-thread result.
#
#   1. Built with -fsanitize=thread (GCC's or clang's ThreadSanitizer) and run:
#      any data race report fails (TSAN_OPTIONS=halt_on_error=1).  The
#      sanitizer enlarges small thread stacks for its own needs, so the
#      workers' stack reported there is larger than the 256 KiB asked for.
#   2. If MinGW-w64 (x86_64-w64-mingw32-gcc) and Wine (wine64) are installed:
#      built for Windows (the _WIN32 branch of src/core/threads.c) and run
#      under Wine.  Skipped with a note otherwise.  (Wine gives every thread at
#      least a 1 MiB stack reservation, so the driver reports 1 MiB there for
#      the 256 KiB the pool asks for; Windows itself keeps the 256 KiB.)
#
# Usage: tools/check_threads.sh        Environment: CC (default gcc)
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CC="${CC:-gcc}"
WORKDIR="$(mktemp -d /tmp/crtrig-threads.XXXXXX)"
FLAGS=(-std=gnu99 -ffp-contract=off -I"$ROOT/include" -I"$ROOT/src/core")
SOURCES=("$ROOT"/src/core/*.c "$ROOT/tools/threads_driver.c")

echo "== ThreadSanitizer ($CC)"
"$CC" "${FLAGS[@]}" -O1 -g -fsanitize=thread -pthread "${SOURCES[@]}" -lm -o "$WORKDIR/threads_tsan"
TSAN_OPTIONS=halt_on_error=1 "$WORKDIR/threads_tsan"

WINE="$(command -v wine64 || command -v /usr/lib/wine/wine64 || command -v wine || true)"
if command -v x86_64-w64-mingw32-gcc > /dev/null && [ -n "$WINE" ]; then
    echo "== Windows build (MinGW-w64) under Wine"
    # -lpthread: the driver's own application threads are POSIX threads (MinGW-w64's
    # winpthreads); the pool itself uses the Windows API (the _WIN32 branch).
    x86_64-w64-mingw32-gcc "${FLAGS[@]}" -O2 -static "${SOURCES[@]}" -lpthread -o "$WORKDIR/threads_win.exe"
    (cd "$WORKDIR" && WINEDEBUG=-all "$WINE" ./threads_win.exe)
else
    echo "== Windows build skipped: needs x86_64-w64-mingw32-gcc and wine64 (Debian: gcc-mingw-w64-x86-64, wine64)"
fi
rm -rf "$WORKDIR"
