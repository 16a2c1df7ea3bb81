"""The HLSL grammar, the tree it builds: ``ast.dump`` and the visitor.

Node positions follow one rule per node kind (parser_helpers.py); ``fe`` is the shared
front end of tests/conftest.py.
"""

from shc.compiler.frontend import ast


# --------------------------------------------------------------- the tree

def test_dump_shows_fields_and_positions(fe):
    text = ast.dump(fe.parse("float4 v = float4(1, 2, 3, 4);\n"))
    assert text.splitlines()[:6] == [
        "TranslationUnit  @1:1",
        "  .decls:",
        "    DeclStmt  @1:1",
        "      .decls:",
        "        VarDecl name='v' storage='local'  @1:8",
        "          .type_spec:",
    ]
    assert "IntLiteral value=4  @1:28" in text


def test_visitor_dispatch_and_leftmost(fe):
    class Names(ast.NodeVisitor):
        def __init__(self):
            self.seen = []

        def visit_Identifier(self, node):
            self.seen.append(node.name)

    visitor = Names()
    expr = fe.expr("a.x = b[c] + d++")
    visitor.visit(expr)
    assert visitor.seen == ["a", "b", "c", "d"]
    assert ast.leftmost(expr).name == "a"
    assert ast.leftmost(expr.value.right).name == "d"
