from crtrig.devtools.compare import *
