"""Gather, GatherRed/Green/Blue/Alpha on Texture2D and Texture2DArray, against D3D's definition
computed in NumPy, on the three executors (IR interpreter, host JIT, RDNA2 listing simulator),
wave32 and wave64.

D3D (gather4): the four texels a bilinear filter would read at mip 0, in counter-clockwise
order from the lower left: x = (u0, v1), y = (u1, v1), z = (u1, v0), w = (u0, v0), where
``u0 = floor(u * width - 0.5 + offset.x)``, ``u1 = u0 + 1`` (likewise v; v grows downward);
the sampler's address mode applies to each texel index, its filter does not.
"""

from __future__ import annotations

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

WIDTH, HEIGHT, SLICES = 7, 5, 3
CALLS = ["image.Gather(smp, uv)", "image.GatherRed(smp, uv, int2(1, -2))", "image.GatherGreen(smp, uv)",
         "image.GatherBlue(smp, uv, int2(-3, 2))", "image.GatherAlpha(smp, uv)",
         "layers.GatherGreen(smp, float3(uv, c.z))", "layers.GatherAlpha(smp, float3(uv, c.z), int2(2, 1))"]
# (channel, offset, array) of each call above
DECODED = [(0, (0, 0), False), (0, (1, -2), False), (1, (0, 0), False), (2, (-3, 2), False), (3, (0, 0), False),
           (1, (0, 0), True), (3, (2, 1), True)]


def _source(wave: int) -> str:
    stores = "\n".join(f"    result[i * {len(CALLS)} + {k}] = {call};" for k, call in enumerate(CALLS))
    return f"""
Texture2D<float4> image : register(t0);
Texture2DArray<float4> layers : register(t1);
SamplerState smp : register(s0);
StructuredBuffer<float4> coords : register(t2);
RWStructuredBuffer<float4> result : register(u0);
[numthreads({wave}, 1, 1)]
void main(uint i : SV_GroupIndex) {{
    float4 c = coords[i];
    float2 uv = c.xy;
{stores}
}}
"""


def _coordinates(wave: int) -> np.ndarray:
    rng = np.random.default_rng(wave)
    coords = np.zeros((wave, 4), np.float32)
    coords[:, 0] = rng.uniform(-1.5, 2.5, wave)
    coords[:, 1] = rng.uniform(-1.5, 2.5, wave)
    coords[:, 2] = rng.integers(-1, SLICES + 1, wave)  # slices past both ends clamp
    # texel centres and texel boundaries: u * width - 0.5 lands on integers and half-integers
    coords[:8, 0] = np.array([0.5, 1, 2, 3, 3.5, 0, 7, 6.5], np.float32) / WIDTH
    coords[:8, 1] = np.array([0.5, 2, 1, 4.5, 0, 5, 3, 2.5], np.float32) / HEIGHT
    return coords


def gather_reference(texels: np.ndarray, u, v, channel: int, mode: int, offset=(0, 0)) -> np.ndarray:
    """D3D gather4 at mip 0 of one 2-D texture (height, width, 4), clamp (0) or wrap (1)."""
    height, width = texels.shape[:2]
    x0 = np.floor(np.float32(u) * np.float32(width) - np.float32(0.5) + np.float32(offset[0])).astype(int)
    y0 = np.floor(np.float32(v) * np.float32(height) - np.float32(0.5) + np.float32(offset[1])).astype(int)

    def address(i, n):
        return np.clip(i, 0, n - 1) if mode == 0 else np.mod(i, n)

    corners = [(0, 1), (1, 1), (1, 0), (0, 0)]  # lower left, lower right, upper right, upper left
    return np.stack([texels[address(y0 + dy, height), address(x0 + dx, width), channel] for dx, dy in corners],
                    axis=-1)


