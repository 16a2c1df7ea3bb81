"""The HLSL grammar, statements: statement attributes, switch, loops, if/else, jumps
and local declarations.

Node positions follow one rule per node kind (parser_helpers.py); ``fe`` is the shared
front end of tests/conftest.py.
"""

import os
import sys

import pytest

from shc.compiler.frontend import ast

sys.path.insert(0, os.path.dirname(__file__))
from parser_helpers import only  # noqa: E402


# -------------------------------------------------------------- statements

@pytest.mark.parametrize("attribute, statement, kind", [
    ("[unroll]", "for (int i = 0; i < 4; i++) {}", ast.For),
    ("[unroll(4)]", "for (int i = 0; i < 4; i++) {}", ast.For),
    ("[loop]", "while (x) { x--; }", ast.While),
    ("[fastopt]", "do { x--; } while (x);", ast.DoWhile),
    ("[allow_uav_condition]", "for (;;) { break; }", ast.For),
    ("[branch]", "if (x) x = 0;", ast.If),
    ("[flatten]", "if (x) x = 0; else x = 1;", ast.If),
    ("[call]", "switch (x) { default: break; }", ast.Switch),
])
def test_statement_attributes(fe, attribute, statement, kind):
    (node,) = fe.body(f"{attribute} {statement}")
    assert isinstance(node, kind)
    (attr,) = node.attributes
    assert attr.name == attribute[1:].split("(")[0].rstrip("]")
    fe.assert_coord(attr, 2, 2)
    fe.assert_coord(node, 2, len(attribute) + 2)
    if "(4)" in attribute:
        assert attr.args[0].value == 4


def test_several_statement_attributes(fe):
    (node,) = fe.body("[unroll] [loop] for (;;) {}")
    assert [a.name for a in node.attributes] == ["unroll", "loop"]


def test_attribute_on_a_statement_that_cannot_take_one_is_a_warning(fe):
    unit, diagnostics = fe.run("void f() {\n  [unroll] return;\n}\n")
    assert isinstance(unit.decls[0].body.items[0], ast.Return)
    assert [(d.severity, d.coord.line, d.coord.col) for d in diagnostics.items] == [("warning", 2, 4)]


def test_switch_with_fall_through(fe):
    (switch,) = fe.body("switch (x) {\ncase 0:\ncase 1: x = 1;\ncase 1 + 1: x = 2; break;\ndefault: break;\n}")
    assert isinstance(switch.expr, ast.Identifier)
    assert [len(case.body) for case in switch.cases] == [0, 1, 2, 1]
    assert [getattr(case.value, "value", None) for case in switch.cases[:2]] == [0, 1]
    assert switch.cases[2].value.op == "+" and switch.cases[3].value is None
    fe.assert_coord(switch, 2, 1)
    fe.assert_coord(switch.cases[3], 6, 1)
    assert isinstance(switch.cases[2].body[1], ast.Break)


def test_switch_case_with_a_block_and_declarations(fe):
    (switch,) = fe.body("switch (1) { case 0: { int y = 1; break; } case 2: int z = 2; break; }")
    assert isinstance(switch.cases[0].body[0], ast.Compound)
    assert isinstance(switch.cases[1].body[0], ast.DeclStmt)


def test_loops(fe):
    do, loop, for_decl, for_expr, for_empty = fe.body(
        "do { x++; } while (x < 10);\nwhile (x) x--;\nfor (int i = 0, j = 1; i < j; ++i, j--) { continue; }\n"
        "for (x = 0; x < 2; x++) break;\nfor (;;) ;")
    assert isinstance(do.body, ast.Compound) and do.cond.op == "<"
    fe.assert_coord(do, 2, 1)
    assert isinstance(loop.body, ast.ExprStmt)
    assert [v.name for v in for_decl.init.decls] == ["i", "j"]
    assert isinstance(for_decl.step, ast.Comma)
    assert isinstance(for_decl.body.items[0], ast.Continue)
    fe.assert_coord(for_decl, 4, 1)
    fe.assert_coord(for_decl.init, 4, 6)
    assert isinstance(for_expr.init, ast.ExprStmt) and isinstance(for_expr.body, ast.Break)
    assert (for_empty.init, for_empty.cond, for_empty.step) == (None, None, None)
    assert isinstance(for_empty.body, ast.EmptyStmt)


def test_if_else_chains_and_dangling_else(fe):
    chain, dangling = fe.body("if (a) b = 1; else if (c) b = 2; else b = 3;\nif (a) if (c) b = 4; else b = 5;")
    assert isinstance(chain.otherwise, ast.If) and isinstance(chain.otherwise.otherwise, ast.ExprStmt)
    fe.assert_coord(chain.otherwise, 2, 20)
    assert dangling.otherwise is None and dangling.then.otherwise is not None


def test_jumps_blocks_and_empty_statements(fe):
    items = fe.body("{ { } }\n;\nreturn;\ndiscard;")
    assert [type(i).__name__ for i in items] == ["Compound", "EmptyStmt", "Return", "Discard"]
    assert isinstance(items[0].items[0], ast.Compound)
    fe.assert_coord(items[1], 3, 1)
    fe.assert_coord(items[2], 4, 1)
    (ret,) = fe.body("return 1 + 2;")
    assert ret.value.op == "+"


def test_local_declarations(fe):
    decl, const, resource = fe.body("float a = 1, b[2] = {1, 2}, c;\nconst static float d = 2;\n"
                                    "Texture2D<float4> t = textures[0];")
    assert [v.name for v in decl.decls] == ["a", "b", "c"]
    assert isinstance(decl.decls[1].init, ast.InitList)
    assert only(const).modifiers == ["const", "static"]
    assert isinstance(only(resource).init, ast.Index)
