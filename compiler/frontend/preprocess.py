"""The C preprocessor stage: pcpp plus a map from output positions to source positions.

pcpp does the preprocessing (includes, macros with ``#``/``##``, conditionals with
``defined()`` and integer expressions). This module walks pcpp's token stream,
writes the text the lexer reads, and remembers for every output span which file,
line and column it came from. Tokens produced by a macro expansion map to the
place the macro was used, as clang reports them. pcpp's own errors, and inputs
pcpp would crash on, become diagnostics in clang's words.

Hostile input is refused before pcpp works on it: an #include reads only a regular
file within diagnostics.MAX_FILE_SIZE; the include depth, macro nesting, the size of
one macro expansion and of the whole output are limited (preprocess_limits.py, which also
predicts an expansion's size before pcpp builds it); integer literals in #if and shift
counts are checked before pcpp hands them to Python's unbounded integers.
"""

from __future__ import annotations

import bisect
import copy
import io
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import pcpp
from pcpp.preprocessor import trigraph

from ..diagnostics import (CompileError, Coord, Diagnostics, SourceFileError, display_path, nesting_guard,
                           read_source_text)
from .preprocess_diagnostics import MISSING_ANGLE, MacroDefinitions, error_text
from .preprocess_limits import (INPUT_TOO_LARGE, MAX_EXPANSION_TOKENS, MAX_INCLUDE_DEPTH, MAX_INPUT_TOKENS,
                                MAX_MACRO_NESTING, MAX_OUTPUT_SIZE, MAX_OUTPUT_TOKENS, NESTED_TOO_DEEPLY,
                                CheckedEvaluator, ExpansionSizes, LimitExceeded, expansion_too_large)

STDLIB_DIR = Path(__file__).resolve().parent.parent.parent / "stdlib"
MAX_LINE_NUMBER = 2147483647  # C's limit for #line
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_DIRECTIVE = re.compile(r"\s*#\s*")


@dataclass
class Segment:
    """An output span starting at ``out_col`` on its output line."""

    out_col: int
    coord: Coord  # where the span's first character came from
    expanded: bool  # True: a macro expansion, every column maps to ``coord``


@dataclass(eq=False)  # one of a kind: compared by identity
class Preprocessed:
    """The text the lexer reads and the map back to the original sources."""

    text: str
    lines: list[list[Segment]] = field(default_factory=list)  # per output line, 1-based - 1
    main_file: str = "<input>"
    _starts: dict[int, list[int]] = field(default_factory=dict, repr=False, compare=False)

    def coord(self, line: int, col: int) -> Coord:
        """The source position of output ``line`` and ``col`` (both 1-based)."""
        line = self._line_with_text(line)
        if line == 0:
            return Coord(self.main_file, 1, col)
        segments = self.lines[line - 1]
        starts = self._starts.get(line)
        if starts is None:
            starts = self._starts[line] = [s.out_col for s in segments]
        index = bisect.bisect_right(starts, col) - 1
        segment = segments[max(index, 0)]
        if segment.expanded:
            return segment.coord
        offset = max(col - segment.out_col, 0)
        return Coord(segment.coord.file, segment.coord.line, segment.coord.col + offset)

    def _line_with_text(self, line: int) -> int:
        # An output line without text (blank, or past the end) borrows the
        # mapping of the closest line above it that has some; 0 if none does.
        line = min(line, len(self.lines))
        while line >= 1 and not self.lines[line - 1]:
            line -= 1
        return max(line, 0)


