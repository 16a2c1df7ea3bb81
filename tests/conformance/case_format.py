"""Reading a conformance case: the directives in the leading ``//`` lines of a ``.hlsl`` file.

The format is described in ``tests/conformance/README.md``. ``read_case(path)`` returns a
``Case`` or raises ``CaseFormatError`` whose text is ``file:line: message``, so a malformed
case fails its test with a message that points at the line, never with a traceback.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

DTYPES = ("uint8", "int8", "uint16", "int16", "uint32", "int32", "uint64", "int64",
          "float16", "float32", "float64")
WAVE_SIZES = {"32": (32,), "64": (64,), "both": (32, 64)}
FILTERS = ("point", "linear")
ADDRESSES = ("clamp", "wrap", "mirror", "border")

_DIRECTIVE = re.compile(r"^//\s*([a-z][a-z_]*):\s?(.*)$")
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_BUFFER_VALUES = re.compile(rf"^({_NAME})\s+(\w+)\s*=\s*(.*)$")
_BUFFER_ZEROS = re.compile(rf"^({_NAME})\s+(\w+)\s*\[\s*(\d+)\s*\]$")
_EXPECT = re.compile(rf"^({_NAME})\s*=\s*(.*)$")
_TEXTURE = re.compile(rf"^({_NAME})\s+(\w+)\s+(\d+)x(\d+)(?:x(\d+))?\s*=\s*(.*)$")
_SAMPLER = re.compile(rf"^({_NAME})\s+(\w+)\s+(\w+)$")


class CaseFormatError(Exception):
    """A malformed case file; ``str()`` is ``file:line: message``."""


@dataclass
class Buffer:
    name: str
    dtype: np.dtype
    values: np.ndarray  # flat, in ``dtype``
    line: int


@dataclass
class Texture:
    name: str
    texels: np.ndarray  # (H, W, C)
    line: int


@dataclass
class Case:
    path: Path
    description: str = ""
    groups: tuple[int, int, int] = (1, 1, 1)
    defines: dict[str, str] = field(default_factory=dict)
    waves: tuple[int, ...] = (32, 64)
    buffers: dict[str, Buffer] = field(default_factory=dict)
    constants: dict[str, Buffer] = field(default_factory=dict)
    textures: dict[str, Texture] = field(default_factory=dict)
    samplers: dict[str, tuple[str, str]] = field(default_factory=dict)
    expects: dict[str, tuple[np.ndarray, int]] = field(default_factory=dict)  # name -> (values, line)
    error: str | None = None
    error_line: int = 0
    known_failure: str | None = None  # why shc still gets the case wrong (run as a strict xfail)

    def where(self, line: int) -> str:
        return f"{self.path}:{line}"


def header_lines(text: str):
    """``(line number, text)`` of the leading ``//`` comment lines."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if not stripped.startswith("//"):
            return
        yield number, stripped


def wave_sizes(path: Path) -> tuple[int, ...]:
    """The wave sizes a case runs at, read leniently for collection (errors surface in ``read_case``)."""
    try:
        case = read_case(path)
    except (CaseFormatError, OSError, UnicodeDecodeError):
        return (32, 64)
    return case.waves


def known_failure(path: Path) -> str | None:
    """The case's ``known_failure:`` reason, read leniently for collection."""
    try:
        return read_case(path).known_failure
    except (CaseFormatError, OSError, UnicodeDecodeError):
        return None


def read_case(path: Path) -> Case:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as failure:
        raise CaseFormatError(f"{path}:1: cannot read the case: {failure}") from None
    case = Case(Path(path))
    for number, line in header_lines(text):
        match = _DIRECTIVE.match(line)
        if match is None:
            continue  # free text in the header
        key, value = match.group(1), match.group(2).strip()
        reader = _READERS.get(key)
        if reader is None:
            known = ", ".join(sorted(_READERS))
            raise CaseFormatError(f"{path}:{number}: unknown directive '{key}:' (known: {known})")
        try:
            reader(case, value, number)
        except CaseFormatError as failure:
            raise CaseFormatError(f"{path}:{number}: {failure}") from None
    _check_complete(case)
    return case


