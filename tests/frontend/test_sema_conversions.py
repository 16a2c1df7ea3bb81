"""Semantic analysis, conversions: implicit conversions and truncation, operator result
types and operands, casts, constructors and initializer lists.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

from shc.compiler.frontend import hlsl_types as T

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import error, errors, init_type, kernel, local, run, valid, warnings  # noqa: E402


# ------------------------------------------------------------------ implicit conversions


def test_scalar_splat_and_int_float_bool_conversions_are_silent():
    program = valid(kernel("""
        float4 v = 1.0;
        int3 n = 2;
        float f = n.x;
        int i = 1.5;
        bool b = 2;
        float g = true;
        uint u = -1;
        half h = f;
    """))
    assert local(program, "v").type == T.VectorType(T.FLOAT, 4)
    assert init_type(program, "v") == "float"
    assert init_type(program, "b") == "int"


def test_vector_truncation_compiles_with_a_warning():
    text = kernel("""
        float4 v = 1;
        float2 t = v;
        float s = v;
    """)
    program, _ = run(text)
    assert program is not None
    assert warnings(text) == [
        (5, 16, "implicit truncation of vector type ('float4' to 'float2')"),
        (6, 15, "implicit truncation of vector type ('float4' to 'float')"),
    ]


def test_truncation_in_binary_operators_and_arguments_warns():
    text = kernel("""
        float4 a = 1;
        float2 b = 2;
        float2 c = a * b;
        float d = dot(a, b);
    """, before="""
    """)
    assert warnings(text) == [
        (6, 18, "implicit truncation of vector type in '*' ('float4' and 'float2')"),
        (7, 19, "implicit truncation of vector type ('float4' to 'float2')"),
    ]


def test_widening_a_vector_is_an_error():
    error(kernel("float2 a = 1; float4 b = a;"), 4, 30, "cannot convert from 'float2' to 'float4'")


def test_struct_and_matrix_mismatches_are_errors():
    assert errors(kernel("""
        S s;
        float f = s;
        float2x2 m = 1;
        float3 v = m;
    """, before="struct S { float a; };\n")) == [
        (6, 15, "cannot convert from 'S' to 'float'"),
        (8, 16, "cannot convert from 'float2x2' to 'float3'"),
    ]


def test_untyped_literals_adapt_to_the_other_operand():
    program = valid(kernel("""
        half h = 1;
        half a = h * 2.0;
        half b = 0.5 + h;
        float c = 1 + 2.0;
        uint u = 3;
        uint d = u + 1;
        float e = u * 1.5;
    """))
    assert init_type(program, "a") == "half"
    assert init_type(program, "b") == "half"
    assert init_type(program, "c") == "float"
    assert init_type(program, "d") == "uint"
    assert init_type(program, "e") == "float"


def test_operator_result_types():
    program = valid(kernel("""
        int3 a = 1;
        uint3 b = 2;
        bool3 c = a < 2;
        uint3 d = a + b;
        float3 e = a * 1.0f;
        bool f = !true;
        int g = true + true;
        int h = ~5;
    """))
    assert init_type(program, "c") == "bool3"
    assert init_type(program, "d") == "uint3"
    assert init_type(program, "e") == "float3"
    assert init_type(program, "f") == "bool"
    assert init_type(program, "g") == "int"


def test_invalid_operands():
    assert errors(kernel("""
        S s;
        float a = s + 1;
        float b = 1.5 << 2;
        float c = ~1.5;
        float2x2 m = 1;
        float3 v = 2;
        float3 w = m + v;
    """, before="struct S { float a; };\n")) == [
        (6, 17, "invalid operands to binary '+' ('S' and 'int')"),
        (7, 19, "'<<' needs integer operands, not 'float' and 'int'"),
        (8, 15, "'~' needs an integer operand, not 'float'"),
        (11, 18, "operand shapes do not match for '+' ('float2x2' and 'float3')"),
    ]


def test_increment_needs_a_number_and_integers_do_not_divide_by_zero():
    assert errors(kernel("""
        bool b = true;
        b++;
        --b;
        int i = 4 / 0;
        uint u = 4 % (2 - 2);
        float f = 4.0 / 0;
    """)) == [
        (5, 6, "'++' needs a numeric operand, not 'bool'"),
        (6, 5, "'--' needs a numeric operand, not 'bool'"),
        (7, 15, "integer division by zero"),
        (8, 16, "integer remainder by zero"),
    ]


def test_an_error_in_a_subexpression_is_reported_once():
    error(kernel("""
        float4 v = sqrt(missing.xyzw) * 2 + float4(1, 2, 3, 4).xyz;
    """), 4, 21, "use of undeclared identifier 'missing'")
    error(kernel("""
        float2 v = 1;
        float4 w = float4(v.xyz, 1) + length(v);
    """), 5, 25, "invalid swizzle 'xyz' on 'float2'")


# ------------------------------------------------------------------ casts and constructors


def test_casts_and_constructors():
    program = valid(kernel("""
        float4 v = float4(1, 2, 3, 4);
        float4 w = float4(v.xy, 0, 1);
        float4 s = float4(2.0);
        float2 t = (float2)v;
        int3 n = (int3)1.5;
        float2x2 m = float2x2(v);
        float2x2 k = float2x2(1, 2, 3, 4);
    """))
    assert init_type(program, "t") == "float2"
    assert init_type(program, "n") == "int3"
    assert init_type(program, "m") == "float2x2"


def test_constructor_component_counts():
    assert errors(kernel("""
        float4 a = float4(1, 2, 3);
        float2 b = float2(1, 2, 3);
        S s;
        float3 c = float3(s, 1);
        S d = S(1);
    """, before="struct S { float a; };\n")) == [
        (5, 16, "'float4' constructor needs 4 components; 3 given"),
        (6, 16, "'float2' constructor needs 2 components; 3 given"),
        (8, 23, "cannot use 'S' in a 'float3' constructor"),
        (9, 11, "'S' cannot be constructed with ( ); use an initializer list"),
    ]


def test_invalid_casts():
    assert errors(kernel("""
        float2 a = 1;
        float4 b = (float4)a;
        S s;
        float c = (float)s;
    """, before="struct S { float a; };\n")) == [
        (6, 16, "cannot cast from 'float2' to 'float4'"),
        (8, 15, "cannot cast from 'S' to 'float'"),
    ]


def test_initializer_lists():
    program = valid(kernel("""
        float4 v = {1, 2, 3, 4};
        float2 a[2] = {1, 2, 3, 4};
        float2 b[] = {v, 1, 2};
        S s = {1, float2(2, 3)};
    """, before="struct S { float a; float2 b; };\n"))
    assert str(local(program, "b").type) == "float2[3]"
    assert errors(kernel("""
        float4 v = {1, 2, 3};
        S s = {1, 2};
        float a[2] = {tex, 1};
    """, before="struct S { float a; float2 b; };\nTexture2D tex;\n")) == [
        (6, 16, "initializer list has 3 values but 'float4' needs 4"),
        (7, 11, "initializer list has 2 values but 'S' needs 3"),
        (8, 19, "cannot use 'Texture2D<float4>' in an initializer list"),
    ]


def test_float_like_intrinsics_narrow_a_double_with_a_warning():
    """DXC types sqrt, floor, pow ... as float_like (half or float): a double argument converts
    to float, with clang's narrowing warning; rcp, saturate, abs, min, max, clamp keep double."""
    text = kernel("""
        double d = 2;
        double2 e = 3;
        float s = sqrt(d);
        float2 p = pow(e, 2.0);
        double r = rcp(d) + saturate(d) + abs(d) + min(d, 1.0) + clamp(d, 0, 1) + sqrt(2.5);
    """)
    assert warnings(text) == [
        (6, 20, "conversion from larger type 'double' to smaller type 'float', possible loss of data"),
        (7, 20, "conversion from larger type 'double2' to smaller type 'float2', possible loss of data"),
    ]
    assert str(local(valid_or_warned(text), "s").type) == "float"


def valid_or_warned(text):
    program, items = run(text)
    assert [item for item in items if item.severity == "error"] == []
    return program
