"""The compilation pipeline, stage by stage, in one place.

Each stage takes the previous stage's result and the shared ``Diagnostics``;
a stage that reported errors stops the pipeline at its end (``check()``), so
the user sees every error of the first failing stage.

    preprocess  pcpp with a source map (frontend/preprocess.py)
    parse       PLY LALR grammar into the AST (frontend/parser.py)
    check       scopes, types, overloads (frontend/sema.py, expressions.py),
                entry-point rules (frontend/entry.py)

Every failure the user can cause leaves as ``CompileError`` with diagnostics;
anything else is an internal compiler error.
"""

from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

from .diagnostics import CompileError, Coord, Diagnostics
from .frontend import ast
from .frontend.parser import Parser
from .frontend.preprocess import preprocess
from .frontend.sema import Program, check


@dataclass
class Options:
    entry: str = "main"
    defines: dict[str, str] = field(default_factory=dict)
    include_dirs: list[str] = field(default_factory=list)
    wave_size: int = 32


def parse_source(text: str, filename: str, options: Options, diagnostics: Diagnostics) -> ast.TranslationUnit:
    """Preprocess and parse; raises ``CompileError`` if either stage reported errors."""
    with _nesting_guard(filename, diagnostics):
        source = preprocess(text, filename, diagnostics, options.defines, options.include_dirs)
        diagnostics.check()
        unit = Parser(diagnostics).parse(source)
    diagnostics.check()
    return unit


def check_source(text: str, filename: str, options: Options, diagnostics: Diagnostics) -> Program:
    """The front end: preprocess, parse and check ``text``."""
    unit = parse_source(text, filename, options, diagnostics)
    with _nesting_guard(filename, diagnostics):
        program = check(unit, diagnostics, options.entry, filename)
    diagnostics.check()
    if program is None:
        raise CompileError(diagnostics.items or [])
    return program


# The checker recurses once per nesting level of the source (about four Python frames per
# level); this lets a generated 2,000-term expression through while staying far below what
# the interpreter's own stack can take.
RECURSION_LIMIT = 10_000


@contextmanager
def _nesting_guard(filename: str, diagnostics: Diagnostics):
    """Allow deep nesting, and turn a RecursionError beyond it into a diagnostic."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, RECURSION_LIMIT))
    try:
        yield
    except RecursionError as failure:
        where = getattr(failure, "shc_coord", None) or Coord(filename, 0, 0)
        diagnostics.fatal("the program nests too deeply for shc to compile", where)
    finally:
        sys.setrecursionlimit(previous)


def read_source(path: str, diagnostics: Diagnostics) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except UnicodeDecodeError:
        diagnostics.fatal("file is not UTF-8 text", Coord(path, 0, 0))
    except OSError as failure:
        diagnostics.fatal(f"cannot read file: {failure.strerror or failure}", Coord(path, 0, 0))
    return ""


def check_file(path: str, options: Options, diagnostics: Diagnostics) -> Program:
    text = read_source(path, diagnostics)
    return check_source(text, os.path.normpath(path), options, diagnostics)
