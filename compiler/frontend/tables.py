"""Building the LALR tables once and caching them on disk.

PLY's table generation takes about a second; shc builds the tables the first time
the parser is needed and pickles them into a user cache directory, keyed by a hash
of the grammar's source and the PLY version, so a changed grammar never reads
stale tables and an install directory is never written to. Tests can ask for
fresh tables (``fresh=True``), built with ``optimize=False`` so PLY validates the
grammar and reports conflicts to ``errorlog``.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

import ply
import ply.yacc as yacc

_HERE = Path(__file__).resolve().parent
_GRAMMAR_FILES = ("parser.py", "lexer.py")


def cache_dir() -> Path:
    """Where shc keeps generated files: ``$SHC_CACHE_DIR``, else the user cache directory."""
    configured = os.environ.get("SHC_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "shc"


def grammar_key() -> str:
    digest = hashlib.sha256(ply.__version__.encode())
    for name in _GRAMMAR_FILES:
        digest.update((_HERE / name).read_bytes())
    return digest.hexdigest()[:16]


def build_parser(grammar: object, *, fresh: bool = False, errorlog=None) -> yacc.LRParser:
    """The LALR parser for ``grammar`` (an object with PLY ``p_`` methods).

    With ``fresh``, the tables are built in memory and checked; PLY's warnings,
    including grammar conflicts (it counts them only in debug mode), go to
    ``errorlog`` (default: standard error).
    """
    if fresh:
        return yacc.yacc(module=grammar, optimize=False, debug=True, debuglog=yacc.NullLogger(),
                         write_tables=False, errorlog=errorlog or yacc.PlyLogger(sys.stderr))
    target = cache_dir() / f"parsetab-{grammar_key()}.pickle"
    if target.exists():
        try:
            return yacc.yacc(module=grammar, optimize=True, debug=False, write_tables=False,
                             picklefile=str(target), errorlog=yacc.NullLogger())
        except Exception:  # a corrupt cache entry: rebuild it below
            pass
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, suffix=".tmp")
        os.close(handle)
        os.unlink(temporary)
    except OSError:
        # No writable cache: build in memory every time.
        return yacc.yacc(module=grammar, optimize=True, debug=False, write_tables=False,
                         errorlog=yacc.NullLogger())
    parser = yacc.yacc(module=grammar, optimize=True, debug=False, picklefile=temporary,
                       errorlog=yacc.NullLogger())
    try:
        os.replace(temporary, target)
    except OSError:
        pass
    return parser
