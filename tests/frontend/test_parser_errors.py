"""The HLSL grammar, syntax errors: messages and positions, repairs, recovery, the
error limit, and a parser reused across inputs.

Node positions follow one rule per node kind (parser_helpers.py); ``fe`` is the shared
front end of tests/conftest.py.
"""

import os
import sys

import pytest

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.frontend.preprocess import preprocess

sys.path.insert(0, os.path.dirname(__file__))
from parser_helpers import only  # noqa: E402


# ----------------------------------------------------------- syntax errors

def test_several_errors_in_one_run(fe):
    text = ("void a() {\n    int x = 1 +;\n    x = 2;\n}\n"
            "void b() {\n    float y = (2;\n}\n"
            "struct S { float z }\n"
            "void c() { return 1 }\n")
    assert fe.errors(text) == [
        ("test.hlsl", 2, 16, "expected expression before ';'"),
        ("test.hlsl", 6, 17, "expected ')' or ',' before ';'"),
        ("test.hlsl", 8, 19, "expected ';' before '}'"),
        ("test.hlsl", 9, 1, "expected ';' or 'identifier' before 'void'"),
        ("test.hlsl", 9, 20, "expected ';' before '}'"),
    ]


@pytest.mark.parametrize("text, error", [
    ("int a = 1\nint b = 2;\n", (1, 10, "expected ';' before 'int'")),
    ("void f() {\n  int a = 1\n  a = 2;\n}\n", (2, 12, "expected ';' before 'a'")),
    ("void f() { return 1 }\n", (1, 20, "expected ';' before '}'")),
    ("struct S { float x; }\nfloat y;\n", (2, 1, "expected ';' or 'identifier' before 'float'")),
    ("void f() { do {} while (1) }\n", (1, 27, "expected ';' before '}'")),
])
def test_missing_semicolon_is_repaired(fe, text, error):
    """One error, and the rest parses as if the ';' were there."""
    assert fe.errors(text) == [("test.hlsl", *error)]


def test_parse_continues_after_a_repair(fe):
    unit, diagnostics = fe.run("float a = 1\nfloat b = 2;\n")
    assert diagnostics.error_count == 1
    assert unit is not None and [only(d).name for d in unit.decls] == ["a", "b"]


@pytest.mark.parametrize("text, error", [
    ("void f() {\n  int x;\n", (2, 9, "expected '}' at end of input")),
    ("int x = max(1, 2", (1, 17, "expected ')' at end of input")),
    ("float a[4", (1, 10, "expected ']' at end of input")),
    ("int x =", (1, 8, "expected expression at end of input")),
    ("struct S { int a; }", (1, 20, "expected ';' at end of input")),
    ("float4", (1, 7, "expected 'identifier' at end of input")),
])
def test_end_of_input(fe, text, error):
    assert fe.errors(text) == [("test.hlsl", *error)]


@pytest.mark.parametrize("text, error", [
    ("void f() {}\n}\nint x;\n", (2, 1, "extraneous closing brace '}'")),
    ("Foo x;\n", (1, 1, "unknown type name 'Foo'")),
    ("void f() { Foo x; }\n", (1, 12, "unknown type name 'Foo'")),
    ("void f(Foo x) {}\n", (1, 8, "unknown type name 'Foo'")),
    ("struct S { Foo x; };\n", (1, 12, "unknown type name 'Foo'")),
    ("void f(int a,) {}\n", (1, 14, "expected a type before ')'")),
    ("void f() { if (1) else; }\n", (1, 19, "expected expression before 'else'")),
    ("RWTexture2D<float4 t;\n", (1, 20, "expected ',' or '>' before 't'")),
    ("int a; 5;\n", (1, 8, "expected a declaration before '5'")),
    ("void f() { int x = (1 + ); }\n", (1, 25, "expected expression before ')'")),
    ("cbuffer C : 5 { float a; };\n", (1, 13, "unexpected '5'")),
])
def test_error_messages(fe, text, error):
    assert fe.errors(text)[0] == ("test.hlsl", *error)


def test_recovery_at_semicolons_and_braces(fe):
    unit, diagnostics = fe.run("void f() {\n    x = = 1;\n    int ok = 2;\n}\nint y = ];\nfloat good;\n")
    assert [d.message for d in diagnostics.items] == ["expected expression before '='", "expected expression before ']'"]
    assert unit is not None


def test_many_errors_stop_at_the_limit(fe):
    text = "".join(f"void f{i}() {{ int x = (1 + ); }}\n" for i in range(80))
    _, diagnostics = fe.run(text)
    assert diagnostics.error_count == Diagnostics().max_errors


def test_one_parser_serves_many_inputs(fresh_parser):
    first = Diagnostics()
    fresh_parser.parse(preprocess("struct S { int a; };\n", "a.hlsl", first), first)
    second = Diagnostics()
    fresh_parser.parse(preprocess("S s;\n", "b.hlsl", second), second)
    assert [d.message for d in second.items] == ["unknown type name 'S'"]
    assert first.items == []


def test_lex_errors_do_not_cascade_into_parse_errors(fe):
    assert fe.errors("int a = @;\nint b = 1 $ 2;\n") == [
        ("test.hlsl", 1, 9, "invalid character '@'"),
        ("test.hlsl", 2, 11, "invalid character '$'"),
    ]


def test_pipeline_raises_compile_error_after_syntax_errors(shc_cache):
    from shc.compiler.pipeline import Options, parse_source
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        parse_source("int x = ;\n", "bad.hlsl", Options(), diagnostics)
    assert diagnostics.render() == "bad.hlsl:1:9: error: expected expression before ';'\nint x = ;\n        ^"
