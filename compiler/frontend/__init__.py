"""The HLSL front end: preprocess, lex, parse, check.

pcpp vendors its own copy of PLY and puts it on ``sys.path`` while it imports
``ply.lex`` and ``ply.yacc``; importing the ``ply`` package this package depends on
first keeps one PLY in the process, whichever module is imported first (the
submodules are then found through that package, whatever ``sys.path`` says). Only
the package: its lexer and parser modules cost a few milliseconds that code reading
just the types (a kernel loaded from the cache: ``hlsl_types``) does not pay.
"""

import ply  # noqa: F401
