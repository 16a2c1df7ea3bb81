"""The declaration half of the HLSL grammar: functions, variables, structs, typedefs, cbuffers, attributes.

A mixin of ``parser.Parser``: it brings the PLY ``p_`` methods and uses the
parser's ``_coord``, ``diagnostics`` and ``type_names`` (struct and typedef names
are registered here as they are declared, so the lexer turns later uses into
``TYPE_NAME`` tokens). ``_apply_unsigned`` is shared with casts in
``parser_expressions``.
"""

from __future__ import annotations

import re

from . import ast
from .hlsl_types import BUILTIN_TYPES
from ..diagnostics import Coord


class DeclarationGrammar:
    """Productions for everything that declares a name."""

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

    def p_function_head_const(self, p):
        """function_head : function_head MODIFIER"""
        if p[2] != "const":
            self.diagnostics.error(f"'{p[2]}' cannot follow a function's parameters", self._coord(p, 2))
        p[1].const_method = True  # sema refuses it on a function that is not a method
        p[0] = p[1]

    def p_function_head_qualified(self, p):
        """function_head : declaration_specifiers TYPE_NAME COLONCOLON ID LPAREN parameter_list_opt RPAREN semantic_opt"""
        modifiers, type_spec = p[1]
        p[0] = ast.FuncDecl(return_type=type_spec, name=p[4], params=p[6], modifiers=modifiers, semantic=p[8],
                            coord=self._coord(p, 4), qualifier=p[2])

    def p_function_head_operator(self, p):
        """function_head : declaration_specifiers operator_name LPAREN parameter_list_opt RPAREN semantic_opt"""
        modifiers, type_spec = p[1]
        name, coord = p[2]
        p[0] = ast.FuncDecl(return_type=type_spec, name=name, params=p[4], modifiers=modifiers, semantic=p[6],
                            coord=coord)

    def p_operator_name(self, p):
        """operator_name : OPERATOR PLUS
                         | OPERATOR MINUS
                         | OPERATOR TIMES
                         | OPERATOR DIVIDE
                         | OPERATOR MOD
                         | OPERATOR XOR
                         | OPERATOR AND
                         | OPERATOR OR
                         | OPERATOR NOT
                         | OPERATOR LNOT
                         | OPERATOR LT
                         | OPERATOR GT
                         | OPERATOR LE
                         | OPERATOR GE
                         | OPERATOR EQ
                         | OPERATOR NE
                         | OPERATOR ANDAND
                         | OPERATOR OROR
                         | OPERATOR LSHIFT
                         | OPERATOR RSHIFT
                         | OPERATOR PLUSPLUS
                         | OPERATOR MINUSMINUS
                         | OPERATOR assignment_operator
                         | OPERATOR LBRACKET RBRACKET
                         | OPERATOR LPAREN RPAREN"""
        symbol = p[2][0] if isinstance(p[2], tuple) else "".join(p[2:])  # assignment_operator: (op, coord)
        p[0] = ("operator" + symbol, self._coord(p, 1))  # sema says which may be overloaded

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
        (name, coord), base = p[1]
        items = p[3] if len(p) == 5 else []
        members = [item for item in items if isinstance(item, ast.VarDecl)]
        methods = [item for item in items if isinstance(item, ast.FuncDecl)]
        nested = [item for item in items if not isinstance(item, (ast.VarDecl, ast.FuncDecl))]
        p[0] = (nested, ast.StructDecl(name, members, coord=coord, base=base, methods=methods))

    def p_struct_head(self, p):
        """struct_head : struct_name
                       | struct_name COLON TYPE_NAME"""
        base = ast.TypeSpec(p[3], coord=self._coord(p, 3)) if len(p) == 4 else None
        p[0] = (p[1], base)

    def p_struct_name(self, p):
        """struct_name : STRUCT ID
                       | STRUCT TYPE_NAME"""
        self.type_names.add(p[2])  # before the body, whose methods may name the struct
        p[0] = (p[2], self._coord(p, 2))

    def p_struct_member_list(self, p):
        """struct_member_list : struct_member
                              | struct_member_list struct_member"""
        p[0] = p[1] + p[2] if len(p) == 3 else p[1]

    def p_struct_member(self, p):
        """struct_member : declaration
                         | struct_declaration"""
        p[0] = flatten(p[1])  # a nested struct is hoisted next to the one that contains it

    def p_struct_member_method(self, p):
        """struct_member : function_definition"""
        p[0] = [p[1]]  # a method: sema gives it its struct and its implicit 'this'

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
                         | string_literal"""
        p[0] = p[1]

    def p_string_literal(self, p):
        """string_literal : STRING
                          | string_literal STRING"""
        p[0] = p[1][1:-1] if len(p) == 2 else p[1] + p[2][1:-1]  # "a" "b" is "ab", as in C


def flatten(items) -> list:
    """The declarations in a ``DeclStmt`` or a list of declarations and ``DeclStmt``s."""
    items = items.decls if isinstance(items, ast.DeclStmt) else items
    return [d for item in items for d in (item.decls if isinstance(item, ast.DeclStmt) else [item])]
