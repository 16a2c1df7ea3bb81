"""Semantic analysis, statements: switch, break/continue, conditions, return types,
discard, where groupshared and resource variables may be declared.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import error, errors, init_type, kernel, run, source_of, valid, warnings  # noqa: E402


# ------------------------------------------------------------------ statements


def test_switch_rules():
    valid(kernel("""
        switch (id.x) {
        case 0:
        case N + 1:
            break;
        default:
            for (int i = 0; i < 2; i++) { if (i) continue; }
            break;
        }
    """, before="static const uint N = 1;\n"))
    assert errors(kernel("""
        float f = 1;
        uint n = 2;
        switch (f) { case 1: break; }
        switch (id.x) {
        case 1: break;
        case 1: break;
        case n: break;
        default: break;
        default: break;
        }
    """)) == [
        (6, 13, "switch selector must be an integer scalar, not 'float'"),
        (9, 5, "duplicate 'case 1' label"),
        (10, 10, "case value must be an integer constant"),
        (12, 5, "duplicate 'default' label"),
    ]


def test_break_and_continue_outside_loops():
    assert errors(kernel("""
        break;
        continue;
        switch (id.x) { case 0: continue; }
        while (true) { break; }
        do { continue; } while (false);
    """)) == [
        (4, 5, "'break' statement not in loop or switch statement"),
        (5, 5, "'continue' statement not in loop statement"),
        (6, 29, "'continue' statement not in loop statement"),
    ]


def test_conditions_must_be_scalars():
    assert errors(kernel("""
        float2 v = 1;
        if (v) { }
        while (v) { }
        S s;
        for (; s; ) { }
        float a = s ? 1 : 2;
    """, before="struct S { float a; };\n")) == [
        (6, 9, "condition must be a scalar, not 'float2'"),
        (7, 12, "condition must be a scalar, not 'float2'"),
        (9, 12, "condition must be a scalar, not 'S'"),
        (10, 15, "condition must be a scalar or a vector, not 'S'"),
    ]


def test_a_vector_condition_selects_per_component_in_hlsl_2018():
    program = valid(kernel("""
        float4 v = 1;
        float4 a = v > 0 ? v : 0;
        int3 b = bool3(true, false, true) ? 1 : 2;
        float c = id.x > 3 ? 1.5 : 2;
    """), hlsl_version=2018)
    assert init_type(program, "a") == "float4"
    assert init_type(program, "b") == "int3"
    assert init_type(program, "c") == "float"
    assert warnings(kernel("float4 v = 1;\nfloat2 d = bool2(true, false) ? v : 0;"), hlsl_version=2018) == [
        (5, 35, "implicit truncation of vector type in '?:' ('bool2' condition and 'float4')"),
    ]


def test_return_type_checks():
    text = source_of("""
        struct S { float v; };
        S d() { return 1.5; }
        float a() { return; }
        void b() { return 1; }
        float2 c() { return float4(1, 2, 3, 4); }
        float e(int x) { if (x > 0) return 1; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    _, items = run(text)
    assert [(d.severity, d.coord.line, d.coord.col, d.message) for d in items] == [
        ("error", 2, 16, "cannot convert from 'float' to 'S'"),
        ("error", 3, 13, "non-void function 'a' should return a value"),
        ("error", 4, 12, "void function 'b' should not return a value"),
        ("warning", 5, 21, "implicit truncation of vector type ('float4' to 'float2')"),
        ("warning", 6, 7, "not all control paths of 'e' return a value"),
    ]


def test_discard_is_rejected():
    error(kernel("if (id.x == 0) discard;"), 4, 20, "'discard' is only allowed in pixel shaders")


def test_groupshared_and_resources_in_the_wrong_place():
    assert errors(kernel("""
        groupshared float local;
        RWStructuredBuffer<uint> alias;
    """, before="groupshared float g = 1;\n")) == [
        (1, 19, "groupshared variables cannot have initializers"),
        (5, 23, "groupshared variables must be declared at global scope"),
        (6, 30, "a local resource variable must be initialized"),
    ]


def test_void_variables_and_parameters():
    text = source_of("""
        void f(void x) { }
        static void g;
        [numthreads(1, 1, 1)] void main() { }
    """)
    assert errors(text) == [
        (1, 13, "parameter 'x' cannot have type 'void'"),
        (2, 13, "variable 'g' cannot have type 'void'"),
    ]


def test_several_errors_are_reported_in_one_run():
    text = kernel("""
        float a = missing;
        int b = 1.5 << 1;
        float2 c = 1;
        c.xx = 2;
        break;
    """)
    assert len(errors(text)) == 4
