"""Where a diagnostic came from, as clang shows it: the chain of #includes before it, the
macro a position lies in after it, a redefined macro, warning groups, -WX and the error limit.

Each test renders the diagnostics the user would see (``Diagnostics.render``).
"""

import ast
from pathlib import Path

import pytest

from shc.compiler.diagnostics import WARNING_GROUPS, CompileError, Diagnostics
from shc.compiler.pipeline import Options, check_file, check_source

KERNEL = "[numthreads(1, 1, 1)]\nvoid main()\n{\n    float4 v = 1;\n    float2 w = v;\n}\n"


def render(path, **options):
    diagnostics = Diagnostics()
    try:
        check_file(str(path), Options(**options), diagnostics)
    except CompileError:
        pass
    return diagnostics.render()


def test_include_chain_before_an_error_in_a_nested_header(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "inner.h").write_text("float Inner() { return missing; }\n")
    (tmp_path / "outer.h").write_text("// outer\n#include \"inner.h\"\n")
    (tmp_path / "main.hlsl").write_text("#include \"outer.h\"\n" + KERNEL.replace("float2 w = v;", "float x = y;"))
    assert render("main.hlsl") == (
        "In file included from main.hlsl:1:\n"
        "In file included from outer.h:2:\n"
        "inner.h:1:24: error: use of undeclared identifier 'missing'\n"
        "float Inner() { return missing; }\n"
        "                       ^\n"
        "main.hlsl:6:15: error: use of undeclared identifier 'y'\n"
        "    float x = y;\n"
        "              ^"
    )


def test_include_chain_is_printed_once_per_run_of_errors_in_a_header(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.h").write_text("float A() { return a; }\nfloat B() { return b; }\n")
    (tmp_path / "main.hlsl").write_text("#include \"bad.h\"\n" + KERNEL)
    text = render("main.hlsl")
    assert text.count("In file included from main.hlsl:1:") == 1
    assert text.startswith("In file included from main.hlsl:1:\nbad.h:1:20: error: use of undeclared identifier 'a'")


def test_every_syntax_error_of_a_header_and_the_main_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.h").write_text("float A(float x) { return x +* 2; }\n")
    (tmp_path / "main.hlsl").write_text("#include \"bad.h\"\n[numthreads(1, 1, 1)]\nvoid main()\n{\n"
                                        "    float a = 1 +;\n    if (a > 0) { a = ]; }\n    float b = 2 2;\n}\n")
    text = render("main.hlsl")
    heads = [line for line in text.splitlines() if ": error: " in line or line.startswith("In file")]
    assert heads == [
        "In file included from main.hlsl:1:",
        "bad.h:1:30: error: expected expression before '*'",
        "main.hlsl:5:18: error: expected expression before ';'",
        "main.hlsl:6:22: error: expected expression before ']'",
        "main.hlsl:7:16: error: expected ';' before '2'",
    ]


def test_expanded_from_macro_note():
    text = "#define SQUARE(x) ((x) * (x).zz)\n" + KERNEL.replace("float2 w = v;", "float2 w = SQUARE(v.x);")
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        check_source(text, "m.hlsl", Options(), diagnostics)
    assert [d.severity for d in diagnostics.items] == ["error"]  # the note is part of the rendering
    assert diagnostics.render() == (
        "m.hlsl:6:16: error: invalid swizzle 'zz' on 'float'\n"
        "    float2 w = SQUARE(v.x);\n"
        "               ^\n"
        "m.hlsl:1:9: note: expanded from macro 'SQUARE'\n"
        "#define SQUARE(x) ((x) * (x).zz)\n"
        "        ^"
    )


def test_a_define_that_changes_a_command_line_macro_warns():
    text = "#define N 4\n#define M 2\n" + KERNEL.replace("float2 w = v;", "float2 w = v.xy * N * M;")
    diagnostics = Diagnostics()
    check_source(text, "r.hlsl", Options(defines={"N": "8", "M": "2"}), diagnostics)
    assert diagnostics.render() == (
        "r.hlsl:1:9: warning: 'N' macro redefined [-Wmacro-redefined]\n"
        "#define N 4\n"
        "        ^\n"
        "<command line>:1:9: note: previous definition is here\n"
        "#define N 8\n"
        "        ^"
    )


def test_a_define_that_changes_an_earlier_define_warns():
    text = "#define N 4\n#define N  4\n#define N 5\n" + KERNEL.replace("float2 w = v;", "float2 w = v.xy * N;")
    diagnostics = Diagnostics()
    check_source(text, "r.hlsl", Options(), diagnostics)
    assert [(d.severity, str(d.coord), d.message) for d in diagnostics.items] == [
        ("warning", "r.hlsl:3:9", "'N' macro redefined"),
        ("note", "r.hlsl:2:9", "previous definition is here"),
    ]


def test_undef_then_define_is_not_a_redefinition():
    text = "#define N 4\n#undef N\n#define N 5\n" + KERNEL.replace("float2 w = v;", "float2 w = v.xy * N;")
    diagnostics = Diagnostics()
    check_source(text, "r.hlsl", Options(), diagnostics)
    assert diagnostics.items == []


def test_silenced_group_and_its_note_are_not_shown():
    diagnostics = Diagnostics(disabled_warnings=frozenset({"macro-redefined", "conversion"}))
    text = "#define N 4\n" + KERNEL
    check_source(text, "r.hlsl", Options(defines={"N": "8"}), diagnostics)
    assert diagnostics.items == []


def test_warnings_as_errors():
    diagnostics = Diagnostics(warnings_as_errors=True)
    with pytest.raises(CompileError):
        check_source(KERNEL, "w.hlsl", Options(), diagnostics)
    assert diagnostics.render().splitlines()[0] == (
        "w.hlsl:5:16: error: implicit truncation of vector type ('float4' to 'float2') [-Werror,-Wconversion]")


def test_every_warning_shc_emits_names_a_known_group():
    """Every ``.warning(message, coord, group)`` call in the compiler names a group -Wno- knows."""
    root = Path(__file__).resolve().parents[2] / "compiler"
    groups = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "warning":
                assert len(node.args) == 3, f"{path.name}:{node.lineno}: a warning without a group"
                if isinstance(node.args[2], ast.Constant):
                    groups.append(node.args[2].value)
    assert len(groups) >= 10
    assert set(groups) <= WARNING_GROUPS
