from crtrig.devtools.verify import *
