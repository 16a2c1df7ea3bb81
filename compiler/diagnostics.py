"""Source positions and the one path every diagnostic takes.

Every AST node, IR instruction and diagnostic carries a ``Coord``. Messages are
formatted the way clang and DXC print them::

    In file included from samples/x.hlsl:3:
    samples/util.hlsli:12:9: error: undeclared identifier 'foo'
        float y = foo + 1;
                  ^

Every warning belongs to a group named as clang names its flags (``[-Wconversion]``
after the message); ``-Wno-<group>`` silences a group and ``-WX`` makes warnings
errors (``[-Werror,-Wconversion]``). An error inside an ``#include``d file is preceded
by the chain of includes, and one at a macro use is followed by a note showing where
the macro was defined.
"""

from __future__ import annotations

import os
import stat
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field

from .digests import sha256


@dataclass(frozen=True, slots=True)
class Coord:
    """A source position: file, line and column, both from 1 (line 0: the file as a whole)."""

    file: str
    line: int
    col: int
    # For code inlined from a call: the calls it was inlined through, innermost first. Not
    # part of a position's identity (equal positions compare equal whatever the calls).
    inlined_at: tuple[InlineSite, ...] = field(default=(), compare=False, repr=False)

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


@dataclass(frozen=True, slots=True)
class InlineSite:
    """A call lowering inlined: the function called, and where the call is."""

    function: str
    call: Coord


UNKNOWN = Coord("<unknown>", 0, 0)

# Exit codes of the command-line tool.
EXIT_ERROR = 1
EXIT_INTERNAL = 70  # EX_SOFTWARE: an internal compiler error


# Every warning's group, as -Wno-<group> names it (clang's names where clang has the warning).
WARNING_GROUPS = frozenset({
    "conversion",          # implicit truncation of a vector, a double narrowed to float
    "return-type",         # not all control paths return a value
    "unknown-attributes",  # an attribute shc does not know
    "ignored-attributes",  # a known attribute where it has no effect
    "#warnings",           # the #warning directive
    "macro-redefined",     # a #define that changes an earlier definition (or a -D)
    "pass-failed",         # a loop marked [unroll] that is not unrolled
    "uniformity",          # a barrier under a condition that may differ between waves
})


# The largest file shc reads: the main file, an #include, or a file a diagnostic shows a line of.
MAX_FILE_SIZE = 16 << 20
_BOM = b"\xef\xbb\xbf"


class SourceFileError(Exception):
    """A file that cannot be source text: ``reason`` in words, and where, for a bad byte."""

    def __init__(self, reason: str, line: int = 0, col: int = 0):
        super().__init__(reason)
        self.reason, self.line, self.col = reason, line, col


