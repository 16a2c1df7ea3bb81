"""Semantic analysis, calls: user overloads, default arguments, out/inout arguments,
prototypes, and spot checks of intrinsics and resource methods.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

from shc.compiler.frontend import ast
from shc.compiler.frontend import hlsl_types as T

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import error, errors, init_type, kernel, local, nodes, source_of, valid  # noqa: E402


# ------------------------------------------------------------------ user overloads


OVERLOADS = """
float f(float x) { return x; }
int f(int x) { return x; }
half h(half x, float y = 2, int z = 3) { return x; }
void g(out float x) { x = 1; }
void k(inout float2 x) { x += 1; }
"""


def calls(program):
    return {call.coord.line: call for call in nodes(program.entry.body, ast.Call)}


def test_exact_match_beats_conversion():
    program = valid(kernel("""
        f(1);
        f(1.0);
        f(true ? 1.0h : 2.0h);
        f(int2(1, 2).x);
    """, before=OVERLOADS))
    by_line = calls(program)
    assert [str(by_line[line].type) for line in (9, 10, 11, 12)] == ["int", "float", "float", "int"]
    assert by_line[9].decl.type == T.INT and by_line[11].decl.type == T.FLOAT


def test_ambiguous_call():
    error(kernel("f(1u);", before=OVERLOADS), 9, 5, "call to 'f' is ambiguous")


def test_default_arguments():
    program = valid(kernel("""
        h(1.0h);
        h(1.0h, 2);
        h(1.0h, 2, 3);
    """, before=OVERLOADS))
    assert all(call.type == T.HALF for call in calls(program).values())
    assert errors(kernel("h(1.0h, 2, 3, 4); h();", before=OVERLOADS)) == [
        (9, 5, "no matching function for call to 'h(half, int, int, int)'"),
        (9, 23, "no matching function for call to 'h()'"),
    ]


def test_default_arguments_must_be_trailing_and_in():
    text = source_of("""
        void f(int a = 1, int b) { }
        void g(out int a = 1) { a = 2; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    assert errors(text) == [
        (1, 23, "parameter 'b' needs a default value: it follows one that has it"),
        (2, 20, "out parameter 'a' cannot have a default value"),
    ]


def test_out_and_inout_arguments_need_lvalues():
    assert errors(kernel("""
        float a;
        float2 v;
        g(a);
        g(v.x);
        k(v);
        g(1.0);
        k(v + 1);
        g(K);
        k(v.xx);
    """, before=OVERLOADS + "static const float K = 1;\n")) == [
        (15, 7, "an out or inout argument must be an l-value (a variable, element or member)"),
        (16, 9, "an out or inout argument must be an l-value (a variable, element or member)"),
        (17, 7, "cannot pass const variable 'K' as an out or inout argument"),
        (18, 9, "cannot pass swizzle 'xx', which repeats a component as an out or inout argument"),
    ]


def test_functions_differing_only_in_return_type():
    text = source_of("""
        int f(int x) { return x; }
        float f(int x) { return x; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    error(text, 2, 7, "functions that differ only in their return type cannot be overloaded ('f')")


def test_function_redefinition():
    text = source_of("""
        int f(int x) { return x; }
        int f(int y) { return y; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    error(text, 2, 5, "redefinition of 'f'")


def test_a_prototype_lets_a_call_come_first_and_the_call_links_to_the_body():
    program = valid(source_of("""
        float twice(float x);
        [numthreads(1, 1, 1)] void main() { twice(1); }
        float twice(float x) { return 2 * x; }
    """))
    (call,) = nodes(program.entry.body, ast.Call)
    assert call.decl.body is not None


def test_a_called_prototype_without_body():
    text = source_of("""
        float twice(float x);
        [numthreads(1, 1, 1)] void main() { twice(1); }
    """)
    error(text, 2, 37, "function 'twice' is called but never defined")


def test_user_functions_overload_intrinsic_names():
    program = valid(kernel("""
        S s = {1};
        float a = max(s, 2);
        int b = max(1, 2);
    """, before="struct S { float v; };\nfloat max(S s, float f) { return f; }\n"))
    by_line = calls(program)
    assert by_line[7].decl.body is not None  # the user's max
    assert by_line[8].decl.name == "max" and by_line[8].type == T.INT  # the intrinsic


# ------------------------------------------------------------------ intrinsics (spot checks)


def test_intrinsic_calls_are_typed():
    program = valid(kernel("""
        float3 p = 1;
        float a = dot(p, p);
        float3 b = cross(p, p);
        float4 c = mul(float4x4(1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1), float4(p, 1));
        float d = sqrt(4);
        half e = max((half)1, 0.5);
        uint3 f = asuint(p);
        uint4 g = WaveActiveBallot(id.x == 0);
        uint h = WavePrefixSum(id.x);
        uint i = countbits(id.x) + firstbithigh(id.x);
        uint j = WaveShuffleXor(id.x, 1);
        bool k = WaveIsFirstLane();
        float l = QuadReadAcrossX(a);
        uint m = WaveReadLaneAt(id.x, 3);
    """))
    types = {name: init_type(program, name) for name in "abcdefghijklm"}
    assert types == {
        "a": "float", "b": "float3", "c": "float4", "d": "float", "e": "half", "f": "uint3",
        "g": "uint4", "h": "uint", "i": "uint", "j": "uint", "k": "bool", "l": "float", "m": "uint",
    }
    assert local(program, "a").init.decl.name == "dot"


def test_intrinsic_errors_are_reported_at_the_call():
    assert errors(kernel("""
        float a = dot(1, 2, 3);
        uint b = WaveGetLaneCount(1);
    """)) == [
        (4, 15, "no matching overload for 'dot' with arguments (int, int, int): 'dot' takes 2 "
                "arguments, not 3"),
        (5, 14, "no matching overload for 'WaveGetLaneCount' with arguments (int): "
                "'WaveGetLaneCount' takes 0 arguments, not 1"),
    ]


def test_resource_methods_are_typed():
    program = valid(kernel("""
        float4 a = tex.SampleLevel(smp, float2(0.5, 0.5), 0);
        float4 b = tex.Load(int3(0, 0, 0));
        uint c = raw.Load(0);
        uint w, h;
        tex.GetDimensions(w, h);
        raw.Store(4, c);
        uint old;
        raw.InterlockedAdd(0, 1, old);
    """, before="Texture2D<float4> tex;\nSamplerState smp;\nRWByteAddressBuffer raw;\n"))
    assert init_type(program, "a") == "float4" and init_type(program, "c") == "uint"


def test_interlocked_destinations():
    assert errors(kernel("""
        uint old;
        InterlockedAdd(counter, 1, old);
        InterlockedMax(buf[id.x], 1);
        uint mine = 0;
        InterlockedAdd(mine, 1, old);
        InterlockedAdd(ro[0], 1, old);
        InterlockedAdd(counter, 1, 2);
    """, before="groupshared uint counter;\nRWStructuredBuffer<uint> buf;\n"
                "StructuredBuffer<uint> ro;\n")) == [
        (11, 20, "the destination of an Interlocked operation must be groupshared memory or an "
                 "element of an RW resource"),
        (12, 22, "cannot pass an element of read-only resource 'ro' (StructuredBuffer<uint>) as an "
                 "out or inout argument"),
        (13, 32, "an out or inout argument must be an l-value (a variable, element or member)"),
    ]