class _Files:
    """Every file read: its text, the name diagnostics show, and where its lines start.

    pcpp names a file by a path relative to the working directory (or absolute);
    everything here is keyed by the absolute path so both spellings meet.
    """

    def __init__(self, diagnostics: Diagnostics):
        self.diagnostics = diagnostics
        self._texts: dict[str, str] = {}
        self._names: dict[str, str] = {}
        self._starts: dict[str, list[int]] = {}
        self._keys: dict[str, str] = {}

    def key(self, source: str) -> str:
        """The absolute path of ``source`` (memoised: asked once per token)."""
        key = self._keys.get(source)
        if key is None:
            key = self._keys[source] = os.path.abspath(source)
        return key

    def add(self, path: str, name: str, text: str) -> None:
        key = self.key(path)
        self._texts[key] = text
        self._names[key] = name
        self.diagnostics.sources.add(name, text)

    def name(self, source: str) -> str:
        return self._names.get(self.key(source), source)

    def column(self, source: str, lexpos: int) -> int:
        """The 1-based column of pcpp's ``lexpos`` in ``source``."""
        starts = self._line_starts(source)
        index = bisect.bisect_right(starts, lexpos) - 1
        return lexpos - starts[max(index, 0)] + 1

    def line_text(self, source: str, line: int) -> str:
        text = self._texts.get(self.key(source), "")
        lines = _normalise(text).split("\n")
        return lines[line - 1] if 1 <= line <= len(lines) else ""

    def _line_starts(self, source: str) -> list[int]:
        key = self.key(source)
        starts = self._starts.get(key)
        if starts is None:
            # pcpp counts lexpos in its own normalised copy of the text.
            text = _normalise(self._texts.get(key, ""))
            starts = [0]
            for line in text.split("\n")[:-1]:  # each line and its newline
                starts.append(starts[-1] + len(line) + 1)
            self._starts[key] = starts
        return starts


def _normalise(text: str) -> str:
    """The text as pcpp lexes it: trigraphs replaced, lines split and right-stripped."""
    return "\n".join(line.rstrip() for line in trigraph(text).splitlines())


