"""Listings allocated with too few registers still compute what the IR interpreter computes.

The allocator is run with small register files, so SGPR values are loaded again from the
descriptor table or kept in VGPR lanes (``sgpr_spills.py``) and VGPR values go to scratch;
the listing simulator runs the result at wave32 and wave64, and the printed instructions
keep every register in a field of its class (``operand_classes.py``).
"""

from __future__ import annotations

import numpy as np
import pytest
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.operand_classes import operand_class_problems
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

HEADER = """
RWStructuredBuffer<uint> o : register(u0);
RWStructuredBuffer<uint> p : register(u1);
StructuredBuffer<uint> q : register(t0);
cbuffer C : register(b0) { uint a; uint b; uint c; uint d; uint e; uint f; uint g; uint h; }
"""

# name: (body, SGPRs, VGPRs the allocator may use, what it must do at least for lack of them)
KERNELS = {
    # uniform values from the cbuffer live across a divergent branch, a uniform loop and 64-bit work;
    # three descriptors are needed at the end
    "uniform_values_across_branches_and_loops": ("""
        uint k = a * b + c;
        uint m = d ^ e;
        uint n = f + g * h;
        uint s = q[tid] + k;
        if (tid & 1) { s += m * tid; p[tid] = s + n; }
        else { [loop] for (uint i = 0; i < c; i++) s += n ^ i; }
        uint64_t w = (uint64_t)s * (k + 3) + m;
        o[tid] = (uint)w ^ (uint)(w >> 32) + k + m * 3 + n * 5 + q[(tid + 1) % 8];
    """, 12, 8, {"reloads", "lanes", "scratch"}),
    # issue #16: a 64-bit WaveMultiPrefixSum in a divergent branch (readlane pairs, 64-bit masks)
    "multi_prefix_sum_64_in_a_branch": ("""
        uint r = tid;
        if (tid % 3 != 1) {
            uint4 m = WaveMatch((tid >> 2) & 1);
            uint64_t s = WaveMultiPrefixSum((uint64_t)tid * 0x100000001ull + a, m);
            r = (uint)s ^ (uint)(s >> 32) * 3;
        }
        o[tid] = r + 1;
    """, 10, 10, {"reloads", "scratch"}),
}

CONSTANTS = np.array([3, 5, 4, 0x55, 0x0F, 7, 11, 13], np.uint32)
INPUT = (np.arange(8, dtype=np.uint32) * 7919) % 1000


def _module(name: str, wave: int):
    body = "\n".join("    " + line.strip() for line in KERNELS[name][0].strip().splitlines())
    source = f"{HEADER}[numthreads({wave}, 1, 1)]\nvoid main(uint tid : SV_GroupIndex) {{\n{body}\n}}\n"
    return compile_source(source, f"{name}.hlsl", Options(wave_size=wave), Diagnostics())


def _buffers(wave: int) -> dict:
    return {"o": np.zeros(wave, np.uint32), "p": np.zeros(wave, np.uint32), "q": INPUT.copy()}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_a_listing_short_of_registers_computes_what_the_interpreter_does(name, wave):
    module = _module(name, wave)
    cbuffers = {"C": CONSTANTS.tobytes()}
    reference = run_wave(module, buffers=_buffers(wave), cbuffers=cbuffers)

    _, sgprs, vgprs, expected = KERNELS[name]
    function = select(module)
    allocation = allocate(function, max_vgprs=vgprs, max_sgprs=sgprs)
    done = {"reloads": bool(allocation.rematerialised),  # descriptors loaded again where they are used
            "lanes": allocation.spill_lanes > 0 and any(reg.cls == "s" for reg in allocation.spilled),
            "scratch": allocation.scratch_bytes > 0 and any(reg.cls == "v" for reg in allocation.spilled)}
    assert expected <= {kind for kind, happened in done.items() if happened}
    assert allocation.sgprs_used <= sgprs and allocation.vgprs_used <= vgprs
    text = "\n".join(inst.format() for inst in function.instructions() if not inst.is_marker)
    assert operand_class_problems(text) == []
    assert ("v_writelane_b32" in text and "v_readlane_b32" in text) == done["lanes"]

    state = simulate(function, module, buffers=_buffers(wave), cbuffers=cbuffers)
    for buffer in ("o", "p"):
        expected = np.asarray(reference.buffers[buffer]).view(np.uint32)
        simulated = np.asarray(state.buffers[buffer]).view(np.uint32)
        assert np.count_nonzero(expected) or buffer == "p"
        assert np.array_equal(simulated, expected), (buffer, np.flatnonzero(simulated != expected)[:8])
