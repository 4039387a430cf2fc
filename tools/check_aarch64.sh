#!/usr/bin/env bash
# The C core on aarch64, checked from an x86-64 machine:
#
#   1. cross-compiles src/core and tools/aarch64_driver.c for aarch64 with the
#      flags setup.py gives gcc, plus -Wall -Wextra (any warning fails);
#   2. shows that fpenv.c took its FPCR branch (mrs/msr fpcr in the object, and
#      the driver reports "fpcr" when it runs);
#   3. shows which first passes the compiler vectorized for NEON: gcc's
#      -fopt-info-vec report, and the vector (vN.2d, vN.4s...) against scalar
#      floating-point instructions of each pass function in the object; the
#      float32, float16 and bfloat16 sin/cos loops and the window passes' span loops must be vectorized;
#   4. builds the same driver for x86-64, writes its outputs for the baseline
#      target and compares the best target's with them;
#   5. runs the aarch64 driver under qemu-user and compares every output bit
#      for bit with the x86-64 ones (aarch64_driver.c lists what is computed:
#      all float16/bfloat16 sin/cos, 3 million float32 inputs per function,
#      float64 when the core has it, windows of every dtype).
#
# Exits non-zero if a step fails or any output differs.  Needs (Debian/Ubuntu):
#   apt-get install -y gcc-aarch64-linux-gnu qemu-user libc6-dev-arm64-cross
# Environment: CC (x86-64 compiler, default gcc), CC_AARCH64, OBJDUMP_AARCH64,
# QEMU_AARCH64, AARCH64_SYSROOT, WORKDIR (default: a new temporary directory).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/.." && pwd)"
CC="${CC:-gcc}"
CC_AARCH64="${CC_AARCH64:-aarch64-linux-gnu-gcc}"
OBJDUMP_AARCH64="${OBJDUMP_AARCH64:-aarch64-linux-gnu-objdump}"
QEMU_AARCH64="${QEMU_AARCH64:-qemu-aarch64}"
AARCH64_SYSROOT="${AARCH64_SYSROOT:-/usr/aarch64-linux-gnu}"
WORKDIR="${WORKDIR:-$(mktemp -d "${TMPDIR:-/tmp}/crtrig-aarch64.XXXXXX")}"
# setup.py's flags for gcc and clang (BuildExtWithFpFlags), and warnings.
FLAGS=(-O2 -ffp-contract=off -fno-fast-math -std=gnu99)
WARNINGS=(-Wall -Wextra)
INCLUDES=(-I"$ROOT/include" -I"$ROOT/src/core")

START=$SECONDS
step() { printf '\n== %s (%d s)\n' "$1" "$((SECONDS - START))"; }
fail() { printf 'check_aarch64: FAILED: %s\n' "$1" >&2; exit 1; }

for tool in "$CC" "$CC_AARCH64" "$OBJDUMP_AARCH64" "$QEMU_AARCH64"; do
    command -v "$tool" >/dev/null ||
        fail "$tool not found (apt-get install -y gcc-aarch64-linux-gnu qemu-user libc6-dev-arm64-cross)"
done
[ -d "$AARCH64_SYSROOT" ] || fail "no aarch64 sysroot at $AARCH64_SYSROOT (libc6-dev-arm64-cross)"
mkdir -p "$WORKDIR/x86_64" "$WORKDIR/aarch64"
echo "work directory: $WORKDIR"
echo "x86-64:  $("$CC" --version | head -1)"
echo "aarch64: $("$CC_AARCH64" --version | head -1)"
echo "qemu:    $("$QEMU_AARCH64" --version | head -1)"
echo "flags:   ${FLAGS[*]} ${WARNINGS[*]}"

