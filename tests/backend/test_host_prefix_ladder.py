"""The host JIT's shortcut for lowered integer ``WavePrefix*`` ladders (host/prefix_ladder.py):
the ladders it proves to be exclusive scans run as one log-step scan, with the interpreter's
bits (which replays the ladder primitive by primitive); anything else keeps the ladder."""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

from shc.compiler.backend.host.prefix_ladder import find_prefix_ladders  # noqa: E402
from shc.compiler.ir.ops import Op  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, assert_same, compile_hlsl, run_both  # noqa: E402

SCANS = """
StructuredBuffer<uint> mask : register(t0);
RWStructuredBuffer<uint64_t> wide : register(u0);
RWStructuredBuffer<int4> ints : register(u1);
RWStructuredBuffer<uint4> vectors : register(u2);
RWStructuredBuffer<float> floats : register(u3);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    if (mask[i] != 0) {
        uint64_t big = (uint64_t)(i + 1) * 0x9E3779B97F4A7C15ull;
        wide[i * 2] = WavePrefixSum(big);                  // the sums wrap
        wide[i * 2 + 1] = WavePrefixProduct(big | 1);
        int s = (int)((i + 1) * 2654435761u);
        uint16_t h = (uint16_t)(i * 40503u + 7u);
        ints[i] = int4(WavePrefixSum(s), WavePrefixProduct(s | 1), (int)WavePrefixProduct(h), (int)WavePrefixSum(h));
        vectors[i] = WavePrefixSum(uint4(i, i * 3000000000u, 1, mask[i]));
        floats[i] = WavePrefixSum(i * 0.1f + 0.01f);
    }
}
"""


def _inputs(wave_size: int) -> tuple[str, dict]:
    threads = 2 * wave_size - 8  # a partial second wave
    inputs = {"mask": (np.random.default_rng(wave_size).random(threads) < 0.7).astype(np.uint32),
              "wide": np.zeros(2 * threads, np.uint64), "ints": np.zeros((threads, 4), np.int32),
              "vectors": np.zeros((threads, 4), np.uint32), "floats": np.zeros(threads, np.float32)}
    return SCANS.replace("NT", str(threads)), inputs


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_integer_prefix_ladders_run_as_one_scan_with_the_ladders_bits(wave_size):
    source, inputs = _inputs(wave_size)
    module = compile_hlsl(source, wave_size)
    ladders = find_prefix_ladders(module.function)
    found = sorted((str(ladder.filled.type), ladder.fn) for ladder in ladders.values())
    assert found == [("int", "product"), ("int", "sum"), ("uint16_t", "product"), ("uint16_t", "sum"),
                     ("uint4", "sum"), ("uint64_t", "product"), ("uint64_t", "sum")]
    assert all(ladder.filled.op is Op.SET_INACTIVE for ladder in ladders.values())
    actual, expected, _ = run_both(source, wave_size, inputs, module=module)
    assert_same(actual, expected)
    on = inputs["mask"][:wave_size] != 0
    big = (np.arange(wave_size, dtype=np.uint64) + 1) * np.uint64(0x9E3779B97F4A7C15)
    sums = np.cumsum(np.where(on, big, 0), dtype=np.uint64) - np.where(on, big, 0)
    assert actual["wide"][0:2 * wave_size:2][on].tolist() == sums[on].tolist()


def _step(module, ctrl: str):
    return next(inst for inst in module.function.instructions() if inst.attrs.get("dpp") == ctrl
                and str(inst.type) == "uint4")


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("change", ["another shift", "a partial row mask", "not whole-wave"])
def test_a_ladder_that_is_not_an_exclusive_scan_is_left_as_it_is(wave_size, change):
    """The uint4 ladder, changed so that it no longer computes the scan: not taken for one, and
    the JIT still agrees with the interpreter on the changed IR (where it is defined: a step
    that is not whole-wave leaves the inactive lanes the next steps read undefined)."""
    source, inputs = _inputs(wave_size)
    module = compile_hlsl(source, wave_size)
    step = _step(module, "row_shr:2")
    if change == "another shift":
        step.attrs["dpp"] = "row_shr:3"
    elif change == "a partial row mask":
        step.attrs["row_mask"] = 0xD
    else:  # its inactive lanes are undefined: not taken, and nothing to compare
        del step.attrs["wwm"]
    types = sorted(str(ladder.filled.type) for ladder in find_prefix_ladders(module.function).values())
    assert "uint4" not in types and len(types) == 6
    if change != "not whole-wave":
        actual, expected, _ = run_both(source, wave_size, inputs, module=module)
        assert_same(actual, expected)
