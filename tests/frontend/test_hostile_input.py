"""Hostile input ends in a positioned diagnostic, exit code 1, in well under a second.

Each case runs ``shc check`` in a subprocess as a user would (so a hang or a crash is caught
by the timeout, not by luck): huge literals, files that are not regular files, byte order
marks and bytes that are not UTF-8, malformed directives, and preprocessor blow-ups
(README, "Limits"). The limit on tokens read is tested in-process with a smaller limit
(reaching the real one takes pcpp seconds), and the last tests take the same inputs
through ``shc.compile``.
"""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from shc.compiler.diagnostics import CompileError, Coord, Diagnostics
from shc.compiler.frontend import preprocess as preprocess_module

SCRIPT = Path(sys.executable).with_name("shc")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "shc.compiler.cli"]
HANG_GUARD = 5.0  # seconds; each case takes well under one

TOO_LARGE = "integer literal is too large to be represented in any integer type"
KERNEL = """\
RWStructuredBuffer<uint> output : register(u0);
[numthreads(1, 1, 1)]
void main() { output[0] = 1; }
"""


@pytest.fixture(autouse=True)
def _cache(shc_cache):
    """Parser tables go to the session's cache directory, not the user's."""


def run(*args, cwd) -> subprocess.CompletedProcess:
    """``shc`` with ``args`` in ``cwd``: it must finish quickly and never show a traceback."""
    start = time.monotonic()
    result = subprocess.run(COMMAND + [str(a) for a in args], cwd=cwd, capture_output=True, timeout=10, check=False,
                            stdin=subprocess.DEVNULL)
    elapsed = time.monotonic() - start
    stderr = result.stderr.decode("utf-8", errors="replace")
    assert elapsed < HANG_GUARD, f"took {elapsed:.1f} s: {stderr[:300]}"
    assert "Traceback" not in stderr and "internal compiler error" not in stderr, stderr[:2000]
    return subprocess.CompletedProcess(result.args, result.returncode, result.stdout.decode(), stderr)


def check(path, *options, cwd) -> str:
    """The diagnostics of ``shc check path``, which must fail with exit code 1."""
    result = run("check", path, *options, cwd=cwd)
    assert result.returncode == 1, result.stderr[:2000]
    return result.stderr


def first(stderr: str) -> str:
    return stderr.splitlines()[0]


def write(directory: Path, name: str, content) -> Path:
    path = directory / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def compiles(tmp_path, text, *options) -> None:
    write(tmp_path, "k.hlsl", text)
    result = run("check", "k.hlsl", *options, cwd=tmp_path)
    assert result.returncode == 0, result.stderr[:2000]


# ------------------------------------------------------------------ integer and float literals

@pytest.mark.parametrize("literal", [
    "9" * 5000,  # over Python's 4,300-digit int() limit
    "9" * 5000 + "u",
    "18446744073709551616",  # 2**64
    "0x" + "f" * 5000,
    "0x10000000000000000",
    "0" + "7" * 5000,  # octal
    "02000000000000000000000",  # 2**64 in octal
])
def test_an_integer_literal_over_64_bits(tmp_path, literal):
    write(tmp_path, "k.hlsl", f"static const uint x = {literal};\n" + KERNEL)
    error, line, caret = check("k.hlsl", cwd=tmp_path).splitlines()[:3]
    assert error == f"k.hlsl:1:23: error: {TOO_LARGE}"
    assert caret == " " * 22 + "^" and len(line) <= 203  # a long line is shown around the caret


@pytest.mark.parametrize("literal", ["18446744073709551615", "0xFFFFFFFFFFFFFFFF", "01777777777777777777777",
                                     "0" * 5000 + "1", "0x" + "0" * 5000 + "1"])
def test_an_integer_literal_that_fits_64_bits(tmp_path, literal):
    compiles(tmp_path, f"static const uint64_t x = {literal};\n" + KERNEL)


def test_an_integer_literal_from_the_command_line(tmp_path):
    write(tmp_path, "k.hlsl", "static const uint x = N;\n" + KERNEL)
    stderr = check("k.hlsl", "-D", "N=" + "9" * 5000, cwd=tmp_path)
    assert first(stderr) == f"k.hlsl:1:23: error: {TOO_LARGE}"


