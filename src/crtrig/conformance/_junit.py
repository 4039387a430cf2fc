"""JUnit XML reports of case runs (``crtrig cases --junit FILE``).

One ``<testsuite>`` per case file, one ``<testcase>`` per case (``classname``
the file's label, ``name`` the case name).  A failed case has a
``<failure message=REASON>`` element, a skipped one ``<skipped
message=REASON>``, a file that could not be loaded one testcase with an
``<error>``; every testcase carries the runner's result line in
``<system-out>``.  The layout is the common one that CI systems read (Jenkins,
GitLab, GitHub actions that publish test results).

Text from case files may hold characters XML 1.0 cannot represent (control
characters, lone surrogates); they are written as ``\\xNN`` / ``\\uNNNN``
escapes, so the report is always well-formed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Everything outside XML 1.0's Char production.  Compiled at first use (5 ms,
# which every ``crtrig cases`` run paid at import, --help included).
_NOT_XML_CHAR_PATTERN = "[^\x09\x0a\x0d\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]"


def xml_text(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold replaced by an escape."""

    def escape(match: re.Match) -> str:
        code = ord(match.group())
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"

    return re.compile(_NOT_XML_CHAR_PATTERN).sub(escape, text)  # re caches the compiled pattern


@dataclass
class TestCase:
    name: str
    status: str  # "PASS", "FAIL", "SKIP" or "ERROR"
    message: str = ""
    output: str = ""
    seconds: float = 0.0


@dataclass
class TestSuite:
    name: str
    cases: list[TestCase] = field(default_factory=list)


def _count(suite_cases: list[TestCase], status: str) -> int:
    return sum(case.status == status for case in suite_cases)


def _counts(element, cases: list[TestCase]) -> None:
    element.set("tests", str(len(cases)))
    element.set("failures", str(_count(cases, "FAIL")))
    element.set("errors", str(_count(cases, "ERROR")))
    element.set("skipped", str(_count(cases, "SKIP")))
    element.set("time", f"{sum(case.seconds for case in cases):.3f}")


def junit_xml(name: str, suites: list[TestSuite]) -> str:
    """The report as an XML document (a str with an XML declaration)."""
    import xml.etree.ElementTree as ElementTree  # here: `crtrig cases --help` loads this module

    root = ElementTree.Element("testsuites", name=xml_text(name))
    _counts(root, [case for suite in suites for case in suite.cases])
    for suite in suites:
        suite_element = ElementTree.SubElement(root, "testsuite", name=xml_text(suite.name))
        _counts(suite_element, suite.cases)
        for case in suite.cases:
            case_element = ElementTree.SubElement(
                suite_element, "testcase", classname=xml_text(suite.name), name=xml_text(case.name),
                time=f"{case.seconds:.3f}")
            tag = {"FAIL": "failure", "SKIP": "skipped", "ERROR": "error"}.get(case.status)
            if tag is not None:
                ElementTree.SubElement(case_element, tag, message=xml_text(case.message))
            if case.output:
                ElementTree.SubElement(case_element, "system-out").text = xml_text(case.output)
    ElementTree.indent(root)
    body = ElementTree.tostring(root, encoding="unicode")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + body + "\n"
