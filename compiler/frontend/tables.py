"""Building the LALR tables once and caching them on disk.

PLY's table generation takes about a second; shc builds the tables the first time
the parser is needed and pickles them into a user cache directory, keyed by a hash
of the grammar (its rules, tokens and precedence) and the PLY version, so a changed
grammar never reads stale tables and an install directory is never written to.
Tests can ask for fresh tables (``fresh=True``), built with ``optimize=False`` so
PLY validates the grammar and reports conflicts to ``errorlog``.
"""

from __future__ import annotations

import hashlib
import os
import sys
import tempfile
from pathlib import Path

import ply
import ply.yacc as yacc


def cache_dir() -> Path:
    """Where shc keeps generated files: ``$SHC_CACHE_DIR``, else the user cache directory."""
    configured = os.environ.get("SHC_CACHE_DIR")
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "shc"


def grammar_key(grammar: object) -> str:
    """A hash of everything the tables depend on, taken from the grammar object itself.

    Hashing the loaded grammar rather than the source files means a process
    that imported an older parser while the files changed on disk can never
    store its tables under the new grammar's name. ``dir`` lists inherited
    methods too, so a grammar spread over mixin classes in several modules is
    hashed whole; the rules are taken in PLY's order (line, module, name).
    """
    rules = []
    for name in dir(grammar):
        if name.startswith("p_") and name != "p_error":
            method = getattr(grammar, name)
            rules.append((method.__code__.co_firstlineno, method.__module__, name, method.__doc__ or ""))
    rules.sort()
    digest = hashlib.sha256(ply.__version__.encode())
    for part in (repr(grammar.tokens), repr(grammar.precedence), grammar.start,
                 repr([(name, doc) for _, _, name, doc in rules])):
        digest.update(part.encode())
    return digest.hexdigest()[:16]


def build_parser(grammar: object, *, fresh: bool = False, errorlog=None) -> yacc.LRParser:
    """The LALR parser for ``grammar`` (an object with PLY ``p_`` methods).

    With ``fresh``, the tables are built in memory and checked; PLY's warnings,
    including grammar conflicts (it counts them only in debug mode), go to
    ``errorlog`` (default: standard error).
    """
    if fresh:
        return yacc.yacc(module=grammar, optimize=False, debug=True, debuglog=yacc.NullLogger(),
                         write_tables=False, errorlog=errorlog or _WarningsOnly(sys.stderr))
    target = cache_dir() / f"parsetab-{grammar_key(grammar)}.pickle"
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


class _WarningsOnly(yacc.PlyLogger):
    """PLY's logger without its progress chatter ("Generating LALR tables")."""

    def debug(self, msg, *args, **kwargs):
        pass

    info = debug

