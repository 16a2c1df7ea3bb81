"""Semantic analysis of resource accesses added for issue #17: ``Load<T>``/``Store<T>`` on
byte-address buffers, SM 6.6's ``Interlocked*64``, hidden counters (``IncrementCounter``,
``DecrementCounter``, ``Append``, ``Consume``) and ``tex.mips[level][pos]``.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import error, errors, init_type, kernel, valid  # noqa: E402

RAW = "RWByteAddressBuffer b;"


# ---------------------------------------------------------------- Load<T> / Store<T>


def test_templated_load_types_its_result():
    program = valid(kernel("""
        float2 v = b.Load<float2>(0);
        half h = b.Load<half>(2);
        uint64_t w = b.Load<uint64_t>(8);
        float2x2 m = b.Load<float2x2>(16);
        S s = b.Load<S>(32);
        vector<int16_t, 3> i = b.Load<vector<int16_t, 3>>(4);
        uint u = b.Load(0);
        b.Store<float2>(0, v);
        b.Store<S>(40, s);
        b.Store<half>(2, 1.5);
    """, before="struct S { float a; uint2 c; };\n" + RAW))
    assert init_type(program, "v") == "float2" and init_type(program, "h") == "half"
    assert init_type(program, "w") == "uint64_t" and init_type(program, "m") == "float2x2"
    assert init_type(program, "s") == "S" and init_type(program, "u") == "uint"


def test_a_member_called_load_compared_is_not_a_template():
    valid(kernel("S s; s.Load = 2; bool c = s.Load < 3; bool d = s.Load<3;", before="struct S { uint Load; };"))


@pytest.mark.parametrize("argument", ["Texture2D", "SamplerState", "float[2]"])
def test_template_argument_must_hold_numbers(argument):
    text = kernel(f"float x = b.Load<{argument}>(0);", before="typedef float float_pair[2];\n" + RAW)
    argument = argument if argument != "float[2]" else "float_pair"
    text = text.replace("float[2]", "float_pair")
    (line, col, message), = errors(text)
    assert (line, col) == (5, 22)
    assert message.endswith("the template argument must be a scalar, vector, matrix or struct of numbers")


def test_template_on_a_method_that_has_none():
    error(kernel("float x = s.Load<float>(0);", before="RWStructuredBuffer<float> s;"), 4, 17,
          "'Load' of RWStructuredBuffer<float> takes no template argument")


def test_store_value_must_convert_to_the_template_type():
    error(kernel("b.Store<float2>(0, s);", before="struct S { float a; };\nS s;\n" + RAW), 6, 7,
          "no matching overload for 'Store' of RWByteAddressBuffer with arguments (int, S): "
          "argument 2: cannot convert S to float2")


def test_templated_store_on_a_read_only_buffer():
    error(kernel("b.Store<float>(0, 1.0);", before="ByteAddressBuffer b;"), 4, 7,
          "'Store' is not a method of ByteAddressBuffer (ByteAddressBuffer is read-only; "
          "RWByteAddressBuffer has it)")


# ---------------------------------------------------------------------- 64-bit atomics


def test_interlocked_64_overloads():
    valid(kernel("""
        uint64_t u = 1; int64_t i = -1; uint64_t old; int64_t iold;
        b.InterlockedAdd64(0, u, old);
        b.InterlockedMin64(8, i, iold);
        b.InterlockedMax64(8, u);
        b.InterlockedAnd64(0, u); b.InterlockedOr64(0, u); b.InterlockedXor64(0, i);
        b.InterlockedExchange64(16, u, old);
        b.InterlockedCompareExchange64(16, u, u, old);
        b.InterlockedCompareStore64(16, i, i);
    """, before=RAW))


def test_interlocked_exchange_64_needs_the_original():
    (line, col, message), = errors(kernel("b.InterlockedExchange64(0, (uint64_t)1);", before=RAW))
    assert (line, col) == (4, 7) and message.startswith("no matching overload for 'InterlockedExchange64'")


def test_interlocked_64_on_a_read_only_buffer():
    error(kernel("b.InterlockedAdd64(0, 1);", before="ByteAddressBuffer b;"), 4, 7,
          "'InterlockedAdd64' is not a method of ByteAddressBuffer (ByteAddressBuffer is read-only; "
          "RWByteAddressBuffer has it)")


# ----------------------------------------------------------------------------- counters


def test_counter_methods_and_append_consume():
    program = valid(kernel("""
        uint i = o.IncrementCounter();
        uint d = o.DecrementCounter();
        app.Append(float2(1, 2));
        uint c = con.Consume();
        uint n, s;
        app.GetDimensions(n, s);
    """, before="RWStructuredBuffer<uint> o;\nAppendStructuredBuffer<float2> app;\nConsumeStructuredBuffer<uint> con;"))
    assert init_type(program, "i") == "uint" and init_type(program, "c") == "uint"


def test_counters_exist_on_rw_structured_buffers_only():
    error(kernel("uint i = o.IncrementCounter();", before="StructuredBuffer<uint> o;"), 4, 16,
          "'IncrementCounter' is not a method of StructuredBuffer<uint> (StructuredBuffer is read-only; "
          "RWStructuredBuffer has it)")
    error(kernel("uint i = b.DecrementCounter();", before=RAW), 4, 16,
          "'DecrementCounter' is not a method of RWByteAddressBuffer")


def test_append_value_converts_to_the_element():
    (line, col, message), = errors(kernel("app.Append(s);", before="struct S { float a; };\nS s;\n"
                                                                   "AppendStructuredBuffer<uint> app;"))
    assert (line, col) == (6, 9) and "cannot convert S to uint" in message


@pytest.mark.parametrize("kind, method", [("AppendStructuredBuffer", "Append"),
                                          ("ConsumeStructuredBuffer", "Consume")])
def test_append_and_consume_buffers_have_no_subscript(kind, method):
    error(kernel("uint x = q[0];", before=f"{kind}<uint> q;"), 4, 15,
          f"'{kind}<uint>' has no [] operator; use {method}")


def test_append_needs_an_element_type():
    error("AppendStructuredBuffer q;\n[numthreads(1, 1, 1)]\nvoid main() {}\n", 1, 1,
          "'AppendStructuredBuffer' needs an element type: AppendStructuredBuffer<T>")


# ------------------------------------------------------------------------ tex.mips[l][p]


def test_mips_types_as_the_element():
    program = valid(kernel("""
        float4 a = t.mips[1][uint2(2, 3)];
        float b = ta.mips[0][int3(1, 1, 0)];
        uint level = 2;
        float4 c = t.mips[level][id.xy];
    """, before="Texture2D<float4> t;\nTexture2DArray<float> ta;"))
    assert init_type(program, "a") == "float4" and init_type(program, "b") == "float"


def test_a_struct_member_called_mips_indexes_normally():
    program = valid(kernel("S s; float f = s.mips[1][0];", before="struct S { float mips[2][3]; };"))
    assert init_type(program, "f") == "float"


@pytest.mark.parametrize("declaration", ["RWTexture2D<float> t;", "TextureCube<float> t;"])
def test_mips_on_textures_without_mip_indexing(declaration):
    (line, col, message), = errors(kernel("float v = t.mips[0][uint2(0, 0)];", before=declaration))
    assert (line, col) == (4, 17)
    assert message.endswith("has no '.mips' (only read-only, non-cube textures have mip levels to index)")


def test_mips_level_and_position_types():
    text = kernel("float v = t.mips[0.5][uint2(0, 0)];\nfloat w = t.mips[0][uint3(0, 0, 0)];",
                  before="Texture2D<float> t;")
    assert errors(text) == [(4, 22, "a mip level is an integer, not 'float'"),
                            (5, 25, "'Texture2D<float>' is indexed with a uint2, not 'uint3'")]


def test_mips_texels_are_read_only():
    (line, col, message), = errors(kernel("t.mips[0][uint2(0, 0)] = 1;", before="Texture2D<float> t;"))
    assert line == 4 and "read-only resource 't'" in message


# ------------------------------------------------------------- comparison sampling, status


def test_comparison_sampling_types():
    program = valid(kernel("""
        float a = t.SampleCmpLevelZero(c, float2(0.5, 0.5), 0.25);
        float b = t.SampleCmpLevelZero(c, float2(0.5, 0.5), 0.25, int2(1, 0));
        float4 g = t.GatherCmp(c, float2(0.5, 0.5), 0.25);
        float4 r = t.GatherCmpRed(c, float2(0.5, 0.5), 0.25, int2(-1, 1));
    """, before="Texture2D<float> t;\nSamplerComparisonState c;"))
    assert init_type(program, "a") == "float" and init_type(program, "g") == "float4"


def test_comparison_sampling_needs_a_comparison_sampler():
    (line, col, message), = errors(kernel("float a = t.SampleCmpLevelZero(s, float2(0.5, 0.5), 0.25);",
                                          before="Texture2D<float> t;\nSamplerState s;"))
    assert (line, col) == (5, 17) and message == ("no matching overload for 'SampleCmpLevelZero' of "
                                                  "Texture2D<float> with arguments (SamplerState, float2, float)")


def test_comparison_sampling_is_not_on_3d_or_rw_textures():
    error(kernel("float a = t.SampleCmpLevelZero(c, float3(0, 0, 0), 0.25);",
                 before="Texture3D<float> t;\nSamplerComparisonState c;"), 5, 17,
          "'SampleCmpLevelZero' is not a method of Texture3D<float>")
    error(kernel("float4 a = t.GatherCmp(c, float2(0, 0), 0.25);",
                 before="RWTexture2D<float> t;\nSamplerComparisonState c;"), 5, 18,
          "'GatherCmp' is not a method of RWTexture2D<float>")


def test_status_overloads_and_check_access_fully_mapped():
    program = valid(kernel("""
        uint s1, s2, s3;
        uint v = b.Load(0, s1);
        uint4 w = b.Load4(16, s2);
        float f = b.Load<float>(4, s3);
        float4 x = t.Load(int3(0, 0, 0), int2(0, 0), s1);
        bool ok = CheckAccessFullyMapped(s1) && CheckAccessFullyMapped(s2);
    """, before=RAW + "\nTexture2D<float4> t;"))
    assert init_type(program, "ok") == "bool" and init_type(program, "w") == "uint4"


def test_status_must_be_an_lvalue():
    (line, col, message), = errors(kernel("uint v = b.Load(0, 3u);", before=RAW))
    assert line == 4 and col == 24
