"""``-HV 2018`` against ``-HV 2021`` on the host JIT and the IR interpreter.

HLSL 2021 short-circuits ``&&``, ``||`` and a scalar-condition ``?:``; HLSL 2018 evaluates
every operand, element-wise on vectors. A function that counts its calls with an atomic
shows which operands ran: the counts are checked against the numbers each version implies.
"""

from __future__ import annotations

import os
import sys
from textwrap import dedent

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, assert_same, run_both  # noqa: E402

from shc.compiler.diagnostics import Diagnostics  # noqa: E402
from shc.compiler.pipeline import Options, compile_source  # noqa: E402

THREADS = 64

COUNTED = """
RWStructuredBuffer<uint> calls : register(u0);
RWStructuredBuffer<uint> result : register(u1);
uint hit(uint slot) { InterlockedAdd(calls[slot], 1u); return 1u; }
float2x2 pick(uint slot) { InterlockedAdd(calls[slot], 1u); return float2x2(slot, 1, 2, 3); }
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    bool odd = (i & 1u) != 0;
    uint a = odd ? hit(0) : hit(1);
    bool c = odd && hit(2) == 1u;
    bool d = odd || hit(3) == 1u;
    float2x2 m = odd ? pick(4) : pick(5);  // a matrix: control flow, not select
    result[i] = a + (c ? 2u : 0u) + (d ? 4u : 0u) + 8u * (uint)m[0][0];
}
"""


def compile_as(source: str, wave_size: int, hlsl_version: int):
    options = Options(wave_size=wave_size, verify=True, hlsl_version=hlsl_version)
    return compile_source(dedent(source), "versions.hlsl", options, Diagnostics())


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("hlsl_version, calls_per_slot", [(2021, THREADS // 2), (2018, THREADS)])
def test_which_operands_run(wave_size, hlsl_version, calls_per_slot):
    buffers = {"calls": np.zeros(6, np.uint32), "result": np.zeros(THREADS, np.uint32)}
    module = compile_as(COUNTED, wave_size, hlsl_version)
    actual, expected, _ = run_both(COUNTED, wave_size, buffers, module=module)
    assert_same(actual, expected)
    assert actual["calls"].tolist() == [calls_per_slot] * 6
    odd = np.arange(THREADS) & 1
    assert actual["result"].tolist() == (1 + 2 * odd + 4 + 8 * (5 - odd)).tolist()


ELEMENTWISE = """
RWStructuredBuffer<float2> result : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float2 v = float2(i % 4, i % 3);
    bool2 both = v > 1 && v < 3;
    bool2 either = v == 0 || v == 2;
    result[i] = both ? v : (either ? -v : 10);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_hlsl_2018_vector_operators_are_element_wise(wave_size):
    buffers = {"result": np.zeros((THREADS, 2), np.float32)}
    module = compile_as(ELEMENTWISE, wave_size, 2018)
    actual, expected, _ = run_both(ELEMENTWISE, wave_size, buffers, module=module)
    assert_same(actual, expected)
    lanes = np.arange(THREADS)
    v = np.stack([lanes % 4, lanes % 3], axis=1).astype(np.float32)
    want = np.where((v > 1) & (v < 3), v, np.where((v == 0) | (v == 2), -v, 10))
    assert actual["result"].tolist() == want.tolist()
