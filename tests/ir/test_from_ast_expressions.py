"""AST to IR, expressions: implicit conversions and splats, swizzle writes, wave and quad
intrinsics, short-circuit operators; math and bit intrinsics run on the IR interpreter."""

import os
import sys
from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.ir.ops import Op

sys.path.insert(0, os.path.dirname(__file__))
from from_ast_helpers import ir, lower_source, run  # noqa: E402


ARITHMETIC = """
RWStructuredBuffer<float4> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    int k = i - 3;
    float x = k * 0.5;
    half h = x;
    half2 hv = h * 2;
    float4 v = hv.x + 1;
    result[i] = v * float4(hv, 0, 1);
}
"""


def test_arithmetic_with_implicit_conversions_and_splats():
    """Conversions are explicit; literals arrive in their use's type; half stays half."""
    assert ir(ARITHMETIC) == dedent("""
        resource @result RWStructuredBuffer<float4> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=3}
          %2 = const float {value=0.5}
          %3 = const half {value=2.0}
          %4 = const half {value=1.0}
          %5 = const float {value=0.0}
          %6 = const float {value=1.0}
          %7 = sub uint %0, %1
          %8 = convert int %7
          %9 = convert float %8
          %10 = mul float %9, %2
          %11 = convert half %10
          %12 = mul half %11, %3
          %13 = construct half2 %12, %12
          %14 = add half %12, %4
          %15 = convert float %14
          %16 = construct float4 %15, %15, %15, %15
          %17 = convert float2 %13
          %18 = construct float4 %17, %5, %6
          %19 = mul float4 %16, %18
          buffer_store %0, %19 {resource="result"}
          ret
        }
    """).strip()


SWIZZLE = """
RWStructuredBuffer<float4> result;
groupshared float4 shared4[64];
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 v = result[i];
    v.zx = float2(1, 2);
    v.y = 3;
    shared4[i].wy = v.xy;
    shared4[i].z = v.w;
    result[i] = v;
}
"""


def test_swizzle_writes():
    """A swizzle write to a value is one two-operand shuffle; to groupshared memory, one store per run of\n    components (never a read-modify-write of the whole vector)."""
    assert ir(SWIZZLE) == dedent("""
        resource @result RWStructuredBuffer<float4> u0 space0
        groupshared @shared4 float4[64] offset 0 size 1024
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const float2 {value=[1.0, 2.0]}
          %2 = const float {value=3.0}
          %3 = const uint {value=16}
          %4 = const uint {value=4}
          %5 = const uint {value=12}
          %6 = const uint {value=8}
          %7 = buffer_load float4 %0 {resource="result"}
          %8 = shuffle float4 %7, %1 {lanes=[5, 1, 4, 3]}
          %9 = insert float4 %8, %2 {index=1}
          %10 = shuffle float2 %9 {lanes=[0, 1]}
          %11 = mul uint %0, %3
          %12 = extract float %10 {index=1}
          %13 = add uint %11, %4
          lds_store %13, %12 {var="shared4"}
          %14 = extract float %10 {index=0}
          %15 = add uint %11, %5
          lds_store %15, %14 {var="shared4"}
          %16 = extract float %8 {index=3}
          %17 = mul uint %0, %3
          %18 = add uint %17, %6
          lds_store %18, %16 {var="shared4"}
          buffer_store %0, %9 {resource="result"}
          ret
        }
    """).strip()


WAVE = """
RWStructuredBuffer<float> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float v = result[i];
    float quad = QuadReadAcrossX(v) + QuadReadAcrossY(v) + QuadReadAcrossDiagonal(v)
               + QuadReadLaneAt(v, 2);
    float wave = WaveActiveSum(v) + WavePrefixProduct(v) + WaveActiveMax(v)
               + WaveReadLaneAt(v, 5) + WaveReadLaneFirst(v) + WaveShuffleXor(v, 16);
    uint4 ballot = WaveActiveBallot(v > 0);
    uint bits = WaveActiveCountBits(v > 0) + WavePrefixCountBits(v > 1) + WaveActiveBitOr(i)
              + WaveGetLaneIndex() + WaveGetLaneCount();
    if (WaveIsFirstLane() && WaveActiveAllTrue(v > -1))
        result[i] = quad + wave + ballot.x + bits;
}
"""