def test_an_integer_literal_over_64_bits_in_if(tmp_path):
    write(tmp_path, "k.hlsl", "#if " + "9" * 5000 + "\n#endif\n" + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == f"k.hlsl:1:5: error: {TOO_LARGE}"


def test_an_integer_literal_over_64_bits_in_if_from_a_macro(tmp_path):
    write(tmp_path, "k.hlsl", "#if N > 0\n#endif\n" + KERNEL)
    stderr = check("k.hlsl", "-D", "N=" + "9" * 5000, cwd=tmp_path)
    assert first(stderr) == f"k.hlsl:1:2: error: {TOO_LARGE}"


def test_a_shift_by_a_huge_count_in_if(tmp_path):
    write(tmp_path, "k.hlsl", "#if 1 << 100000000000\n#endif\n" + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        "k.hlsl:1:2: error: shift count is too large in preprocessor expression '1 << 100000000000'")


def test_a_line_number_over_the_limit(tmp_path):
    write(tmp_path, "k.hlsl", "#line " + "9" * 5000 + "\n" + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        "k.hlsl:1:7: error: line number in #line directive is too large (the maximum is 2147483647)")


@pytest.mark.parametrize("literal", ["1e" + "9" * 5000, "9" * 5000 + ".0", "9" * 100_000 + ".0f"])
def test_a_float_literal_too_large(tmp_path, literal):
    write(tmp_path, "k.hlsl", f"static const float x = {literal};\n" + KERNEL)
    shown = literal[:20] + "..."
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        f"k.hlsl:1:24: error: floating-point constant '{shown}' is too large")


@pytest.mark.parametrize("literal", ["0." + "0" * 100_000 + "1", "1e-" + "9" * 5000, "1." + "5" * 100_000])
def test_a_float_literal_with_many_digits(tmp_path, literal):
    compiles(tmp_path, f"static const float x = {literal};\n" + KERNEL)


# ------------------------------------------------------------------ files that are not regular files

def fifo(directory: Path, name: str) -> Path:
    path = directory / name
    os.mkfifo(path)
    return path


def sparse(directory: Path, name: str, size: int) -> Path:
    path = directory / name
    with open(path, "wb") as handle:
        handle.truncate(size)
    return path


@pytest.mark.parametrize("name, reason", [
    ("/dev/zero", "not a regular file"),
    ("/dev/stdin", "not a regular file"),
    ("pipe.h", "not a regular file"),
    ("sub", "is a directory"),
    ("big.h", "file is too large (the limit is 16 MiB)"),
])
def test_an_include_that_is_not_a_regular_file(tmp_path, name, reason):
    fifo(tmp_path, "pipe.h")
    (tmp_path / "sub").mkdir()
    sparse(tmp_path, "big.h", 17 << 20)
    write(tmp_path, "k.hlsl", f'#include "{name}"\n' + KERNEL)
    stderr = check("k.hlsl", cwd=tmp_path)
    assert stderr.splitlines()[:3] == [f"k.hlsl:1:10: error: '{name}': {reason}", f'#include "{name}"', " " * 9 + "^"]


@pytest.mark.parametrize("name, reason", [
    ("/dev/zero", "not a regular file"),
    ("pipe.hlsl", "not a regular file"),
    ("sub", "is a directory"),
    ("big.hlsl", "file is too large (the limit is 16 MiB)"),
])
def test_a_main_file_that_is_not_a_regular_file(tmp_path, name, reason):
    fifo(tmp_path, "pipe.hlsl")
    (tmp_path / "sub").mkdir()
    sparse(tmp_path, "big.hlsl", 17 << 20)
    assert check(name, cwd=tmp_path) == f"{name}: error: {reason}\n"


@pytest.mark.parametrize("name", ["/dev/zero", "/dev/stdin", "pipe.hlsl", "sub", "big.hlsl", "missing.hlsl"])
def test_a_line_directive_naming_a_file_that_is_not_shown(tmp_path, name):
    fifo(tmp_path, "pipe.hlsl")
    (tmp_path / "sub").mkdir()
    sparse(tmp_path, "big.hlsl", 17 << 20)
    write(tmp_path, "k.hlsl", f'#line 3 "{name}"\nstatic const uint x = y;\n' + KERNEL)
    assert check("k.hlsl", cwd=tmp_path) == f"{name}:3:23: error: use of undeclared identifier 'y'\n"