class _Preprocessor(pcpp.Preprocessor):
    """pcpp with its hooks routed into shc's diagnostics."""

    def __init__(self, diagnostics: Diagnostics, files: _Files, main_name: str, search_path: list[str]):
        self.sizes = None  # pcpp defines __DATE__ and friends while it starts
        super().__init__()
        self.sizes = ExpansionSizes(self.macros, self.t_ID, self.t_WS)
        self.definitions = MacroDefinitions(diagnostics)
        self.evaluator = CheckedEvaluator(self.evaluator, self)
        self.main_name = main_name
        self.diagnostics = diagnostics
        self.files = files
        self.search_path = search_path
        self.path = list(search_path)
        self.line_directive = None
        self.line_remaps: dict[str, list[tuple[int, int, str]]] = {}
        self._directive_args: list = []
        self._else_seen: list[bool] = []  # per open conditional of the current file
        self._deferred: dict[str, str] = {}  # placeholder identifier -> error to report
        self._expansion_depth = 0  # expand_macros calls in progress
        self._input_tokens = 0  # tokens lexed so far, in every file
        self._output_tokens = 0  # tokens expanded at the top level so far
        self._top_tokens: list = []  # the list the outermost expand_macros call works on

    # -- positions ----------------------------------------------------------
    def coord_of(self, tok) -> Coord:
        """The source position of a token pcpp read from a file (or from -D)."""
        source = tok.source
        if not source:
            return Coord("<command line>", 1, 1)
        remaps = self.line_remaps.get(source)
        path, line = remap_line(remaps, source, tok.lineno) if remaps else (source, tok.lineno)
        return Coord(self.files.name(path), line, self.files.column(source, tok.lexpos))

    def line_coord(self, source: str, line: int, word: str | None = None) -> Coord:
        """A position on ``line``: where ``word(`` is used, else a directive's name, else the first non-blank."""
        text = self.files.line_text(source, line)
        call = re.search(rf"\b{re.escape(word)}\s*\(", text) if word else None
        directive = _DIRECTIVE.match(text)
        if call:
            col = call.start() + 1
        elif directive:
            col = directive.end() + 1
        else:
            col = len(text) - len(text.lstrip()) + 1
        path, mapped = remap_line(self.line_remaps.get(source, []), source, line)
        return Coord(self.files.name(path), mapped, col)

    def directive_coord(self) -> Coord:
        """The position of the directive being processed."""
        if self.lastdirective is None:
            return Coord(self.main_name, 1, 1)
        return self.coord_of(self.lastdirective)

    def _include_coord(self) -> Coord:
        """The position of the file name of the #include being processed."""
        args = self._directive_args
        return self.coord_of(args[0]) if args else self.directive_coord()

    def limit_coord(self, limit: LimitExceeded) -> Coord:
        """Where a limit was reached: its token, else the macro use pcpp was expanding."""
        tok = limit.tok if limit.tok is not None else self._use_token()
        return self.coord_of(tok) if tok is not None else self.directive_coord()

    def _use_token(self):
        """The macro use pcpp is expanding: the first macro name on its current line."""
        for tok in self._top_tokens:
            if tok.lineno == self.linemacro and tok.type == self.t_ID and tok.value in self.macros:
                return tok
        return None

    # -- limits -------------------------------------------------------------
    def group_lines(self, input, abssource):  # pcpp's signature
        """pcpp's lines of a file, counted against ``MAX_INPUT_TOKENS`` as they are lexed."""
        for line in super().group_lines(input, abssource):
            self._input_tokens += len(line)
            if self._input_tokens > MAX_INPUT_TOKENS:
                raise LimitExceeded(INPUT_TOO_LARGE, line[0])
            yield line

    def expand_macros(self, tokens, expanding_from=[]):  # noqa: B006 - pcpp's signature
        """pcpp's expansion, its size predicted first and its nesting and size counted."""
        if self._expansion_depth == 0:
            self._top_tokens = tokens
            self.sizes.check(tokens, MAX_OUTPUT_TOKENS - self._output_tokens)
        elif self._expansion_depth > MAX_MACRO_NESTING:
            raise LimitExceeded(NESTED_TOO_DEEPLY)
        self._expansion_depth += 1
        try:
            result = super().expand_macros(tokens, expanding_from)
        finally:
            self._expansion_depth -= 1
        if self._expansion_depth == 0:
            self._output_tokens += len(result)
        elif len(result) > MAX_EXPANSION_TOKENS:  # a size the prediction missed (a name made by ##)
            use = self._use_token()
            raise LimitExceeded(expansion_too_large(use.value if use is not None else None), use)
        return result

    # -- hooks -------------------------------------------------------------
    def on_error(self, file, line, msg):
        self.return_code += 1
        message = error_text(msg)
        if message == MISSING_ANGLE:
            coord = self._include_coord()
        elif not file or file == "unknown" or not line:
            coord = self.directive_coord()
        else:
            macro = re.match(r"Macro (\w+) ", msg)
            coord = self.line_coord(file, line, macro.group(1) if macro else None)
        self.diagnostics.error(message, coord)

    def on_file_open(self, is_system_include, includepath):
        """Only a regular file within the size limit, in UTF-8 (a missing one: the search goes on)."""
        name = display_path(includepath)
        try:
            text = read_source_text(includepath)
        except SourceFileError as failure:
            if failure.line:
                self.diagnostics.error(failure.reason, Coord(name, failure.line, failure.col))
            else:
                self.diagnostics.error(f"'{name}': {failure.reason}", self._include_coord())
            raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove) from None
        self.files.add(includepath, name, text)
        if name != self.main_name:  # the main file included again (a cycle) keeps no site
            self.diagnostics.include_sites.setdefault(name, self.directive_coord())
        return io.StringIO(text)

    def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
        coord = self._include_coord()
        if is_malformed:
            self.diagnostics.error(f"expected \"FILENAME\" or <FILENAME> after #include, not '{includepath}'", coord)
        else:
            self.diagnostics.error(f"'{includepath}' file not found", coord)
        raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)

    def include(self, tokens, original_line):
        """Search for both include forms next to the including file first."""
        if not tokens:  # a macro that expands to nothing
            self.diagnostics.error("expected \"FILENAME\" or <FILENAME> after #include", self.directive_coord())
            return
        written = "".join(tok.value for tok in tokens)
        if "\0" in written or written in ('""', "<>"):
            self.diagnostics.error("null character in include file name" if "\0" in written else "empty filename",
                                   self._include_coord())
            return
        if self.include_depth >= MAX_INCLUDE_DEPTH:  # fatal, as in clang: 2**200 includes would follow
            raise LimitExceeded(f"#include nested depth {self.include_depth} exceeds maximum of {MAX_INCLUDE_DEPTH}",
                                self._directive_args[0] if self._directive_args else None)
        here = self.temp_path[0] if self.temp_path else ""
        self.path = [here, *self.search_path]
        outer, self._else_seen = self._else_seen, []
        try:
            yield from super().include(tokens, original_line)
        finally:
            self._else_seen = outer

    def on_directive_handle(self, directive, toks, ifpassthru, precedingtoks):
        # Called for every known directive, also inside skipped #if blocks, so only
        # structure is checked here; bad operands become placeholders that report
        # an error if pcpp ever evaluates them.
        self.lastdirective = directive
        self._directive_args = list(toks)
        name = directive.value
        if name in ("if", "ifdef", "ifndef"):
            self._else_seen.append(False)
        elif name in ("elif", "else") and self._else_seen:
            if self._else_seen[-1]:
                self.diagnostics.error(f"#{name} after #else", self.coord_of(directive))
            self._else_seen[-1] = name == "else"
        elif name == "endif" and self._else_seen:
            self._else_seen.pop()
        if name in ("ifdef", "ifndef") and (not toks or toks[0].type != self.t_ID):
            toks[:] = [self._placeholder(directive, self.t_ID, "macro name missing" if not toks
                                         else "macro name must be an identifier")]
        elif name in ("if", "elif"):
            self._check_expression(directive, toks)
        elif name == "pragma" and not toks:
            toks[:] = [self._placeholder(directive, self.t_ID)]  # pcpp reads the first word
        elif name == "include" and not toks:
            self.diagnostics.error("expected \"FILENAME\" or <FILENAME> after #include", self.coord_of(directive))
            raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)
        elif name == "define" and not toks:  # pcpp reads the name (include guards) before define()
            toks[:] = [self._placeholder(directive, self.t_ID, "macro name missing")]
        return True

    def _check_expression(self, directive, toks) -> None:
        problem = self._expression_problem(directive.value, toks)
        if problem:
            toks[:] = [self._placeholder(directive, self.t_ID, problem)]

    def _expression_problem(self, name: str, toks) -> str | None:
        """What is wrong with an #if operand that pcpp would crash on or accept silently."""
        raw = [tok.value for tok in toks]
        if not raw:
            return f"#{name} with no expression"
        if raw[0] == "!":
            # At the top of a file pcpp peeks at '!defined(NAME' looking for an
            # include guard, without checking that the tokens are there.
            needed = 2
            if raw[1:2] == ["defined"]:
                needed = 4 if raw[2:3] == ["("] else 3
            if len(raw) < needed:
                return "incomplete preprocessor expression"
        words = [tok.value for tok in toks if tok.type not in self.t_WS]
        for index, word in enumerate(words):
            if word != "defined":
                continue
            rest = words[index + 1:index + 4]
            if rest[:1] == ["("]:
                if len(rest) < 3 or not _IDENTIFIER.fullmatch(rest[1]) or rest[2] != ")":
                    return "expected 'defined(NAME)' or 'defined NAME'"
            elif not rest or not _IDENTIFIER.fullmatch(rest[0]):
                return "macro name missing after 'defined'"
        return None

    def _placeholder(self, directive, kind: str, message: str | None = None):
        """A stand-in operand token; evaluating it reports ``message``."""
        tok = copy.copy(directive)
        tok.type, tok.value = kind, f"__shc_placeholder_{len(self._deferred)}"
        self._deferred[tok.value] = message
        return tok

    def on_unknown_macro_in_defined_expr(self, tok):
        self._report_placeholder(tok.value)
        return False

    def on_unknown_macro_in_expr(self, ident):
        self._report_placeholder(ident)
        return 0  # C semantics: an unknown identifier in #if is 0

    def on_unknown_macro_function_in_expr(self, ident):
        self.diagnostics.error(f"function-like macro '{ident}' is not defined", self.directive_coord())
        return lambda *args: 0

    def _report_placeholder(self, name: str) -> None:
        message = self._deferred.get(name)
        if message:
            self.diagnostics.error(message, self.directive_coord())

    def define(self, tokens):
        if self.sizes is None:  # pcpp's own definitions, while it starts
            super().define(tokens)
            return
        if isinstance(tokens, str):  # -D, and __FILE__
            tokens = self.tokenize(tokens)
        problem = self._definition_problem(tokens)
        if problem:
            self.diagnostics.error(*problem)
            return
        if tokens[0].source:  # a #define (-D options are recorded by _preprocess)
            body = "".join(tok.value for tok in tokens[1:])
            self.definitions.define(tokens[0].value, body, self.coord_of(tokens[0]))
        super().define(tokens)
        self.sizes.forget()

    def _definition_problem(self, tokens) -> tuple[str, Coord] | None:
        """What is wrong with a #define's name or parameter list (pcpp would crash or say less)."""
        if not tokens:
            return "macro name missing", self.directive_coord()
        name = tokens[0]
        if name.type != self.t_ID:
            return "macro name must be an identifier", self.coord_of(name)
        if self._deferred.get(name.value):
            return self._deferred[name.value], self.directive_coord()
        if len(tokens) == 1 or tokens[1].type in self.t_WS:
            return None
        if tokens[1].value != "(":
            return "whitespace required after macro name", self.coord_of(tokens[1])
        params = [tok for tok in tokens[2:] if tok.type not in self.t_WS]
        index = 0
        while index < len(params):  # NAME, '...' or NAME..., then ',' or ')'
            if params[index].value == ")" and index == 0:
                return None
            named = params[index].type == self.t_ID
            index += 1 if named else 0
            variadic = [tok.value for tok in params[index:index + 3]] == [".", ".", "."]
            index += 3 if variadic else 0
            if not (named or variadic):
                return "invalid token in macro parameter list", self.coord_of(params[index])
            if index < len(params) and params[index].value == ")":
                return None
            if variadic or index == len(params):
                break  # nothing may follow a variadic parameter
            if params[index].value != ",":
                return "invalid token in macro parameter list", self.coord_of(params[index])
            index += 1
        return "missing ')' in macro parameter list", self.coord_of(tokens[1])

    def undef(self, tokens):
        if not tokens or tokens[0].type != self.t_ID:
            self.diagnostics.error("macro name missing" if not tokens else "macro name must be an identifier",
                                   self.directive_coord())
            return
        super().undef(tokens)
        self.definitions.forget(tokens[0].value)
        self.sizes.forget()

    def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
        text = "".join(tok.value for tok in toks).strip()
        coord = self.coord_of(directive)
        if directive.value == "error":
            self.diagnostics.error(f"#error {text}".rstrip(), coord)
        elif directive.value == "warning":
            self.diagnostics.warning(f"#warning {text}".rstrip(), coord, "#warnings")
        elif directive.value == "pragma":
            pass  # pragmas other than 'once' do not change a compute shader
        elif directive.value == "line":
            self._line_directive(directive, toks, coord)
        else:
            self.diagnostics.error(f"invalid preprocessing directive '#{directive.value}'", coord)
        return True

    def on_comment(self, tok):
        return None

    # -- #line -------------------------------------------------------------
    def _line_directive(self, directive, toks, coord: Coord) -> None:
        operands = [tok for tok in self.expand_macros(list(toks)) if not tok.value.isspace()]
        words = [tok.value for tok in operands]
        if not words or not words[0].isdigit() or not words[0].strip("0"):
            self.diagnostics.error("#line directive requires a positive integer argument", coord)
            return
        if len(words[0].lstrip("0")) > len(str(MAX_LINE_NUMBER)) or int(words[0]) > MAX_LINE_NUMBER:
            where = coord if getattr(operands[0], "expanded_from", None) else self.coord_of(operands[0])
            self.diagnostics.error(f"line number in #line directive is too large (the maximum is {MAX_LINE_NUMBER})",
                                   where)
            return
        if len(words) > 1 and not (words[1].startswith('"') and words[1].endswith('"') and len(words[1]) > 1):
            self.diagnostics.error("invalid filename for #line directive", coord)
            return
        source = directive.source
        remaps = self.line_remaps.setdefault(source, [])
        current_file, _ = remap_line(remaps, source, directive.lineno)
        new_file = words[1][1:-1] if len(words) > 1 else current_file
        remaps.append((directive.lineno, int(words[0]), new_file))


