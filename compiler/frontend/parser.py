"""The HLSL parser: an LALR(1) grammar for PLY, one production family per method.

Each action builds one AST node and gives it the source position of the token
that best identifies it (the operator of a binary expression, the name of a
declaration). Struct and typedef names are registered as they are declared so
the lexer turns later uses into ``TYPE_NAME`` tokens. Syntax errors are worded by
``syntax_errors``; the grammar resynchronises at ``;`` and ``}`` so one run
reports several errors.
"""

from __future__ import annotations

import bisect
import re

from . import ast
from .hlsl_types import BUILTIN_TYPES
from .lexer import Lexer, float_literal, integer_literal, tokens  # noqa: F401  (PLY reads ``tokens`` from this module)
from .preprocess import Preprocessed
from .syntax_errors import SyntaxErrors
from .tables import build_parser
from ..diagnostics import Coord, Diagnostics


class Parser:
    """Parses one preprocessed translation unit into an ``ast.TranslationUnit``."""

    precedence = (
        ("nonassoc", "IFX"),
        ("nonassoc", "ELSE"),
        ("left", "OROR"),
        ("left", "ANDAND"),
        ("left", "OR"),
        ("left", "XOR"),
        ("left", "AND"),
        ("left", "EQ", "NE"),
        ("left", "GT", "GE", "LT", "LE"),
        ("left", "LSHIFT", "RSHIFT"),
        ("left", "PLUS", "MINUS"),
        ("left", "TIMES", "DIVIDE", "MOD"),
    )

    tokens = tokens
    start = "translation_unit"

    def __init__(self, diagnostics: Diagnostics, *, fresh_tables: bool = False, errorlog=None):
        self.diagnostics = diagnostics
        self.lexer = Lexer(self._is_type_name, self._lex_error)
        self.parser = build_parser(self, fresh=fresh_tables, errorlog=errorlog)
        self.errors = SyntaxErrors(diagnostics, self.lexer, self._coord_at)
        self.type_names: set[str] = set()
        self.source: Preprocessed | None = None
        self._line_starts: list[int] = [0]

    def parse(self, source: Preprocessed, diagnostics: Diagnostics | None = None) -> ast.TranslationUnit:
        """Parse ``source``; ``diagnostics`` replaces the parser's own, so one parser can serve many inputs."""
        if diagnostics is not None:
            self.diagnostics = self.errors.diagnostics = diagnostics
        self.source = source
        self.type_names = set()
        text = source.text
        self._line_starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
        self.lexer.input(text)
        self.errors.reset(text)
        unit = self.parser.parse(input=text, lexer=self.lexer, tracking=False)
        if unit is None:
            unit = ast.TranslationUnit([], Coord(source.main_file, 1, 1))
        return unit

    # ------------------------------------------------------------- helpers
    def _is_type_name(self, name: str) -> bool:
        return name in self.type_names

    def _coord_at(self, lexpos: int) -> Coord:
        line = bisect.bisect_right(self._line_starts, lexpos)
        col = lexpos - self._line_starts[line - 1] + 1
        return self.source.coord(line, col)

    def _coord(self, p, index: int) -> Coord:
        return self._coord_at(p.lexpos(index))

    def _lex_error(self, message: str, lexpos: int) -> None:
        self.diagnostics.error(message, self._coord_at(lexpos))

    def p_error(self, tok):
        return self.errors.report(self.parser, tok)

    # ------------------------------------------------------- translation unit
    def p_translation_unit(self, p):
        """translation_unit : external_declaration_list
                            | empty"""
        decls = [d for d in (p[1] or []) if d is not None]
        first = decls[0].coord if decls else Coord(self.source.main_file, 1, 1)
        p[0] = ast.TranslationUnit(decls, first)

    def p_external_declaration_list(self, p):
        """external_declaration_list : external_declaration
                                     | external_declaration_list external_declaration"""
        item = p[len(p) - 1]
        items = item if isinstance(item, list) else [item]  # a struct brings its nested structs
        p[0] = p[1] + items if len(p) == 3 else items

    def p_external_declaration(self, p):
        """external_declaration : function_definition
                                | global_declaration
                                | struct_declaration
                                | typedef_declaration
                                | cbuffer_declaration"""
        p[0] = p[1]

    def p_external_declaration_nothing(self, p):
        """external_declaration : SEMI
                                | error SEMI
                                | error RBRACE"""
        p[0] = None

    def p_global_declaration(self, p):
        """global_declaration : declaration
                              | attribute_list declaration"""
        if len(p) == 3:
            for decl in p[2].decls:
                decl.attributes = p[1] + decl.attributes
            p[0] = p[2]
        else:
            p[0] = p[1]

    # ------------------------------------------------------------- functions
    def p_function_definition(self, p):
        """function_definition : function_head compound_statement
                               | function_head SEMI"""
        func = p[1]
        if not isinstance(p[2], str):
            func.body = p[2]
        p[0] = func

    def p_function_head(self, p):
        """function_head : declaration_specifiers ID LPAREN parameter_list_opt RPAREN semantic_opt
                         | attribute_list declaration_specifiers ID LPAREN parameter_list_opt RPAREN semantic_opt"""
        attributes = p[1] if len(p) == 8 else []
        offset = 1 if len(p) == 8 else 0
        modifiers, type_spec = p[1 + offset]
        p[0] = ast.FuncDecl(
            return_type=type_spec, name=p[2 + offset], params=p[4 + offset], attributes=attributes,
            modifiers=modifiers, semantic=p[6 + offset], coord=self._coord(p, 2 + offset),
        )

    def p_parameter_list_opt(self, p):
        """parameter_list_opt : parameter_list
                              | empty"""
        params = p[1] or []
        only_void = len(params) == 1 and params[0].type_spec.name == "void" and not params[0].name
        p[0] = [] if only_void else params  # f(void) takes no parameters

    def p_parameter_list(self, p):
        """parameter_list : parameter
                          | parameter_list COMMA parameter"""
        p[0] = p[1] + [p[3]] if len(p) == 4 else [p[1]]

    def p_parameter(self, p):
        """parameter : declaration_specifiers ID array_dims_opt semantic_opt
                     | declaration_specifiers ID array_dims_opt semantic_opt EQUALS assignment_expression"""
        modifiers, type_spec = p[1]
        default = p[6] if len(p) == 7 else None
        p[0] = ast.Param(type_spec, p[2], p[3], modifiers, p[4], default, coord=self._coord(p, 2))

    def p_parameter_unnamed(self, p):
        """parameter : declaration_specifiers"""
        modifiers, type_spec = p[1]  # a prototype may leave its parameters unnamed
        p[0] = ast.Param(type_spec, "", [], modifiers, coord=type_spec.coord)

    def p_semantic_opt(self, p):
        """semantic_opt : COLON ID
                        | empty"""
        p[0] = p[2] if len(p) == 3 else None

    # ---------------------------------------------------------- declarations
    def p_declaration(self, p):
        """declaration : declaration_specifiers init_declarator_list SEMI"""
        modifiers, type_spec = p[1]
        for decl in p[2]:
            decl.type_spec = type_spec
            decl.modifiers = list(modifiers)
        p[0] = ast.DeclStmt(p[2], coord=type_spec.coord)

    def p_declaration_specifiers(self, p):
        """declaration_specifiers : type_specifier
                                  | modifier_list type_specifier"""
        p[0] = ([], p[1]) if len(p) == 2 else self._apply_unsigned(p[1], p[2])

    def _apply_unsigned(self, modifiers: list[str], spec: ast.TypeSpec) -> tuple[list[str], ast.TypeSpec]:
        """Fold ``unsigned int`` (and ``unsigned int2``, ``unsigned min16int``) into the uint type."""
        if "unsigned" not in modifiers:
            return modifiers, spec
        for signed, unsigned in (("int", "uint"), ("min16int", "min16uint")):
            if spec.name.startswith(signed) and unsigned + spec.name[len(signed):] in BUILTIN_TYPES:
                spec.name = unsigned + spec.name[len(signed):]
                break
        else:
            self.diagnostics.error(f"'unsigned' cannot be applied to '{spec.name}'", spec.coord)
        return [m for m in modifiers if m != "unsigned"], spec

    def p_modifier_list(self, p):
        """modifier_list : MODIFIER
                         | modifier_list MODIFIER"""
        p[0] = p[1] + [p[2]] if len(p) == 3 else [p[1]]

    def p_type_specifier(self, p):
        """type_specifier : TYPE_NAME
                          | TEMPLATE_NAME
                          | VOID"""
        p[0] = ast.TypeSpec(p[1], coord=self._coord(p, 1))

    def p_type_specifier_template(self, p):
        """type_specifier : TEMPLATE_NAME LT template_argument_list GT"""
        p[0] = ast.TypeSpec(p[1], p[3], coord=self._coord(p, 1))

    def p_type_specifier_struct(self, p):
        """type_specifier : STRUCT TYPE_NAME"""
        p[0] = ast.TypeSpec(p[2], coord=self._coord(p, 2))

    def p_template_argument_list(self, p):
        """template_argument_list : template_argument
                                  | template_argument_list COMMA template_argument"""
        p[0] = p[1] + [p[3]] if len(p) == 4 else [p[1]]

    def p_template_argument(self, p):
        """template_argument : type_specifier
                             | modifier_list type_specifier
                             | integer_constant
                             | LPAREN expression RPAREN"""
        if len(p) == 4:
            p[0] = p[2]
        elif len(p) == 3:
            modifiers, p[0] = self._apply_unsigned(p[1], p[2])
            p[0].modifiers = modifiers
        else:
            p[0] = p[1]

    def p_init_declarator_list(self, p):
        """init_declarator_list : init_declarator
                                | init_declarator_list COMMA init_declarator"""
        p[0] = p[1] + [p[3]] if len(p) == 4 else [p[1]]

    def p_init_declarator(self, p):
        """init_declarator : ID array_dims_opt annotation_list_opt
                           | ID array_dims_opt annotation_list_opt EQUALS initializer"""
        decl = ast.VarDecl(None, p[1], p[2], coord=self._coord(p, 1))
        for kind, value in p[3]:
            setattr(decl, kind, value)
        if len(p) == 6:
            decl.init = p[5]
        p[0] = decl

    def p_array_dims_opt(self, p):
        """array_dims_opt : array_dims_opt LBRACKET expression RBRACKET
                          | array_dims_opt LBRACKET RBRACKET
                          | empty"""
        if len(p) == 2:
            p[0] = []
        else:
            p[0] = p[1] + [p[3] if len(p) == 5 else None]

    def p_annotation_list_opt(self, p):
        """annotation_list_opt : annotation_list_opt annotation
                               | empty"""
        p[0] = p[1] + [p[2]] if len(p) == 3 else []

    def p_annotation_semantic(self, p):
        """annotation : COLON ID"""
        p[0] = ("semantic", p[2])

    def p_annotation_register(self, p):
        """annotation : COLON REGISTER LPAREN ID RPAREN
                      | COLON REGISTER LPAREN ID COMMA ID RPAREN"""
        p[0] = ("register", self._register(p[4], p[6] if len(p) == 8 else None, self._coord(p, 4)))

    def p_annotation_packoffset(self, p):
        """annotation : COLON PACKOFFSET LPAREN ID RPAREN
                      | COLON PACKOFFSET LPAREN ID PERIOD ID RPAREN"""
        p[0] = ("packoffset", p[4] + ("." + p[6] if len(p) == 8 else ""))

    def _register(self, slot: str, space: str | None, coord: Coord) -> ast.Register:
        binding = re.fullmatch(r"([tusbTUSB])(\d+)", slot)
        if not binding:
            self.diagnostics.error(f"invalid register '{slot}': expected t, u, s or b and a number", coord)
            return ast.Register("t", 0, 0, coord)
        number = re.fullmatch(r"space(\d+)", space or "space0")
        if not number:
            self.diagnostics.error(f"invalid register space '{space}': expected spaceN", coord)
        return ast.Register(binding[1].lower(), int(binding[2]), int(number[1]) if number else 0, coord)

    def p_initializer(self, p):
        """initializer : assignment_expression
                       | LBRACE initializer_list RBRACE
                       | LBRACE initializer_list COMMA RBRACE"""
        if len(p) == 2:
            p[0] = p[1]
        else:
            p[0] = ast.InitList(p[2], coord=self._coord(p, 1))

    def p_initializer_list(self, p):
        """initializer_list : initializer
                            | initializer_list COMMA initializer"""
        p[0] = p[1] + [p[3]] if len(p) == 4 else [p[1]]

    # ------------------------------------------------- struct, typedef, cbuffer
    def p_struct_declaration(self, p):
        """struct_declaration : struct_definition SEMI
                              | struct_definition init_declarator_list SEMI"""
        nested, struct = p[1]
        p[0] = nested + [struct]
        if len(p) == 4:
            spec = ast.TypeSpec(struct.name, coord=struct.coord)
            for decl in p[2]:
                decl.type_spec = spec
            p[0].append(ast.DeclStmt(p[2], coord=spec.coord))

    def p_struct_definition(self, p):
        """struct_definition : struct_head LBRACE struct_member_list RBRACE
                             | struct_head LBRACE RBRACE"""
        name, coord = p[1]
        items = p[3] if len(p) == 5 else []
        members = [item for item in items if isinstance(item, ast.VarDecl)]
        nested = [item for item in items if not isinstance(item, ast.VarDecl)]
        p[0] = (nested, ast.StructDecl(name, members, coord=coord))

    def p_struct_head(self, p):
        """struct_head : STRUCT ID
                       | STRUCT TYPE_NAME"""
        self.type_names.add(p[2])
        p[0] = (p[2], self._coord(p, 2))

    def p_struct_member_list(self, p):
        """struct_member_list : struct_member
                              | struct_member_list struct_member"""
        p[0] = p[1] + p[2] if len(p) == 3 else p[1]

    def p_struct_member(self, p):
        """struct_member : declaration
                         | struct_declaration"""
        p[0] = _flatten(p[1])  # a nested struct is hoisted next to the one that contains it

    def p_struct_member_error(self, p):
        """struct_member : error SEMI"""
        p[0] = []

    def p_typedef_declaration(self, p):
        """typedef_declaration : TYPEDEF declaration_specifiers typedef_name array_dims_opt SEMI"""
        modifiers, type_spec = p[2]
        type_spec.modifiers = modifiers + type_spec.modifiers
        name, coord = p[3]
        p[0] = ast.Typedef(type_spec, name, p[4], coord=coord)

    def p_typedef_name(self, p):
        """typedef_name : ID
                        | TYPE_NAME"""
        self.type_names.add(p[1])
        p[0] = (p[1], self._coord(p, 1))

    def p_cbuffer_body(self, p):
        """cbuffer_body : CBUFFER ID annotation_list_opt LBRACE struct_member_list RBRACE
                        | CBUFFER ID annotation_list_opt LBRACE RBRACE"""
        items = p[5] if len(p) == 7 else []
        members = [item for item in items if isinstance(item, ast.VarDecl)]
        register = dict(p[3]).get("register")
        cbuffer = ast.CBuffer(p[1], p[2], members, register, coord=self._coord(p, 2))
        p[0] = [item for item in items if not isinstance(item, ast.VarDecl)] + [cbuffer]

    def p_cbuffer_declaration(self, p):
        """cbuffer_declaration : cbuffer_body
                               | attribute_list cbuffer_body"""
        if len(p) == 3:
            p[2][-1].attributes = p[1]
        p[0] = p[len(p) - 1]

    # ------------------------------------------------------------- attributes
    def p_attribute_list(self, p):
        """attribute_list : attribute
                          | attribute_list attribute"""
        p[0] = p[1] + [p[2]] if len(p) == 3 else [p[1]]

    def p_attribute(self, p):
        """attribute : LBRACKET attribute_name RBRACKET
                     | LBRACKET attribute_name LPAREN attribute_args RPAREN RBRACKET"""
        name, coord = p[2]
        p[0] = ast.Attribute(name, p[4] if len(p) == 7 else [], coord=coord)

    def p_attribute_vulkan(self, p):
        """attribute : LBRACKET LBRACKET attribute_name COLONCOLON attribute_name RBRACKET RBRACKET
                     | LBRACKET LBRACKET attribute_name COLONCOLON attribute_name LPAREN attribute_args RPAREN RBRACKET RBRACKET"""
        (namespace, coord), (name, _) = p[3], p[5]
        p[0] = ast.Attribute(f"{namespace}::{name}", p[7] if len(p) == 11 else [], coord=coord)

    def p_attribute_name(self, p):
        """attribute_name : ID
                          | TYPE_NAME
                          | TEMPLATE_NAME"""
        p[0] = (p[1], self._coord(p, 1))

    def p_attribute_args(self, p):
        """attribute_args : attribute_arg
                          | attribute_args COMMA attribute_arg"""
        p[0] = p[1] + [p[3]] if len(p) == 4 else [p[1]]

    def p_attribute_arg(self, p):
        """attribute_arg : conditional_expression
                         | STRING"""
        p[0] = p[1] if not isinstance(p[1], str) else p[1][1:-1]

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
            p[0] = ast.DeclStmt(_flatten(p[1]), outer.coord)
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
                self.diagnostics.warning(f"attribute '{attribute.name}' ignored on this statement", attribute.coord)
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

    def p_empty(self, p):
        """empty :"""
        p[0] = None


def _flatten(items) -> list:
    """The declarations in a ``DeclStmt`` or a list of declarations and ``DeclStmt``s."""
    items = items.decls if isinstance(items, ast.DeclStmt) else items
    return [d for item in items for d in (item.decls if isinstance(item, ast.DeclStmt) else [item])]
