"""The host JIT, arithmetic: integer and float operations, conversions, 16-bit and 64-bit
types against the interpreter, wave32 and wave64.

The harness (host_helpers.py) runs one group on the JIT; expected results come from the IR
interpreter run wave after wave, or from NumPy where the interpreter does not model it.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, assert_same, cbuffer_bytes, run_both  # noqa: E402


# ---------------------------------------------------------------------------------------
# arithmetic, conversions, 16-bit and 64-bit types
# ---------------------------------------------------------------------------------------

ARITHMETIC = """
cbuffer Params : register(b0) { float scale; uint shift; };
RWStructuredBuffer<uint4> ints : register(u0);
RWStructuredBuffer<float4> floats : register(u1);
RWStructuredBuffer<uint4> smalls : register(u2);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    int s = (int)i - 20;
    uint u = i * 2654435761u;
    ints[i] = uint4(u / (i % 7), u % (i % 5 + 1), (uint)(s / 3), (uint)(s % -4));
    ints[i + NT] = uint4(u >> shift, (uint)(s >> 3), countbits(u), firstbithigh(u) + firstbitlow(s) * 64);
    ints[i + 2 * NT] = uint4(reversebits(u), (uint)min(s, -3), max(u, 77u), (uint)abs(s));
    float f = (float)s * scale;
    floats[i] = float4(f / 3.0, fmod(f, 1.5), floor(f) + frac(f), sqrt(abs(f)));
    floats[i + NT] = float4((float)(uint)(f * 1e8), (float)(int)f, min(f, 0.5), max(-f, 2.0));
    floats[i + 2 * NT] = float4(saturate(f), round(f), asfloat(asuint(f) ^ 0x80000000), f16tof32(f32tof16(f)));
    half h = (half)f;
    half h2 = h * (half)1.5 + (half)0.25;
    int16_t small = (int16_t)s * (int16_t)300;
    uint64_t big = (uint64_t)u * 3000000000ull;
    smalls[i] = uint4((uint)(int)(h2 * (half)64), (uint)(int)small, (uint)(big >> 32), (uint)big);
    floats[i + 3 * NT] = float4(dot(float3(f, 1, 2), float3(3, f, 4)), lerp(f, 2.0, 0.25), (float)h2,
                                isnan(f / 0.0) ? 1.0 : 0.0);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("threads", [64, 40])
def test_arithmetic_matches_interpreter(wave_size, threads):
    source = ARITHMETIC.replace("NT", str(threads))
    buffers = {"ints": np.zeros((3 * threads, 4), np.uint32), "floats": np.zeros((4 * threads, 4), np.float32),
               "smalls": np.zeros((threads, 4), np.uint32)}
    actual, expected, _ = run_both(source, wave_size, buffers, {"Params": cbuffer_bytes(0.37, 3)})
    assert_same(actual, expected)