# Compile every core file and the driver for one machine, file by file; any
# warning fails.  $1: x86_64 or aarch64, $2: the compiler.
build() {
    local arch="$1" cc="$2" src obj log warnings=0
    for src in "$ROOT"/src/core/*.c "$ROOT/tools/aarch64_driver.c"; do
        obj="$WORKDIR/$arch/$(basename "${src%.c}").o"
        log="$obj.log"
        "$cc" "${FLAGS[@]}" "${WARNINGS[@]}" "${INCLUDES[@]}" -c "$src" -o "$obj" 2>"$log" ||
            { cat "$log"; fail "$arch: $(basename "$src") does not compile"; }
        if [ -s "$log" ]; then
            cat "$log"
            warnings=$((warnings + $(grep -c 'warning:' "$log" || true)))
        fi
    done
    [ "$warnings" -eq 0 ] || fail "$arch: $warnings compiler warnings (-Wall -Wextra)"
    "$cc" "$WORKDIR/$arch"/*.o -lm -o "$WORKDIR/$arch/driver" || fail "$arch: the driver does not link"
    echo "$arch: $(ls "$ROOT"/src/core/*.c | wc -l) core files and the driver compiled, no warnings"
}

# ---------------------------------------------------------------------------
step "1. aarch64 build"
build aarch64 "$CC_AARCH64"

# ---------------------------------------------------------------------------
step "2. fpenv.c on aarch64: the FPCR branch"
fpcr="$("$OBJDUMP_AARCH64" -d "$WORKDIR/aarch64/fpenv.o" | grep -cE '\b(mrs|msr)\b.*\bfpcr\b' || true)"
fpsr="$("$OBJDUMP_AARCH64" -d "$WORKDIR/aarch64/fpenv.o" | grep -cE '\b(mrs|msr)\b.*\bfpsr\b' || true)"
echo "fpenv.o: $fpcr instructions reading or writing FPCR, $fpsr FPSR"
[ "$fpcr" -gt 0 ] && [ "$fpsr" -gt 0 ] || fail "fpenv.c did not compile its FPCR branch for aarch64"

# ---------------------------------------------------------------------------
step "3. NEON vectorization of the first passes (simd_baseline.c)"
"$CC_AARCH64" "${FLAGS[@]}" "${INCLUDES[@]}" -fopt-info-vec-all -c "$ROOT/src/core/simd_baseline.c" \
    -o /dev/null 2>"$WORKDIR/vec.log" || fail "simd_baseline.c does not compile"
echo "gcc -fopt-info-vec (loops of the pass headers):"
grep -E '_pass\.h:[0-9]+:[0-9]+: (optimized: loop vectorized|missed: (couldn.t vectorize loop|not vectorized: control flow))' \
    "$WORKDIR/vec.log" | sed "s|^$ROOT/||" | sort | uniq -c | sed 's/^/  /'
# Floating-point instructions per pass function: on vector registers (vN.2d,
# vN.4s, ...) or scalar ones (dN, sN, hN).  The sin/cos passes of the narrow formats
# run their loops in static functions (sincos_pass.h: sc32_*), counted by name.
"$OBJDUMP_AARCH64" -d --no-show-raw-insn "$WORKDIR/aarch64/simd_baseline.o" | awk '
    /^[0-9a-f]+ <[^>]+>:$/ { fn = substr($2, 2, length($2) - 3); next }
    (fn ~ /_(pass|run)_(float16|bfloat16|float32|float64)_baseline$/ || fn ~ /^(sc32|wp_span|w64_span)_/) && $2 ~ /^(f[a-z0-9]+|[su]cvtf)$/ {
        if ($3 ~ /^v[0-9]+\./) vector[fn]++; else scalar[fn]++; seen[fn] = 1
    }
    END { for (fn in seen) printf "%s %d %d\n", fn, vector[fn], scalar[fn] }' |
    sort >"$WORKDIR/vector_counts.txt"
printf '  %-44s %8s %8s\n' "function" "vector" "scalar"
while read -r fn vector scalar; do
    printf '  %-44s %8d %8d\n' "$fn" "$vector" "$scalar"
done <"$WORKDIR/vector_counts.txt"
for fn in sc32_sin_clean_float32 sc32_cos_clean_float32 sc32_sin_large_float32 sc32_cos_large_float32 \
          sc32_sin_small_values sc32_cos_large_values \
          wp_span_hann_float32 wp_span_hamming_float32 wp_span_blackman_float32 \
          wp_span_hann_float32_mirror wp_span_hamming_float32_mirror wp_span_blackman_float32_mirror \
          wp_span_hann_bfloat16 wp_span_hamming_bfloat16 wp_span_blackman_bfloat16 \
          wp_span_hann_float16 wp_span_hamming_float16 wp_span_blackman_float16 \
          w64_span_0 w64_span_1 w64_span_2 w64_span_mirror_0 w64_span_mirror_1 w64_span_mirror_2; do
    vector="$(awk -v f="$fn" '$1 == f { print $2 }' "$WORKDIR/vector_counts.txt")"
    [ "${vector:-0}" -gt 0 ] || fail "$fn has no NEON floating-point instructions: not vectorized"
done
for fn in $(awk '$1 ~ /^(wp|w64)_span_/ { print $1 }' "$WORKDIR/vector_counts.txt"); do
    vector="$(awk -v f="$fn" '$1 == f { print $2 }' "$WORKDIR/vector_counts.txt")"
    [ "${vector:-0}" -gt 0 ] || fail "the window span loop $fn has no NEON floating-point instructions"
done
echo "required: the sin/cos loops (float32, and the values loop of float16/bfloat16) and the window"
echo "passes' span loops (every kind and format, the general Hamming ones too, with and without the mirror store) use NEON vector"
echo "instructions"
echo "(the loops over chunks, which call the vectorized loops, stay scalar by design)"
fused="$("$OBJDUMP_AARCH64" -d "$WORKDIR/aarch64/"*.o | grep -cE '\bf(n?madd|n?msub|mla|mls)\b' || true)"
echo "fused multiply-add instructions in the aarch64 core: $fused (contraction is off; only explicit fma() makes them)"

# ---------------------------------------------------------------------------
step "4. x86-64 build and reference outputs"
build x86_64 "$CC"
"$WORKDIR/x86_64/driver" --write "$WORKDIR/x86_64.bits" --target baseline >"$WORKDIR/x86_64.txt" ||
    { cat "$WORKDIR/x86_64.txt"; fail "the x86-64 driver failed"; }
head -1 "$WORKDIR/x86_64.txt"
tail -1 "$WORKDIR/x86_64.txt"
echo "x86-64, the best target against baseline:"
"$WORKDIR/x86_64/driver" --compare "$WORKDIR/x86_64.bits" >"$WORKDIR/x86_64_best.txt" ||
    { grep -v 'identical$' "$WORKDIR/x86_64_best.txt"; fail "x86-64: the best target differs from baseline"; }
head -1 "$WORKDIR/x86_64_best.txt"
tail -1 "$WORKDIR/x86_64_best.txt"

# ---------------------------------------------------------------------------
step "5. aarch64 under qemu-user against x86-64"
status=0
"$QEMU_AARCH64" -L "$AARCH64_SYSROOT" "$WORKDIR/aarch64/driver" --compare "$WORKDIR/x86_64.bits" \
    >"$WORKDIR/aarch64.txt" || status=$?
grep -v 'identical$' "$WORKDIR/aarch64.txt" || true
echo "identical groups: $(grep -c 'identical$' "$WORKDIR/aarch64.txt" || true)"
grep -q 'floating-point environment: fpcr;' "$WORKDIR/aarch64.txt" ||
    fail "the aarch64 driver does not switch the environment through FPCR"
case "$status" in
    0) ;;
    1) fail "aarch64 and x86-64 outputs differ (listed above; $WORKDIR/aarch64.txt)" ;;
    *) fail "the aarch64 driver failed (status $status)" ;;
esac

step "all aarch64 checks passed"
