"""``tex.mips[level][pos]``, ``SampleGrad``, ``SampleCmpLevelZero``, ``GatherCmp*`` and the
``status`` overloads of ``Load`` with ``CheckAccessFullyMapped``.

``mips`` and the status loads are texture and buffer loads: the IR interpreter, the host JIT and
the RDNA2 listing simulator compute the same buffers. ``SampleGrad`` is ``SampleLevel`` at the
level its gradients give; the interpreter and the simulator do not filter textures, so it is
checked in the JIT against ``SampleLevel`` at the level worked out by hand, as
``SampleCmpLevelZero`` is against D3D's compare-then-filter by hand. ``GatherCmp*`` runs in
all three. The listing of every form assembles with llvm-mc.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source


def _mips(size: int, levels: int) -> list[np.ndarray]:
    """float4 mips whose texels name their level, row and column: level * 1000 + y * 10 + x."""
    chain = []
    for level in range(levels):
        side = size >> level
        y, x = np.mgrid[0:side, 0:side]
        texel = (level * 1000 + y * 10 + x).astype(np.float32)
        chain.append(np.stack([texel, texel + 0.25, texel + 0.5, texel + 0.75], axis=-1))
    return chain


MIPS_KERNEL = """
Texture2D<float4> t : register(t0);
RWStructuredBuffer<float4> o : register(u0);
[numthreads({wave}, 1, 1)]
void main(uint tid : SV_GroupIndex)
{{
    uint level = tid % 3;
    uint2 pos = uint2(tid % 2, (tid / 16) % 2);
    o[tid] = t.mips[level][pos];
    o[{wave} + tid] = t.Load(int3(pos, level)) - t.mips[level][pos];
}}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_mips_in_three_executors(wave):
    source = MIPS_KERNEL.format(wave=wave)
    chain = _mips(8, 3)
    module = compile_source(source, "mips.hlsl", Options(wave_size=wave), Diagnostics())
    reference = run_wave(module, buffers={"t": chain, "o": np.zeros((2 * wave, 4), np.float32)})
    expected = np.asarray(reference.buffers["o"]).view(np.float32).reshape(-1, 4)

    jit = np.zeros((2 * wave, 4), np.float32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), t=chain, o=jit)
    function = select(module)
    allocate(function)
    listing = simulate(function, module, buffers={"t": chain, "o": np.zeros((2 * wave, 4), np.float32)})
    simulated = np.asarray(listing.buffers["o"]).view(np.float32).reshape(-1, 4)

    tid = np.arange(wave)
    level, x, y = tid % 3, tid % 2, tid // 16 % 2
    assert expected[:wave, 0].tolist() == (level * 1000 + y * 10 + x).tolist()
    assert not expected[wave:].any()  # the same texel as Load(int3(pos, level))
    assert np.array_equal(jit, expected) and np.array_equal(simulated, expected)


def test_sample_grad_is_sample_level_at_the_gradients_level():
    """The level is log2 of the longer gradient in texels of mip 0: ddx (g, 0) on an 8-texel-wide
    texture is 8g texels, ddy (0, g/2) 4g; the offset applies as in SampleLevel."""
    source = """
    Texture2D<float> t; SamplerState s; RWStructuredBuffer<float> o;
    [numthreads(8, 1, 1)]
    void main(uint tid : SV_GroupIndex)
    {
        float g = (tid + 1) / 16.0;
        o[tid] = t.SampleGrad(s, float2(0.3, 0.6), float2(g, 0), float2(0, g * 0.5), int2(1, 0));
        o[tid + 8] = t.SampleLevel(s, float2(0.3, 0.6), log2(8 * g), int2(1, 0));
        o[tid + 16] = t.SampleGrad(s, float2(0.3, 0.6), float2(0, g * 0.25), float2(0, g * 0.5));
        o[tid + 24] = t.SampleLevel(s, float2(0.3, 0.6), log2(4 * g));
    }
    """
    chain = [np.full((8 >> m, 8 >> m, 1), float(m * 10 + 1), np.float32) for m in range(4)]
    out = np.zeros(32, np.float32)
    shc.compile(source, wave_size=32).dispatch((1, 1, 1), t=chain, s=shc.Sampler(filter="linear"), o=out)
    assert np.array_equal(out[:8], out[8:16]) and np.array_equal(out[16:24], out[24:32])
    # the levels go 0 (clamped), 0, log2(3), 1, ...: a level between mips blends them
    assert out[:8].tolist()[:2] == [1.0, 1.0] and out[3] == 11.0 and out[7] == 21.0


