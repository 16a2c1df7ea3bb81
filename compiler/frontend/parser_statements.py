"""The statement part of the HLSL grammar: blocks, if/switch, loops and jumps.

A mixin of ``parser.Parser``: it brings the PLY ``p_`` methods and uses the
parser's ``_coord`` and ``diagnostics``. Statements resynchronise after a
syntax error at the next ``;``.
"""

from __future__ import annotations

from . import ast
from .parser_declarations import flatten


class StatementGrammar:
    """Productions for statements and the blocks that hold them."""

    # ------------------------------------------------------------- statements
    def p_compound_statement(self, p):
        """compound_statement : LBRACE block_item_list RBRACE
                              | LBRACE RBRACE"""
        items = p[2] if len(p) == 4 else []
        p[0] = ast.Compound(items, coord=self._coord(p, 1))

    def p_block_item_list(self, p):
        """block_item_list : block_item
                           | block_item_list block_item"""
        p[0] = p[1] + [p[2]] if len(p) == 3 else [p[1]]

    def p_block_item(self, p):
        """block_item : statement
                      | declaration
                      | struct_declaration
                      | typedef_declaration"""
        if isinstance(p[1], list):  # a struct, its nested structs and its variables
            outer = [item for item in p[1] if isinstance(item, ast.StructDecl)][-1]
            p[0] = ast.DeclStmt(flatten(p[1]), outer.coord)
        elif isinstance(p[1], ast.Typedef):
            p[0] = ast.DeclStmt([p[1]], p[1].coord)
        else:
            p[0] = p[1]

    def p_plain_statement(self, p):
        """statement : plain_statement
           plain_statement : compound_statement
                           | expression_statement
                           | selection_statement
                           | iteration_statement
                           | jump_statement"""
        p[0] = p[1]

    def p_statement_attributes(self, p):
        """statement : attribute_list plain_statement"""
        if hasattr(p[2], "attributes"):
            p[2].attributes = p[1] + p[2].attributes
        else:
            for attribute in p[1]:
                self.diagnostics.warning(f"attribute '{attribute.name}' ignored on this statement", attribute.coord,
                                         "ignored-attributes")
        p[0] = p[2]

    def p_statement_error(self, p):
        """statement : error SEMI"""
        p[0] = ast.EmptyStmt(coord=self._coord(p, 2))

    def p_expression_statement(self, p):
        """expression_statement : expression SEMI
                                | SEMI"""
        if len(p) == 2:
            p[0] = ast.EmptyStmt(coord=self._coord(p, 1))
        else:
            p[0] = ast.ExprStmt(p[1], coord=ast.leftmost(p[1]).coord)

    def p_selection_if(self, p):
        """selection_statement : IF LPAREN expression RPAREN statement %prec IFX
                               | IF LPAREN expression RPAREN statement ELSE statement"""
        otherwise = p[7] if len(p) == 8 else None
        p[0] = ast.If(p[3], p[5], otherwise, coord=self._coord(p, 1))

    def p_selection_switch(self, p):
        """selection_statement : SWITCH LPAREN expression RPAREN LBRACE case_list RBRACE
                               | SWITCH LPAREN expression RPAREN LBRACE RBRACE"""
        cases = p[6] if len(p) == 8 else []
        p[0] = ast.Switch(p[3], cases, coord=self._coord(p, 1))

    def p_case_list(self, p):
        """case_list : case_group
                     | case_list case_group"""
        p[0] = p[1] + [p[2]] if len(p) == 3 else [p[1]]

    def p_case_group(self, p):
        """case_group : CASE conditional_expression COLON block_item_list
                      | CASE conditional_expression COLON"""
        body = p[4] if len(p) == 5 else []
        p[0] = ast.Case(p[2], body, coord=self._coord(p, 1))

    def p_case_group_default(self, p):
        """case_group : DEFAULT COLON block_item_list
                      | DEFAULT COLON"""
        body = p[3] if len(p) == 4 else []
        p[0] = ast.Case(None, body, coord=self._coord(p, 1))

    def p_iteration_while(self, p):
        """iteration_statement : WHILE LPAREN expression RPAREN statement"""
        p[0] = ast.While(p[3], p[5], coord=self._coord(p, 1))

    def p_iteration_do(self, p):
        """iteration_statement : DO statement WHILE LPAREN expression RPAREN SEMI"""
        p[0] = ast.DoWhile(p[2], p[5], coord=self._coord(p, 1))

    def p_iteration_for(self, p):
        """iteration_statement : FOR LPAREN for_init expression_opt SEMI expression_opt RPAREN statement"""
        p[0] = ast.For(p[3], p[4], p[6], p[8], coord=self._coord(p, 1))

    def p_for_init(self, p):
        """for_init : declaration
                    | expression_opt SEMI"""
        if isinstance(p[1], ast.DeclStmt):
            p[0] = p[1]
        else:
            p[0] = ast.ExprStmt(p[1], coord=ast.leftmost(p[1]).coord) if p[1] is not None else None

    def p_jump_statement(self, p):
        """jump_statement : BREAK SEMI
                          | CONTINUE SEMI
                          | DISCARD SEMI
                          | RETURN SEMI
                          | RETURN expression SEMI"""
        coord = self._coord(p, 1)
        if p[1] == "return":
            p[0] = ast.Return(p[2] if len(p) == 4 else None, coord)
        else:
            p[0] = {"break": ast.Break, "continue": ast.Continue, "discard": ast.Discard}[p[1]](coord)
