"""The IR interpreter end to end: HLSL through the front end and AST lowering (optionally
LowerWaveOps), then one wave of the group, checked against Python references."""

import os
import sys

import numpy as np
import pytest

from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.verify import verify

sys.path.insert(0, os.path.dirname(__file__))
from interpret_helpers import WAVE_SIZES  # noqa: E402


# --------------------------------------------------------------------------------------
# HLSL end to end: front end, AST lowering, then the interpreter (one wave of the group)
# --------------------------------------------------------------------------------------


def compile_hlsl(text: str, wave_size: int, lower_waves: bool = False):
    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.ir.lower.from_ast import lower
    from shc.compiler.pipeline import Options, check_source

    diagnostics = Diagnostics()
    program = check_source(text, "kernel.hlsl", Options(wave_size=wave_size), diagnostics)
    module = lower(program, wave_size, diagnostics)
    diagnostics.check()
    verify(module.function)
    if lower_waves:
        from shc.compiler.passes.dead_code import DeadCode
        from shc.compiler.passes.dpp_combine import DppCombine
        from shc.compiler.passes.lower_wave_ops import LowerWaveOps

        for each in (LowerWaveOps(wave_size), DppCombine(), DeadCode()):
            each.run(module)
        verify(module.function)
    return module


KERNEL = r"""
RWStructuredBuffer<uint> Out : register(u0);
StructuredBuffer<float4> In : register(t0);
groupshared float tile[64];
cbuffer Params { uint count; float scale; };
struct Pair { float a; uint b; };
Pair make(float x, uint y) { Pair p; p.a = x; p.b = y; return p; }
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex) {
    tile[gi] = In[gi].x * scale;
    GroupMemoryBarrierWithGroupSync();
    uint acc = 0;
    for (uint i = 0; i < gi % 7; ++i) {
        if (i == 3) continue;
        acc += i;
        if (acc > 8) break;
    }
    Pair p = make(tile[63 - gi], acc);
    uint r = 0;
    switch (gi % 4) {
        case 0: r = 10;
        case 1: r += 1; break;
        default: r = 5; break;
    }
    if (gi == 5) return;
    Out[gi] = p.b + (uint)p.a * 1000 + r * 100000;
    Out[gi + 64] = WavePrefixCountBits(gi % 2 == 0) + QuadReadAcrossX(gi) * 100;
}
"""


def kernel_reference(wave_size: int):
    out = np.zeros(128, np.int64)
    lanes = np.arange(wave_size)
    active = lanes != 5
    for gi in lanes[active]:
        acc = 0
        for i in range(gi % 7):
            if i == 3:
                continue
            acc += i
            if acc > 8:
                break
        source = 63 - gi  # tile entries of lanes outside this wave were never written
        tile = 2.0 * source if source < wave_size else 0.0
        r = {0: 11, 1: 1}.get(gi % 4, 5)
        out[gi] = acc + int(tile) * 1000 + r * 100000
        evens_below = np.count_nonzero(active[:gi] & (lanes[:gi] % 2 == 0))
        partner = gi ^ 1
        out[gi + 64] = evens_below + (partner * 100 if active[partner] else 0)
    return out


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("lower_waves", [False, True])
def test_hlsl_kernel_with_loops_switch_structs_and_early_return(wave_size, lower_waves):
    module = compile_hlsl(KERNEL, wave_size, lower_waves)
    data = np.zeros((64, 4), np.float32)
    data[:, 0] = np.arange(64)
    params = np.array([3], np.uint32).tobytes() + np.array([2.0], np.float32).tobytes()
    state = run_wave(module, wave_size, buffers={"Out": np.zeros(128, np.uint32), "In": data},
                     cbuffers={"Params": params})
    expected = kernel_reference(wave_size)
    defined = np.ones(128, bool)
    defined[64 + 4] = False  # lane 4 reads lane 5 (returned) across the quad: undefined
    assert state.buffers["Out"][defined].tolist() == expected[defined].tolist()


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("lower_waves", [False, True])
def test_prefix_sum_sample_first_wave(wave_size, lower_waves):
    """samples/prefix_sum.hlsl: wave 0 of group 0 needs no other wave's total."""
    from pathlib import Path

    source = (Path(__file__).resolve().parents[2] / "samples" / "prefix_sum.hlsl").read_text()
    module = compile_hlsl(source, wave_size, lower_waves)
    data = np.random.default_rng(2).integers(0, 1 << 30, 300).astype(np.uint32)
    state = run_wave(module, wave_size, buffers={"input": data, "output": np.zeros(300, np.uint32),
                                                 "blockSums": np.zeros(2, np.uint32)},
                     cbuffers={"scanConstants": {0: 300}})
    expected = np.concatenate([[0], np.cumsum(data[:wave_size], dtype=np.uint32)[:-1]])
    assert state.buffers["output"][:wave_size].tolist() == expected.tolist()
    assert state.barriers == 1


@pytest.mark.parametrize("wave_size, lower_waves", [(32, False), (64, True)])
def test_spd_sample_first_wave_writes_true_mip1_and_mip2_texels(wave_size, lower_waves):
    """samples/spd.hlsl (FidelityFX SPD port): one wave of group 0 writes 4 mip-1 texels per
    lane and its quads' mip-2 texels; every texel it writes is the true 2x2 average."""
    from pathlib import Path

    from shc.compiler.diagnostics import Diagnostics
    from shc.compiler.ir.lower.from_ast import lower
    from shc.compiler.pipeline import Options, check_source

    root = Path(__file__).resolve().parents[2]
    diagnostics = Diagnostics()
    options = Options(wave_size=wave_size, include_dirs=[str(root / "stdlib")])
    program = check_source((root / "samples" / "spd.hlsl").read_text(), str(root / "samples" / "spd.hlsl"),
                           options, diagnostics)
    module = lower(program, wave_size, diagnostics)
    diagnostics.check()
    if lower_waves:
        from shc.compiler.passes.lower_wave_ops import LowerWaveOps

        LowerWaveOps(wave_size).run(module)
    verify(module.function)
    source = np.random.default_rng(0).uniform(1, 2, (1, 64, 64, 4)).astype(np.float32)
    mips = [np.zeros((1, 32 >> k, 32 >> k, 4), np.float32) for k in range(6)] + \
        [np.zeros((1, 1, 1, 4), np.float32) for _ in range(6)]
    state = run_wave(module, wave_size, buffers={"imgSrc": source, "spdGlobalAtomic": np.zeros(1, np.uint32),
                                                 "imgDst": mips, "imgDst6": np.zeros((1, 1, 1, 4), np.float32)},
                     cbuffers={"spdConstants": {0: 6, 4: 1, 8: [0, 0]}})
    mip1 = source[0].reshape(32, 2, 32, 2, 4).mean(axis=(1, 3))
    mip2 = mip1.reshape(16, 2, 16, 2, 4).mean(axis=(1, 3))
    for got, want, count in ((state.buffers["imgDst"][0][0], mip1, 4 * wave_size),
                             (state.buffers["imgDst"][1][0], mip2, wave_size)):
        written = got[..., 0] != 0
        assert written.sum() == count
        assert np.allclose(got[written], want[written], rtol=1e-6)
    assert state.barriers >= 1
