"""Sphinx configuration of crtrig's documentation site.

Build it from the repository root (crtrig must be importable: an installed or
editable copy, since autodoc imports the package and its compiled extensions):

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Nothing here needs the network: no intersphinx, no remote images or themes.
tests/test_docs.py builds the site this way with warnings as errors.
"""
import inspect
import os
import subprocess
import sys

from docutils import nodes
from docutils.parsers.rst import Directive, directives

import crtrig

project = "crtrig"
author = "the crtrig authors"
copyright = "the crtrig authors; BSD-3-Clause"
release = crtrig.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "numpydoc",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
templates_path = ["_templates"]

# MyST: ```{directive} blocks, $...$ maths off (the pages write formulas as text),
# heading anchors for links inside and across pages.
myst_enable_extensions = ["deflist"]
myst_heading_anchors = 3

# autodoc / autosummary / numpydoc.  Every public name is listed by hand in
# api.rst (tests/test_docs.py checks that the list is complete); autosummary
# writes one page per name.
autosummary_generate = True
autosummary_imported_members = True
autodoc_default_options = {"members": False}
autodoc_typehints = "none"        # the signatures and numpydoc sections say it
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_xref_param_type = False
numpydoc_validation_checks = set()

html_theme = "alabaster"
html_title = f"crtrig {release}"
html_static_path = ["_static"]
html_theme_options = {
    "description": "Correctly rounded sin/cos and window functions for NumPy",
    "fixed_sidebar": True,
    "page_width": "1180px",
    "sidebar_width": "230px",
}
html_sidebars = {"**": ["about.html", "navigation.html", "relations.html", "searchbox.html"]}
html_show_sourcelink = False


class CrtrigHelp(Directive):
    """``{crtrig-help} COMMAND``: the text of ``crtrig COMMAND --help`` as a literal
    block, produced when the site is built (so the page always matches the parser)."""

    required_arguments = 0
    optional_arguments = 1
    has_content = False
    option_spec = {"width": directives.positive_int}

    def run(self):
        command = self.arguments[0] if self.arguments else None
        env = dict(os.environ, COLUMNS=str(self.options.get("width", 88)), PYTHONIOENCODING="utf-8")
        argv = [sys.executable, "-m", "crtrig"] + ([command] if command else []) + ["--help"]
        run = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
        if run.returncode != 0:
            raise self.error(f"{' '.join(argv[2:])} failed: {run.stderr.strip()}")
        shown = "$ python -m crtrig " + (f"{command} " if command else "") + "--help\n" + run.stdout.rstrip()
        block = nodes.literal_block(shown, shown)
        block["language"] = "text"
        return [block]


def ufunc_signature(app, what, name, obj, options, signature, return_annotation):
    """numpy writes a ufunc's signature into its __doc__ with ``[, signature]``,
    which is no Python signature: give autodoc inspect's (before numpydoc,
    which is told to leave ufuncs alone in setup() below).  ``signature`` is
    None where autodoc found none (the ufunc as data); then nothing may be
    returned (Sphinx 9 would index an empty list)."""
    import numpy as np

    if isinstance(obj, np.ufunc) and signature is not None:
        return (str(inspect.signature(obj)), None)
    return None


def _skip_ufuncs(handler):
    def wrapped(app, what, name, obj, *args):
        import numpy as np

        return None if isinstance(obj, np.ufunc) else handler(app, what, name, obj, *args)

    return wrapped


def setup(app):
    app.add_directive("crtrig-help", CrtrigHelp)
    for listener in list(app.events.listeners["autodoc-process-signature"]):
        if getattr(listener.handler, "__module__", "").startswith("numpydoc"):
            app.disconnect(listener.id)
            app.connect("autodoc-process-signature", _skip_ufuncs(listener.handler), listener.priority)
    app.connect("autodoc-process-signature", ufunc_signature, priority=100)
    return {"parallel_read_safe": True}
