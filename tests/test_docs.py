"""The documentation: README.md and the Sphinx site in docs/.

- Every ```python block of README.md and of every page of docs/ (Markdown
  fences, and reStructuredText ``code-block:: python``) is written to a file
  and run as that file in a fresh interpreter, as a reader who saved it would
  run it: ``__name__`` is ``"__main__"``, so an ``if __name__ ==
  "__main__":`` guard matters, and multiprocessing's spawn (dask's
  LocalCluster) re-imports the file as it would.  Each block runs alone, with
  its own imports; process-wide settings (crtrig.set_num_threads) stay there.
  The file is padded so that its line numbers are the page's, and a failure
  names the page and the line (``README.md:123``), its traceback too.
- The Examples section of every public docstring is run the same way (its
  ``>>>`` and ``...`` lines as a file) and, in another fresh interpreter, as a
  doctest, so that the printed outputs it shows are the real ones.
- The API reference (docs/api.rst) lists every public name, and every public
  function's docstring has Parameters, Returns, Raises and Examples sections.
- The site builds with warnings as errors (``sphinx-build -W --keep-going -b
  html``), offline (docs/conf.py loads no intersphinx inventory), from a copy
  of docs/ so that the tree stays as it is.
- README.md stays short (at most 250 lines).

Blocks that are not Python to run (shell commands, printed output, code for
packages that are not test dependencies, such as torch) are fenced as ``sh``,
``text`` or without a language.
"""
import doctest
import importlib
import inspect
import os
import re
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
README = os.path.join(ROOT, "README.md")
DOCS = os.path.join(ROOT, "docs")
HAVE_SOURCES = os.path.exists(README) and os.path.isdir(DOCS)
needs_sources = pytest.mark.skipif(not HAVE_SOURCES, reason="no README.md and docs/ next to tests/ "
                                                          "(an installed copy of the tests)")

#: The public modules and, for each, where its API reference lives.
PUBLIC_MODULES = ("crtrig", "crtrig.windows", "crtrig.reference", "crtrig.onnx")
#: The docstring sections every public function (and ufunc) must have; classes
#: (crtrig.onnx's operators, which onnx.reference constructs) need all but Returns.
FUNCTION_SECTIONS = ("Parameters", "Returns", "Raises", "Examples")
CLASS_SECTIONS = ("Parameters", "Raises", "Examples")
MAX_README_LINES = 250
BLOCK_TIMEOUT = 300

MD_FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*(\{[\w-]+\})?\s*([\w+-]*)")
RST_CODE = re.compile(r"^(\s*)\.\.\s+(?:code-block|code|sourcecode)::\s*(\w+)\s*$")


def python_blocks(text, name="README.md"):
    """(line of the opening fence, source) of each Python block of a Markdown
    or reStructuredText text (``name`` says which, by its extension); the
    source is padded with blank lines so that its lines keep the text's
    numbering."""
    if name.endswith(".rst"):
        return _rst_blocks(text)
    blocks = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        match = MD_FENCE.match(lines[index])
        if not match or (match[2][0] == "`" and "`" in lines[index][match.end(2):]):
            # (a backtick fence's info string has no backtick: ```` ```python ```` is inline code)
            index += 1
            continue
        indent, fence, directive, language = match.groups()
        start = index
        index += 1
        body = []
        while index < len(lines) and not (lines[index].strip().startswith(fence)
                                          and lines[index].strip().strip(fence[0]) == ""):
            body.append(lines[index][len(indent):] if lines[index].startswith(indent) else lines[index])
            index += 1
        if index == len(lines):
            raise ValueError(f"{name}:{start + 1}: the fence opened here is never closed")
        index += 1  # the closing fence
        is_python = language.lower() == "python" and directive in (None, "{code-block}", "{code}",
                                                                   "{sourcecode}")
        if is_python:
            # MyST directive options (":caption: ...") are not code.
            while body and directive and body[0].startswith(":"):
                body[0] = ""
            blocks.append((start + 1, "\n" * (start + 1) + "\n".join(body) + "\n"))
    return blocks


