"""The HLSL grammar, expressions: operators and precedence, casts, constructors,
initializer lists, members, swizzles, indexing, calls and literals.

Node positions follow one rule per node kind (parser_helpers.py); ``fe`` is the shared
front end of tests/conftest.py.
"""

import os
import sys

import pytest

from shc.compiler.frontend import ast

sys.path.insert(0, os.path.dirname(__file__))
from parser_helpers import only  # noqa: E402


# ------------------------------------------------------------- expressions

def test_comma_expression(fe):
    expr = fe.expr("a = 1, b = 2, c")
    assert isinstance(expr, ast.Comma) and len(expr.exprs) == 3
    fe.assert_coord(expr, 2, 6)
    assert [type(e).__name__ for e in expr.exprs] == ["Assign", "Assign", "Identifier"]


def test_ternary_is_right_associative(fe):
    expr = fe.expr("a ? b : c ? d : e")
    assert isinstance(expr, ast.Conditional) and isinstance(expr.otherwise, ast.Conditional)
    fe.assert_coord(expr, 2, 3)
    fe.assert_coord(expr.otherwise, 2, 11)


@pytest.mark.parametrize("op", ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="])
def test_assignment_operators(fe, op):
    expr = fe.expr(f"x {op} y = 3")
    assert isinstance(expr, ast.Assign) and expr.op == op
    assert isinstance(expr.value, ast.Assign)  # right-associative
    fe.assert_coord(expr, 2, 3)


def test_increment_and_decrement(fe):
    pre_inc, post_dec = fe.body("++x;\nx--;")
    assert (pre_inc.expr.op, pre_inc.expr.postfix) == ("++", False)
    assert (post_dec.expr.op, post_dec.expr.postfix) == ("--", True)
    fe.assert_coord(pre_inc.expr, 2, 1)
    fe.assert_coord(post_dec.expr, 3, 2)
    fe.assert_coord(post_dec, 3, 1)


@pytest.mark.parametrize("text, tree", [
    ("a + b * c", ("+", "a", ("*", "b", "c"))),
    ("a * b + c", ("+", ("*", "a", "b"), "c")),
    ("a - b - c", ("-", ("-", "a", "b"), "c")),
    ("a << b + c", ("<<", "a", ("+", "b", "c"))),
    ("a < b == c", ("==", ("<", "a", "b"), "c")),
    ("a & b | c ^ d", ("|", ("&", "a", "b"), ("^", "c", "d"))),
    ("a && b || c", ("||", ("&&", "a", "b"), "c")),
    ("a || b && c", ("||", "a", ("&&", "b", "c"))),
    ("-a * b", ("*", ("-", "a"), "b")),
    ("!a && ~b", ("&&", ("!", "a"), ("~", "b"))),
    ("a % b / c", ("/", ("%", "a", "b"), "c")),
    ("a >= b != c <= d", ("!=", (">=", "a", "b"), ("<=", "c", "d"))),
    ("(a + b) * c", ("*", ("+", "a", "b"), "c")),
])
def test_operator_precedence(fe, text, tree):
    def shape(node):
        if isinstance(node, ast.Identifier):
            return node.name
        if isinstance(node, ast.Unary):
            return (node.op, shape(node.operand))
        return (node.op, shape(node.left), shape(node.right))
    assert shape(fe.expr(text)) == tree


def test_binary_operator_positions(fe):
    expr = fe.expr("a +  b * c")
    fe.assert_coord(expr, 2, 3)
    fe.assert_coord(expr.right, 2, 8)
    fe.assert_coord(expr.right.left, 2, 6)


def test_casts(fe):
    scalar, struct, template, modified, paren = fe.body(
        "(float3)v;\n(S)0;\n(vector<float, 3>)v;\n(const float)v.x;\n(v);", prelude="struct S { int a; };\n")
    assert isinstance(scalar.expr, ast.Cast) and scalar.expr.type_spec.name == "float3"
    fe.assert_coord(scalar.expr, 3, 1)  # the prelude takes line 1
    fe.assert_coord(scalar.expr.type_spec, 3, 2)
    assert struct.expr.type_spec.name == "S" and struct.expr.expr.value == 0
    assert template.expr.type_spec.args[1].value == 3
    assert modified.expr.type_spec.modifiers == ["const"]
    assert isinstance(paren.expr, ast.Identifier)


def test_cast_binds_tighter_than_binary_operators(fe):
    expr = fe.expr("(float)a / b")
    assert expr.op == "/" and isinstance(expr.left, ast.Cast)


def test_constructors(fe):
    expr = fe.expr("float4(v.xy, 0, 1)")
    assert isinstance(expr, ast.Construct) and expr.type_spec.name == "float4"
    assert [type(a).__name__ for a in expr.args] == ["Member", "IntLiteral", "IntLiteral"]
    fe.assert_coord(expr, 2, 1)
    template = fe.expr("vector<float, 2>(1, 2)")
    assert template.type_spec.name == "vector" and len(template.args) == 2


def test_initializer_lists(fe):
    unit = fe.parse("static const float a[3] = { 1, 2, 3, };\nstatic const float2 m[2] = { {1, 2}, {3, 4} };\n"
                    "struct S { float x; int y; };\nstatic const S s = { 1.0, 2 };\n")
    a, m, s = only(unit.decls[0]), only(unit.decls[1]), only(unit.decls[3])
    assert [item.value for item in a.init.items] == [1, 2, 3]
    fe.assert_coord(a.init, 1, 27)
    assert [len(row.items) for row in m.init.items] == [2, 2]
    fe.assert_coord(m.init.items[1], 2, 38)
    assert len(s.init.items) == 2


def test_swizzles_and_member_access(fe):
    xyzw, rgba, repeated, lvalue, chain, call = fe.body(
        "v.xyzw;\nv.rgba;\nv.xxxx;\nv.xy = v.yx;\ns.inner.value.x;\nv.zyx.x;",
    )
    assert [e.expr.name for e in (xyzw, rgba, repeated)] == ["xyzw", "rgba", "xxxx"]
    fe.assert_coord(xyzw.expr, 2, 3)
    target = lvalue.expr.target
    assert isinstance(target, ast.Member) and target.name == "xy" and target.obj.name == "v"
    assert chain.expr.name == "x" and chain.expr.obj.obj.name == "inner"
    assert call.expr.obj.name == "zyx"


def test_matrix_members_and_swizzles_of_values(fe):
    m00, literal, result = fe.body("m._m00_m11;\n(1).xxx;\nf().x;")
    assert m00.expr.name == "_m00_m11"
    assert literal.expr.obj.value == 1
    assert isinstance(result.expr.obj, ast.Call)


def test_indexing(fe):
    array, matrix, texture, field = fe.body(
        "a[i][j];\nm[0][1];\ntex[uint2(i, j)];\nbuf[i].x;",
    )
    assert isinstance(array.expr, ast.Index) and isinstance(array.expr.obj, ast.Index)
    fe.assert_coord(array.expr, 2, 5)
    fe.assert_coord(array.expr.obj, 2, 2)
    assert matrix.expr.index.value == 1
    index = texture.expr.index
    assert isinstance(index, ast.Construct) and index.type_spec.name == "uint2"
    assert isinstance(field.expr, ast.Member) and isinstance(field.expr.obj, ast.Index)


def test_method_calls(fe):
    calls = fe.body(
        "t.SampleLevel(s, float2(0, 0), 0);\nbab.Load(0);\nrw.Store(0, 1u);\nimage.GetDimensions(w, h);\n"
        "rw.InterlockedAdd(0, 1, old);\ntextures[NonUniformResourceIndex(w)].SampleLevel(s, float2(0, 0), 0);",
    )
    names = [stmt.expr.name for stmt in calls]
    assert names == ["SampleLevel", "Load", "Store", "GetDimensions", "InterlockedAdd", "SampleLevel"]
    assert all(isinstance(stmt.expr, ast.MethodCall) for stmt in calls)
    sample = calls[0].expr
    assert sample.obj.name == "t" and len(sample.args) == 3
    fe.assert_coord(sample, 2, 3)
    fe.assert_coord(calls[0], 2, 1)
    indexed = calls[5].expr
    assert isinstance(indexed.obj, ast.Index) and indexed.obj.index.name == "NonUniformResourceIndex"


def test_function_calls(fe):
    expr = fe.expr("max(a, min(b, 1))")
    assert isinstance(expr, ast.Call) and expr.name == "max" and expr.args[1].name == "min"
    fe.assert_coord(expr, 2, 1)
    fe.assert_coord(expr.args[1], 2, 8)
    assert fe.expr("GroupMemoryBarrierWithGroupSync()").args == []


def test_swizzle_of_literals(fe):
    integer, floating = fe.body("0.xxxx;\n1.0.xy;")
    assert (integer.expr.name, integer.expr.obj.value) == ("xxxx", 0)
    assert (floating.expr.name, floating.expr.obj.value) == ("xy", 1.0)
    fe.assert_coord(integer.expr, 2, 3)


def test_literals(fe):
    b, i, u, h, f, d = fe.body("true;\n017;\n0x1Fu;\n1.0h;\n.5f;\n1e-3;")
    assert (type(b.expr), b.expr.value) == (ast.BoolLiteral, True)
    assert (i.expr.value, i.expr.suffix) == (15, "")
    assert (u.expr.value, u.expr.suffix) == (31, "u")
    assert (h.expr.value, h.expr.suffix) == (1.0, "h")
    assert (f.expr.value, f.expr.suffix) == (0.5, "f")
    assert d.expr.value == 0.001
    fe.assert_coord(u.expr, 4, 1)


def test_literal_errors_have_positions(fe):
    assert fe.errors("int a = 09;\nfloat b = 1e400;\nint c = 99999999999999999999;\n") == [
        ("test.hlsl", 1, 9, "invalid digit in octal constant '09'"),
        ("test.hlsl", 2, 11, "floating-point constant '1e400' is too large"),
        ("test.hlsl", 3, 9, "integer literal is too large to be represented in any integer type"),
    ]


def test_calling_something_that_is_not_a_name(fe):
    assert fe.errors("void f() { (1 + 2)(3); }") == [
        ("test.hlsl", 1, 19, "called object is not a function or method")]
