"""The HLSL lexer (PLY).

Identifiers that name a type become ``TYPE_NAME`` (or ``TEMPLATE_NAME`` for types
that take ``<...>`` arguments) through a lookup the parser provides, so the
grammar can tell ``(float3)x`` from ``(x)`` the way C parsers do. Inside template
arguments ``>>`` is split into two ``>``, so ``vector<vector<float, 2>>`` lexes.
A member template method (``buf.Load<float2>(0)``, ``buf.Store<half>(0, h)``) is told from
a comparison (``s.Load < x``) by what follows the name: ``<`` and a type name make the name
a ``TEMPLATE_METHOD`` token, whose argument list then lexes like a type's.
"""

from __future__ import annotations

import re
from typing import Callable

import ply.lex as lex

from .hlsl_types import BUILTIN_TYPES, RESOURCE_KINDS, SAMPLER_KINDS

KEYWORDS = {
    "break": "BREAK", "case": "CASE", "cbuffer": "CBUFFER", "tbuffer": "CBUFFER",
    "continue": "CONTINUE", "default": "DEFAULT", "discard": "DISCARD", "do": "DO",
    "else": "ELSE", "false": "FALSE", "for": "FOR", "if": "IF", "packoffset": "PACKOFFSET",
    "register": "REGISTER", "return": "RETURN", "struct": "STRUCT", "switch": "SWITCH",
    "class": "STRUCT",  # HLSL's class is a struct: no access control, every member public
    "operator": "OPERATOR",
    "true": "TRUE", "typedef": "TYPEDEF", "while": "WHILE", "void": "VOID",
}

# Storage classes, type modifiers and parameter directions, all one token kind.
MODIFIERS = {
    "static", "const", "uniform", "extern", "volatile", "inline", "precise", "groupshared",
    "globallycoherent", "row_major", "column_major", "snorm", "unorm", "in", "out", "inout",
    "nointerpolation", "shared", "unsigned",
}

# Type names that take template arguments.
TEMPLATE_TYPES = {"vector", "matrix", "ConstantBuffer", *RESOURCE_KINDS}
# Resource methods that take a template argument (``Load<float2>``), and what must follow
# such a name for it to be one: ``<`` and an identifier (checked to be a type name).
TEMPLATE_METHODS = {"Load", "Store"}
_TEMPLATE_ARGUMENT = re.compile(r"\s*<\s*([A-Za-z_][A-Za-z0-9_]*)")
# Built-in type names that do not need arguments (byte-address buffers, samplers and
# resources written without an element type default to float4).
PLAIN_TYPES = set(BUILTIN_TYPES) | set(SAMPLER_KINDS) | set(RESOURCE_KINDS) | {"vector", "matrix"}

tokens = (
    "ID", "TYPE_NAME", "TEMPLATE_NAME", "TEMPLATE_METHOD", "MODIFIER",
    "INT_CONST", "FLOAT_CONST", "STRING",
    # operators
    "PLUS", "MINUS", "TIMES", "DIVIDE", "MOD", "OR", "AND", "NOT", "XOR", "LSHIFT", "RSHIFT",
    "OROR", "ANDAND", "LNOT", "LT", "LE", "GT", "GE", "EQ", "NE",
    "EQUALS", "TIMESEQUAL", "DIVEQUAL", "MODEQUAL", "PLUSEQUAL", "MINUSEQUAL",
    "LSHIFTEQUAL", "RSHIFTEQUAL", "ANDEQUAL", "XOREQUAL", "OREQUAL",
    "PLUSPLUS", "MINUSMINUS", "CONDOP", "COLON", "COLONCOLON",
    "LPAREN", "RPAREN", "LBRACKET", "RBRACKET", "LBRACE", "RBRACE",
    "COMMA", "PERIOD", "SEMI",
) + tuple(sorted(set(KEYWORDS.values())))


