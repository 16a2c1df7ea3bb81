"""The HLSL front end: preprocess, lex, parse, check.

pcpp vendors its own copy of PLY and puts it on ``sys.path`` while it imports;
importing the PLY this package depends on first keeps one PLY in the process,
whichever module is imported first.
"""

import ply.lex  # noqa: F401
import ply.yacc  # noqa: F401
