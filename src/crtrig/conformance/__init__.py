"""crtrig's conformance tooling: the JSON case files and their runner
(:mod:`crtrig.conformance.cases`, ``crtrig cases``), their generators
(:mod:`crtrig.conformance.vectors`: ``--fill``, ``--new``), the grading of other
implementations (:mod:`crtrig.conformance.grade`, ``crtrig grade``), JUnit
reports, ``crtrig onnx-fold`` and the hard-input lists the generators use.

The old paths ``crtrig.cases``, ``crtrig.vectors`` and ``crtrig.grade`` still
import these very modules."""
