"""Diagnostics as the user sees them: format, caret, positions through includes and macros.

The golden tests check the full rendered text of a few bad shaders in ``golden/`` against
``golden/<name>.expected``. After an intended change of wording, regenerate them with
``SHC_UPDATE_GOLDEN=1 pytest tests/frontend/test_diagnostics.py`` and review the diff.
"""

import os
from pathlib import Path

import pytest

from shc.compiler.diagnostics import CompileError, Coord, Diagnostic, Diagnostics, SourceCache
from shc.compiler.pipeline import Options, check_file, check_source

GOLDEN = Path(__file__).resolve().parent / "golden"


def render_check(name, monkeypatch):
    """What ``shc check golden/<name>.hlsl`` prints on stderr, run from inside golden/."""
    monkeypatch.chdir(GOLDEN)
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_file(f"{name}.hlsl", Options(), diagnostics)
    return diagnostics.render() + "\n"


@pytest.mark.parametrize("name", ["types", "include", "entry"])
def test_golden_diagnostics(name, monkeypatch):
    actual = render_check(name, monkeypatch)
    expected_path = GOLDEN / f"{name}.expected"
    if os.environ.get("SHC_UPDATE_GOLDEN"):
        expected_path.write_text(actual)
    assert actual == expected_path.read_text()


def test_errors_in_a_header_name_the_header(monkeypatch):
    monkeypatch.chdir(GOLDEN)
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_file("include.hlsl", Options(), diagnostics)
    first = diagnostics.items[0]
    assert (first.coord, first.message) == (
        Coord("header.h", 7, 16), "use of undeclared identifier 'brightness'")
    # A macro expansion is reported where the macro is used, in the including file.
    assert [(d.coord.file, d.coord.line, d.coord.col) for d in diagnostics.items[1:]] == [
        ("include.hlsl", 13, 25), ("include.hlsl", 14, 5), ("include.hlsl", 15, 5),
    ]


def test_format_with_source_line_and_caret():
    sources = SourceCache()
    sources.add("a.hlsl", "first\n    float x = y;\n")
    item = Diagnostic("error", "use of undeclared identifier 'y'", Coord("a.hlsl", 2, 15))
    assert item.format(sources) == (
        "a.hlsl:2:15: error: use of undeclared identifier 'y'\n"
        "    float x = y;\n"
        "              ^"
    )


def test_the_caret_keeps_tabs_so_it_lines_up():
    sources = SourceCache()
    sources.add("a.hlsl", "\t\tx = 1;\n")
    text = Diagnostic("warning", "w", Coord("a.hlsl", 1, 3)).format(sources)
    assert text.splitlines()[2] == "\t\t^"


def test_format_without_a_source_line():
    sources = SourceCache()
    sources.add("a.hlsl", "one line\n")
    past_the_end = Diagnostic("error", "m", Coord("a.hlsl", 9, 1))
    assert past_the_end.format(sources) == "a.hlsl:9:1: error: m"
    unknown_file = Diagnostic("error", "m", Coord("/nonexistent/x.hlsl", 1, 1))
    assert unknown_file.format(sources) == "/nonexistent/x.hlsl:1:1: error: m"


def test_whole_file_diagnostics_have_no_line():
    assert Diagnostic("error", "entry point 'main' not found", Coord("a.hlsl", 0, 0)).format(
        SourceCache()) == "a.hlsl: error: entry point 'main' not found"


def test_an_unreadable_file(tmp_path):
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_file(str(tmp_path / "missing.hlsl"), Options(), diagnostics)
    assert diagnostics.render() == f"{tmp_path / 'missing.hlsl'}: error: cannot read file: No such file or directory"
    binary = tmp_path / "binary.hlsl"
    binary.write_bytes(b"\xff\xfe\x00garbage")
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_file(str(binary), Options(), diagnostics)
    assert diagnostics.render() == f"{binary}:1:1: error: invalid UTF-8 byte 0xff"  # a binary line is not shown


def test_identical_diagnostics_are_reported_once():
    diagnostics = Diagnostics()
    diagnostics.error("e", Coord("a", 1, 1))
    diagnostics.error("e", Coord("a", 1, 1))
    diagnostics.error("e", Coord("a", 1, 2))
    assert len(diagnostics.items) == 2


def test_a_macro_used_twice_in_one_expression_reports_once():
    text = "#define SQUARE(v) ((v) * (v))\n[numthreads(1, 1, 1)] void main() { float2 p = 1; float q = SQUARE(p.z); }\n"
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_source(text, "m.hlsl", Options(), diagnostics)
    assert [str(d.coord) + " " + d.message for d in diagnostics.items] == [
        "m.hlsl:2:61 invalid swizzle 'z' on 'float2'",
    ]


def test_too_many_errors_stop_the_run():
    body = "".join(f"    x{i} = 1;\n" for i in range(80))
    text = f"[numthreads(1, 1, 1)]\nvoid main()\n{{\n{body}}}\n"
    diagnostics = Diagnostics()
    with pytest.raises(CompileError) as raised:
        check_source(text, "many.hlsl", Options(), diagnostics)
    assert diagnostics.error_count == diagnostics.max_errors == 20  # clang's limit
    assert str(raised.value) == "many.hlsl:4:5: use of undeclared identifier 'x0'"
    assert diagnostics.render().endswith("    x19 = 1;\n    ^\nnote: too many errors emitted, stopping now")


def test_warnings_alone_do_not_fail():
    text = "[numthreads(1, 1, 1)] void main() { float4 v = 1; float2 w = v; }\n"
    diagnostics = Diagnostics()
    program = check_source(text, "w.hlsl", Options(), diagnostics)
    assert program.entry.name == "main"
    assert diagnostics.render() == (
        "w.hlsl:1:62: warning: implicit truncation of vector type ('float4' to 'float2') [-Wconversion]\n"
        "[numthreads(1, 1, 1)] void main() { float4 v = 1; float2 w = v; }\n"
        "                                                             ^"
    )


def sum_of_ones(terms):
    return "[numthreads(1, 1, 1)] void main() { float x = 1" + " + 1" * (terms - 1) + "; }\n"


def test_a_long_generated_expression_compiles():
    check_source(sum_of_ones(1500), "long.hlsl", Options(), Diagnostics())


def test_absurd_nesting_is_a_diagnostic_not_a_crash():
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_source(sum_of_ones(20000), "deep.hlsl", Options(), diagnostics)
    (item,) = diagnostics.items
    assert item.message == "the program nests too deeply for shc to compile"
    assert item.coord.file == "deep.hlsl" and item.coord.line == 1
