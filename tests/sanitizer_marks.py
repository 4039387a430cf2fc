"""Address-space limits and tools/check_sanitizers.sh.

The script sets CRTRIG_TEST_ASAN=1 when it runs the tests with libasan
preloaded (child processes inherit the preload).  AddressSanitizer reserves
terabytes of address space for its shadow memory as each process starts, so
a child limited by RLIMIT_AS (`ulimit -v`) cannot even start under it
("ReserveShadowMemoryRange failed ... Perhaps you're using ulimit -v").  So
under ASan:

  - children that some tests limit only as a guard (so that a regression fails
    instead of eating memory: `crtrig verify`, the case runner on hostile
    files) run without the limit, and their tests still run, under ASan;
  - the tests whose point is the limit itself (bounded memory, the thread
    pool's address space) skip, with the reason below.

Everywhere else (.ci/run, the wheel tests) both kinds run with their limits.
"""
import os
import sys

import pytest

UNDER_ASAN = os.environ.get("CRTRIG_TEST_ASAN") == "1"

ASAN_REASON = ("CRTRIG_TEST_ASAN=1 (tools/check_sanitizers.sh): AddressSanitizer's shadow memory does not fit "
               "under the RLIMIT_AS limit this test is about; the normal test runs check it")

no_address_space_limit_under_asan = pytest.mark.skipif(UNDER_ASAN, reason=ASAN_REASON)


def address_space_limit(limit_bytes):
    """A preexec_fn for subprocess that limits the child to `limit_bytes` of
    address space, or None where no limit is set: off Linux, and under ASan."""
    if UNDER_ASAN or not sys.platform.startswith("linux"):
        return None

    def limit():  # pragma: no cover - runs in the child
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return limit
