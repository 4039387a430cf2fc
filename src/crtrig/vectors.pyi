from crtrig.conformance.vectors import *
