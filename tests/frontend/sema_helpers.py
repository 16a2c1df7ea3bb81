"""Shared by the test_sema_*.py files: check a snippet and read its diagnostics and typed tree.

Every error test asserts the message and the exact position (line, column) it is reported at.
Sources start at line 1 with their first line; kernels built with ``kernel()`` put the body
on lines 4 and later, indented four columns.
"""

from textwrap import dedent

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.frontend import ast
from shc.compiler.pipeline import Options, check_source

FILE = "t.hlsl"
HEAD = "[numthreads(8, 8, 1)]\nvoid main(uint3 id : SV_DispatchThreadID)\n{\n"


def source_of(text):
    return dedent(text).lstrip("\n")


def kernel(body, before=""):
    """A kernel whose body starts on line 4 (after ``before``'s lines), indented by four."""
    lines = "".join("    " + line + "\n" if line else "\n" for line in source_of(body).splitlines())
    return source_of(before) + HEAD + lines + "}\n"


def run(text, entry="main", defines=None, **language):
    """Check ``text``; ``language`` sets ``Options.shader_model`` or ``Options.hlsl_version``."""
    diagnostics = Diagnostics()
    try:
        program = check_source(text, FILE, Options(entry=entry, defines=defines or {}, **language), diagnostics)
    except CompileError:
        program = None
    return program, diagnostics.items


def errors(text, **options):
    _, items = run(text, **options)
    return [(d.coord.line, d.coord.col, d.message) for d in items if d.severity == "error"]


def warnings(text, **options):
    _, items = run(text, **options)
    return [(d.coord.line, d.coord.col, d.message) for d in items if d.severity == "warning"]


def valid(text, **options):
    program, items = run(text, **options)
    assert [f"{d.coord}: {d.severity}: {d.message}" for d in items] == []
    return program


def error(text, line, col, message, **options):
    """``text`` has exactly one error, ``message`` at ``line``:``col``."""
    assert errors(text, **options) == [(line, col, message)]


def nodes(root, kind):
    found, stack = [], [root]
    while stack:
        current = stack.pop()
        if isinstance(current, kind):
            found.append(current)
        stack.extend(reversed(list(current.children())))
    return found


def local(program, name):
    """The VarDecl of the entry's local ``name`` (the first one in source order)."""
    return next(d for d in nodes(program.entry.body, ast.VarDecl) if d.name == name)


def init_type(program, name):
    return str(local(program, name).init.type)


def every_expression_is_typed(program):
    for expr in nodes(program.unit, ast.EXPRESSIONS):
        assert expr.type is not None, f"{type(expr).__name__} at {expr.coord} has no type"
