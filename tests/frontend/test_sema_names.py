"""Semantic analysis, scopes and names: shadowing, redefinition, where a name becomes
visible, undeclared identifiers, functions and variables used as each other.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

from shc.compiler.frontend import ast
from shc.compiler.frontend import hlsl_types as T

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import (  # noqa: E402
    error, errors, every_expression_is_typed, kernel, local, nodes, run, source_of, valid,
)


# ------------------------------------------------------------------ scopes and names


def test_block_shadowing_resolves_to_the_innermost_declaration():
    program = valid(kernel("""
        int x = 1;
        {
            float x = 2.0;
            float a = x;
        }
        int b = x;
    """))
    outer, inner = [d for d in nodes(program.entry.body, ast.VarDecl) if d.name == "x"]
    assert local(program, "a").init.decl is inner and local(program, "a").init.type == T.FLOAT
    assert local(program, "b").init.decl is outer and local(program, "b").init.type == T.INT
    every_expression_is_typed(program)


def test_redefinition_in_the_same_scope_points_at_both():
    program, items = run(kernel("""
        int x = 1;
        float x = 2;
    """))
    assert program is None
    assert [(d.severity, d.coord.line, d.coord.col, d.message) for d in items] == [
        ("error", 5, 11, "redefinition of 'x'"),
        ("note", 4, 9, "previous definition is here"),
    ]


def test_a_parameter_cannot_be_redeclared_in_the_function_body():
    text = source_of("""
        float f(float v) { float v = 1; return v; }
        [numthreads(1, 1, 1)] void main() { f(1); }
    """)
    assert errors(text) == [(1, 26, "redefinition of 'v'")]


def test_for_init_is_scoped_to_the_loop():
    error(kernel("""
        for (int i = 0; i < 4; i++) { }
        for (int i = 0; i < 4; i++) { }
        i = 2;
    """), 6, 5, "use of undeclared identifier 'i'")


def test_undeclared_identifiers_are_reported_where_they_are_used():
    assert errors(kernel("""
        float a = b + 1;
        float c = d * e;
    """)) == [
        (4, 15, "use of undeclared identifier 'b'"),
        (5, 15, "use of undeclared identifier 'd'"),
        (5, 19, "use of undeclared identifier 'e'"),
    ]


def test_names_are_visible_from_their_declaration_on():
    text = source_of("""
        float f() { return later; }
        static float later = 1;
        [numthreads(1, 1, 1)] void main() { g(); }
        void g() { }
    """)
    assert errors(text) == [
        (1, 20, "use of undeclared identifier 'later'"),
        (3, 37, "use of undeclared identifier 'g'"),
    ]


def test_a_function_used_as_a_value():
    error(kernel("float a = sqrt;"), 4, 15, "'sqrt' is a function; call it with ( )")


def test_calling_a_variable():
    error(kernel("float f = 1; f(2);"), 4, 18, "'f' is not a function")
