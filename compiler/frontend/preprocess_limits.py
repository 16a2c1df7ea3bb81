"""What the preprocessor refuses before pcpp works on it, and the size of a macro expansion
predicted before pcpp builds it.

Limits (README, "Limits"): include depth 200 (clang's), macro nesting 256, one macro use
at most 65,536 tokens, at most 2,097,152 tokens read and as many written, and at most 64 MiB
of preprocessed text. Each is a fatal error where it was reached (``LimitExceeded``,
reported by preprocess.py). pcpp holds a few hundred bytes per token, so the token limits
also bound its memory.

pcpp builds every token of an expansion and touches each token once per nesting level,
so a chain of forty macros that each use the previous one twice asks it for 2**40 tokens,
and 2,000 nested calls ``F(F(F(...)))`` cost it seconds of rescanning. Neither can be
stopped from outside once pcpp has started, so ``ExpansionSizes`` predicts the size of a
token list's expansion first, in one pass over it: an object-like macro counts as its
replacement list expanded; a call of a function-like macro as its replacement list with
each parameter replaced by its argument (fully expanded, or as written after ``#`` and
``##``). Sizes are remembered per macro and argument sizes, so that chain costs one step
per macro instead of 2**40, and nested calls are counted as they open, so the 257th is
refused before pcpp collects a single argument. The prediction is close, not exact (a
name formed by ``##`` is not looked up, a macro inside its own expansion counts once);
the preprocessor also counts what pcpp really produces and stops there too.

``#if`` expressions reach Python's unbounded integers in pcpp's evaluator: integer literals
over 64 bits and shifts by 64 bits or more are refused first (``CheckedEvaluator``,
``_refuse_wide_shifts``).
"""

from __future__ import annotations

from pcpp.evaluator import Value

from .lexer import INTEGER_TOO_LARGE, integer_literal

MAX_INCLUDE_DEPTH = 200  # clang's default (-fmax-include-depth)
MAX_MACRO_NESTING = 256  # macro calls inside macro arguments, or expansions inside expansions
MAX_EXPANSION_TOKENS = 1 << 16  # tokens one use of a macro may expand to
MAX_INPUT_TOKENS = 1 << 21  # tokens pcpp lexes, over every file it reads (a file read twice counts twice)
MAX_OUTPUT_TOKENS = 1 << 21  # tokens of the whole preprocessed text
MAX_OUTPUT_SIZE = 64 << 20  # characters of the whole preprocessed text

NESTED_TOO_DEEPLY = f"macro expansion nested more than {MAX_MACRO_NESTING} levels deep"
OUTPUT_TOO_LARGE = f"preprocessed output is too large (more than {MAX_OUTPUT_TOKENS} tokens)"
INPUT_TOO_LARGE = f"preprocessor input is too large (more than {MAX_INPUT_TOKENS} tokens read)"


def expansion_too_large(name: str | None) -> str:
    expansion = f"expansion of macro '{name}'" if name else "macro expansion"
    return f"{expansion} is too large (more than {MAX_EXPANSION_TOKENS} tokens)"


class LimitExceeded(Exception):
    """A limit was reached: ``message``, at the token ``tok`` (None: the preprocessor knows where)."""

    def __init__(self, message: str, tok=None):
        super().__init__(message)
        self.message, self.tok = message, tok


class _Call:
    """A call of a function-like macro whose closing parenthesis has not been reached yet."""

    def __init__(self, macro, tok):
        self.macro, self.tok = macro, tok
        self.args: list[tuple[int, int]] = []  # (tokens as written, tokens expanded) per argument
        self.raw = self.expanded = 0  # of the argument being read
        self.span = 3  # tokens as written: the name, '(' and ')' so far
        self.parens = 0  # open parentheses inside the arguments

    def add(self, raw: int, expanded: int) -> None:
        self.raw += raw
        self.expanded = _saturate(self.expanded + expanded)
        self.span = _saturate(self.span + raw)

    def end_argument(self) -> None:
        self.args.append((self.raw, self.expanded))
        self.raw = self.expanded = 0