def _check_complete(case: Case) -> None:
    if not case.description:
        raise CaseFormatError(f"{case.path}:1: missing '// conformance: <what this case checks>'")
    if case.error is not None:
        if case.expects or case.buffers:
            raise CaseFormatError(f"{case.where(case.error_line)}: an 'error:' case has no buffers or expectations")
        return
    if not case.expects:
        raise CaseFormatError(f"{case.path}:1: no 'expect:' line (or 'error:') -- the case checks nothing")
    for name, (values, line) in case.expects.items():
        buffer = case.buffers.get(name)
        if buffer is None:
            raise CaseFormatError(f"{case.where(line)}: 'expect: {name}' names no 'buffer: {name} ...'")
        if len(values) != len(buffer.values):
            raise CaseFormatError(f"{case.where(line)}: 'expect: {name}' gives {len(values)} values; "
                                  f"the buffer has {len(buffer.values)} {buffer.dtype} elements")


# -- one reader per directive -------------------------------------------------------------


def _conformance(case: Case, value: str, line: int) -> None:
    if not value:
        raise CaseFormatError("'conformance:' needs a one-line description")
    case.description = value


def _groups(case: Case, value: str, line: int) -> None:
    parts = [part.strip() for part in value.split(",")]
    if len(parts) != 3 or not all(part.isdigit() and int(part) > 0 for part in parts):
        raise CaseFormatError(f"'groups:' is three positive integers X,Y,Z, not {value!r}")
    case.groups = tuple(int(part) for part in parts)


def _define(case: Case, value: str, line: int) -> None:
    name, _, definition = value.partition("=")
    if not re.fullmatch(_NAME, name.strip()):
        raise CaseFormatError(f"'define:' is NAME or NAME=VALUE, not {value!r}")
    case.defines[name.strip()] = definition.strip() if "=" in value else "1"


def _wave(case: Case, value: str, line: int) -> None:
    if value not in WAVE_SIZES:
        raise CaseFormatError(f"'wave:' is 32, 64 or both, not {value!r}")
    case.waves = WAVE_SIZES[value]


def _buffer(case: Case, value: str, line: int) -> None:
    zeros = _BUFFER_ZEROS.match(value)
    given = _BUFFER_VALUES.match(value)
    if zeros:
        name, dtype = zeros.group(1), _dtype(zeros.group(2))
        values = np.zeros(int(zeros.group(3)), dtype)
    elif given:
        name, dtype = given.group(1), _dtype(given.group(2))
        values = parse_values(given.group(3), dtype)
    else:
        raise CaseFormatError(f"'buffer:' is 'NAME TYPE = v0 v1 ...' or 'NAME TYPE[N]', not {value!r}")
    _unique(case, name)
    case.buffers[name] = Buffer(name, dtype, values, line)


def _constant(case: Case, value: str, line: int) -> None:
    given = _BUFFER_VALUES.match(value)
    if not given:
        raise CaseFormatError(f"'constant:' is 'NAME TYPE = v0 [v1 ...]', not {value!r}")
    name, dtype = given.group(1), _dtype(given.group(2))
    _unique(case, name)
    case.constants[name] = Buffer(name, dtype, parse_values(given.group(3), dtype), line)


def _texture(case: Case, value: str, line: int) -> None:
    given = _TEXTURE.match(value)
    if not given:
        raise CaseFormatError(f"'texture:' is 'NAME TYPE WxH[xC] = v0 v1 ...', not {value!r}")
    name, dtype = given.group(1), _dtype(given.group(2))
    width, height = int(given.group(3)), int(given.group(4))
    channels = int(given.group(5) or 1)
    values = parse_values(given.group(6), dtype)
    if len(values) != width * height * channels:
        raise CaseFormatError(f"texture '{name}' is {width}x{height}x{channels}: "
                              f"{width * height * channels} values, got {len(values)}")
    _unique(case, name)
    case.textures[name] = Texture(name, values.reshape(height, width, channels), line)


