"""The compilation pipeline, stage by stage, in one place.

Each stage takes the previous stage's result and the shared ``Diagnostics``;
a stage that reported errors stops the pipeline at its end (``check()``), so
the user sees every error of the first failing stage.

    preprocess  pcpp with a source map (frontend/preprocess.py)
    parse       PLY LALR grammar into the AST (frontend/parser.py)
    check       scopes, types, overloads, entry-point rules (frontend/sema.py)
"""

from __future__ import annotations

import os
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
    source = preprocess(text, filename, diagnostics, options.defines, options.include_dirs)
    diagnostics.check()
    unit = Parser(diagnostics).parse(source)
    diagnostics.check()
    return unit


def check_source(text: str, filename: str, options: Options, diagnostics: Diagnostics) -> Program:
    """The front end: preprocess, parse and check ``text``."""
    unit = parse_source(text, filename, options, diagnostics)
    program = check(unit, diagnostics, options.entry)
    diagnostics.check()
    if program is None:
        raise CompileError(diagnostics.items or [])
    return program


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
