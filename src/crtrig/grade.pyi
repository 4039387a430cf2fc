from crtrig.conformance.grade import *
