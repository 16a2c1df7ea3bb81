"""The host JIT, statistics: the counters it keeps (VALU, SALU, lane exchange, LDS,
memory, atomics, instructions, active lanes) match the interpreter's.

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
from host_helpers import WAVE_SIZES, assert_same, run_both  # noqa: E402


STATISTICS = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint> result : register(u0);
groupshared uint tile[64];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint acc = data[i];
    for (uint k = 0; k < acc % 5; ++k) { acc += WaveActiveSum(k) + QuadReadAcrossX(acc); }
    tile[i % 64] = acc;
    InterlockedAdd(tile[0], 1);
    if (WaveIsFirstLane()) acc += tile[(i + 1) % 64];
    result[i] = acc;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_statistics_match_interpreter(wave_size):
    threads = wave_size + 8
    source = STATISTICS.replace("NT", str(threads))
    data = np.arange(threads, dtype=np.uint32) * 3
    actual, expected, group = run_both(source, wave_size, {"data": data, "result": np.zeros(threads, np.uint32)})
    assert_same(actual, expected)
    stats = [state.stats for state in group.interpreter_states]
    for name in ("valu", "salu", "lane_exchange", "lds", "vmem"):
        assert group.stats[name] == sum(s.counts.get(name, 0) for s in stats), name
    assert group.stats["instructions"] == sum(s.instructions for s in stats)
    assert group.stats["active_lanes"] == sum(s.active_lane_sum for s in stats)
    assert group.stats["atomics"] == len(stats)  # one InterlockedAdd per wave