def _expected(buffers: dict, coords: np.ndarray, mode: int) -> np.ndarray:
    wave = len(coords)
    out = np.zeros((wave, len(CALLS), 4), np.float32)
    layers = buffers["layers"]
    slices = np.clip(np.floor(coords[:, 2] + 0.5), 0, SLICES - 1).astype(int)
    for k, (channel, offset, array) in enumerate(DECODED):
        if not array:
            out[:, k] = gather_reference(buffers["image"], coords[:, 0], coords[:, 1], channel, mode, offset)
            continue
        for lane in range(wave):
            out[lane, k] = gather_reference(layers[slices[lane]], coords[lane:lane + 1, 0], coords[lane:lane + 1, 1],
                                            channel, mode, offset)[0]
    return out.reshape(wave * len(CALLS), 4)


def _inputs(wave: int, mode: int) -> dict:
    rng = np.random.default_rng(7)
    return {"image": rng.uniform(0, 1, (HEIGHT, WIDTH, 4)).astype(np.float32),
            "layers": rng.uniform(0, 1, (SLICES, HEIGHT, WIDTH, 4)).astype(np.float32),
            "coords": _coordinates(wave),  # a point filter: gather ignores it
            "smp": shc.Sampler(filter="point", address=["clamp", "wrap"][mode]),
            "result": np.zeros((wave * len(CALLS), 4), np.float32)}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("mode", [0, 1], ids=["clamp", "wrap"])
def test_gather_matches_d3d_on_every_executor(wave, mode):
    source = _source(wave)
    inputs = _inputs(wave, mode)
    expected = _expected(inputs, inputs["coords"], mode)

    module = compile_source(source, "gather.hlsl", Options(wave_size=wave), Diagnostics())
    fresh = {name: np.copy(value) if isinstance(value, np.ndarray) else value for name, value in inputs.items()}
    interpreted = np.asarray(run_wave(module, buffers=fresh).buffers["result"], np.float32)

    jit = np.copy(inputs["result"])
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), **{**inputs, "result": jit})

    function = select(module)
    allocate(function)
    fresh = {name: np.copy(value) if isinstance(value, np.ndarray) else value for name, value in inputs.items()}
    simulated = np.asarray(simulate(function, module, buffers=fresh).buffers["result"], np.float32)

    for name, actual in (("interpreter", interpreted), ("jit", jit), ("simulator", simulated)):
        bad = np.flatnonzero(np.any(actual.view(np.uint32) != expected.view(np.uint32), axis=1))
        assert bad.size == 0, (name, bad[:6], actual[bad[:2]], expected[bad[:2]])


def test_the_listing_uses_image_gather4_with_the_channel_dmask():
    diagnostics = Diagnostics()
    module = compile_source(_source(32), "gather.hlsl", Options(wave_size=32), diagnostics)
    listing = render_listing(module, sources=diagnostics.sources).text
    lines = [line for line in listing.splitlines() if "image_gather4" in line]
    assert any("image_gather4_lz " in line and "dmask:0x1" in line for line in lines), lines
    assert any("image_gather4_lz_o " in line and "dmask:0x4" in line for line in lines), lines
    assert any("dmask:0x2" in line and "dim:SQ_RSRC_IMG_2D_ARRAY" in line for line in lines), lines
    assert any("image_gather4_lz_o " in line and "dmask:0x8" in line for line in lines), lines


def test_llvm_compiles_the_gathers_to_image_gather4():
    pytest.importorskip("llvmlite.binding")
    from shc.compiler.backend.amdgcn.check import cross_check
    from shc.compiler.backend.amdgcn.module import to_llvm_ir

    module = compile_source(_source(32), "gather.hlsl", Options(wave_size=32), Diagnostics())
    text = to_llvm_ir(module)
    assert "@llvm.amdgcn.image.gather4.lz.o.2d.v4f32.f32(i32 4, i32 " in text  # blue, offset (-3, 2)
    assert "@llvm.amdgcn.image.gather4.lz.2darray.v4f32.f32(i32 2, " in text  # green of a slice
    result = cross_check(module)
    assert result.ok, f"{result.message}\n{result.stderr}"