def test_a_line_directive_naming_a_regular_file_shows_its_line(tmp_path):
    write(tmp_path, "other.hlsl", "one\ntwo\nstatic const uint x = y;\n")
    write(tmp_path, "k.hlsl", '#line 3 "other.hlsl"\nstatic const uint x = y;\n' + KERNEL)
    assert check("k.hlsl", cwd=tmp_path).splitlines() == [
        "other.hlsl:3:23: error: use of undeclared identifier 'y'", "static const uint x = y;", " " * 22 + "^"]


# ------------------------------------------------------------------ byte order marks and bytes that are not UTF-8

BOM = "\ufeff"


def test_a_byte_order_mark_in_the_main_file(tmp_path):
    compiles(tmp_path, BOM + KERNEL)


def test_a_byte_order_mark_in_an_include(tmp_path):
    write(tmp_path, "h.h", BOM + "static const uint one = 1;\n")
    compiles(tmp_path, '#include "h.h"\n' + KERNEL)


def test_columns_after_a_byte_order_mark(tmp_path):
    write(tmp_path, "k.hlsl", BOM + "static const uint x = y;\n" + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == "k.hlsl:1:23: error: use of undeclared identifier 'y'"


def test_a_main_file_that_is_not_utf8(tmp_path):
    write(tmp_path, "k.hlsl", b"// one\n// caf\xe9 au lait\n" + KERNEL.encode())
    assert check("k.hlsl", cwd=tmp_path).splitlines() == [
        "k.hlsl:2:7: error: invalid UTF-8 byte 0xe9", "// caf\ufffd au lait", " " * 6 + "^"]


def test_an_include_that_is_not_utf8(tmp_path):
    write(tmp_path, "h.h", b"\n\n  int caf\xc3(;\n")
    write(tmp_path, "k.hlsl", '#include "h.h"\n' + KERNEL)
    assert check("k.hlsl", cwd=tmp_path).splitlines() == [
        "h.h:3:10: error: invalid UTF-8 byte 0xc3", "  int caf\ufffd(;", " " * 9 + "^"]


def test_a_binary_file(tmp_path):
    write(tmp_path, "k.hlsl", b"\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00\x3e\x00\x01\xff\xfe")
    assert check("k.hlsl", cwd=tmp_path) == "k.hlsl:1:22: error: invalid UTF-8 byte 0xff\n"


# ------------------------------------------------------------------ malformed directives

@pytest.mark.parametrize("text, expected", [
    ("#ifndef X\n#define X\n", "k.hlsl:1:2: error: unterminated conditional directive"),
    ("#ifndef X\n#define\n", "k.hlsl:2:2: error: macro name missing"),
    ("#ifndef X\n#define 3\n#endif\n", "k.hlsl:2:9: error: macro name must be an identifier"),
    ('#include "a\0b.h"\n', "k.hlsl:1:10: error: null character in include file name"),
    ("#if 1 +* @ 2\n#endif\n", "k.hlsl:1:2: error: invalid expression in preprocessor expression '1 +* @ 2'"),
    ("#elif 1\n", "k.hlsl:1:2: error: #elif without #if"),
    ("#else\n", "k.hlsl:1:2: error: #else without #if"),
    ("#endif\n", "k.hlsl:1:2: error: #endif without #if"),
    ("#include\n", "k.hlsl:1:2: error: expected \"FILENAME\" or <FILENAME> after #include"),
    ("#include <abc.h\n", "k.hlsl:1:10: error: missing terminating '>' character"),
    ("#define F(a,,b) a\n", "k.hlsl:1:13: error: invalid token in macro parameter list"),
    ("#define F(1) a\n", "k.hlsl:1:11: error: invalid token in macro parameter list"),
    ("#define F(a b) a\n", "k.hlsl:1:13: error: invalid token in macro parameter list"),
    ("#define F(a\n", "k.hlsl:1:10: error: missing ')' in macro parameter list"),
    ("#define F+1\n", "k.hlsl:1:10: error: whitespace required after macro name"),
    ("#error the sky is falling\n", "k.hlsl:1:2: error: #error the sky is falling"),
    ("#line abc\n", "k.hlsl:1:2: error: #line directive requires a positive integer argument"),
    ("#line 0\n", "k.hlsl:1:2: error: #line directive requires a positive integer argument"),
    ("#define E\n#include E\n", "k.hlsl:2:2: error: expected \"FILENAME\" or <FILENAME> after #include"),
    ('#include ""\n', "k.hlsl:1:10: error: empty filename"),
    ("#pragma @@ junk\n#pragma\n" + KERNEL, None),
])
def test_a_malformed_directive(tmp_path, text, expected):
    if expected is None:
        compiles(tmp_path, text)
        return
    write(tmp_path, "k.hlsl", text + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == expected


def test_a_malformed_definition_on_the_command_line(tmp_path):
    write(tmp_path, "k.hlsl", KERNEL)
    assert first(check("k.hlsl", "-D", "F(a,,b)=a", cwd=tmp_path)) == (
        "<command line>:1:1: error: invalid token in macro parameter list")


@pytest.mark.parametrize("text, expected", [
    # a cycle of twenty macros, and macros that name themselves, stop where C says they do
    ("".join(f"#define R{i} R{i + 1}\n" for i in range(20)) + "#define R20 R0\nstatic const uint x = R0;\n",
     "k.hlsl:22:23: error: use of undeclared identifier 'R0'"),
    ("#define X X\nstatic const uint x = X;\n", "k.hlsl:2:23: error: use of undeclared identifier 'X'"),
    ("#define F(a) F(a)\nstatic const uint x = F(1);\n", "k.hlsl:2:23: error: use of undeclared identifier 'F'"),
])
def test_recursive_macros(tmp_path, text, expected):
    write(tmp_path, "k.hlsl", text + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == expected


# ------------------------------------------------------------------ preprocessor blow-ups

def test_deeply_nested_macro_calls(tmp_path):
    nest = "F(" * 2000 + "1" + ")" * 2000
    write(tmp_path, "k.hlsl", f"#define F(x) x\nstatic const uint y = {nest};\n" + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        f"k.hlsl:2:{23 + 256 * 2}: error: macro expansion nested more than 256 levels deep")


def test_a_long_chain_of_macros(tmp_path):
    chain = "".join(f"#define M{i} M{i + 1}\n" for i in range(300))
    write(tmp_path, "k.hlsl", chain + "static const uint y = M0;\n" + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        "k.hlsl:301:23: error: macro expansion nested more than 256 levels deep")


@pytest.mark.parametrize("definitions, use", [
    (["#define M0 1"] + [f"#define M{i} M{i - 1} + M{i - 1}" for i in range(1, 41)], "M40"),
    (["#define F0(x) x"] + [f"#define F{i}(x) F{i - 1}(x) + F{i - 1}(x)" for i in range(1, 41)], "F40(1)"),
    (["#define D(x) x x"], "D(" * 40 + "1" + ")" * 40),
])
def test_exponential_macro_expansion(tmp_path, definitions, use):
    write(tmp_path, "k.hlsl", "\n".join(definitions) + f"\nstatic const uint y = {use};\n" + KERNEL)
    name = use.partition("(")[0]
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        f"k.hlsl:{len(definitions) + 1}:23: error: expansion of macro '{name}' is too large (more than 65536 tokens)")


def test_an_exponential_expansion_the_prediction_misses(tmp_path):
    # CAT(D,) only becomes D when pasted, so the prediction sees no call of D; pcpp's own
    # count stops it once one expansion passes the limit.
    text = "#define CAT(a, b) a##b\n#define D(x) x x\nstatic const uint y = " + "CAT(D,)(" * 40 + "1" + ")" * 40 + ";\n"
    write(tmp_path, "k.hlsl", text + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        "k.hlsl:3:27: error: expansion of macro 'D' is too large (more than 65536 tokens)")


def test_many_large_expansions(tmp_path):
    definitions = ["#define M0 1"] + [f"#define M{i} M{i - 1} M{i - 1}" for i in range(1, 15)]
    uses = "\n".join(f"static const uint y{i} = M14;" for i in range(100))
    write(tmp_path, "k.hlsl", "\n".join(definitions) + "\n" + uses + "\n" + KERNEL)
    stderr = first(check("k.hlsl", cwd=tmp_path))
    assert stderr.startswith("k.hlsl:") and stderr.endswith(
        ": error: preprocessed output is too large (more than 2097152 tokens)")


def test_an_expansion_of_many_bytes(tmp_path):
    definitions = ["#define M0 " + "x" * (1 << 20)] + [f"#define M{i} M{i - 1} M{i - 1}" for i in range(1, 8)]
    write(tmp_path, "k.hlsl", "\n".join(definitions) + "\nstatic const uint y = M7;\n" + KERNEL)
    assert first(check("k.hlsl", cwd=tmp_path)) == (
        "k.hlsl:9:23: error: preprocessed output is too large (more than 64 MiB)")


@pytest.mark.parametrize("files, culprit", [
    ({"k.hlsl": '#include "k.hlsl"\n'}, "k.hlsl"),  # a file that includes itself
    ({"k.hlsl": '#include "b.hlsl"\n', "b.hlsl": '#include "k.hlsl"\n'}, "b.hlsl"),  # two files, no guards
    ({"k.hlsl": '#include "k.hlsl"\n#include "k.hlsl"\n'}, "k.hlsl"),  # twice per level: 2**200 includes
])
def test_recursive_includes(tmp_path, files, culprit):
    for name, text in files.items():
        write(tmp_path, name, text)
    lines = check("k.hlsl", cwd=tmp_path).splitlines()
    assert next(line for line in lines if ": error: " in line) == (
        f"{culprit}:1:10: error: #include nested depth 200 exceeds maximum of 200")
    assert len(lines) <= 5  # the include chain stops where the files repeat


def test_the_limit_on_tokens_read(monkeypatch):
    # 2,097,152 tokens take pcpp seconds to lex; the same check, with a smaller limit, in-process.
    monkeypatch.setattr(preprocess_module, "MAX_INPUT_TOKENS", 1000)
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        preprocess_module.preprocess("uint x = 1 + 2 + 3;\n" * 1000, "big.hlsl", diagnostics)  # 17 tokens a line
    (error,) = diagnostics.items
    assert (error.coord, error.message) == (
        Coord("big.hlsl", 59, 1), "preprocessor input is too large (more than 2097152 tokens read)")


# ------------------------------------------------------------------ the Python API

API_SCRIPT = """\
import sys
import shc
from shc.compiler.diagnostics import CompileError
try:
    shc.compile(sys.stdin.read())
except CompileError as failure:
    print(failure.diagnostics[0].coord, failure.diagnostics[0].message, sep="|")
"""


@pytest.mark.parametrize("text, expected", [
    ("static const uint x = " + "9" * 5000 + ";\n", f"<source>:1:23|{TOO_LARGE}"),
    ("#define F(x) x\nstatic const uint y = " + "F(" * 2000 + "1" + ")" * 2000 + ";\n",
     f"<source>:2:{23 + 256 * 2}|macro expansion nested more than 256 levels deep"),
    ("\n".join(["#define M0 1"] + [f"#define M{i} M{i - 1} + M{i - 1}" for i in range(1, 41)])
     + "\nstatic const uint y = M40;\n",
     "<source>:42:23|expansion of macro 'M40' is too large (more than 65536 tokens)"),
    ('#include "a\0b.h"\n', "<source>:1:10|null character in include file name"),
    ('#include "/dev/zero"\n', "<source>:1:10|'/dev/zero': not a regular file"),
    ("#ifndef X\n#define X\n", "<source>:1:2|unterminated conditional directive"),
])
def test_the_python_api_raises_compile_error(tmp_path, text, expected):
    start = time.monotonic()
    result = subprocess.run([sys.executable, "-c", API_SCRIPT], input=text + KERNEL, capture_output=True, text=True,
                            cwd=tmp_path, timeout=10, check=False)
    assert time.monotonic() - start < HANG_GUARD
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.stdout.strip() == expected
