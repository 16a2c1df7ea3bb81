"""Syntax error messages and the one repair the parser makes: a forgotten ``;``.

PLY calls the parser's ``p_error`` with the offending token; this module works
out what the parser could have accepted there, words the message the way
clang/gcc do ("expected ';' before 'int'", "expected expression before ')'"),
and, when a ``;`` is missing at the end of a line or before ``}``, hands PLY a
``;`` so parsing continues as if it had been written.
"""

from __future__ import annotations

from typing import Callable

import ply.yacc as yacc

from .lexer import Lexer
from ..diagnostics import Coord, Diagnostics

# How a token kind is written, for "expected ..." messages.
SPELLING = {
    "SEMI": ";", "RPAREN": ")", "LPAREN": "(", "RBRACKET": "]", "LBRACKET": "[", "RBRACE": "}",
    "LBRACE": "{", "COMMA": ",", "COLON": ":", "EQUALS": "=", "GT": ">", "LT": "<", "ID": "identifier",
    "WHILE": "while", "PERIOD": ".", "TYPE_NAME": "type name",
}

# Tokens that can begin a type.
TYPE_START = frozenset({"TYPE_NAME", "TEMPLATE_NAME", "VOID", "STRUCT", "MODIFIER"})

# Closing tokens, in the order a message at end of input asks for them.
CLOSERS = ("RBRACE", "RPAREN", "RBRACKET", "SEMI")


class SyntaxErrors:
    """Reports one syntax error per call of ``report`` and decides on repairs."""

    def __init__(self, diagnostics: Diagnostics, lexer: Lexer, coord_at: Callable[[int], Coord]):
        self.diagnostics = diagnostics
        self.lexer = lexer
        self.coord_at = coord_at
        self.text = ""
        self._inserted_at = -1  # lexpos of the token a ';' was last inserted before

    def reset(self, text: str) -> None:
        self.text = text
        self._inserted_at = -1

    def report(self, lr: yacc.LRParser, tok):
        """Report the error at ``tok`` (None: end of input); maybe return a token to continue with."""
        expected = expected_tokens(lr)
        before = self.lexer.end_before(tok)
        if before <= self.lexer.last_error and (tok is None or self.lexer.last_error < tok.lexpos):
            # The lexer already reported the character the parser is missing.
            return self._repair(lr, tok, before, expected)
        if tok is None:
            closer = next((SPELLING[t] for t in CLOSERS if t in expected), None)
            message = f"expected '{closer}'" if closer else describe_expected(expected)
            message = "unexpected end of input" if message == "unexpected" else f"{message} at end of input"
            self.diagnostics.error(message, self.coord_at(before))
            return None
        shown = tok.value if len(tok.value) <= 20 else tok.value[:20] + "..."
        previous = self.lexer.token_before(tok)
        if getattr(tok, "unmatched", False):
            self.diagnostics.error("extraneous closing brace '}'", self.coord_at(tok.lexpos))
        elif tok.type == "ID" and "TYPE_NAME" in expected and "ID" not in expected:
            self.diagnostics.error(f"unknown type name '{shown}'", self.coord_at(tok.lexpos))
        elif self._declares_with_unknown_type(tok, previous):
            self.diagnostics.error(f"unknown type name '{previous.value}'", self.coord_at(previous.lexpos))
        elif "SEMI" in expected and "INT_CONST" not in expected and previous is not None \
                and previous.type not in ("SEMI", "LBRACE", "RBRACE"):
            # Like clang, point just past the token the ';' should follow.
            self.diagnostics.error(f"expected ';' before '{shown}'", self.coord_at(before))
        else:
            wanted = describe_expected(expected)
            message = f"unexpected '{shown}'" if wanted == "unexpected" else f"{wanted} before '{shown}'"
            self.diagnostics.error(message, self.coord_at(tok.lexpos))
        return self._repair(lr, tok, before, expected)

    def _repair(self, lr: yacc.LRParser, tok, before: int, expected: set[str]):
        if tok is not None and "SEMI" in expected and tok.lexpos != self._inserted_at \
                and self._starts_anew(tok, before):
            return self._insert_semicolon(lr, tok, before)
        return None

    def _declares_with_unknown_type(self, tok, previous) -> bool:
        """``X y`` at the start of a statement: ``X`` must have been meant as a type."""
        if tok.type != "ID" or previous is None or previous.type != "ID":
            return False
        start = self.lexer.token_before(tok, back=2)
        return start is None or start.type in ("SEMI", "LBRACE", "RBRACE", "MODIFIER", "LPAREN")

    def _starts_anew(self, tok, before: int) -> bool:
        """True if ``tok`` looks like the start of the next statement (a ';' was forgotten)."""
        return tok.type == "RBRACE" or "\n" in self.text[before:tok.lexpos]

    def _insert_semicolon(self, lr: yacc.LRParser, tok, before: int):
        # Repair instead of skipping: PLY takes a token returned after errok() as
        # the next lookahead, and ``tok`` is read again after it. Only once per
        # token, so a ';' that does not help cannot loop.
        self._inserted_at = tok.lexpos
        self.lexer.push_back(tok)
        lr.errok()
        return self.lexer.make_token("SEMI", ";", before)


def expected_tokens(lr: yacc.LRParser) -> set[str]:
    """The tokens the parser could shift in its current configuration.

    LALR states merge lookaheads from different contexts, so the action table
    of the current state over-approximates; replaying the reductions a token
    would cause on a copy of the state stack gives the exact set.
    """
    candidates = set(lr.action.get(lr.state, {})) - {"error"}
    return {kind for kind in candidates if _can_shift(lr, kind)}


def _can_shift(lr: yacc.LRParser, kind: str) -> bool:
    stack = list(lr.statestack)
    while stack:
        action = lr.action[stack[-1]].get(kind)
        if action is None:
            return False
        if action >= 0:
            return True
        rule = lr.productions[-action]
        if rule.len:
            del stack[-rule.len:]
        if not stack:
            return False
        stack.append(lr.goto[stack[-1]][rule.name])
    return False


def describe_expected(expected: set[str]) -> str:
    """'expected ...' for the tokens the parser could take (or 'unexpected')."""
    if "OPERATOR" in expected:  # a declarator's name: 'operator+' and 'S::f' are rarer ways to write one
        expected = expected - {"OPERATOR", "TYPE_NAME"}
    if "INT_CONST" in expected:
        return "expected expression"
    if expected and expected <= TYPE_START:
        return "expected a type"
    if "TYPE_NAME" in expected and "TYPEDEF" in expected:
        return "expected a declaration"
    names = sorted(SPELLING[t] for t in expected if t in SPELLING)
    if names and len(names) <= 3 and len(names) == len(expected):
        return "expected " + " or ".join(f"'{name}'" for name in names)
    return "unexpected"