STATUS_KERNEL = """
RWByteAddressBuffer b : register(u0);
StructuredBuffer<uint> sb : register(t0);
[numthreads({wave}, 1, 1)]
void main(uint tid : SV_GroupIndex)
{{
    uint s1, s2, s3, s4;
    uint v = b.Load(tid * 4, s1);
    uint2 w = b.Load2(tid * 8, s2);
    float f = b.Load<float>(tid * 4 + 4, s3);
    uint x = sb.Load(tid, s4);
    uint mapped = (CheckAccessFullyMapped(s1) ? 1 : 0) + (CheckAccessFullyMapped(s2) ? 2 : 0)
                + (CheckAccessFullyMapped(s3) ? 4 : 0) + (CheckAccessFullyMapped(s4) ? 8 : 0);
    b.Store(1024 + tid * 4, v + w.y + asuint(f) + x);
    b.Store(2048 + tid * 4, mapped);
}}
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_status_loads_are_fully_mapped_in_three_executors(wave):
    source = STATUS_KERNEL.format(wave=wave)
    raw = (np.arange(1024, dtype=np.uint64) * 2654435761 % 2**32).astype(np.uint32)
    structured = np.arange(64, dtype=np.uint32) * 3
    module = compile_source(source, "status.hlsl", Options(wave_size=wave), Diagnostics())
    reference = np.asarray(run_wave(module, buffers={"b": raw.copy(), "sb": structured}).buffers["b"]).view(np.uint32)
    jit = raw.copy()
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), b=jit, sb=structured)
    function = select(module)
    allocate(function)
    simulated = np.asarray(simulate(function, module, buffers={"b": raw.copy(), "sb": structured})
                           .buffers["b"]).view(np.uint32)
    tid = np.arange(wave)
    assert reference[512:512 + wave].tolist() == [15] * wave  # every status says fully mapped
    total = (raw[tid] + raw[2 * tid + 1] + raw[tid + 1] + structured[tid]).astype(np.uint32)
    assert reference[256:256 + wave].tolist() == total.tolist()
    assert np.array_equal(jit, reference) and np.array_equal(simulated, reference)


def test_texture_status_loads():
    source = """
    Texture2D<float> t; RWTexture2D<float> r; RWStructuredBuffer<float> o;
    [numthreads(1, 1, 1)]
    void main()
    {
        uint s1, s2;
        o[0] = t.Load(int3(0, 1, 0), int2(1, 0), s1);
        o[1] = r.Load(int2(1, 1), s2);
        o[2] = CheckAccessFullyMapped(s1) && CheckAccessFullyMapped(s2);
    }
    """
    out = np.zeros(3, np.float32)
    shc.compile(source, wave_size=32).dispatch(
        (1, 1, 1), t=np.array([[1, 2], [3, 4]], np.float32)[..., None],
        r=np.array([[5, 6], [7, 8]], np.float32)[..., None], o=out)
    assert out.tolist() == [4.0, 8.0, 1.0]


def test_sample_cmp_level_zero_values():
    """D3D: each texel of the footprint compared first (``ref <op> texel``: 1 or 0), then filtered;
    a row of 0.1 0.4 0.6 0.9 against 0.5: point sampling gives the nearest texel's result, linear
    sampling weighs the two results by the distance to each texel's centre."""
    source = """
    Texture2D<float> t; SamplerComparisonState s; RWStructuredBuffer<float> o;
    [numthreads(8, 1, 1)]
    void main(uint tid : SV_GroupIndex)
    {
        float2 uv = float2(0.25 + tid * 0.0625, 0.5);
        o[tid] = t.SampleCmpLevelZero(s, uv, 0.5);
        o[tid + 8] = t.SampleCmpLevelZero(s, uv, 0.5, int2(1, 0));
    }
    """
    kernel = shc.compile(source, wave_size=32)
    texture = np.array([[0.1, 0.4, 0.6, 0.9]] * 4, np.float32)[..., None]
    results = {}
    for filter_ in ("point", "linear"):
        for comparison in ("less_equal", "greater", "never", "always"):
            out = np.zeros(16, np.float32)
            kernel.dispatch((1, 1, 1), t=texture, s=shc.Sampler(filter=filter_, comparison=comparison), o=out)
            results[filter_, comparison] = out.tolist()
    assert results["point", "less_equal"] == [0.0] * 4 + [1.0] * 12  # texel 1 (0.4) then texel 2 (0.6)
    assert results["point", "greater"] == [1.0] * 4 + [0.0] * 12
    # u * 4 - 0.5 = 0.5, 0.75, 1.0, 1.25, ...: texels 1 and 2 (results 0 and 1) from lane 2 on
    assert results["linear", "less_equal"][:8] == [0.0, 0.0, 0.0, 0.25, 0.5, 0.75, 1.0, 1.0]
    assert results["linear", "less_equal"][8:12] == [0.5, 0.75, 1.0, 1.0]  # one texel further right
    assert results["linear", "greater"][:8] == [1.0, 1.0, 1.0, 0.75, 0.5, 0.25, 0.0, 0.0]
    assert results["point", "never"] == [0.0] * 16 and results["linear", "always"] == [1.0] * 16


