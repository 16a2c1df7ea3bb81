"""The HLSL parser: an LALR(1) grammar for PLY, one production family per method.

``Parser`` is the driver: it owns the lexer, the one precedence table, the
source positions and the syntax-error path, and holds the top of the grammar
(the translation unit). The rest of the grammar comes from three mixins, one per
area: ``parser_declarations``, ``parser_statements`` and ``parser_expressions``.
PLY and the table cache key (``tables.grammar_key``) read the productions
through the combined class, so they see every ``p_`` method.

Each action builds one AST node and gives it the source position of the token
that best identifies it (the operator of a binary expression, the name of a
declaration). Struct and typedef names are registered as they are declared so
the lexer turns later uses into ``TYPE_NAME`` tokens. Syntax errors are worded by
``syntax_errors``; the grammar resynchronises at ``;`` and ``}`` so one run
reports several errors.
"""

from __future__ import annotations

import bisect

from . import ast
from .lexer import Lexer, tokens
from .parser_declarations import DeclarationGrammar
from .parser_expressions import ExpressionGrammar
from .parser_statements import StatementGrammar
from .preprocess import Preprocessed
from .syntax_errors import SyntaxErrors
from .tables import build_parser
from ..diagnostics import Coord, Diagnostics


class Parser(DeclarationGrammar, StatementGrammar, ExpressionGrammar):
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

    def p_empty(self, p):
        """empty :"""
        p[0] = None
