"""The preprocessor: macros, conditionals, includes, #line/#error/#pragma, -D, and positions.

Every diagnostic must name the original file, line and column, through includes,
``#line`` and macro expansions (an expansion is reported where the macro is used).
"""

import random
from pathlib import Path

import pytest

from shc.compiler.diagnostics import CompileError, Coord, Diagnostics
from shc.compiler.frontend import ast
from shc.compiler.frontend.preprocess import Preprocessed, Segment, preprocess
from shc.compiler.pipeline import Options, check_file, parse_source


def write(root: Path, files: dict) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text) if isinstance(text, str) else path.write_bytes(text)


def names(unit):
    """Names of the top-level variables, in order."""
    return [d.name for decl in unit.decls if isinstance(decl, ast.DeclStmt) for d in decl.decls]


def words(text, **options):
    """The preprocessed text as a list of whitespace-separated words."""
    diagnostics = Diagnostics()
    out = preprocess(text, "test.hlsl", diagnostics, **options)
    assert diagnostics.error_count == 0, diagnostics.render()
    return out.text.split()


# ------------------------------------------------------------------ macros

def test_object_like_macro(fe):
    (var,) = fe.decl("#define N 4\nfloat a[N];\n").decls
    assert isinstance(var.dims[0], ast.IntLiteral) and var.dims[0].value == 4


def test_function_like_macro_builds_an_expression(fe):
    (var,) = fe.decl("#define MAD(a, b, c) ((a) * (b) + (c))\nfloat x = MAD(1.0, 2.0, 3.0);\n").decls
    assert var.init.op == "+" and var.init.left.op == "*"
    assert var.init.right.value == 3.0


def test_types_aliased_with_define_work_as_types_constructors_and_casts(fe):
    items = fe.body("AF4 v = AF4(1, 2, 3, 4);\nAF2 w = (AF2)v;", prelude="#define AF4 float4\n#define AF2 float2\n")
    assert items[0].decls[0].type_spec.name == "float4"
    assert items[0].decls[0].init.type_spec.name == "float4"
    assert isinstance(items[1].decls[0].init, ast.Cast)


def test_stringize(fe):
    func = fe.decl('#define STR(x) #x\n[shader(STR(compute))]\nvoid f() {}\n')
    assert func.attributes[0].args == ["compute"]
    assert words('#define STR(x) #x\nSTR(a   +  b)') == ['"a', '+', 'b"']  # one string: "a + b"


def test_token_pasting(fe):
    (var,) = fe.decl("#define GLUE(a, b) a##b\nfloat GLUE(my, Var);\n").decls
    assert var.name == "myVar"
    (vec,) = fe.decl("#define VEC(t, n) t##n\nVEC(float, 4) v;\n").decls
    assert vec.type_spec.name == "float4"


def test_variadic_and_nested_macros(fe):
    (var,) = fe.decl("#define CALL(f, ...) f(__VA_ARGS__)\n#define TWO 2\nint x = CALL(max, 1, TWO);\n").decls
    assert isinstance(var.init, ast.Call) and var.init.name == "max"
    assert [a.value for a in var.init.args] == [1, 2]


def test_function_like_macro_name_without_arguments_is_not_expanded():
    assert words("#define F(x) x\nF + F(1)") == ["F", "+", "1"]


def test_a_macro_does_not_expand_itself():
    assert words("#define A A + 1\nA") == ["A", "+", "1"]


def test_undef(fe):
    unit = fe.parse("#define X 1\n#undef X\n#ifdef X\nint bad;\n#endif\nint ok;\n")
    assert names(unit) == ["ok"]


# ------------------------------------------------------------ conditionals

def pick(fe, condition, **options):
    unit = fe.parse(f"#if {condition}\nint yes;\n#else\nint no;\n#endif\n", **options)
    return names(unit) == ["yes"]


