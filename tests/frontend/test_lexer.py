"""The HLSL lexer: literals, type-name lookup, template '>>' splitting, errors."""

import pytest

from shc.compiler.frontend.lexer import Lexer, float_literal, integer_literal


def lex(text, type_names=(), errors=None):
    """``(type, value)`` of every token of ``text``."""
    report = errors.append if errors is not None else _no_errors
    lexer = Lexer(lambda name: name in type_names, lambda message, pos: report((message, pos)))
    lexer.input(text)
    tokens = []
    while (tok := lexer.token()) is not None:
        tokens.append((tok.type, tok.value))
    return tokens


def _no_errors(error):
    raise AssertionError(f"unexpected lexer error {error}")


def kinds(text, **options):
    return [kind for kind, _ in lex(text, **options)]


# ---------------------------------------------------------------- literals

@pytest.mark.parametrize("text", ["1.0f", "1.0h", "1.0F", "1.0L", ".5", "1e-3", "1E+3f", "1.", "2.5e10", "0.0"])
def test_floating_literals_are_one_token(text):
    assert lex(text) == [("FLOAT_CONST", text)]


@pytest.mark.parametrize("text", ["1", "1u", "1U", "0x1Fu", "0X1f", "017", "0", "1ul", "42L"])
def test_integer_literals_are_one_token(text):
    assert lex(text) == [("INT_CONST", text)]


@pytest.mark.parametrize("text, value, suffix", [
    ("1", 1, ""), ("1u", 1, "u"), ("0x1Fu", 31, "u"), ("0X1f", 31, ""), ("017", 15, ""), ("0", 0, ""),
    ("00", 0, ""), ("1UL", 1, "ul"), ("4294967295", 4294967295, ""), ("0xFFFFFFFFFFFFFFFF", 2**64 - 1, ""),
])
def test_integer_values_and_suffixes(text, value, suffix):
    assert integer_literal(text) == (value, suffix, None)


@pytest.mark.parametrize("text, message", [
    ("09", "invalid digit in octal constant '09'"),
    ("018u", "invalid digit in octal constant '018u'"),
    ("18446744073709551616", "integer literal is too large to be represented in any integer type"),
    ("9" * 5000, "integer literal is too large to be represented in any integer type"),
])
def test_bad_integer_literals(text, message):
    assert integer_literal(text)[2] == message


@pytest.mark.parametrize("text, value, suffix", [
    ("1.0f", 1.0, "f"), ("1.0h", 1.0, "h"), ("1.5L", 1.5, "l"), (".5", 0.5, ""), ("1e-3", 0.001, ""),
    ("1.", 1.0, ""), ("2E2F", 200.0, "f"),
])
def test_float_values_and_suffixes(text, value, suffix):
    assert float_literal(text) == (value, suffix, None)


def test_float_overflow_is_reported():
    assert float_literal("1e999") == (0.0, "", "floating-point constant '1e999' is too large")


def test_suffix_h_and_swizzle_after_literal():
    assert lex("1.0h.xx") == [("FLOAT_CONST", "1.0h"), ("PERIOD", "."), ("ID", "xx")]


@pytest.mark.parametrize("text", ["0.xxxx", "1.r", "2.xy"])
def test_swizzle_of_an_integer_literal(text):
    number, swizzle = text.split(".")
    assert lex(text) == [("INT_CONST", number), ("PERIOD", "."), ("ID", swizzle)]


@pytest.mark.parametrize("text", ["1.f", "1.h", "1.e3", "1.", "1.5"])
def test_a_dot_not_followed_by_a_swizzle_letter_is_a_float(text):
    assert lex(text) == [("FLOAT_CONST", text)]


# ------------------------------------------------------------- identifiers

