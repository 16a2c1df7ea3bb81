"""Local resources (lower/resource_cells.py) by value: reassigned variables, local arrays of
resources at constant (unrolled) indexes, struct members and function parameters and
results each write the global buffer they resolve to. The IR interpreter, the host JIT and
the RDNA2 listing simulator agree with a NumPy model at wave32 and wave64."""

from __future__ import annotations

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

SOURCE = """
RWStructuredBuffer<uint> a : register(u0);
RWStructuredBuffer<uint> b : register(u1);
cbuffer C : register(b0) { uint pick; }
static const bool SWAP = true;
struct Target { RWStructuredBuffer<uint> buf; uint scale; };
void put(RWStructuredBuffer<uint> dest, uint i, uint v) { dest[i] += v; }
RWStructuredBuffer<uint> other(RWStructuredBuffer<uint> x) { return x; }
Target target(RWStructuredBuffer<uint> x, uint scale) { Target t; t.buf = x; t.scale = scale; return t; }
[numthreads(WAVE, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    RWStructuredBuffer<uint> t = a;
    t[tid] = tid;                      // a = tid
    t = b;
    t[tid] = 2 * tid;                  // b = 2 tid
    if (SWAP) t = a;
    t[tid] += 100;                     // a = tid + 100
    RWStructuredBuffer<uint> pair[2] = { a, b };
    [unroll] for (uint k = 0; k < 2; k++) pair[k][tid] += 1000 * (k + 1);   // a += 1000, b += 2000
    Target p = target(b, 3);
    p.buf[tid] += p.scale;             // b += 3
    Target q = p;
    q.buf = a;
    put(q.buf, tid, pick);             // a += pick
    other(p.buf)[tid] += 10000;        // b += 10000
}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_local_resources_write_where_they_resolve(wave):
    source = SOURCE.replace("WAVE", str(wave))
    pick = 7
    cbuffer = np.array([pick], np.uint32).tobytes()
    tid = np.arange(wave, dtype=np.uint32)
    want_a = tid + 100 + 1000 + pick
    want_b = 2 * tid + 2000 + 3 + 10000

    module = compile_source(source, "local_resources.hlsl", Options(wave_size=wave), Diagnostics())
    zeros = {"a": np.zeros(wave, np.uint32), "b": np.zeros(wave, np.uint32)}
    reference = run_wave(module, buffers=dict(zeros), cbuffers={"C": cbuffer})
    function = select(module)
    allocate(function)
    listing = simulate(function, module, buffers={"a": np.zeros(wave, np.uint32), "b": np.zeros(wave, np.uint32)},
                       cbuffers={"C": cbuffer})
    jit_a, jit_b = np.zeros(wave, np.uint32), np.zeros(wave, np.uint32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), a=jit_a, b=jit_b, pick=pick)

    for result in (reference, listing):
        assert np.asarray(result.buffers["a"]).view(np.uint32).tolist() == want_a.tolist()
        assert np.asarray(result.buffers["b"]).view(np.uint32).tolist() == want_b.tolist()
    assert jit_a.tolist() == want_a.tolist()
    assert jit_b.tolist() == want_b.tolist()