def _sampler(case: Case, value: str, line: int) -> None:
    given = _SAMPLER.match(value)
    if not given or given.group(2) not in FILTERS or given.group(3) not in ADDRESSES:
        raise CaseFormatError(f"'sampler:' is 'NAME FILTER ADDRESS' (filter {'/'.join(FILTERS)}, "
                              f"address {'/'.join(ADDRESSES)}), not {value!r}")
    _unique(case, given.group(1))
    case.samplers[given.group(1)] = (given.group(2), given.group(3))


def _expect(case: Case, value: str, line: int) -> None:
    given = _EXPECT.match(value)
    if not given:
        raise CaseFormatError(f"'expect:' is 'NAME = v0 v1 ...', not {value!r}")
    name = given.group(1)
    buffer = case.buffers.get(name)
    if buffer is None:
        raise CaseFormatError(f"'expect: {name}' must follow the 'buffer: {name} ...' line it checks")
    if name in case.expects:
        raise CaseFormatError(f"a second 'expect: {name}'")
    case.expects[name] = (parse_values(given.group(2), buffer.dtype), line)


def _error(case: Case, value: str, line: int) -> None:
    if not value:
        raise CaseFormatError("'error:' needs the substring the diagnostic must contain")
    case.error, case.error_line = value, line


def _known_failure(case: Case, value: str, line: int) -> None:
    if not value:
        raise CaseFormatError("'known_failure:' needs the reason shc still gets the case wrong")
    case.known_failure = value


_READERS = {"conformance": _conformance, "known_failure": _known_failure, "groups": _groups, "define": _define, "wave": _wave,
            "buffer": _buffer, "constant": _constant, "texture": _texture, "sampler": _sampler,
            "expect": _expect, "error": _error}


def _unique(case: Case, name: str) -> None:
    if name in case.buffers or name in case.constants or name in case.textures or name in case.samplers:
        raise CaseFormatError(f"'{name}' is bound twice")


def _dtype(name: str) -> np.dtype:
    if name not in DTYPES:
        raise CaseFormatError(f"unknown element type {name!r} (one of {', '.join(DTYPES)})")
    return np.dtype(name)


# -- values -------------------------------------------------------------------------------

_FLOAT_WORDS = {"inf": np.inf, "+inf": np.inf, "-inf": -np.inf, "nan": np.nan}


def parse_values(text: str, dtype: np.dtype) -> np.ndarray:
    """Whitespace-separated values of ``dtype``: decimals, ``inf``/``nan`` or raw bits ``0x...``."""
    words = text.split()
    if not words:
        raise CaseFormatError("no values after '='")
    values = np.zeros(len(words), dtype)
    raw = values.view(np.dtype(f"u{dtype.itemsize}"))
    for index, word in enumerate(words):
        if word.lower().startswith(("0x", "-0x")):
            bits = _integer(word, 16)
            if bits < 0 or bits >= 1 << (8 * dtype.itemsize):
                raise CaseFormatError(f"raw bits {word} do not fit {dtype} ({8 * dtype.itemsize} bits)")
            raw[index] = bits
        elif dtype.kind == "f":
            values[index] = _float(word, dtype)
        else:
            number = _integer(word, 10)
            limits = np.iinfo(dtype)
            if not limits.min <= number <= limits.max:
                raise CaseFormatError(f"{word} is out of range for {dtype} ({limits.min}..{limits.max})")
            values[index] = number
    return values


def _integer(word: str, base: int) -> int:
    try:
        return int(word, base)
    except ValueError:
        raise CaseFormatError(f"{word!r} is not an integer") from None


def _float(word: str, dtype: np.dtype):
    lowered = word.lower()
    if lowered in _FLOAT_WORDS:
        return dtype.type(_FLOAT_WORDS[lowered])
    try:
        with np.errstate(over="ignore"):  # a decimal past the type's range is inf, as a literal would be
            return dtype.type(word)  # NumPy rounds the decimal to the nearest value of the type
    except ValueError:
        raise CaseFormatError(f"{word!r} is not a number") from None
