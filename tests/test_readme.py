"""Every ```python block of README.md runs as pasted.

Each block runs on its own, in a fresh interpreter (so with its own imports,
and process-wide settings such as crtrig.set_num_threads stay there), as a
reader would paste any one of them.  Blocks that are not Python to run (shell
commands, printed output) are fenced without `python`.  A failure names the
block by its line in README.md, and the traceback points into README.md.
"""
import os
import re
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")

FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


def python_blocks(text):
    """(line of the opening fence, source) of each ```python block of a Markdown
    text; the source keeps its lines' numbering (blank lines before it)."""
    blocks = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        match = FENCE.match(lines[index])
        if not match:
            index += 1
            continue
        indent, fence, language = match.groups()
        start = index
        index += 1
        body = []
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
            index += 1
        if index == len(lines):
            raise ValueError(f"README.md:{start + 1}: the fence opened here is never closed")
        index += 1  # the closing fence
        if language.lower() == "python":
            blocks.append((start + 1, "\n" * (start + 1) + "\n".join(body) + "\n"))
    return blocks


# Compiled under the README's name, so that tracebacks give README.md's lines.
RUNNER = "import sys; exec(compile(sys.stdin.read(), sys.argv[1], 'exec'), {'__name__': '__main__'})"


def run_block(line, source, filename=README, cwd=None):
    """Run one block in a fresh interpreter; an error names README.md and the block's line."""
    run = subprocess.run([sys.executable, "-c", RUNNER, filename], input=source, cwd=cwd,
                         capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or ["(no message)"])[-1]
        raise AssertionError(f"{os.path.basename(filename)}: the python block at line {line} fails: "
                             f"{last}\n{run.stderr}")
    return run.stdout


def _readme_blocks():
    with open(README, encoding="utf-8") as f:
        return python_blocks(f.read())


BLOCKS = _readme_blocks()


def test_readme_has_python_blocks():
    assert len(BLOCKS) >= 5  # sin/cos, windows, introspection, two ONNX blocks


@pytest.mark.parametrize("line,source", BLOCKS, ids=[f"line{line}" for line, _ in BLOCKS])
def test_readme_python_block_runs(line, source, tmp_path):
    run_block(line, source, cwd=tmp_path)  # any file a block writes lands in tmp_path


def test_a_broken_block_fails_with_its_line(tmp_path):
    """The runner above can fail: a block using an undefined name (as the
    Windows block once did with `size`) is an error naming its line."""
    text = ("# Title\n\n```python\nx = 1\n```\n\nText.\n\n"
            "```sh\nnot python\n```\n\n```python\nimport math\n\nmath.sqrt(size)\n```\n")
    blocks = python_blocks(text)
    assert [line for line, _ in blocks] == [3, 13]
    run_block(*blocks[0], cwd=tmp_path)
    with pytest.raises(AssertionError, match=r"README\.md: the python block at line 13 fails: "
                                             r"NameError: name 'size' is not defined") as info:
        run_block(*blocks[1], cwd=tmp_path)
    # The traceback points at the README line of the bad statement.
    assert 'README.md", line 16' in str(info.value)