def _rst_blocks(text):
    blocks = []
    lines = text.splitlines()
    for index, line in enumerate(lines):
        match = RST_CODE.match(line)
        if not match or match.group(2).lower() not in ("python", "python3", "py"):
            continue
        indent = len(match.group(1))
        body_start = index + 1
        while body_start < len(lines) and (lines[body_start].strip() == ""
                                           or lines[body_start].lstrip().startswith(":")):
            body_start += 1
        body = []
        cursor = body_start
        while cursor < len(lines) and (lines[cursor].strip() == ""
                                       or len(lines[cursor]) - len(lines[cursor].lstrip()) > indent):
            body.append(lines[cursor])
            cursor += 1
        code_indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
        source = "\n".join(l[code_indent:] for l in body)
        blocks.append((index + 1, "\n" * body_start + source + "\n"))
    return blocks


# CPython can set an exception while the garbage collector clears a memoryview that
# still has an export (python/cpython#77894, fixed by #123898: in 3.13, and the issue
# thread reports 3.12.7 fixed; 3.11 is not), so older Pythons get the retries: "Exception ignored in tp_clear of: <class 'memoryview'> ... BufferError:
# memoryview has 1 exported buffer", and the error may then surface in whatever code
# runs next.  dask.distributed's pickle-5 buffers meet it now and then under load: the
# dask block of docs/user-guide.md failed so in one CI run (Python 3.11, distributed
# 2024.8.1, the floors venv) and passed in eight reruns on the same venv.  A run that
# fails with exactly that message is run again, at most twice; any other failure, or
# that one three times, fails the test.
GC_MEMORYVIEW_RETRIES = 2 if sys.version_info < (3, 13) else 0


def cpython_memoryview_gc_bug(stderr):
    """Whether a failed run's stderr shows CPython's memoryview tp_clear bug."""
    return ("Exception ignored in tp_clear of: <class 'memoryview'>" in stderr
            and "BufferError: memoryview has 1 exported buffer" in stderr)