def _saturate(size: int) -> int:
    """Sizes stop growing just past every limit, so they stay small numbers."""
    return min(size, MAX_OUTPUT_TOKENS + 1)


class ExpansionSizes:
    """Predicts how many tokens expanding a token list produces, without expanding it."""

    def __init__(self, macros: dict, t_ID: str, t_WS: tuple):
        self.macros = macros  # pcpp's table, read as it changes
        self.t_ID, self.t_WS = t_ID, t_WS
        self._memo: dict[tuple, int] = {}

    def forget(self) -> None:
        """Called on every #define and #undef: a size may depend on any macro."""
        self._memo.clear()

    def check(self, tokens: list, room: int) -> int:
        """The size of ``tokens`` expanded, where at most ``room`` more output tokens fit.

        Raises ``LimitExceeded`` at the macro use that nests too deeply, expands to more
        than ``MAX_EXPANSION_TOKENS`` or takes the output past ``room``.
        """
        if len(tokens) <= room and not any(tok.type == self.t_ID and tok.value in self.macros for tok in tokens):
            return len(tokens)  # no macro used (most lines): the tokens stay as they are
        return self._scan(tokens, frozenset(), 0, room)

    def _scan(self, items: list, active: frozenset, depth: int, room: int | None = None) -> int:
        """The expanded size of ``items`` (tokens, or ints standing for substituted arguments).

        ``active`` holds the macros being expanded (not expanded again inside themselves);
        ``depth`` is how many expansions enclose ``items``. At the top (``room`` given),
        each macro use is checked against the limits as it ends, and a limit reached
        inside it is reported at it.
        """
        total = 0
        calls: list[_Call] = []  # the calls whose arguments are being read, outermost first
        index = 0
        while index < len(items):
            use = calls[0].tok if calls else items[index]
            try:
                index, size = self._step(items, index, calls, active, depth, top=room is not None)
            except LimitExceeded as limit:
                if limit.tok is None and room is not None:
                    limit.tok = use
                raise
            if size is None:  # a call opened, or an argument ended
                continue
            raw, expanded = size
            if calls:
                calls[-1].add(raw, expanded)
                continue
            total = _saturate(total + expanded)
            if room is not None:
                if expanded > MAX_EXPANSION_TOKENS:
                    raise LimitExceeded(expansion_too_large(use.value), use)
                if total > room:
                    raise LimitExceeded(OUTPUT_TOO_LARGE, use)
        # A call left open: pcpp leaves it, and the rest of the list, as written.
        return _saturate(total + sum(call.span + call.raw for call in calls))

    def _step(self, items: list, index: int, calls: list[_Call], active: frozenset, depth: int,
              top: bool) -> tuple[int, tuple[int, int] | None]:
        """Read ``items[index]``: the next index, and its size (as written, expanded) if it has one."""
        item = items[index]
        if isinstance(item, int):
            return index + 1, (item, item)
        macro = self.macros.get(item.value) if item.type == self.t_ID and item.value not in active else None
        if macro is not None and macro.arglist is None:
            return index + 1, (1, self._object(macro, active, depth + len(calls) + 1))
        if macro is not None:
            opening = self._skip_blanks(items, index + 1)
            if opening == len(items) or not _is(items[opening], "("):
                return index + 1, (1, 1)  # a function-like macro's name alone is not a call
            if depth + len(calls) >= MAX_MACRO_NESTING:
                raise LimitExceeded(NESTED_TOO_DEEPLY, item if top else None)
            calls.append(_Call(macro, item))
            return opening + 1, None
        call = calls[-1] if calls else None
        if call is not None and not call.parens and item.value == ",":
            call.span += 1
            call.end_argument()
            return index + 1, None
        if call is not None and not call.parens and item.value == ")":
            call.end_argument()
            calls.pop()
            return index + 1, (call.span, self._call(call.macro, call.args, active, depth + len(calls) + 1))
        if call is not None and item.value == "(":
            call.parens += 1
        elif call is not None and item.value == ")":
            call.parens -= 1
        return index + 1, (1, 1)

    def _skip_blanks(self, items: list, index: int) -> int:
        while index < len(items) and not isinstance(items[index], int) and items[index].type in self.t_WS:
            index += 1
        return index

    def _object(self, macro, active: frozenset, depth: int) -> int:
        key = (macro.name,)
        if key not in self._memo:
            if depth > MAX_MACRO_NESTING:
                raise LimitExceeded(NESTED_TOO_DEEPLY)
            self._memo[key] = self._scan(macro.value, active | {macro.name}, depth)
        return self._memo[key]

    def _call(self, macro, args: list[tuple[int, int]], active: frozenset, depth: int) -> int:
        args = _fit_arguments(macro, args)
        key = (macro.name, args)
        if key not in self._memo:
            if depth > MAX_MACRO_NESTING:
                raise LimitExceeded(NESTED_TOO_DEEPLY)
            body: list = list(macro.value)
            for number, position in macro.str_patch:  # '#x': one string
                body[position] = 1
            for kind, number, position in macro.patch:  # 't': as written (next to ##); 'e': expanded
                raw, expanded = args[number]
                body[position] = raw if kind == "t" else expanded
            self._memo[key] = self._scan(body, active | {macro.name}, depth)
        return self._memo[key]


