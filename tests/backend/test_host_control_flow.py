"""The host JIT, divergent control flow: loops with divergent trip counts and exits,
switches with fall-through, early returns, nested loops and switches.

The harness (host_helpers.py) runs one group on the JIT; expected results come from the IR
interpreter run wave after wave, or from NumPy where the interpreter does not model it.
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

from shc.compiler.backend.host.module import build_host_module  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, assert_same, compile_hlsl, run_both  # noqa: E402


# ---------------------------------------------------------------------------------------
# divergent control flow
# ---------------------------------------------------------------------------------------

CONTROL_FLOW = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint4> result : register(u0);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint n = data[i];
    uint acc = 0;
    uint last = 0;
    for (uint k = 0; k < n; ++k) {          // divergent trip count
        if ((k ^ i) % 3 == 0) continue;
        acc += k * i;
        last = k;
        if (acc > 200) break;
    }
    uint kind = 0;
    switch (i % 5) {
        case 0: kind = 10;
        case 1: kind += 1; break;           // falls through from case 0
        case 3: kind = 30; break;
        default: kind = 99;
    }
    uint j = 0;
    while (true) {                          // divergent exit from an endless loop
        j += 1;
        if (j * j > i) break;
    }
    if (i % 7 == 3) {
        result[i] = uint4(1, 2, 3, 4);
        return;                             // early return of some lanes
    }
    if (n > 4) {
        if (i & 1) acc = acc * 2; else acc = acc + 1000;
    } else {
        acc = acc ^ 0x55;
    }
    result[i] = uint4(acc, last, kind, j);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("threads", [64, 40])
def test_divergent_control_flow_matches_interpreter(wave_size, threads):
    source = CONTROL_FLOW.replace("NT", str(threads))
    data = (np.arange(threads, dtype=np.uint32) * 7) % 11
    buffers = {"data": data, "result": np.zeros((threads, 4), np.uint32)}
    actual, expected, group = run_both(source, wave_size, buffers)
    assert_same(actual, expected)
    interpreted = sum(state.stats.counts.get("valu", 0) for state in group.interpreter_states)
    assert group.stats["valu"] == interpreted


NESTED_FLOW = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint4> result : register(u0);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint n = data[i], total = 0, inner = 0, k = 0;
    for (uint a = 0; a < 6; ++a) {              // uniform outer loop
        switch ((a + i) % 4) {
            case 0: total += 1; continue;           // continue from inside a switch
            case 1: total += 10; break;
            case 2: if (n & 1) { total += 100; break; } total += 5;   // divergent break out of the switch
            default: total += 1000;
        }
        for (uint b = 0; b < n; ++b) {           // divergent inner loop
            inner += b;
            if (inner > 40) break;
        }
        if (total > 3000 && (i & 2)) break;       // divergent break out of the outer loop
    }
    do { k += 3; } while (k < n * 2);            // a do-while with a divergent exit
    result[i] = uint4(total, inner, k, n);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_nested_loops_and_switches_match_interpreter(wave_size):
    threads = wave_size + 24
    source = NESTED_FLOW.replace("NT", str(threads))
    data = (np.arange(threads, dtype=np.uint32) * 5) % 13
    actual, expected, _ = run_both(source, wave_size, {"data": data, "result": np.zeros((threads, 4), np.uint32)})
    assert_same(actual, expected)


LOOP_SUMS = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint> steps : register(u0);
RWStructuredBuffer<uint4> result : register(u1);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint n = data[i];
    uint4 kept = 0;
    for (uint outer = 0; outer < 3; ++outer) {
        if (i % 3 != 1) {                          // a divergent branch around a uniform loop
            uint4 running = outer;                 // read only inside its loop: written whole
            for (uint k = 0; k < 4; ++k) {
                running += uint4(k, i, n, k * i);
                steps[(outer * 4 + k) * NT + i] = running.x + running.y * 3 + running.z * 5 + running.w * 7;
                kept += running;                   // read after the loops: written lane by lane
            }
        }
        if (n > 6 && outer == 1) break;            // lanes leave the outer loop early
    }
    uint x = 0;
    for (uint k = 0; k < 8; ++k) {
        if (k >= n) break;                         // the header's own value is read after the loop
        x += k + i;
    }
    result[i] = kept + x;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_loop_values_read_only_inside_their_loop_match_interpreter(wave_size):
    """A loop header's phi is written whole on its edges unless it is read after a loop whose
    lanes leave at different iterations (``flow.py``); lanes off around a loop or gone from an
    outer loop still see their own values."""
    threads = wave_size + 8
    source = LOOP_SUMS.replace("NT", str(threads))
    data = (np.arange(threads, dtype=np.uint32) * 5) % 11
    buffers = {"data": data, "steps": np.zeros(12 * threads, np.uint32), "result": np.zeros((threads, 4), np.uint32)}
    actual, expected, _ = run_both(source, wave_size, buffers)
    assert_same(actual, expected)


LOOP_SUM = """
RWStructuredBuffer<uint> dst : register(u0);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint sum = 0;
    for (uint k = 0; k < 8; ++k) {
        sum += k * i;
        dst[k * 32 + i] = sum;
        EXIT
    }
    AFTER
}
"""


@pytest.mark.parametrize("exit_, after, selects", [
    ("", "", 0),                                       # read only inside the loop
    ("", "dst[256 + i] = sum;", 0),                    # read after a loop every lane leaves at once
    ("if (sum > 40) break;", "dst[256 + i] = sum;", 2),  # lanes leave early: the entry and back edges
])
def test_loop_values_merge_lane_by_lane_only_where_lanes_leave_apart(exit_, after, selects):
    kernel = build_host_module(compile_hlsl(LOOP_SUM.replace("EXIT", exit_).replace("AFTER", after), 32))
    body = kernel.llvm_ir[kernel.llvm_ir.index(f"@{kernel.entry}("):]
    assert len(re.findall(r"select <32 x i1> %\S+, <32 x i32>", body)) == selects