def run_file(label, line, source, directory, what="the python block"):
    """Write ``source`` to a file in ``directory`` and run it in a fresh
    interpreter, from that directory.  A failure names ``label:line``, and the
    traceback names ``label`` instead of the file's own path."""
    stem = re.sub(r"[^\w]+", "_", label).strip("_")
    path = os.path.join(directory, f"{stem}_{line}.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(source)
    for _ in range(1 + GC_MEMORYVIEW_RETRIES):
        run = subprocess.run([sys.executable, path], cwd=directory, capture_output=True, text=True,
                             timeout=BLOCK_TIMEOUT, stdin=subprocess.DEVNULL)
        if run.returncode == 0 or not cpython_memoryview_gc_bug(run.stderr):
            break
    if run.returncode != 0:
        stderr = run.stderr.replace(path, label)
        last = (stderr.strip().splitlines() or ["(no message)"])[-1]
        raise AssertionError(f"{label}:{line}: {what} at line {line} fails: {last}\n{stderr}")
    return run.stdout


# ---------------------------------------------------------------------------
# The blocks of README.md and docs/
# ---------------------------------------------------------------------------

def doc_pages():
    """README.md and every .md / .rst page of docs/ (not the build output), as
    paths relative to the repository."""
    if not HAVE_SOURCES:
        return []
    pages = ["README.md"]
    for directory, subdirectories, files in os.walk(DOCS):
        subdirectories[:] = sorted(d for d in subdirectories if d not in ("_build", "generated")
                                   and not d.startswith("."))
        for name in sorted(files):
            if name.endswith((".md", ".rst")):
                pages.append(os.path.relpath(os.path.join(directory, name), ROOT).replace(os.sep, "/"))
    return pages


def page_blocks():
    blocks = []
    for page in doc_pages():
        with open(os.path.join(ROOT, page), encoding="utf-8") as f:
            for line, source in python_blocks(f.read(), page):
                blocks.append((page, line, source))
    return blocks


BLOCKS = page_blocks()


@needs_sources
def test_readme_is_short_and_has_python_blocks():
    with open(README, encoding="utf-8") as f:
        lines = f.read().splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines, more than {MAX_README_LINES}"
    readme_blocks = [b for b in BLOCKS if b[0] == "README.md"]
    assert readme_blocks, "README.md has no python block"


@needs_sources
def test_the_pages_have_python_blocks():
    pages = {page for page, _, _ in BLOCKS}
    for page in ("docs/user-guide.md", "docs/semantics.md", "docs/onnx.md"):
        assert page in pages, f"{page} has no python block"


@pytest.mark.parametrize("page,line,source", BLOCKS, ids=[f"{p}:{l}" for p, l, _ in BLOCKS])
def test_python_block_runs_as_a_file(page, line, source, tmp_path):
    run_file(page, line, source, str(tmp_path))  # any file a block writes lands in tmp_path


def test_a_broken_block_fails_with_its_file_and_line(tmp_path):
    """The runner above can fail: a block using an undefined name is an error
    naming its file and line, and its traceback points at the page's line."""
    text = ("# Title\n\n```python\nx = 1\n```\n\nText.\n\n"
            "```sh\nnot python\n```\n\n```python\nimport math\n\nmath.sqrt(size)\n```\n")
    blocks = python_blocks(text, "page.md")
    assert [line for line, _ in blocks] == [3, 13]
    run_file("page.md", *blocks[0], str(tmp_path))
    with pytest.raises(AssertionError, match=r"page\.md:13: the python block at line 13 fails: "
                                             r"NameError: name 'size' is not defined") as info:
        run_file("page.md", *blocks[1], str(tmp_path))
    assert 'page.md", line 16' in str(info.value)


def test_a_block_runs_as_a_main_file(tmp_path):
    """As a saved file: ``__name__ == "__main__"``, ``__file__`` is set, and
    a spawned child process imports the file without running its guarded part."""
    source = ("import multiprocessing as mp, os\n"
              "def square(x):\n    return x * x\n"
              "if __name__ == '__main__':\n"
              "    assert os.path.isfile(__file__)\n"
              "    with mp.get_context('spawn').Pool(1) as pool:\n"
              "        print(pool.map(square, [3]))\n")
    assert run_file("page.md", 1, source, str(tmp_path)).strip() == "[9]"


def test_rst_code_blocks_are_found():
    text = "Title\n=====\n\n.. code-block:: python\n\n   import math\n   print(math.pi)\n\nAfter.\n"
    (line, source), = python_blocks(text, "page.rst")
    assert line == 4 and source.splitlines()[5] == "import math"


# ---------------------------------------------------------------------------
# The docstrings of the public API
# ---------------------------------------------------------------------------

def _public_objects():
    """(module name, name, object) of every name in the public modules' __all__."""
    found = []
    for module_name in PUBLIC_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ImportError:  # crtrig.onnx without onnx (the test extra has it)
            continue
        for name in module.__all__:
            found.append((module_name, name, getattr(module, name)))
    return found


def _documented_kind(obj):
    import numpy as np

    if isinstance(obj, np.ufunc) or inspect.isfunction(obj):
        return "function"
    if inspect.isclass(obj):
        return "class"
    return None  # data and modules: documented in api.rst itself


def _sections(doc):
    from numpydoc.docscrape import NumpyDocString

    parsed = NumpyDocString(inspect.cleandoc(doc or ""))
    return {key for key in ("Parameters", "Returns", "Raises", "Examples") if parsed[key]}


def _examples(obj):
    """The Examples section of obj's docstring, as numpydoc reads it."""
    from numpydoc.docscrape import NumpyDocString

    return "\n".join(NumpyDocString(inspect.cleandoc(obj.__doc__ or ""))["Examples"])


def _example_location(obj, examples):
    """(file relative to the repository, line) of the first example line, for messages."""
    first = next((l.strip() for l in examples.splitlines() if l.strip().startswith(">>>")), None)
    try:
        path = inspect.getsourcefile(obj)
    except TypeError:
        path = None
    if path is None:  # a ufunc: its docstring is written in _core.pyx
        path = os.path.join(ROOT, "src", "crtrig", "_core.pyx")
    start = 0
    try:
        start = inspect.getsourcelines(obj)[1] - 1
    except (OSError, TypeError):
        pass
    line = 0
    if first and os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
        for number in range(start, len(lines)):
            if lines[number].strip() == first or first[4:] in lines[number]:
                line = number + 1
                break
    shown = os.path.relpath(path, ROOT) if os.path.exists(path) else os.path.basename(path)
    return shown.replace(os.sep, "/"), line


def _example_script(examples):
    """The statements of a doctest text as a script (outputs dropped); a
    statement whose shown output is a traceback must raise that exception."""
    code = []
    for example in doctest.DocTestParser().get_examples(examples):
        source = example.source.rstrip("\n")
        if example.exc_msg is None:
            code.append(source)
            continue
        exception = example.exc_msg.split(":", 1)[0].strip().rsplit(".", 1)[-1]
        body = "\n".join("    " + l for l in source.splitlines())
        code.append(f"try:\n{body}\nexcept {exception}:\n    pass\n"
                    f"else:\n    raise AssertionError('the example did not raise {exception}')")
    return "\n".join(code) + "\n"


PUBLIC = _public_objects()
DOCUMENTED = [(m, n, o) for m, n, o in PUBLIC if _documented_kind(o)]


@needs_sources
def test_the_api_reference_lists_every_public_name():
    with open(os.path.join(DOCS, "api.rst"), encoding="utf-8") as f:
        text = f.read()
    listed, module = set(), None
    in_autosummary = False
    for line in text.splitlines():
        if match := re.match(r"^\.\. (?:py:)?module:: (\S+)", line):
            module = match[1]
        elif match := re.match(r"^\.\. (?:py:)?(?:data|function|class):: (\S+)", line):
            listed.add(f"{module}.{match[1]}")
        elif line.startswith(".. autosummary::"):
            in_autosummary = True
        elif in_autosummary and re.match(r"^   [A-Za-z_]\w*$", line):
            listed.add(f"{module}.{line.strip()}")
        elif in_autosummary and line and not line.startswith(" "):
            in_autosummary = False
    public = {f"{m}.{n}" for m, n, _ in PUBLIC}
    loaded = {m for m, _, _ in PUBLIC}
    listed = {name for name in listed if name.rsplit(".", 1)[0] in loaded}
    # crtrig.windows is a module: its own section (".. module:: crtrig.windows") documents it.
    public.discard("crtrig.windows")
    assert public - listed == set(), f"public names missing from docs/api.rst: {sorted(public - listed)}"
    assert listed - public == set(), f"docs/api.rst lists names that are not public: {sorted(listed - public)}"


@pytest.mark.parametrize("module_name,name,obj", DOCUMENTED, ids=[f"{m}.{n}" for m, n, _ in DOCUMENTED])
def test_public_docstring_has_the_sections(module_name, name, obj):
    required = FUNCTION_SECTIONS if _documented_kind(obj) == "function" else CLASS_SECTIONS
    missing = [s for s in required if s not in _sections(obj.__doc__)]
    assert not missing, f"{module_name}.{name}: the docstring has no {', '.join(missing)} section"


@pytest.mark.parametrize("module_name,name,obj", DOCUMENTED, ids=[f"{m}.{n}" for m, n, _ in DOCUMENTED])
def test_public_docstring_examples_run_as_a_file(module_name, name, obj, tmp_path):
    examples = _examples(obj)
    if not examples.strip():
        pytest.fail(f"{module_name}.{name} has no Examples section")
    path, line = _example_location(obj, examples)
    source = _example_script(examples)
    run_file(path, line, source, str(tmp_path), what=f"the Examples of {module_name}.{name}")


DOCTEST_SCRIPT = """\
import doctest, importlib, inspect, sys
from numpydoc.docscrape import NumpyDocString
module_name, names = sys.argv[1], sys.argv[2:]
module = importlib.import_module(module_name)
failed = []
for name in names:
    obj = getattr(module, name)
    text = "\\n".join(NumpyDocString(inspect.cleandoc(obj.__doc__))["Examples"])
    test = doctest.DocTestParser().get_doctest(text, {}, f"{module_name}.{name}", None, 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    runner.run(test)
    if runner.failures:
        failed.append(name)
print("failed:", " ".join(failed))
sys.exit(1 if failed else 0)
"""


@pytest.mark.parametrize("module_name", PUBLIC_MODULES)
def test_public_docstring_examples_print_what_they_show(module_name, tmp_path):
    """The outputs the Examples sections of a module show are what their code
    prints (doctest, one fresh interpreter per module, whitespace normalized,
    ``...`` matching anything); a failure names each docstring's file and line."""
    names = [n for m, n, _ in DOCUMENTED if m == module_name]
    script = tmp_path / "check_examples.py"
    script.write_text(DOCTEST_SCRIPT, encoding="utf-8")
    run = subprocess.run([sys.executable, str(script), module_name, *names], cwd=tmp_path,
                         capture_output=True, text=True, timeout=BLOCK_TIMEOUT, stdin=subprocess.DEVNULL)
    if run.returncode != 0:
        failed = run.stdout.strip().splitlines()[-1].split()[1:] if run.stdout.strip() else []
        objects = dict((n, o) for m, n, o in DOCUMENTED if m == module_name)
        where = ", ".join("%s:%d (%s.%s)" % (*_example_location(objects[n], _examples(objects[n])), module_name, n)
                          for n in failed if n in objects)
        raise AssertionError(f"the Examples at {where or module_name} print otherwise:\n{run.stdout}{run.stderr}")


# ---------------------------------------------------------------------------
# The site
# ---------------------------------------------------------------------------

@needs_sources
def test_the_site_builds_without_warnings(tmp_path):
    """sphinx-build -W --keep-going -b html, on a copy of docs/ (autosummary
    writes its pages into the source directory) next to a copy of
    CHANGELOG.md, which the changelog page includes."""
    pytest.importorskip("sphinx")
    source = tmp_path / "docs"
    shutil.copytree(DOCS, source, ignore=shutil.ignore_patterns("_build", "generated"))
    shutil.copy(os.path.join(ROOT, "CHANGELOG.md"), tmp_path / "CHANGELOG.md")
    out = tmp_path / "html"
    run = subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-b", "html", "-q",
                          str(source), str(out)], cwd=tmp_path, capture_output=True, text=True,
                         timeout=600, stdin=subprocess.DEVNULL)
    assert run.returncode == 0, f"sphinx-build failed:\n{run.stdout}\n{run.stderr}"
    for page in ("index", "installation", "user-guide", "semantics", "exactness", "verification",
                 "conformance", "onnx", "speed", "development", "architecture", "changelog", "api", "cli"):
        assert (out / f"{page}.html").exists(), f"{page}.html was not built"
    for _, name, obj in DOCUMENTED:
        assert any(out.glob(f"generated/*.{name}.html")), f"no API page for {name}"
    with open(out / "api.html", encoding="utf-8") as f:
        api = f.read()
    assert "crtrig.windows.general_hamming" in api and "fold_windows" in api