def test_keywords_modifiers_and_identifiers():
    assert lex("if else for while do switch case default break continue return discard") == [
        ("IF", "if"), ("ELSE", "else"), ("FOR", "for"), ("WHILE", "while"), ("DO", "do"),
        ("SWITCH", "switch"), ("CASE", "case"), ("DEFAULT", "default"), ("BREAK", "break"),
        ("CONTINUE", "continue"), ("RETURN", "return"), ("DISCARD", "discard"),
    ]
    modifiers = "static const uniform inline precise groupshared globallycoherent row_major column_major " \
                "snorm unorm in out inout unsigned"
    assert set(kinds(modifiers)) == {"MODIFIER"}
    assert kinds("cbuffer tbuffer struct typedef register packoffset true false void") == [
        "CBUFFER", "CBUFFER", "STRUCT", "TYPEDEF", "REGISTER", "PACKOFFSET", "TRUE", "FALSE", "VOID"]
    assert kinds("foo _x1 SV_DispatchThreadID") == ["ID", "ID", "ID"]


@pytest.mark.parametrize("name", [
    "bool", "int", "uint", "dword", "float", "half", "double", "min16float", "min16int", "min16uint",
    "float16_t", "int16_t", "uint16_t", "int64_t", "uint64_t", "float4", "uint2", "float4x4", "half3x2",
    "SamplerState", "SamplerComparisonState",
])
def test_builtin_type_names(name):
    assert kinds(name) == ["TYPE_NAME"]


@pytest.mark.parametrize("name", [
    "vector", "matrix", "ConstantBuffer", "Buffer", "RWBuffer", "StructuredBuffer", "RWStructuredBuffer",
    "Texture1D", "Texture1DArray", "Texture2D", "Texture2DArray", "Texture3D", "TextureCube",
    "TextureCubeArray", "RWTexture1D", "RWTexture1DArray", "RWTexture2D", "RWTexture2DArray", "RWTexture3D",
    "ByteAddressBuffer", "RWByteAddressBuffer",
])
def test_template_type_names(name):
    assert kinds(name) == ["TEMPLATE_NAME"]


def test_user_type_names_come_from_the_callback():
    assert kinds("S T", type_names={"S"}) == ["TYPE_NAME", "ID"]


# --------------------------------------------------------------- templates

def test_shift_right_splits_when_closing_nested_templates():
    assert lex("RWStructuredBuffer<vector<float,2>> b;") == [
        ("TEMPLATE_NAME", "RWStructuredBuffer"), ("LT", "<"), ("TEMPLATE_NAME", "vector"), ("LT", "<"),
        ("TYPE_NAME", "float"), ("COMMA", ","), ("INT_CONST", "2"), ("GT", ">"), ("GT", ">"),
        ("ID", "b"), ("SEMI", ";"),
    ]


def test_split_tokens_keep_their_positions():
    lexer = Lexer(lambda name: False, _no_errors)
    lexer.input("Buffer<vector<int,2>>")
    positions = []
    while (tok := lexer.token()) is not None:
        positions.append((tok.type, tok.lexpos))
    assert positions[-2:] == [("GT", 19), ("GT", 20)]


def test_shift_right_outside_templates_stays_a_shift():
    assert kinds("a >> b") == ["ID", "RSHIFT", "ID"]
    assert kinds("Buffer<uint> b; x = y >> 2;")[-4:] == ["ID", "RSHIFT", "INT_CONST", "SEMI"]
    assert kinds("x >>= 1") == ["ID", "RSHIFTEQUAL", "INT_CONST"]
    assert kinds("a < b >> c") == ["ID", "LT", "ID", "RSHIFT", "ID"]


def test_triple_nesting_and_matrix_arguments():
    assert kinds("StructuredBuffer<vector<vector<float,2>,2> > x")[-6:] == [
        "GT", "COMMA", "INT_CONST", "GT", "GT", "ID"]
    assert kinds("Buffer<matrix<float,2,2>> m")[-3:] == ["GT", "GT", "ID"]


# ------------------------------------------------------------------ errors

def test_invalid_characters_are_reported_and_skipped():
    errors = []
    assert kinds("a @ b $", errors=errors) == ["ID", "ID"]
    assert errors == [("invalid character '@'", 2), ("invalid character '$'", 6)]


def test_unterminated_string_skips_the_rest_of_the_line():
    errors = []
    assert kinds('x = "abc ;\ny', errors=errors) == ["ID", "EQUALS", "ID"]
    assert errors == [("missing terminating '\"' character", 4)]


def test_strings_are_tokens():
    assert lex('"compute"') == [("STRING", '"compute"')]
