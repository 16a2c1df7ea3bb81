"""The C preprocessor stage: pcpp plus a map from output positions to source positions.

pcpp does the preprocessing (includes, macros with ``#``/``##``, conditionals with
``defined()`` and integer expressions). This module walks pcpp's token stream,
writes the text the lexer reads, and remembers for every output span which file,
line and column it came from. Tokens produced by a macro expansion map to the
place the macro was used, as clang reports them.
"""

from __future__ import annotations

import bisect
import io
import os
from dataclasses import dataclass, field
from pathlib import Path

import pcpp

from ..diagnostics import Coord, Diagnostics

STDLIB_DIR = Path(__file__).resolve().parent.parent.parent / "stdlib"


@dataclass
class Segment:
    """An output span starting at ``out_col`` on its output line."""

    out_col: int
    coord: Coord  # where the span's first character came from
    expanded: bool  # True: a macro expansion, every column maps to ``coord``


@dataclass
class Preprocessed:
    """The text the lexer reads and the map back to the original sources."""

    text: str
    lines: list[list[Segment]] = field(default_factory=list)  # per output line, 1-based - 1
    main_file: str = "<input>"

    def coord(self, line: int, col: int) -> Coord:
        """The source position of output ``line`` and ``col`` (both 1-based)."""
        if not 1 <= line <= len(self.lines) or not self.lines[line - 1]:
            return Coord(self.main_file, line, col)
        segments = self.lines[line - 1]
        index = bisect.bisect_right([s.out_col for s in segments], col) - 1
        segment = segments[max(index, 0)]
        if segment.expanded:
            return segment.coord
        offset = max(col - segment.out_col, 0)
        return Coord(segment.coord.file, segment.coord.line, segment.coord.col + offset)


class _LineStarts:
    """Offsets of line starts per source file, to turn pcpp's ``lexpos`` into a column."""

    def __init__(self, texts: dict[str, str]):
        self._texts = texts
        self._starts: dict[str, list[int]] = {}

    def column(self, path: str, lexpos: int) -> int:
        starts = self._starts.get(path)
        if starts is None:
            text = self._texts.get(path, "")
            starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
            self._starts[path] = starts
        index = bisect.bisect_right(starts, lexpos) - 1
        return lexpos - starts[max(index, 0)] + 1


class _Preprocessor(pcpp.Preprocessor):
    """pcpp with its hooks routed into shc's diagnostics."""

    def __init__(self, diagnostics: Diagnostics, texts: dict[str, str]):
        super().__init__()
        self.diagnostics = diagnostics
        self.texts = texts
        self.line_directive = None
        self.line_remaps: dict[str, list[tuple[int, int, str]]] = {}

    # -- hooks -------------------------------------------------------------
    def on_error(self, file, line, msg):
        self.diagnostics.error(_error_text(msg), Coord(file or "<input>", line or 0, 1))
        self.return_code += 1

    def on_file_open(self, is_system_include, includepath):
        with open(includepath, encoding="utf-8", errors="replace") as handle:
            text = handle.read()
        self.texts[includepath] = text
        self.diagnostics.sources.add(includepath, text)
        return io.StringIO(text)

    def on_include_not_found(self, is_malformed, is_system_include, curdir, includepath):
        where = self.lastdirective
        coord = Coord(where.source, where.lineno, 1) if where is not None else Coord("<input>", 0, 0)
        if is_malformed:
            self.diagnostics.error(f"malformed #include: {includepath}", coord)
        else:
            self.diagnostics.error(f"'{includepath}' file not found", coord)
        raise pcpp.OutputDirective(pcpp.Action.IgnoreAndRemove)

    def on_directive_unknown(self, directive, toks, ifpassthru, precedingtoks):
        text = "".join(tok.value for tok in toks).strip()
        coord = Coord(directive.source, directive.lineno, 1)
        if directive.value == "error":
            self.diagnostics.error(f"#error {text}".rstrip(), coord)
            return True
        if directive.value == "warning":
            self.diagnostics.warning(f"#warning {text}".rstrip(), coord)
            return True
        if directive.value == "pragma":
            return True  # pragmas other than 'once' do not change a compute shader
        if directive.value == "line":
            self._line_directive(directive, toks, coord)
            return True
        self.diagnostics.error(f"invalid preprocessing directive '#{directive.value}'", coord)
        return True

    def on_unknown_macro_in_expr(self, ident):
        return 0  # C semantics: an unknown identifier in #if is 0

    def on_unknown_macro_function_in_expr(self, ident):
        return None

    def on_comment(self, tok):
        return None

    # -- #line -------------------------------------------------------------
    def _line_directive(self, directive, toks, coord: Coord) -> None:
        words = [tok.value for tok in self.expand_macros(list(toks)) if not tok.value.isspace()]
        if not words or not words[0].isdigit():
            self.diagnostics.error("#line directive requires a positive integer argument", coord)
            return
        new_file = words[1].strip('"') if len(words) > 1 else None
        remaps = self.line_remaps.setdefault(directive.source, [])
        current = remap_line(remaps, directive.source, directive.lineno)
        remaps.append((directive.lineno, int(words[0]), new_file or current[0]))


def remap_line(remaps: list[tuple[int, int, str]], path: str, line: int) -> tuple[str, int]:
    """Apply the ``#line`` directives of ``path`` that come before ``line``."""
    result = (path, line)
    for directive_line, new_line, new_file in remaps:
        if directive_line < line:
            result = (new_file, new_line + (line - directive_line - 1))
    return result


def _error_text(message: str) -> str:
    message = message.strip()
    return message[:1].lower() + message[1:] if message else "preprocessing error"


def preprocess(
    text: str,
    filename: str,
    diagnostics: Diagnostics,
    defines: dict[str, str] | None = None,
    include_dirs: list[str] | None = None,
) -> Preprocessed:
    """Preprocess ``text`` (the contents of ``filename``).

    Includes are searched relative to the including file, then in
    ``include_dirs``, then in shc's ``stdlib/``.
    """
    texts = {filename: text}
    diagnostics.sources.add(filename, text)
    pre = _Preprocessor(diagnostics, texts)
    for name, value in (defines or {}).items():
        pre.define(f"{name} {value}")
    for directory in include_dirs or []:
        pre.add_path(os.path.abspath(directory))
    pre.add_path(str(STDLIB_DIR))
    # The directory of the main file is searched for both include forms (as DXC does).
    main_dir = os.path.dirname(os.path.abspath(filename)) if not filename.startswith("<") else os.getcwd()
    pre.path.insert(0, main_dir)
    pre.parse(text, filename)
    return _collect(pre, filename)


def _collect(pre: _Preprocessor, filename: str) -> Preprocessed:
    columns = _LineStarts(pre.texts)
    out = Preprocessed(text="", lines=[[]], main_file=filename)
    chunks: list[str] = []
    out_col = 1
    site = Coord(filename, 1, 1)  # where the next macro expansion is anchored
    while True:
        tok = pre.token()
        if tok is None:
            break
        value = tok.value
        if tok.type == "CPP_COMMENT1" or tok.type == "CPP_COMMENT2":
            value = " "
        source = tok.source or filename
        if tok.expanded_from:
            coord, expanded = site, True
        else:
            path, line = remap_line(pre.line_remaps.get(source, []), source, tok.lineno)
            coord = Coord(path, line, columns.column(source, tok.lexpos))
            expanded = False
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
