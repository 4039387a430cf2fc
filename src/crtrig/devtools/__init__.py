"""crtrig's developer tools: the independent verification of sin/cos
(:mod:`crtrig.devtools.verify`, ``crtrig verify``), the benchmarks next to the peers
(:mod:`crtrig.devtools.bench`, ``crtrig bench``) and the accuracy comparison with
them (:mod:`crtrig.devtools.compare`, ``crtrig compare``).

The old paths ``crtrig.verify``, ``crtrig.bench`` and ``crtrig.compare`` still
import these very modules."""