def remap_line(remaps: list[tuple[int, int, str]], path: str, line: int) -> tuple[str, int]:
    """Apply the ``#line`` directives of ``path`` that come before ``line``."""
    result = (path, line)
    for directive_line, new_line, new_file in remaps:
        if directive_line < line:
            result = (new_file, new_line + (line - directive_line - 1))
    return result


def preprocess(
    text: str,
    filename: str,
    diagnostics: Diagnostics,
    defines: dict[str, str] | None = None,
    include_dirs: list[str] | None = None,
) -> Preprocessed:
    """Preprocess ``text`` (the contents of ``filename``).

    Includes, with quotes or angle brackets, are searched relative to the
    including file, then in ``include_dirs``, then in shc's ``stdlib/``.
    A limit reached (preprocess_limits.py) is a fatal error.
    """
    text = text.removeprefix("\ufeff")
    with nesting_guard(diagnostics, Coord(filename, 1, 1)):  # pcpp recurses per #include and per macro level
        return _preprocess(text, filename, diagnostics, defines, include_dirs)


def _preprocess(text: str, filename: str, diagnostics: Diagnostics, defines: dict[str, str] | None,
                include_dirs: list[str] | None) -> Preprocessed:
    files = _Files(diagnostics)
    files.add(filename, filename, text)
    search_path = [os.path.abspath(d) for d in include_dirs or []] + [str(STDLIB_DIR)]
    pre = _Preprocessor(diagnostics, files, filename, search_path)
    command_line = []  # each -D as clang shows it: '#define NAME VALUE' on a line of <command line>
    for name, value in (defines or {}).items():
        if not re.fullmatch(r"[A-Za-z_]\w*(\([\w\s,.]*\))?", name):
            diagnostics.error(f"invalid macro name '{name}' in -D", Coord("<command line>", 1, 1))
            continue
        command_line.append(f"#define {name} {value}")
        macro = name.split("(")[0]
        pre.definitions.define(macro, name[len(macro):] + " " + value, Coord("<command line>", len(command_line), 9))
        pre.define(f"{name} {value}")
    diagnostics.sources.add("<command line>", "\n".join(command_line))
    pre.parse(text, filename)
    return _collect(pre, filename)


