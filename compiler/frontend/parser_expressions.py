"""The expression part of the HLSL grammar: assignment down to literals.

A mixin of ``parser.Parser``: it brings the PLY ``p_`` methods and uses the
parser's ``_coord``, ``diagnostics`` and ``_apply_unsigned`` (from
``parser_declarations``). Binary operators share one production family; their
priorities come from the parser's single precedence table.
"""

from __future__ import annotations

from . import ast
from .lexer import float_literal, integer_literal


class ExpressionGrammar:
    """Productions for expressions, each node placed at its operator or first token."""

    # ------------------------------------------------------------ expressions
    def p_expression_opt(self, p):
        """expression_opt : expression
                          | empty"""
        p[0] = p[1]

    def p_expression(self, p):
        """expression : assignment_expression
                      | expression COMMA assignment_expression"""
        if len(p) == 2:
            p[0] = p[1]
        elif isinstance(p[1], ast.Comma):
            p[1].exprs.append(p[3])
            p[0] = p[1]
        else:
            p[0] = ast.Comma([p[1], p[3]], coord=self._coord(p, 2))

    def p_assignment_expression(self, p):
        """assignment_expression : conditional_expression
                                 | unary_expression assignment_operator assignment_expression"""
        if len(p) == 2:
            p[0] = p[1]
        else:
            op, coord = p[2]
            p[0] = ast.Assign(op, p[1], p[3], coord=coord)

    def p_assignment_operator(self, p):
        """assignment_operator : EQUALS
                               | TIMESEQUAL
                               | DIVEQUAL
                               | MODEQUAL
                               | PLUSEQUAL
                               | MINUSEQUAL
                               | LSHIFTEQUAL
                               | RSHIFTEQUAL
                               | ANDEQUAL
                               | OREQUAL
                               | XOREQUAL"""
        p[0] = (p[1], self._coord(p, 1))

    def p_conditional_expression(self, p):
        """conditional_expression : binary_expression
                                  | binary_expression CONDOP expression COLON conditional_expression"""
        if len(p) == 2:
            p[0] = p[1]
        else:
            p[0] = ast.Conditional(p[1], p[3], p[5], coord=self._coord(p, 2))

    def p_binary_expression(self, p):
        """binary_expression : cast_expression
                             | binary_expression TIMES binary_expression
                             | binary_expression DIVIDE binary_expression
                             | binary_expression MOD binary_expression
                             | binary_expression PLUS binary_expression
                             | binary_expression MINUS binary_expression
                             | binary_expression RSHIFT binary_expression
                             | binary_expression LSHIFT binary_expression
                             | binary_expression LT binary_expression
                             | binary_expression LE binary_expression
                             | binary_expression GE binary_expression
                             | binary_expression GT binary_expression
                             | binary_expression EQ binary_expression
                             | binary_expression NE binary_expression
                             | binary_expression AND binary_expression
                             | binary_expression OR binary_expression
                             | binary_expression XOR binary_expression
                             | binary_expression ANDAND binary_expression
                             | binary_expression OROR binary_expression"""
        if len(p) == 2:
            p[0] = p[1]
        else:
            p[0] = ast.Binary(p[2], p[1], p[3], coord=self._coord(p, 2))

    def p_cast_expression(self, p):
        """cast_expression : unary_expression
                           | LPAREN type_specifier RPAREN cast_expression
                           | LPAREN modifier_list type_specifier RPAREN cast_expression"""
        if len(p) == 2:
            p[0] = p[1]
        elif len(p) == 5:
            p[0] = ast.Cast(p[2], p[4], coord=self._coord(p, 1))
        else:
            modifiers, spec = self._apply_unsigned(p[2], p[3])
            spec.modifiers = modifiers
            p[0] = ast.Cast(spec, p[5], coord=self._coord(p, 1))

    def p_unary_expression(self, p):
        """unary_expression : postfix_expression
                            | PLUSPLUS unary_expression
                            | MINUSMINUS unary_expression
                            | unary_operator cast_expression"""
        if len(p) == 2:
            p[0] = p[1]
        elif isinstance(p[1], tuple):
            op, coord = p[1]
            p[0] = ast.Unary(op, p[2], coord=coord)
        else:
            p[0] = ast.Unary(p[1], p[2], coord=self._coord(p, 1))

    def p_unary_operator(self, p):
        """unary_operator : PLUS
                          | MINUS
                          | NOT
                          | LNOT"""
        p[0] = (p[1], self._coord(p, 1))

    def p_postfix_index(self, p):
        """postfix_expression : postfix_expression LBRACKET expression RBRACKET"""
        p[0] = ast.Index(p[1], p[3], coord=self._coord(p, 2))

    def p_postfix_call(self, p):
        """postfix_expression : postfix_expression LPAREN argument_list_opt RPAREN"""
        callee = p[1]
        if isinstance(callee, ast.Identifier):
            p[0] = ast.Call(callee.name, p[3], coord=callee.coord)
        elif isinstance(callee, ast.Member):
            p[0] = ast.MethodCall(callee.obj, callee.name, p[3], coord=callee.coord)
        else:
            self.diagnostics.error("called object is not a function or method", self._coord(p, 2))
            p[0] = callee

    def p_postfix_template_method(self, p):
        """postfix_expression : postfix_expression PERIOD TEMPLATE_METHOD LT type_specifier GT LPAREN argument_list_opt RPAREN"""
        p[0] = ast.MethodCall(p[1], p[3], p[8], template=p[5], coord=self._coord(p, 3))

    def p_postfix_qualified_call(self, p):
        """postfix_expression : TYPE_NAME COLONCOLON ID LPAREN argument_list_opt RPAREN"""
        p[0] = ast.Call(p[3], p[5], coord=self._coord(p, 3), qualifier=p[1])  # S::f(x), Base::f()

    def p_postfix_member(self, p):
        """postfix_expression : postfix_expression PERIOD ID
                              | postfix_expression PERIOD TYPE_NAME
                              | postfix_expression PERIOD TEMPLATE_NAME"""
        p[0] = ast.Member(p[1], p[3], coord=self._coord(p, 3))

    def p_postfix_increment(self, p):
        """postfix_expression : postfix_expression PLUSPLUS
                              | postfix_expression MINUSMINUS"""
        p[0] = ast.Unary(p[2], p[1], postfix=True, coord=self._coord(p, 2))

    def p_postfix_construct(self, p):
        """postfix_expression : type_specifier LPAREN argument_list_opt RPAREN"""
        p[0] = ast.Construct(p[1], p[3], coord=p[1].coord)

    def p_postfix_primary(self, p):
        """postfix_expression : primary_expression
           primary_expression : integer_constant"""
        p[0] = p[1]

    def p_argument_list_opt(self, p):
        """argument_list_opt : argument_list
                             | empty"""
        p[0] = p[1] or []

    def p_argument_list(self, p):
        """argument_list : assignment_expression
                         | argument_list COMMA assignment_expression"""
        p[0] = p[1] + [p[3]] if len(p) == 4 else [p[1]]

    def p_primary_identifier(self, p):
        """primary_expression : ID"""
        p[0] = ast.Identifier(p[1], coord=self._coord(p, 1))

    def p_primary_paren(self, p):
        """primary_expression : LPAREN expression RPAREN"""
        p[0] = p[2]

    def p_primary_bool(self, p):
        """primary_expression : TRUE
                              | FALSE"""
        p[0] = ast.BoolLiteral(p[1] == "true", coord=self._coord(p, 1))

    def p_primary_float(self, p):
        """primary_expression : FLOAT_CONST"""
        value, suffix, problem = float_literal(p[1])
        if problem:
            self.diagnostics.error(problem, self._coord(p, 1))
        p[0] = ast.FloatLiteral(value, suffix, coord=self._coord(p, 1))

    def p_integer_constant(self, p):
        """integer_constant : INT_CONST"""
        value, suffix, problem = integer_literal(p[1])
        if problem:
            self.diagnostics.error(problem, self._coord(p, 1))
        p[0] = ast.IntLiteral(value, suffix, coord=self._coord(p, 1))