class Lexer:
    """Wraps the PLY lexer: type-name lookup, template ``>>`` splitting, error reports."""

    def __init__(self, is_type_name: Callable[[str], bool], on_error: Callable[[str, int], None]):
        self.is_type_name = is_type_name
        self.on_error = on_error
        self.lexer = lex.lex(module=self, optimize=False, debug=False)
        self._pending: list[lex.LexToken] = []
        self._template_depth = 0
        self._brace_depth = 0
        self._last_type = ""
        self._recent: list[lex.LexToken] = []  # the last three tokens handed out
        self.last_error = -1  # lexpos of the last invalid character

    def input(self, text: str) -> None:
        self.lexer.input(text)
        self.lexer.lineno = 1
        self._pending.clear()
        self._template_depth = 0
        self._brace_depth = 0
        self._last_type = ""
        self._recent = []
        self.last_error = -1

    def token(self) -> lex.LexToken | None:
        if self._pending:
            tok = self._pending.pop()
        else:
            tok = self.lexer.token()
            if tok is None:
                return None
            tok = self._track_templates(tok)
        self._last_type = tok.type
        self._recent = [*self._recent[-2:], tok]
        return tok

    def _track_templates(self, tok: lex.LexToken) -> lex.LexToken:
        """Split ``>>`` closing template arguments; count braces to spot unmatched ``}``."""
        if tok.type == "LT" and self._last_type in ("TEMPLATE_NAME", "TEMPLATE_METHOD"):
            self._template_depth += 1
        elif tok.type == "GT" and self._template_depth:
            self._template_depth -= 1
        elif tok.type == "RSHIFT" and self._template_depth:
            first, second = _split(tok, "GT")
            self._template_depth = max(self._template_depth - 2, 0)
            self._pending.append(second)
            tok = first
        elif tok.type in ("SEMI", "LBRACE", "RBRACE"):
            self._template_depth = 0
        if tok.type == "LBRACE":
            self._brace_depth += 1
        elif tok.type == "RBRACE":
            tok.unmatched = self._brace_depth == 0  # for the parser's error message
            self._brace_depth = max(self._brace_depth - 1, 0)
        return tok

    # ----------------------------------------------------- error recovery
    def push_back(self, tok: lex.LexToken) -> None:
        """Hand ``tok`` out again as the next token."""
        self._pending.append(tok)
        if self._recent and self._recent[-1] is tok:
            self._recent.pop()

    def token_before(self, tok: lex.LexToken | None, back: int = 1) -> lex.LexToken | None:
        """The token handed out ``back`` tokens before ``tok`` (None: after the last one)."""
        previous = [t for t in self._recent if t is not tok]
        return previous[-back] if len(previous) >= back else None

    def end_before(self, tok: lex.LexToken | None) -> int:
        """The offset just after the token handed out before ``tok`` (or after the last one)."""
        last = self.token_before(tok)
        if last is None:
            return tok.lexpos if tok is not None else 0
        return last.lexpos + len(last.value)

    @staticmethod
    def make_token(kind: str, value: str, lexpos: int) -> lex.LexToken:
        tok = lex.LexToken()
        tok.type, tok.value, tok.lineno, tok.lexpos = kind, value, 0, lexpos
        return tok

    # --------------------------------------------------------------- rules
    t_ignore = " \t\r\f\v"

    def t_newline(self, t):
        r"\n+"
        t.lexer.lineno += len(t.value)

    def t_FLOAT_CONST(self, t):
        r"((\d+\.(?![xyzwrgba])\d*|\.\d+)([eE][+-]?\d+)?|\d+[eE][+-]?\d+)[fFhHlL]?"
        # '1.xx' is a swizzle of the integer 1, not '1.' followed by 'xx'.
        return t

    def t_INT_CONST(self, t):
        r"(0[xX][0-9a-fA-F]+|\d+)[uUlL]*"
        return t

    def t_STRING(self, t):
        r'"([^"\\\n]|\\.)*"'
        return t

    def t_ID(self, t):
        r"[A-Za-z_][A-Za-z0-9_]*"
        word = t.value
        if word in KEYWORDS:
            t.type = KEYWORDS[word]
        elif word in MODIFIERS:
            t.type = "MODIFIER"
        elif word in TEMPLATE_TYPES:
            t.type = "TEMPLATE_NAME"
        elif word in PLAIN_TYPES or self.is_type_name(word):
            t.type = "TYPE_NAME"
        elif word in TEMPLATE_METHODS and self._last_type == "PERIOD" and self._names_a_type_after(t):
            t.type = "TEMPLATE_METHOD"
        return t

    def _names_a_type_after(self, t) -> bool:
        """Whether ``<`` and a type name follow the token ``t`` (``Load<float2>``, not ``Load < n``)."""
        following = _TEMPLATE_ARGUMENT.match(t.lexer.lexdata, t.lexpos + len(t.value))
        if following is None:
            return False
        word = following.group(1)
        return word in TEMPLATE_TYPES or word in PLAIN_TYPES or word == "struct" or self.is_type_name(word)

    t_COLONCOLON = r"::"
    t_PLUSPLUS = r"\+\+"
    t_MINUSMINUS = r"--"
    t_LSHIFTEQUAL = r"<<="
    t_RSHIFTEQUAL = r">>="
    t_PLUSEQUAL = r"\+="
    t_MINUSEQUAL = r"-="
    t_TIMESEQUAL = r"\*="
    t_DIVEQUAL = r"/="
    t_MODEQUAL = r"%="
    t_ANDEQUAL = r"&="
    t_OREQUAL = r"\|="
    t_XOREQUAL = r"\^="
    t_OROR = r"\|\|"
    t_ANDAND = r"&&"
    t_LSHIFT = r"<<"
    t_RSHIFT = r">>"
    t_LE = r"<="
    t_GE = r">="
    t_EQ = r"=="
    t_NE = r"!="
    t_LT = r"<"
    t_GT = r">"
    t_EQUALS = r"="
    t_PLUS = r"\+"
    t_MINUS = r"-"
    t_TIMES = r"\*"
    t_DIVIDE = r"/"
    t_MOD = r"%"
    t_OR = r"\|"
    t_AND = r"&"
    t_NOT = r"~"
    t_XOR = r"\^"
    t_LNOT = r"!"
    t_CONDOP = r"\?"
    t_COLON = r":"
    t_LPAREN = r"\("
    t_RPAREN = r"\)"
    t_LBRACKET = r"\["
    t_RBRACKET = r"\]"
    t_LBRACE = r"\{"
    t_RBRACE = r"\}"
    t_COMMA = r","
    t_PERIOD = r"\."
    t_SEMI = r";"

    def t_error(self, t):
        self.last_error = t.lexpos
        if t.value[0] == '"':
            self.on_error("missing terminating '\"' character", t.lexpos)
            end = t.value.find("\n")
            t.lexer.skip(end if end > 0 else len(t.value))
            return
        self.on_error(f"invalid character {t.value[0]!r}", t.lexpos)
        t.lexer.skip(1)

    tokens = tokens