GATHER_CMP_KERNEL = """
Texture2D<float> t : register(t0);
SamplerComparisonState s : register(s0);
RWStructuredBuffer<float4> o : register(u0);
[numthreads({wave}, 1, 1)]
void main(uint tid : SV_GroupIndex)
{{
    float2 uv = float2(0.1 + tid * 0.03, 0.3);
    o[tid] = t.GatherCmp(s, uv, 0.5) + 2 * t.GatherCmpRed(s, uv, tid * 0.03, int2(1, -1));
}}
"""


@pytest.mark.parametrize("comparison", ["less_equal", "greater", "not_equal"])
@pytest.mark.parametrize("wave", [32, 64])
def test_gather_cmp_in_three_executors(wave, comparison):
    source = GATHER_CMP_KERNEL.format(wave=wave)
    texture = (np.arange(16, dtype=np.float32).reshape(4, 4) / 16)[..., None]
    sampler = shc.Sampler(filter="linear", address="border", border=(0.45, 0, 0, 0), comparison=comparison)
    module = compile_source(source, "gather_cmp.hlsl", Options(wave_size=wave), Diagnostics())
    buffers = {"t": texture, "s": sampler, "o": np.zeros((wave, 4), np.float32)}
    reference = np.asarray(run_wave(module, buffers=dict(buffers)).buffers["o"]).view(np.float32).reshape(-1, 4)
    jit = np.zeros((wave, 4), np.float32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), t=texture, s=sampler, o=jit)
    function = select(module)
    allocate(function)
    simulated = np.asarray(simulate(function, module, buffers=dict(buffers, o=np.zeros((wave, 4), np.float32)))
                           .buffers["o"]).view(np.float32).reshape(-1, 4)
    # lane 0 by hand: footprint x=(-1,1) border 0.45, y=(0,1) 0.25, z=(0,0) 0, w=(-1,0) border; with the
    # offset (1, -1) and reference 0: x=(0,0) 0, y=(1,0) 1/16, z=(1,-1) and w=(0,-1) border 0.45
    lane0 = {"less_equal": [2, 2, 2, 2], "greater": [1, 1, 1, 1], "not_equal": [1, 3, 3, 3]}[comparison]
    assert reference[0].tolist() == lane0
    assert np.array_equal(jit, reference) and np.array_equal(simulated, reference)


LISTED = """
Texture2D<float4> t : register(t0);
Texture2DArray<float> ta : register(t1);
SamplerState s : register(s0);
SamplerComparisonState c : register(s1);
RWStructuredBuffer<float4> o : register(u0);
[numthreads({wave}, 1, 1)]
void main(uint tid : SV_GroupIndex)
{{
    float g = (tid + 1) / 16.0;
    uint status;
    float4 v = t.SampleGrad(s, float2(0.3, 0.6), float2(g, 0), float2(0, g), int2(1, -1));
    v += t.mips[tid & 1][uint2(tid, 1)] + t.Load(int3(tid, 0, 0), int2(0, 0), status) * CheckAccessFullyMapped(status);
    v.x += ta.SampleCmpLevelZero(c, float3(0.5, g, 1), 0.5) + ta.SampleCmpLevelZero(c, float3(g, 0.5, 0), g, int2(1, 0));
    v += ta.GatherCmpRed(c, float3(g, 0.5, 1), 0.25) + ta.GatherCmp(c, float3(0.5, g, 0), 0.75, int2(-1, 0));
    o[tid] = v;
}}
"""


@pytest.mark.skipif(shutil.which("llvm-mc") is None, reason="llvm-mc is not installed")
@pytest.mark.parametrize("wave", [32, 64])
def test_listing_assembles(wave):
    listing = shc.compile(LISTED.format(wave=wave), wave_size=wave).listing
    for mnemonic in ("image_sample_l_o", "image_load_mip", "image_sample_c_lz ", "image_sample_c_lz_o",
                     "image_gather4_c_lz ", "image_gather4_c_lz_o"):
        assert mnemonic in listing
    text = "\n".join(line.split(";")[0] for line in listing.splitlines()
                     if line.strip() and not line.lstrip().startswith(";"))
    result = subprocess.run(["llvm-mc", "-arch=amdgcn", "-mcpu=gfx1030", f"-mattr=+wavefrontsize{wave}"],
                            input=text, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[:1500]