def read_source_bytes(path: str) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``MAX_FILE_SIZE`` bytes.

    Anything else (a directory, a FIFO, /dev/zero, a terminal) is refused before it is
    read: the path is checked with ``stat``, opened without blocking, and checked again
    on the open descriptor, so nothing swapped in between can make shc wait or read
    without end. A missing file raises ``FileNotFoundError`` or ``NotADirectoryError``
    (an include search goes on to the next directory).
    """
    try:
        _check_regular(os.stat(path))
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except (FileNotFoundError, NotADirectoryError):
        raise
    except (OSError, ValueError) as failure:  # ValueError: a NUL character in the path
        raise SourceFileError(f"cannot read file: {getattr(failure, 'strerror', None) or failure}") from None
    with os.fdopen(descriptor, "rb") as handle:
        _check_regular(os.fstat(handle.fileno()))
        data = handle.read(MAX_FILE_SIZE + 1)
    _check_size(len(data))
    return data


def _check_regular(info: os.stat_result) -> None:
    if stat.S_ISDIR(info.st_mode):
        raise SourceFileError("is a directory")
    if not stat.S_ISREG(info.st_mode):
        raise SourceFileError("not a regular file")
    _check_size(info.st_size)


def _check_size(size: int) -> None:
    if size > MAX_FILE_SIZE:
        raise SourceFileError(f"file is too large (the limit is {MAX_FILE_SIZE >> 20} MiB)")


def decode_source(data: bytes) -> str:
    """UTF-8 text without its byte order mark; a bad byte raises ``SourceFileError`` at its position."""
    data = data.removeprefix(_BOM)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as failure:
        bad = failure.start
        line_start = data.rfind(b"\n", 0, bad) + 1
        col = len(data[line_start:bad].decode("utf-8")) + 1  # everything before the first bad byte decodes
        raise SourceFileError(f"invalid UTF-8 byte 0x{data[bad]:02x}", data.count(b"\n", 0, bad) + 1, col) from None


def read_source_text(path: str) -> str:
    """The text of a source file: a regular file within the size limit, UTF-8, BOM removed."""
    return decode_source(read_source_bytes(path))


class SourceCache:
    """The text of every file the preprocessor read, for printing source lines.

    A file nobody read (one a ``#line`` directive names) is read only when a diagnostic
    shows one of its lines, and only if it is a regular file within ``MAX_FILE_SIZE``;
    bytes that are not UTF-8 show as U+FFFD.
    """

    def __init__(self) -> None:
        self._lines: dict[str, list[str] | None] = {}  # None: a file that cannot be shown

    def add(self, path: str, text: str) -> None:
        self._lines[path] = text.splitlines()

    def line(self, path: str, number: int) -> str | None:
        if path not in self._lines:
            try:
                text = read_source_bytes(path).removeprefix(_BOM).decode("utf-8", errors="replace")
                self._lines[path] = text.splitlines()
            except (OSError, SourceFileError):
                self._lines[path] = None
        lines = self._lines[path]
        if lines is not None and 1 <= number <= len(lines):
            return lines[number - 1]
        return None


def text_sha256(text: str) -> str:
    """The sha256 (hex) of a source text as the preprocessor read it (UTF-8)."""
    return sha256(text.encode("utf-8")).hexdigest()


class RecordingSources(SourceCache):
    """A SourceCache that also remembers the sha256 of every file the preprocessor read: what a
    cache entry depends on (the kernel cache, ``shc compile``'s output cache)."""

    def __init__(self) -> None:
        super().__init__()
        self.read: dict[str, str] = {}  # absolute path -> text_sha256

    def add(self, path: str, text: str) -> None:
        super().add(path, text)
        if not path.startswith("<"):
            self.read.setdefault(os.path.abspath(path), text_sha256(text))

    def dependencies(self, main_file: str) -> list[tuple[str, str]]:
        """``(path, sha256)`` of every file read but ``main_file``, sorted."""
        main = os.path.abspath(main_file)
        return sorted((path, sha) for path, sha in self.read.items() if path != main)


def source_unchanged(path: str, sha: str) -> bool:
    """Whether ``path`` still reads (as the preprocessor decodes it: UTF-8, byte order mark
    removed; never blocking on a FIFO or device) as the text whose sha256 is ``sha``."""
    try:
        data = read_source_bytes(path)
    except (OSError, SourceFileError):
        return False
    return text_sha256(data.removeprefix(_BOM).decode("utf-8", errors="replace")) == sha


SHOWN_LINE = 200  # characters of a long source line a diagnostic shows


@dataclass(slots=True)
class Diagnostic:
    """One message at one position; ``format`` prints it as clang does."""

    severity: str  # "error", "warning" or "note"
    message: str
    coord: Coord
    group: str | None = None  # a warning's group: the NAME of -Wno-NAME
    promoted: bool = False  # a warning made an error by -WX

    def format(self, sources: SourceCache | None = None) -> str:
        """``file:line:col: severity: message``, the source line and a caret under the column.

        A diagnostic about a whole file (line 0: it cannot be read, it has no entry
        point) is ``file: severity: message``.
        """
        where = str(self.coord) if self.coord.line > 0 else self.coord.file
        head = f"{where}: {self.severity}: {self.message}" if where else f"{self.severity}: {self.message}"
        if self.group:
            head += f" [-Werror,-W{self.group}]" if self.promoted else f" [-W{self.group}]"
        if sources is None or self.coord.line <= 0:
            return head
        text = sources.line(self.coord.file, self.coord.line)
        if text is None or not text.replace("\t", " ").isprintable():
            return head  # nor is a line of control characters (a binary file)
        column = max(self.coord.col - 1, 0)
        if len(text) > SHOWN_LINE:  # a window of a long line around the column, as clang shows it
            start = max(0, min(column - SHOWN_LINE // 2, len(text) - SHOWN_LINE))
            lead = "..." if start else ""
            tail = "..." if start + SHOWN_LINE < len(text) else ""
            text, column = lead + text[start:start + SHOWN_LINE] + tail, column - start + len(lead)
        # Keep tabs in the caret line so it lines up under the same terminal tab stops.
        prefix = text[:column]
        caret = "".join(ch if ch == "\t" else " " for ch in prefix) + "^"
        return f"{head}\n{text}\n{caret}"


class Unsupported(Exception):
    """A construct shc does not support yet, at its source position. Every entry point
    reports it as an error (exit 1), never as an internal compiler error."""

    def __init__(self, message: str, coord: Coord):
        super().__init__(message)
        self.coord = coord
        self.shc_coord = coord


class CompileError(Exception):
    """Raised when compilation stops; carries every diagnostic reported so far."""

    def __init__(self, diagnostics: list[Diagnostic]):
        self.diagnostics = diagnostics
        first = diagnostics[0] if diagnostics else None
        super().__init__(f"{first.coord}: {first.message}" if first else "compilation failed")


@dataclass(eq=False)  # one of a kind: compared by identity
class Diagnostics:
    """Collects the diagnostics of one compilation.

    Stages report through :meth:`error` and :meth:`warning` and keep going where
    they can recover; :meth:`check` raises ``CompileError`` at a stage boundary
    if anything went wrong, so several errors reach the user in one run.
    """

    sources: SourceCache = field(default_factory=SourceCache)
    items: list[Diagnostic] = field(default_factory=list)
    max_errors: int = 20  # clang's -ferror-limit default
    disabled_warnings: frozenset[str] = frozenset()  # groups silenced by -Wno-<group>
    warnings_as_errors: bool = False  # -WX
    include_sites: dict[str, Coord] = field(default_factory=dict)  # file -> the #include that first read it
    expansions: dict[Coord, tuple[str, Coord]] = field(default_factory=dict)  # use -> (macro, its definition)

    def error(self, message: str, coord: Coord, group: str | None = None) -> None:
        if self._add(Diagnostic("error", message, coord, group, promoted=group is not None)) \
                and self.error_count >= self.max_errors:
            self.items.append(Diagnostic("note", "too many errors emitted, stopping now", Coord("", 0, 0)))
            raise CompileError(self.items)

    def warning(self, message: str, coord: Coord, group: str) -> bool:
        """A warning of ``group`` (silenced by ``-Wno-<group>``, an error under ``-WX``);
        False if it was silenced or had just been reported."""
        if group in self.disabled_warnings:
            return False
        if self.warnings_as_errors:
            self.error(message, coord, group)
            return True
        return self._add(Diagnostic("warning", message, coord, group))

    def note(self, message: str, coord: Coord) -> None:
        self.items.append(Diagnostic("note", message, coord))

    def _add(self, diagnostic: Diagnostic) -> bool:
        """Record ``diagnostic`` unless the same one was just reported.

        Every column of a macro expansion maps to the macro's name, so
        ``SQUARE(v.z)`` would otherwise report its bad swizzle twice.
        """
        for earlier in reversed(self.items[-8:]):
            if (earlier.severity, earlier.message, earlier.coord) == (
                diagnostic.severity, diagnostic.message, diagnostic.coord
            ):
                return False
        self.items.append(diagnostic)
        return True

    def fatal(self, message: str, coord: Coord) -> None:
        self.items.append(Diagnostic("error", message, coord))
        raise CompileError(self.items)

    @property
    def error_count(self) -> int:
        return sum(1 for item in self.items if item.severity == "error")

    def check(self) -> None:
        if self.error_count:
            raise CompileError(self.items)

    def render(self) -> str:
        """Every diagnostic, each error or warning in an included file after its chain of
        includes (once while diagnostics stay in that file), and at a macro use followed
        by where the macro was defined."""
        lines: list[str] = []
        shown_file = None
        for item in self.items:
            if item.coord.file != shown_file and item.severity != "note":
                shown_file = item.coord.file
                chain = self.include_chain(shown_file)
                lines.extend(f"In file included from {site.file}:{site.line}:" for site in chain)
            lines.append(item.format(self.sources))
            expansion = self.expansions.get(item.coord) if item.severity != "note" else None
            if expansion is not None:
                name, definition = expansion
                lines.append(Diagnostic("note", f"expanded from macro '{name}'", definition).format(self.sources))
        return "\n".join(lines)

    def include_chain(self, path: str) -> list[Coord]:
        """The #include lines that led to ``path``, outermost first."""
        chain: list[Coord] = []
        seen = {path}
        while path in self.include_sites:
            site = self.include_sites[path]
            chain.append(site)
            if site.file in seen:  # files that include each other
                break
            seen.add(site.file)
            path = site.file
        return chain[::-1]


def read_source(path: str, diagnostics: Diagnostics) -> str:
    """The text of the main file (``read_source_text``: a regular file of at most 16 MiB,
    UTF-8, byte order mark removed); anything else is a fatal diagnostic."""
    try:
        return read_source_text(path)
    except SourceFileError as failure:
        diagnostics.fatal(failure.reason, Coord(path, failure.line, failure.col))
    except OSError as failure:
        diagnostics.fatal(f"cannot read file: {failure.strerror or failure}", Coord(path, 0, 0))
    return ""


def display_path(path: str) -> str:
    """A path as a user would type it: relative to the working directory when inside it."""
    if path.startswith("<"):
        return path
    try:
        relative = os.path.relpath(path)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


# Every stage walks the program recursively, a few Python frames per nesting level of the
# source (the host back end about six per link of an else-if chain); this lets a generated
# 2,000-term expression, 1,000 nested blocks or a 2,000-link else-if chain through. Python
# 3.11 runs these Python-to-Python calls without growing the C stack.
RECURSION_LIMIT = 30_000


@contextmanager
def nesting_guard(diagnostics: Diagnostics, where: Coord):
    """Run a stage (or a whole compile) with room for deep nesting; a program nested deeper
    than that is a fatal diagnostic at the failure's ``shc_coord`` (set where a walk knows
    its position), else at ``where``. Every entry point into the compiler goes through here."""
    previous = sys.getrecursionlimit()
    sys.setrecursionlimit(max(previous, RECURSION_LIMIT))
    try:
        yield
    except RecursionError as failure:
        coord = getattr(failure, "shc_coord", None) or where
        diagnostics.fatal("the program nests too deeply for shc to compile", coord)
    finally:
        sys.setrecursionlimit(previous)