def _split(tok: lex.LexToken, kind: str) -> tuple[lex.LexToken, lex.LexToken]:
    """Two one-character tokens of type ``kind`` in place of ``tok`` (``>>`` -> ``>``, ``>``)."""
    first, second = lex.LexToken(), lex.LexToken()
    for part, offset in ((first, 0), (second, 1)):
        part.type, part.value = kind, tok.value[offset]
        part.lineno, part.lexpos = tok.lineno, tok.lexpos + offset
    return first, second


# An integer literal is at most 64 bits; longer digit strings are refused by their length
# before int() sees them (a 5,000-digit decimal would trip Python's int-string limit).
INTEGER_TOO_LARGE = "integer literal is too large to be represented in any integer type"
_MAX_DIGITS = {16: 16, 10: 20, 8: 22}  # digits of 2**64 - 1, leading zeros not counted


def integer_literal(text: str) -> tuple[int, str, str | None]:
    """The value and lower-case suffix of an integer literal, and what is wrong with it."""
    body = text.rstrip("uUlL")
    suffix = text[len(body):].lower()
    if body[:2].lower() == "0x":
        base, digits = 16, body[2:]
    else:  # a leading 0 is octal, as in C
        base, digits = (8 if len(body) > 1 and body.startswith("0") else 10), body
    if base == 8 and any(ch in "89" for ch in digits):
        return 0, suffix, f"invalid digit in octal constant '{_shown(text)}'"
    digits = digits.lstrip("0") or "0"
    if len(digits) > _MAX_DIGITS[base] or int(digits, base) >= 1 << 64:
        return 0, suffix, INTEGER_TOO_LARGE
    return int(digits, base), suffix, None


def float_literal(text: str) -> tuple[float, str, str | None]:
    """The value and lower-case suffix (f, h, l) of a floating-point literal, and what is wrong."""
    suffix = text[-1].lower() if text[-1] in "fFhHlL" else ""
    value = float(text[:-1] if suffix else text)  # linear in the digits, whatever the exponent
    if value == float("inf"):
        return 0.0, suffix, f"floating-point constant '{_shown(text)}' is too large"
    return value, suffix, None


def _shown(text: str) -> str:
    """A literal as a message quotes it: a very long one by its first 20 characters."""
    return text if len(text) <= 24 else text[:20] + "..."