def _collect(pre: _Preprocessor, filename: str) -> Preprocessed:
    out = Preprocessed(text="", lines=[[]], main_file=filename)
    chunks: list[str] = []
    size = 0  # characters in chunks
    out_col = 1
    site = Coord(filename, 1, 1)  # where the next macro expansion is anchored
    previous = None
    while True:
        try:
            tok = pre.token()
        except CompileError:
            raise
        except LimitExceeded as limit:
            pre.diagnostics.fatal(limit.message, pre.limit_coord(limit))
        except RecursionError:
            where = pre.line_coord(pre.source, pre.linemacro) if pre.source and pre.linemacro else site
            pre.diagnostics.error("macro expansion or #include nested too deeply", where)
            break
        except Exception:  # pcpp met input it does not handle; no exception name reaches the user
            pre.diagnostics.error("malformed preprocessor input: cannot preprocess past this point", site)
            break
        if tok is None:
            break
        value = tok.value
        size += len(value)
        if size > MAX_OUTPUT_SIZE:
            pre.diagnostics.fatal(f"preprocessed output is too large (more than {MAX_OUTPUT_SIZE >> 20} MiB)",
                                  site if tok.expanded_from else pre.coord_of(tok))
        if previous is not None and previous.value == "/" and value == "*" and not tok.expanded_from \
                and previous.lexpos + 1 == tok.lexpos:
            pre.diagnostics.error("unterminated /* comment", pre.coord_of(previous))
            break
        previous = tok
        if tok.expanded_from:
            coord, expanded = site, True
            definition = pre.definitions.where(tok.expanded_from[-1])  # the outermost macro, used at site
            if definition is not None:
                pre.diagnostics.expansions.setdefault(site, (tok.expanded_from[-1], definition))
        else:
            coord, expanded = pre.coord_of(tok), False
        if "\n" not in value:  # most tokens: a piece of the current output line
            if value:
                out.lines[-1].append(Segment(out_col, coord, expanded))
                chunks.append(value)
                out_col += len(value)
            if not expanded:
                site = Coord(coord.file, coord.line, coord.col + len(value))
            continue
        pieces = value.split("\n")
        for number, piece in enumerate(pieces):
            if number > 0:
                chunks.append("\n")
                out.lines.append([])
                out_col = 1
                coord = Coord(coord.file, coord.line + 1, 1) if not expanded else coord
            if piece:
                out.lines[-1].append(Segment(out_col, coord, expanded))
                chunks.append(piece)
                out_col += len(piece)
        if not tok.expanded_from:
            site = Coord(coord.file, coord.line, coord.col + len(pieces[-1]))
    out.text = "".join(chunks)
    return out
