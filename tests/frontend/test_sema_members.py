"""Semantic analysis, members and elements: swizzles, struct members, matrix members and
indexing, array sizes, vector/matrix templates, resource indexing.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import error, errors, init_type, kernel, local, source_of, valid  # noqa: E402


# ------------------------------------------------------------------ swizzles


def test_swizzle_types():
    program = valid(kernel("""
        float4 v = 1;
        float3 a = v.xyz;
        float4 b = v.wzyx;
        float2 c = v.rg;
        float4 d = v.xxxx;
        float f = 2;
        float3 e = f.xxx;
        v.xz = float2(1, 2);
        f.x = 3;
    """))
    assert init_type(program, "a") == "float3" and init_type(program, "e") == "float3"
    member = local(program, "b").init
    assert member.swizzle == (3, 2, 1, 0)


@pytest.mark.parametrize("swizzle", ["xq", "xg", "z", "xyzwx", "rgbaa", "w"])
def test_invalid_swizzles(swizzle):
    error(kernel(f"float2 v = 1;\nfloat a = v.{swizzle}.x;"), 5, 17, f"invalid swizzle '{swizzle}' on 'float2'")


def test_repeated_components_are_not_assignable():
    assert errors(kernel("""
        float4 v = 1;
        v.xx = float2(1, 2);
        v.xyx += 1;
    """)) == [
        (5, 7, "cannot assign to swizzle 'xx', which repeats a component"),
        (6, 7, "cannot assign to swizzle 'xyx', which repeats a component"),
    ]


def test_member_access_on_things_without_members():
    error(kernel("float a[2]; float b = a.x;"), 4, 29,
          "member reference base type 'float[2]' is not a structure or vector")


def test_texture_mips_must_be_indexed_twice():
    """``tex.mips[level][pos]`` is a texel (tests/frontend/test_sema_resources.py); ``tex.mips`` alone
    or with one index is an error that says how it is used."""
    text = kernel("float v = t.mips[1];", before="Texture2D<float> t;")
    assert errors(text) == [(4, 17, "'.mips' of 'Texture2D<float>' is used as tex.mips[level][pos], indexed twice")]


# ------------------------------------------------------------------ structs, arrays, matrices


def test_struct_members():
    program = valid(kernel("""
        Outer o;
        o.inner.v = float2(1, 2);
        float a = o.inner.v.y;
        o.items[1].w = 3;
        Inner copy = o.inner;
        float b = data[id.x].v.x;
    """, before="""
        struct Inner { float2 v; float w; };
        struct Outer { Inner inner; Inner items[2]; };
        StructuredBuffer<Inner> data;
    """))
    assert init_type(program, "a") == "float" and init_type(program, "copy") == "Inner"
    assert errors(kernel("Inner i; i.z = 1;", before="struct Inner { float2 v; };\n")) == [
        (5, 16, "no member named 'z' in 'Inner'"),
    ]


def test_struct_declaration_errors():
    text = source_of("""
        struct S { float a; int a; Texture2D t; };
        struct S { float b; };
        [numthreads(1, 1, 1)] void main() { }
    """)
    assert errors(text) == [
        (1, 25, "duplicate member 'a'"),
        (2, 8, "redefinition of type 'S'"),
    ]


def test_matrix_indexing_and_members():
    program = valid(kernel("""
        float2x3 m = 0;
        float3 row = m[1];
        float e = m[1][2];
        float z = m._m12;
        float2 o = m._11_23;
        m[0][1] = 5;
        m._m00 = 1;
    """))
    assert init_type(program, "row") == "float3"
    assert init_type(program, "e") == "float"
    assert local(program, "z").init.swizzle == (5,)
    assert local(program, "o").init.swizzle == (0, 5)


def test_index_range_and_subscript_errors():
    assert errors(kernel("""
        float2x3 m = 0;
        float3 a = m[2];
        float b = m._m22;
        float c = id[3];
        float arr[4];
        float d = arr[4];
        float e = arr[-1];
        float f = scalar[0];
    """, before="static float scalar = 1;\n")) == [
        (6, 18, "index 2 is out of range for a matrix of 2 elements"),
        (7, 17, "invalid matrix member '_m22' on 'float2x3'"),
        (8, 18, "index 3 is out of range for a vector of 3 elements"),
        (10, 19, "index 4 is out of range for an array of 4 elements"),
        (11, 19, "index -1 is out of range for an array of 4 elements"),
        (12, 21, "subscripted value of type 'float' is not an array, vector or matrix"),
    ]


def test_array_sizes_from_constants():
    program = valid(kernel("float a[N * 2]; uint n = 0; float b[2][N];",
                           before="static const uint N = 4;\n"))
    assert str(local(program, "a").type) == "float[8]"
    assert str(local(program, "b").type) == "float[2][4]"
    assert errors(kernel("uint n = 4; float a[n]; float b[0];")) == [
        (4, 25, "array size must be a positive integer constant"),
        (4, 37, "array size must be a positive integer constant"),
    ]


def test_unsized_arrays():
    program = valid(kernel("float b[] = {1, 2}; float c = table[2];", before="""
        static const float table[] = {1, 2, 3};
        Texture2D<float4> textures[] : register(t0, space1);
    """))
    assert str(local(program, "b").type) == "float[2]"
    assert [str(decl.type) for decl in program.globals] == ["float[3]", "Texture2D<float4>[]"]
    assert errors(kernel("float a[];", before="static float g[];\n")) == [
        (1, 14, "array 'g' needs a size or an initializer"),
        (5, 11, "array 'a' needs a size or an initializer"),
    ]


def test_template_spellings_of_vectors_and_matrices():
    program = valid(kernel("""
        vector<float, 3> v = 1;
        matrix<half, 2, 3> m = 0;
        vector<int, 2> n = 2;
        vector w = 0;
    """))
    assert [str(local(program, name).type) for name in "vmnw"] == ["float3", "half2x3", "int2", "float4"]
    assert errors(kernel("vector<float, 5> a; matrix<float, 0, 2> b; vector<S, 2> c;",
                         before="struct S { float x; };\n")) == [
        (5, 5, "'vector' size must be a constant from 1 to 4"),
        (5, 25, "'matrix' size must be a constant from 1 to 4"),
        (5, 48, "'vector' element must be a scalar type, not 'S'"),
    ]


def test_resource_indexing():
    assert errors(kernel("""
        float4 a = tex[id];
        float b = buf[id.xy];
        uint c = raw[0];
    """, before="Texture2D<float4> tex;\nStructuredBuffer<float> buf;\nByteAddressBuffer raw;\n")) == [
        (7, 20, "'Texture2D<float4>' is indexed with a uint2, not 'uint3'"),
        (8, 22, "'StructuredBuffer<float>' is indexed with a uint, not 'uint2'"),
        (9, 17, "'ByteAddressBuffer' has no [] operator; use Load/Store"),
    ]