def test_wave_and_quad_operations():
    """Wave intrinsics keep their meaning; a wave op on the right of && is not evaluated by skipped lanes."""
    assert ir(WAVE) == dedent("""
        resource @result RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=2}
          %2 = const uint {value=5}
          %3 = const uint {value=16}
          %4 = const float {value=0.0}
          %5 = const float {value=1.0}
          %6 = const float {value=-1.0}
          %7 = buffer_load float %0 {resource="result"}
          %8 = quad_read float %7 {lanes=[1, 0, 3, 2]}
          %9 = quad_read float %7 {lanes=[2, 3, 0, 1]}
          %10 = add float %8, %9
          %11 = quad_read float %7 {lanes=[3, 2, 1, 0]}
          %12 = add float %10, %11
          %13 = quad_read_lane_at float %7, %1
          %14 = add float %12, %13
          %15 = wave_active float %7 {fn="sum"}
          %16 = wave_prefix float %7 {fn="product"}
          %17 = add float %15, %16
          %18 = wave_active float %7 {fn="max"}
          %19 = add float %17, %18
          %20 = wave_read_lane_at float %7, %2
          %21 = add float %19, %20
          %22 = wave_read_first float %7
          %23 = add float %21, %22
          %24 = wave_shuffle_xor float %7, %3
          %25 = add float %23, %24
          %26 = gt bool %7, %4
          %27 = wave_ballot uint4 %26
          %28 = gt bool %7, %4
          %29 = wave_count_bits uint %28
          %30 = gt bool %7, %5
          %31 = wave_prefix_count_bits uint %30
          %32 = add uint %29, %31
          %33 = wave_active uint %0 {fn="or"}
          %34 = add uint %32, %33
          %35 = wave_lane_index uint
          %36 = add uint %34, %35
          %37 = wave_lane_count uint
          %38 = add uint %36, %37
          %39 = wave_is_first_lane bool
          selection ^and.end1
          cond_br %39, ^and.rhs1, ^and.end1
        ^and.rhs1:
          %40 = gt bool %7, %6
          %41 = wave_all_true bool %40
          br ^and.end1
        ^and.end1:
          %42 = phi bool [%39, ^entry], [%41, ^and.rhs1]
          selection ^if.end2
          cond_br %42, ^if.then2, ^if.end2
        ^if.then2:
          %43 = add float %14, %25
          %44 = extract uint %27 {index=0}
          %45 = convert float %44
          %46 = add float %43, %45
          %47 = convert float %38
          %48 = add float %46, %47
          buffer_store %0, %48 {resource="result"}
          br ^if.end2
        ^if.end2:
          ret
        }
    """).strip()


SHORT_CIRCUIT = """
RWStructuredBuffer<uint> result;
groupshared uint hits;
bool Count(uint x)
{
    uint old;
    InterlockedAdd(hits, 1, old);
    return x > old;
}
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    bool cheap = i > 3 && i < 60;             // no side effects: and
    bool counted = i > 3 && Count(i);         // an atomic on the right: control flow
    uint pick = cheap ? i : 7;                // select
    result[i] = pick + (counted ? 1 : 0);
}
"""


def test_short_circuit_only_when_the_right_side_has_side_effects():
    """&& with a side-effect-free right side is an and; with an atomic inside, control flow."""
    assert ir(SHORT_CIRCUIT) == dedent("""
        resource @result RWStructuredBuffer<uint> u0 space0
        groupshared @hits uint offset 0 size 4
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=3}
          %2 = const uint {value=60}
          %3 = const int {value=1}
          %4 = const uint {value=1}
          %5 = const uint {value=0}
          %6 = const uint {value=7}
          %7 = const int {value=0}
          %8 = gt bool %0, %1
          %9 = lt bool %0, %2
          %10 = and bool %8, %9
          %11 = gt bool %0, %1
          selection ^and.end1
          cond_br %11, ^and.rhs1, ^and.end1
        ^and.rhs1:
          %12 = lds_atomic uint %5, %4 {fn="add", var="hits"}
          %13 = gt bool %0, %12
          br ^and.end1
        ^and.end1:
          %14 = phi bool [%11, ^entry], [%13, ^and.rhs1]
          %15 = select uint %10, %0, %6
          %16 = select int %14, %3, %7
          %17 = convert uint %16
          %18 = add uint %15, %17
          buffer_store %0, %18 {resource="result"}
          ret
        }
    """).strip()


