from crtrig.conformance.cases import *