def _fit_arguments(macro, args: list[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The arguments as pcpp passes them: the variadic ones joined, missing ones empty."""
    count = len(macro.arglist)
    if macro.variadic and len(args) > count:
        rest = args[count - 1:]
        commas = len(rest) - 1
        args = args[:count - 1] + [(sum(raw for raw, _ in rest) + commas, sum(exp for _, exp in rest) + commas)]
    args = args[:count] + [(0, 0)] * (count - len(args))
    return tuple((_saturate(raw), _saturate(expanded)) for raw, expanded in args)


def _is(item, value: str) -> bool:
    return not isinstance(item, int) and item.value == value


class ShiftCountTooLarge(ArithmeticError):
    """A left shift by 64 bits or more in #if (pcpp's message names this class; error_text words it)."""


class CheckedEvaluator:
    """pcpp's #if evaluator, refusing first what it would hand to Python's unbounded integers.

    An integer literal over 64 bits (pcpp calls int() on any number of digits) is an
    error at the literal, or at the directive if a macro supplied it; the expression is
    then false. A left shift by 64 or more is refused by ``_refuse_wide_shifts``.
    """

    def __init__(self, evaluate, preprocessor):
        self.evaluate, self.preprocessor = evaluate, preprocessor

    def __call__(self, tokens, functions={}, identifiers={}):  # noqa: B006 - pcpp's signature
        pre = self.preprocessor
        for tok in tokens:
            if tok.type == pre.t_INTEGER and integer_literal(tok.value)[2] == INTEGER_TOO_LARGE:
                where = pre.directive_coord() if tok.expanded_from else pre.coord_of(tok)
                pre.diagnostics.error(INTEGER_TOO_LARGE, where)
                return Value(0)
        return self.evaluate(tokens, functions=functions, identifiers=identifiers)


def _refuse_wide_shifts() -> None:
    """``#if 1 << 100000000000`` would make pcpp build a 12 GB Python integer before clamping
    it to 64 bits; a shift count of 64 or more raises instead (pcpp turns the exception into
    its evaluation error). C leaves such a shift undefined; clang warns and clamps."""
    shift = Value.__lshift__
    if getattr(shift, "refuses_wide_shifts", False):
        return

    def checked_shift(self, other):
        if int(other) >= 64:
            raise ShiftCountTooLarge()
        return shift(self, other)

    checked_shift.refuses_wide_shifts = True
    Value.__lshift__ = checked_shift


_refuse_wide_shifts()
