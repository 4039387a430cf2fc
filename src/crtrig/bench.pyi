from crtrig.devtools.bench import *