@needs_sources
def test_the_docs_need_no_network():
    """No intersphinx (it would fetch inventories) and no other extension or
    setting that loads from the network at build time: docs/conf.py names no
    URL outside its docstring."""
    import ast

    with open(os.path.join(DOCS, "conf.py"), encoding="utf-8") as f:
        conf = f.read()
    tree = ast.parse(conf)
    extensions = next(ast.literal_eval(node.value) for node in tree.body if isinstance(node, ast.Assign)
                      and any(getattr(target, "id", "") == "extensions" for target in node.targets))
    assert not [e for e in extensions if "intersphinx" in e or "linkcheck" in e], extensions
    code = conf.replace(ast.get_docstring(tree) or "", "")
    assert "intersphinx_mapping" not in code and "http://" not in code and "https://" not in code


def test_memoryview_gc_bug_is_recognized_only_by_its_message():
    """run_file runs a block again only for CPython's memoryview tp_clear bug."""
    bug = ("Exception ignored in tp_clear of: <class 'memoryview'>\n"
           "BufferError: memoryview has 1 exported buffer\n")
    assert cpython_memoryview_gc_bug("Traceback (most recent call last):\n" + bug)
    assert not cpython_memoryview_gc_bug("BufferError: memoryview has 1 exported buffer\n")
    assert not cpython_memoryview_gc_bug("RuntimeError: Nanny failed to start worker process\n")