# --------------------------------------------------------- run on the interpreter


@pytest.mark.parametrize("wave_size", [32, 64])
def test_a_wave_op_behind_a_short_circuit_runs_only_in_the_lanes_that_reach_it(wave_size):
    source = """
    RWStructuredBuffer<uint> result;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {
        bool odd = (i & 1) != 0;
        result[i] = (odd && WaveActiveCountBits(true) == WaveGetLaneCount() / 2) ? 1 : 0;
    }
    """
    result = run(source, {"result": np.zeros(wave_size, np.uint32)}, wave_size).buffers["result"]
    assert result.tolist() == [i & 1 for i in range(wave_size)]


INTRINSICS = """
RWStructuredBuffer<float4> o;
RWStructuredBuffer<uint> u;
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    float x = gi * 0.25;
    float3 v = float3(x, 1, 2);
    float s, c;
    sincos(x, s, c);
    float ip;
    float fr = modf(x, ip);
    float a = clamp(x, 0.5, 2) + saturate(x) + lerp(1, 3, 0.5) + length(v) + distance(v, 0) + dot(v, v)
            + step(1, x) + degrees(1) + radians(1) + mad(x, 2, 1) + abs(-x) + min(x, 1) + max(x, 2)
            + sqrt(x) + rsqrt(x + 1) + exp2(x) + log2(x + 1) + floor(x) + ceil(x) + frac(x) + round(x)
            + trunc(x) + pow(x, 2) + s + c + fr + ip + sign(x) + mul(v, v) + mul(2, x) + fmod(x, 1)
            + (isnan(x) ? 1 : 0) + (all(v) ? 1 : 0) + (any(v > 5) ? 1 : 0);
    float3 n = normalize(v) + cross(v, float3(0, 0, 1)) + mul(v, 2);
    uint bits = countbits(gi) + firstbithigh(gi) + firstbitlow(gi) + reversebits(gi) + asuint(x)
              + f32tof16(x) + (uint)f16tof32(0x3c00u) + mad(gi, 2u, 1u);
    int ib = asint(1.0f) + (int)asfloat(0x3f800000u);
    o[gi] = float4(n, a);
    u[gi] = bits + ib;
}
"""


def test_math_and_bit_intrinsics_expand_to_the_right_values():
    state = run(INTRINSICS, {"o": np.zeros((32, 4), np.float32), "u": np.zeros(32, np.uint32)})
    # lane 0: x = 0, v = (0, 1, 2). The nonzero terms of a: clamp 0.5, lerp 2, length and
    # distance sqrt(5) each, dot 5, degrees(1), radians(1), mad 1, max 2, rsqrt 1, exp2 1, cos 1,
    # mul(v, v) 5.
    a = 0.5 + 2 + 2 * np.sqrt(5) + 5 + 180 / np.pi + np.pi / 180 + 1 + 2 + 1 + 1 + 1 + 5
    n = state.buffers["o"][0]
    assert n[:3] == pytest.approx([1.0, 2 + 1 / np.sqrt(5), 4 + 2 / np.sqrt(5)], rel=1e-6)
    assert n[3] == pytest.approx(a, rel=1e-6)
    # firstbithigh(0) = firstbitlow(0) = 0xffffffff, f16tof32(0x3c00) = 1, mad = 1; asint(1.0) + 1
    assert state.buffers["u"][0] == 0x3F800000 + 1


def test_scalar_swizzles_and_deep_expressions():
    terms = " + ".join(["i"] * 3000)  # deeper than Python's default recursion limit allows
    module = lower_source(f"""
    RWStructuredBuffer<uint> result;
    [numthreads(1, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {{
        uint s = i;
        s.x = 3;            // .x of a scalar is the scalar
        result[s.x] = {terms};
    }}
    """)
    store = next(inst for inst in module.function.instructions() if inst.op is Op.BUFFER_STORE)
    assert store.operands[0].attrs == {"value": 3}
    assert sum(inst.op is Op.ADD for inst in module.function.instructions()) == 2999
