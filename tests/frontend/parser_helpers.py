"""Shared by the test_parser_*.py files (the HLSL grammar: every construct of the compute subset,
node fields and node positions).

Positions follow one rule per node kind: declarations sit at their name, types at
the type name, statements at their keyword (an expression statement where its
expression starts), operators at the operator, calls at the callee's name,
casts and parentheses-free groupings at their opening token.
"""


def only(decl_stmt):
    (var,) = decl_stmt.decls
    return var