@pytest.mark.parametrize("condition, expected", [
    ("1", True), ("0", False), ("defined(A)", True), ("defined B", True), ("defined(C)", False),
    ("defined(A) && !defined(C)", True), ("!defined(A) || defined(C)", False),
    ("(A + 2) * 3 == 9", True), ("A > 1 || B", False), ("1 << 4 == 16", True), ("(5 % 3) == 2", True),
    ("-1 < 0", True), ("0x10 == 16", True), ("A ? 0 : 1", False), ("UNKNOWN == 0", True), ("~0 != 0", True),
    ("A == 1 && B == 0", True), ("10 / 3 == 3", True),
])
def test_if_expressions(fe, condition, expected):
    assert pick(fe, condition, defines={"A": "1", "B": "0"}) is expected


def test_ifdef_ifndef_elif_else(fe):
    text = ("#ifdef A\nint a;\n#endif\n#ifndef A\nint not_a;\n#endif\n"
            "#if X == 1\nint one;\n#elif X == 2\nint two;\n#elif X == 3\nint three;\n#else\nint other;\n#endif\n")
    assert names(fe.parse(text, defines={"A": "", "X": "2"})) == ["a", "two"]
    assert names(fe.parse(text, defines={"X": "7"})) == ["not_a", "other"]


def test_skipped_blocks_are_not_evaluated(fe):
    text = "#if 0\n#if 1 / 0\n#error never\n#endif\n#bogus\n#else\nint kept;\n#endif\n"
    assert names(fe.parse(text)) == ["kept"]


# --------------------------------------------------- #line, #error, #pragma

def test_line_renumbers_following_lines(fe):
    assert fe.errors("int a;\n#line 100\nint b = @;\n") == [("test.hlsl", 100, 9, "invalid character '@'")]


def test_line_with_a_file_name(fe):
    text = 'int a;\n#line 7 "other.hlsl"\n\nint b = @;\n'
    assert fe.errors(text) == [("other.hlsl", 8, 9, "invalid character '@'")]


def test_line_inside_an_included_file(fe, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {"h.h": "#line 50\nint h = @;\n", "main.hlsl": ""})
    text = '#include "h.h"\nint m = @;\n'
    assert fe.errors(text, filename="main.hlsl") == [
        ("h.h", 50, 9, "invalid character '@'"), ("main.hlsl", 2, 9, "invalid character '@'")]


@pytest.mark.parametrize("text", ["#line\n", "#line x\n", "#line 4 nope\n"])
def test_bad_line_directives(fe, text):
    assert len(fe.errors(text)) == 1


def test_error_directive(fe):
    assert fe.errors("int a;\n  #error unsupported  target\n") == [
        ("test.hlsl", 2, 4, "#error unsupported  target")]


def test_error_directive_in_a_skipped_block_is_ignored(fe):
    assert names(fe.parse("#ifdef NOPE\n#error no\n#endif\nint a;\n")) == ["a"]


def test_warning_directive_reports_and_continues(fe):
    unit, diagnostics = fe.run("#warning careful\nint a;\n")
    assert names(unit) == ["a"]
    assert [(d.severity, d.message) for d in diagnostics.items] == [("warning", "#warning careful")]


def test_pragmas_are_ignored(fe):
    unit, diagnostics = fe.run("#pragma warning(disable: 3557)\n#pragma pack_matrix(row_major)\n#pragma\nint a;\n")
    assert names(unit) == ["a"] and diagnostics.items == []


def test_unknown_directive_is_an_error(fe):
    assert fe.errors("#frobnicate\n") == [("test.hlsl", 1, 2, "invalid preprocessing directive '#frobnicate'")]


# ------------------------------------------------------------- -D options

def test_defines_through_options(shc_cache):
    text = "#if defined(FLAG) && WIDTH == 16\nfloat a[WIDTH];\n#endif\nfloat b = TWICE(3.0);\n"
    options = Options(defines={"FLAG": "1", "WIDTH": "16", "TWICE(x)": "((x) * 2)"})
    unit = parse_source(text, "test.hlsl", options, Diagnostics())
    assert names(unit) == ["a", "b"]
    assert unit.decls[0].decls[0].dims[0].value == 16
    assert unit.decls[1].decls[0].init.op == "*"


