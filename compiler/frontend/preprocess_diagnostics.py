"""What the preprocessor says beyond pcpp: pcpp's messages in clang's words, and
clang's warning when a macro is defined again with a different body.

``MacroDefinitions`` remembers where each macro was defined (a ``-D`` option on the
``<command line>``, or a ``#define``) and its body, so a redefinition can point back at
the previous one and a diagnostic inside an expansion can show the macro it came from.
"""

from __future__ import annotations

import re

from ..diagnostics import Coord, Diagnostics


class MacroDefinitions:
    """Where each macro now defined was defined, and its body with whitespace runs made one space."""

    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self._where: dict[str, tuple[Coord, str]] = {}

    def define(self, name: str, body: str, coord: Coord) -> None:
        """Record a definition; warn, as clang does, if it changes an earlier one."""
        body = " ".join(body.split())
        previous = self._where.get(name)
        if previous is not None and previous[1] != body:
            if self.diagnostics.warning(f"'{name}' macro redefined", coord, "macro-redefined"):
                self.diagnostics.note("previous definition is here", previous[0])
        self._where[name] = (coord, body)

    def forget(self, name: str) -> None:
        self._where.pop(name, None)

    def where(self, name: str) -> Coord | None:
        """The position of the definition of ``name`` in force (None: one of pcpp's own)."""
        found = self._where.get(name)
        return found[0] if found else None


# pcpp's messages in clang's words.
MISSING_ANGLE = "missing terminating '>' character"
_MESSAGES = (
    (re.compile(r"Unterminated #"), "unterminated conditional directive"),
    (re.compile(r"Misplaced #(\w+)"), r"#\1 without #if"),
    (re.compile(r"Malformed #include <"), MISSING_ANGLE),
)
_EVALUATION_ERRORS = {"ZeroDivisionError": "division by zero", "ShiftCountTooLarge": "shift count is too large"}


def error_text(message: str) -> str:
    message = message.strip()
    evaluation = re.match(r"Could not evaluate expression due to (\w+)\(.*\(passed to evaluator: '(.*)'\)$", message,
                          re.DOTALL)
    if evaluation:
        reason = _EVALUATION_ERRORS.get(evaluation.group(1), "invalid expression")
        expression = " ".join(evaluation.group(2).split())
        shown = expression if len(expression) <= 60 else expression[:57] + "..."
        return f"{reason} in preprocessor expression '{shown}'"
    for pattern, words in _MESSAGES:
        match = pattern.match(message)
        if match:
            return match.expand(words)
    return message[:1].lower() + message[1:] if message else "preprocessing error"