def test_define_without_value_is_defined(fe):
    assert pick(fe, "defined(F) && F + 0 == 0", defines={"F": ""})


def test_bad_define_names_are_reported(fe):
    assert fe.errors("int a;\n", defines={"1X": "2"}) == [
        ("<command line>", 1, 1, "invalid macro name '1X' in -D")]


# ---------------------------------------------------------------- includes

@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A source tree in a temporary directory, which is also the working directory."""
    monkeypatch.chdir(tmp_path)
    write(tmp_path, {
        "sub/a.h": '#include "b.h"\n#include <c.h>\n#include "both.h"\nint a;\n',
        "sub/b.h": "int b_in_sub;\n",
        "sub/c.h": "int c_in_sub;\n",
        "sub/both.h": "int both_in_sub;\n",
        "b.h": "int b_at_top;\n",
        "inc1/both.h": "int both_in_inc;\n",
        "inc1/first.h": "int first_in_inc1;\n",
        "inc2/first.h": "int first_in_inc2;\n",
        "inc2/only2.h": "int only_in_inc2;\n",
        "override/ffx_a.h": "int overridden;\n",
    })
    return tmp_path


def test_quote_and_angle_includes_are_relative_to_the_including_file(fe, tree):
    unit = fe.parse('#include "sub/a.h"\n', filename="main.hlsl", include_dirs=["inc1"])
    assert names(unit) == ["b_in_sub", "c_in_sub", "both_in_sub", "a"]


def test_include_dirs_are_searched_in_order(fe, tree):
    text = '#include "first.h"\n#include <only2.h>\n#include "both.h"\n'
    unit = fe.parse(text, filename="main.hlsl", include_dirs=["inc1", "inc2"])
    assert names(unit) == ["first_in_inc1", "only_in_inc2", "both_in_inc"]


def test_stdlib_is_searched_last(fe, tree):
    text = "#define A_GPU 1\n#define A_HLSL 1\n#include <ffx_a.h>\nAF4 v;\nAU1 u;\n"
    unit = fe.parse(text, filename="main.hlsl")
    assert [d.decls[0].type_spec.name for d in unit.decls[-2:]] == ["float4", "uint"]
    assert names(fe.parse("#include <ffx_a.h>\n", filename="main.hlsl", include_dirs=["override"])) == ["overridden"]


def test_include_through_a_macro_and_include_guards(fe, tree):
    write(tree, {"g.h": "#ifndef G_H\n#define G_H\nint guarded;\n#endif\n",
                 "o.h": "#pragma once\nint once;\n"})
    text = '#define HEADER "g.h"\n#include HEADER\n#include "g.h"\n#include "o.h"\n#include "o.h"\n'
    assert names(fe.parse(text, filename="main.hlsl")) == ["guarded", "once"]


def test_missing_include_points_at_the_file_name(fe, tree):
    assert fe.errors('int a;\n#include "nope.h"\n#include <gone.h>\n', filename="main.hlsl") == [
        ("main.hlsl", 2, 10, "'nope.h' file not found"), ("main.hlsl", 3, 10, "'gone.h' file not found")]


def test_missing_include_inside_a_header_names_the_header(fe, tree):
    write(tree, {"h.h": "\n  #include \"nope.h\"\n"})
    assert fe.errors('#include "h.h"\n', filename="main.hlsl") == [("h.h", 2, 12, "'nope.h' file not found")]


def test_recursive_include_stops_with_an_error(fe, tree):
    write(tree, {"self.h": '#include "self.h"\n'})
    (error,) = fe.errors('#include "self.h"\n', filename="main.hlsl")
    assert error[:2] == ("self.h", 1) and "nested" in error[3]


def test_header_that_is_not_utf8(fe, tree):
    write(tree, {"latin1.h": b"// caf\xe9\nint x;\n"})
    assert fe.errors('#include "latin1.h"\n', filename="main.hlsl") == [
        ("latin1.h", 1, 7, "invalid UTF-8 byte 0xe9")]


def test_main_file_that_is_not_utf8(tmp_path):
    path = tmp_path / "bad.hlsl"
    path.write_bytes(b"int \xff;\n")
    with pytest.raises(CompileError) as failure:
        check_file(str(path), Options(), Diagnostics())
    assert "UTF-8" in failure.value.diagnostics[0].message


# --------------------------------------------------------------- positions

def test_errors_in_a_header_point_into_the_header(fe, tree):
    write(tree, {"h.h": "// header\nfloat ok;\nfloat bad = 1 +;\nfloat lex = `;\n"})
    text = "int first;\n#include \"h.h\"\nint after = @;\n"
    assert fe.errors(text, filename="main.hlsl") == [
        ("h.h", 3, 16, "expected expression before ';'"),
        ("h.h", 4, 13, "invalid character '`'"),
        ("main.hlsl", 3, 13, "invalid character '@'"),
    ]


def test_end_of_input_inside_a_header(fe, tree):
    write(tree, {"open.h": "void f() {\n  int x;"})
    assert fe.errors('#include "open.h"\n', filename="main.hlsl") == [
        ("open.h", 2, 9, "expected '}' at end of input")]


def test_nested_header_positions(fe, tree):
    write(tree, {"outer.h": '\n#include "sub/inner.h"\nint outer = $;\n', "sub/inner.h": "\n\n  int inner = $;\n"})
    assert fe.errors('#include "outer.h"\n', filename="main.hlsl") == [
        ("sub/inner.h", 3, 15, "invalid character '$'"), ("outer.h", 3, 13, "invalid character '$'")]


def test_errors_in_macro_expansions_point_at_the_use(fe):
    text = "#define BAD (1 + )\n#define AT @\n#define ID(x) x\nint a = BAD;\nint b =  AT;\nint c = ID(@);\n"
    assert fe.errors(text) == [
        ("test.hlsl", 4, 9, "expected expression before ')'"),
        ("test.hlsl", 5, 10, "invalid character '@'"),
        ("test.hlsl", 6, 9, "invalid character '@'"),
    ]


def test_macro_from_a_header_reports_at_the_use_in_the_main_file(fe, tree):
    write(tree, {"m.h": "#define BROKEN(x) (x +)\n"})
    assert fe.errors('#include "m.h"\n\nfloat y = BROKEN(2);\n', filename="main.hlsl") == [
        ("main.hlsl", 3, 11, "expected expression before ')'")]


def test_wrong_macro_argument_count_points_at_the_macro(fe):
    assert fe.errors("#define F(a, b) a\nint x =  F(1);\n") == [
        ("test.hlsl", 2, 10, "macro F requires 2 arguments but was passed 1")]


def test_tokens_after_an_expansion_keep_their_columns(fe):
    assert fe.errors("#define ONE 1\nint x = ONE + ONE + @;\n") == [("test.hlsl", 2, 21, "invalid character '@'")]


@pytest.mark.parametrize("text, line, col", [
    ("int a;\r\nint b = @;\r\n", 2, 9),  # CRLF
    ("int a;    \nint b = @;\n", 2, 9),  # trailing blanks on the previous line
    ("/* one\ntwo\nthree */ int x = @;\n", 3, 18),  # a block comment over several lines
    ("int a; // note\nint b = @;\n", 2, 9),
    ("#define LONG 1 + \\\n  2\nint b = LONG @;\n", 3, 14),  # a continued macro definition
    ("int a = 1 + \\\n  @;\n", 2, 3),  # a continued line
    ("\tint b = @;\n", 1, 10),  # a tab is one column
    ("#define F(a, b) a + b\nint y = F(1,\n   2) + @;\n", 3, 9),  # a macro call over two lines
])
def test_columns(fe, text, line, col):
    assert fe.errors(text)[0][1:3] == (line, col)


def test_coord_of_a_blank_output_line_uses_the_line_above():
    out = Preprocessed("x\n\n", [[Segment(1, Coord("h.h", 4, 3), False)], [], []], "main.hlsl")
    assert out.coord(1, 1) == Coord("h.h", 4, 3)
    assert out.coord(3, 1) == Coord("h.h", 4, 3)
    assert Preprocessed("", [[]], "main.hlsl").coord(1, 1) == Coord("main.hlsl", 1, 1)


# -------------------------------------------------------------- robustness

BAD_INPUTS = {
    "unterminated if": "#if 1\nint x;\n",
    "unterminated ifdef": "#ifdef X\n",
    "else without if": "#else\n",
    "endif without if": "#endif\n",
    "elif after else": "#if 0\n#else\n#elif 1\n#endif\n",
    "else after else": "#if 0\n#else\n#else\n#endif\n",
    "if without expression": "#if\n#endif\n",
    "elif without expression": "#if 0\n#elif\n#endif\n",
    "incomplete not": "#if !\n#endif\n",
    "incomplete not defined": "#if !defined\n#endif\n",
    "incomplete not defined paren": "#if !defined(\n#endif\n",
    "defined without name": "#if defined\n#endif\n",
    "defined unclosed": "#if defined(X\n#endif\n",
    "bad expression": "#if 1 +\n#endif\n",
    "division by zero": "#if 1 / 0\n#endif\n",
    "unknown function macro": "#if F(1)\n#endif\n",
    "ifdef without name": "#ifdef\n#endif\n",
    "ifndef with number": "#ifndef 3\n#endif\n",
    "define without name": "#define\n",
    "define number": "#define 1 2\n",
    "bad macro parameter": "#define F(1) x\n",
    "undef without name": "#undef\n",
    "include without file": "#include\n",
    "include malformed": "#include nope\n",
    "include unclosed angle": "#include <nope\n",
    "missing include": '#include "nope.h"\n',
    "macro arguments": "#define F(a, b) a\nint x = F(1);\n",
    "unterminated macro call": "#define F(a) a\nint x = F(1;\n",
    "unterminated comment": "int x; /* abc",
    "lone quote": '"',
    "unterminated string": 'int x = "abc;\n',
    "backslash at end": "int x; \\",
    "nul byte": "int x;\x00\n",
    "stray braces": "}}}\n",
    "half declaration": "RWTexture2D<float4",
}


@pytest.mark.parametrize("name", BAD_INPUTS)
def test_bad_input_gives_diagnostics_not_exceptions(shc_cache, name):
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        parse_source(BAD_INPUTS[name], "bad.hlsl", Options(), diagnostics)
    assert diagnostics.error_count >= 1
    for item in diagnostics.items:
        assert item.coord.line >= 1 and item.coord.col >= 1, item


def test_random_bytes_give_diagnostics_not_exceptions(shc_cache):
    rng = random.Random(1234)
    for _ in range(30):
        text = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200))).decode("latin-1")
        diagnostics = Diagnostics()
        try:
            parse_source(text, "random.hlsl", Options(), diagnostics)
        except CompileError:
            assert diagnostics.error_count >= 1


def test_deep_if_expression_and_deep_parentheses(fe):
    assert names(fe.parse("#if " + "(" * 3000 + "1" + ")" * 3000 + "\nint yes;\n#endif\n")) == ["yes"]
    (var,) = fe.decl("int x = " + "(" * 5000 + "1" + ")" * 5000 + ";\n").decls
    assert var.init.value == 1
    assert ast.dump(fe.parse("int y = " + "- " * 5000 + "1;\n")).count("Unary") == 5000


@pytest.mark.parametrize("text, coord", [
    ("#define F(a) (a)\nint x = " + "F(" * 1500 + "1" + ")" * 1500 + ";\n", Coord("deep.hlsl", 2, 9 + 256 * 2)),
    ("".join(f"#define M{i} M{i + 1}\n" for i in range(1500)) + "int x = M0;\n", Coord("deep.hlsl", 1501, 9)),
])
def test_runaway_macro_expansion_is_an_error(text, coord):
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        preprocess(text, "deep.hlsl", diagnostics)
    (error,) = diagnostics.items
    assert error.message == "macro expansion nested more than 256 levels deep"
    assert error.coord == coord
