"""The host JIT, textures: loads, stores and sizes, SampleLevel (every filter and address
mode), a nonuniform texture array, and SPD building a whole mip chain.

The harness (host_helpers.py) runs one group on the JIT; expected results come from the IR
interpreter run wave after wave, or from NumPy where the interpreter does not model it.
"""

from __future__ import annotations

import os
import struct
import sys

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

from shc.compiler.backend.host.module import build_host_module  # noqa: E402
from shc.compiler.diagnostics import Diagnostics  # noqa: E402
from shc.compiler.pipeline import Options  # noqa: E402
from shc.compiler.machine.abi import Status  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, Group, assert_same, compile_hlsl, run_both  # noqa: E402


# ---------------------------------------------------------------------------------------
# textures
# ---------------------------------------------------------------------------------------

TEXTURE_LOADS = """
Texture2D<float4> image : register(t0);
Texture2DArray<float4> layers : register(t1);
Texture3D<float4> volume : register(t2);
RWTexture2D<float4> target : register(u0);
RWStructuredBuffer<float4> result : register(u1);
RWStructuredBuffer<uint4> sizes : register(u2);
globallycoherent RWTexture2D<float4> board : register(u3);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    int x = (int)(i % 9) - 1, y = (int)(i / 9) - 1;      // a border of out-of-range texels
    result[i] = image.Load(int3(x, y, i % 3));           // mip 2 does not exist
    result[i + NT] = layers.Load(int4(x, y, i % 4, 0));  // slice 3 does not exist
    result[i + 2 * NT] = image[uint2(x, y)] + board[uint2(y, x)];
    result[i + 3 * NT] = volume.Load(int4(x, y, i % 4, i % 2));
    target[uint2(y, x)] = float4(i, x, y, 1);
    uint w, h, levels, w2, h2, elements;
    image.GetDimensions(i % 3, w, h, levels);
    layers.GetDimensions(w2, h2, elements);
    sizes[i] = uint4(w, h, levels, w2 * 100 + h2 * 10 + elements);
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_texture_loads_stores_and_sizes_match_interpreter(wave_size):
    threads = 2 * wave_size
    rng = np.random.default_rng(9)
    image = [rng.uniform(0, 1, (6, 8, 4)).astype(np.float32), rng.uniform(0, 1, (3, 4, 4)).astype(np.float32)]
    volume = [rng.uniform(0, 1, (3, 4, 5, 4)).astype(np.float32), rng.uniform(0, 1, (1, 2, 2, 4)).astype(np.float32)]
    buffers = {"image": image, "layers": rng.uniform(0, 1, (3, 5, 7, 4)).astype(np.float32), "volume": volume,
               "board": rng.uniform(0, 1, (6, 8, 4)).astype(np.float32),
               "target": np.zeros((7, 9, 4), np.float32), "result": np.zeros((4 * threads, 4), np.float32),
               "sizes": np.zeros((threads, 4), np.uint32)}
    actual, expected, _ = run_both(TEXTURE_LOADS.replace("NT", str(threads)), wave_size, buffers)
    assert_same(actual, expected)


SAMPLES = """
Texture2D<float4> image : register(t0);
Texture2DArray<float4> layers : register(t1);
SamplerState smp : register(s0);
StructuredBuffer<float4> coords : register(t2);
RWStructuredBuffer<float4> result : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float4 c = coords[i];
    result[i] = image.SampleLevel(smp, c.xy, c.z);
    result[i + 64] = image.SampleLevel(smp, c.xy, 0, int2(1, -2));
    result[i + 128] = layers.SampleLevel(smp, float3(c.xy, c.w), 0.0);
}
"""


BORDER = np.array([0.25, 0.5, 0.75, 1.0])


def _address(i: np.ndarray, n: int, mode: int):
    """Texel index through an address mode: (index, inside) (border: outside reads BORDER)."""
    if mode == 0:
        return np.clip(i, 0, n - 1), np.ones(i.shape, bool)
    if mode == 1:
        return np.mod(i, n), np.ones(i.shape, bool)
    if mode == 2:
        k = np.mod(i, 2 * n)
        return np.where(k < n, k, 2 * n - 1 - k), np.ones(i.shape, bool)
    inside = (i >= 0) & (i < n)
    return np.clip(i, 0, n - 1), inside


def _sample_level(level: np.ndarray, u, v, linear: bool, mode: int, offset=(0, 0)):
    h, w = level.shape[:2]
    u, v = u.astype(np.float64), v.astype(np.float64)
    if not linear:
        (x, xin), (y, yin) = _address(np.floor(u * w + offset[0]).astype(int), w, mode), \
            _address(np.floor(v * h + offset[1]).astype(int), h, mode)
        return np.where((xin & yin)[:, None], level[y, x], BORDER)
    fx, fy = u * w - 0.5 + offset[0], v * h - 0.5 + offset[1]
    x0, y0 = np.floor(fx), np.floor(fy)
    a, b = (fx - x0)[:, None], (fy - y0)[:, None]
    texels = {}
    for dx in (0, 1):
        for dy in (0, 1):
            (x, xin), (y, yin) = _address(x0.astype(int) + dx, w, mode), _address(y0.astype(int) + dy, h, mode)
            texels[dx, dy] = np.where((xin & yin)[:, None], level[y, x], BORDER)
    with np.errstate(invalid="ignore"):  # 0 * inf: a neighbour at infinity makes NaN, as on a GPU
        top = texels[0, 0] + a * (texels[1, 0] - texels[0, 0])
        bottom = texels[0, 1] + a * (texels[1, 1] - texels[0, 1])
        return top + b * (bottom - top)


def sample_reference(mips, u, v, lod, linear: bool, mode: int, offset=(0, 0)):
    """SampleLevel as host_textures documents it: point takes the nearest mip's nearest texel,
    linear is trilinear (the next mip weighs in only where the level of detail is past a whole one)."""
    lod = np.clip(lod, 0, len(mips) - 1)
    if not linear:
        nearest = np.floor(lod + 0.5).astype(int)
        out = np.zeros((len(u), 4))
        for m in range(len(mips)):
            pick = nearest == m
            out[pick] = _sample_level(mips[m], u[pick], v[pick], False, mode, offset)
        return out
    base = np.floor(lod).astype(int)
    blend = (lod - base)[:, None]
    out = np.zeros((len(u), 4))
    for m in range(len(mips)):
        pick = base == m
        near = _sample_level(mips[m], u[pick], v[pick], True, mode, offset)
        far = _sample_level(mips[min(m + 1, len(mips) - 1)], u[pick], v[pick], True, mode, offset)
        with np.errstate(invalid="ignore"):  # the next mip does not count where the blend is 0
            out[pick] = np.where(blend[pick] == 0, near, near + blend[pick] * (far - near))
    return out


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("linear", [False, True], ids=["point", "linear"])
@pytest.mark.parametrize("mode", [0, 1, 2, 3], ids=["clamp", "wrap", "mirror", "border"])
def test_sample_level(wave_size, linear, mode):
    rng = np.random.default_rng(mode)
    mips = [rng.uniform(0, 1, (5, 6, 4)).astype(np.float32), rng.uniform(0, 1, (2, 3, 4)).astype(np.float32)]
    layers = rng.uniform(0, 1, (3, 4, 4, 4)).astype(np.float32)
    coords = np.stack([rng.uniform(-1.5, 2.5, 64), rng.uniform(-1.5, 2.5, 64), rng.uniform(-0.5, 1.7, 64),
                       rng.uniform(-1, 3.4, 64)], axis=1).astype(np.float32)
    result = np.zeros((192, 4), np.float32)
    group = Group(build_host_module(compile_hlsl(SAMPLES, wave_size)))
    status = group.run({"image": mips, "layers": layers, "smp": (int(linear), mode, BORDER), "coords": coords,
                        "result": result})
    assert status == Status.DONE
    u, v, lod, w = (coords[:, k] for k in range(4))
    np.testing.assert_allclose(result[:64], sample_reference(mips, u, v, lod, linear, mode), atol=2e-6)
    np.testing.assert_allclose(result[64:128], sample_reference(mips, u, v, np.zeros(64), linear, mode, (1, -2)),
                               atol=2e-6)
    layer = np.clip(np.floor(w + 0.5), 0, 2).astype(int)
    expected = np.zeros((64, 4))
    for index in range(3):
        pick = layer == index
        expected[pick] = sample_reference([layers[index]], u[pick], v[pick], np.zeros(pick.sum()), linear, mode)
    np.testing.assert_allclose(result[128:], expected, atol=2e-6)


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_sampling_reads_only_the_texels_it_weighs(wave_size):
    """Point filtering returns the texel under the coordinate, even next to an infinity or a NaN
    (weighing a neighbour by 0 would give NaN), and trilinear filtering at a whole level of
    detail leaves the next mip alone."""
    rng = np.random.default_rng(7)
    mips = [rng.uniform(0, 1, (5, 6, 4)).astype(np.float32), np.full((2, 3, 4), np.inf, np.float32)]
    mips[0][1:4:2, ::2] = np.inf
    mips[0][2, 1::2] = np.nan
    lods = np.where(np.arange(64) % 3 == 0, 0.25, 0.0)  # some lanes blend with the next mip, most not
    coords = np.stack([rng.uniform(0, 1, 64), rng.uniform(0, 1, 64), lods, np.zeros(64)], axis=1).astype(np.float32)
    for linear in (False, True):
        result = np.zeros((192, 4), np.float32)
        group = Group(build_host_module(compile_hlsl(SAMPLES, wave_size)))
        assert group.run({"image": mips, "layers": np.zeros((3, 4, 4, 4), np.float32), "smp": (int(linear), 0, BORDER),
                          "coords": coords, "result": result}) == Status.DONE
        u, v = coords[:, 0], coords[:, 1]
        expected = sample_reference(mips, u, v, lods, linear, 0)
        np.testing.assert_allclose(result[:64], expected, atol=2e-6)  # NaN where expected is NaN
        if linear:  # where the lod is whole, mip 0 alone: the infinite mip 1 is not read
            whole = lods == 0
            alone = _sample_level(mips[0], u[whole], v[whole], True, 0)
            np.testing.assert_allclose(result[:64][whole], alone, atol=2e-6)
        else:
            x, y = np.floor(u * 6).astype(int), np.floor(v * 5).astype(int)
            np.testing.assert_array_equal(result[:64], mips[0][y, x])  # lod 0.25 rounds to mip 0


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_nonuniform_texture_array_sample(wave_size):
    """samples/texture_array_nonuniform.hlsl: an unbounded array, a waterfall loop, a sampler."""
    with open("samples/texture_array_nonuniform.hlsl") as handle:
        source = handle.read()
    threads = 64
    rng = np.random.default_rng(2)
    textures = [rng.uniform(0, 1, (4, 4, 4)).astype(np.float32) for _ in range(3)]
    ids = rng.integers(0, 3, threads).astype(np.uint32)
    uvs = rng.uniform(0, 1, (threads, 2)).astype(np.float32)
    colors = np.zeros((threads, 4), np.float32)
    group = Group(build_host_module(compile_hlsl(source, wave_size)))
    count = threads - 3
    status = group.run({"sampleConstants": struct.pack("<2I", count, 1), "materialIds": ids, "uvs": uvs,
                        "textures": textures, "linearSampler": (1, 0), "colors": colors})
    assert status == Status.DONE
    expected = np.zeros((threads, 4))
    detail = sample_reference([textures[1]], uvs[:, 0], uvs[:, 1], np.zeros(threads), True, 0)
    for index in range(3):
        pick = ids == index
        expected[pick] = sample_reference([textures[index]], uvs[pick, 0], uvs[pick, 1], np.zeros(pick.sum()),
                                          True, 0) * detail[pick]
    np.testing.assert_allclose(colors[:count], expected[:count], atol=2e-6)
    assert not colors[count:].any()


SAMPLER_ARRAY = """
Texture2D<float4> t : register(t0);
Texture2D<float4> ts[2] : register(t1);
SamplerState ss[2] : register(s0);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float2 uv = float2(1.25, 0.5);
    o[i] = t.SampleLevel(ss[NonUniformResourceIndex(i & 1)], uv, 0)
         + ts[NonUniformResourceIndex(i >> 5)].SampleLevel(ss[NonUniformResourceIndex(i & 1)], uv, 0) * 10;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_a_divergent_sampler_index_takes_each_lanes_sampler(wave_size):
    """NonUniformResourceIndex on a sampler array's index: every lane samples with its own
    sampler (a waterfall loop over the sampler index, nested in the texture's when both vary)."""
    import shc

    kernel = shc.compile(SAMPLER_ARRAY, wave_size=wave_size)
    texture = np.array([[[1, 0, 0, 0], [2, 0, 0, 0]]], np.float32)  # 2 x 1 texels: 1, 2
    others = [texture * 3, texture * 5]
    out = np.zeros((64, 4), np.float32)
    kernel.dispatch((1, 1, 1), {"t": texture, "ts": others, "o": out,
                                "ss": [shc.Sampler(filter="point", address="clamp"),
                                       shc.Sampler(filter="point", address="wrap")]})
    lanes = np.arange(64)
    texel = np.where(lanes & 1, 1.0, 2.0)  # u = 1.25 is texel 2.5: clamp reads texel 1 (2), wrap texel 0 (1)
    np.testing.assert_array_equal(out[:, 0], texel + np.where(lanes >> 5, 5, 3) * texel * 10)
    assert "v_readfirstlane_b32" in kernel.listing


# ---------------------------------------------------------------------------------------
# SPD: every group of a 128 x 128 mip chain, the last group finishing it
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("wave_size, defines", [(32, {}), (64, {"A_HALF": "1"}), (32, {"SPD_LINEAR_SAMPLER": "1"})],
                         ids=["wave32", "wave64-half", "wave32-sampler"])
def test_spd_builds_the_mip_chain(wave_size, defines):
    from shc.compiler.pipeline import compile_file
    module = compile_file("samples/spd.hlsl", Options(wave_size=wave_size, defines=defines), Diagnostics())
    group = Group(build_host_module(module))
    size, mips = 128, 7
    source = np.random.default_rng(0).uniform(0, 1, (1, size, size, 4)).astype(np.float32)
    targets = [np.zeros((1, max(1, size >> (k + 1)), max(1, size >> (k + 1)), 4), np.float32) for k in range(12)]
    constants = struct.pack("<4I", mips, 4, 0, 0) + struct.pack("<2f", 1 / size, 1 / size)
    resources = {"spdConstants": constants, "imgSrc": source, "spdGlobalAtomic": np.zeros(1, np.uint32),
                 "imgDst": targets, "imgDst6": targets[5], "srcSampler": (1, 0)}
    for group_id in [(0, 0, 0), (1, 0, 0), (0, 1, 0), (1, 1, 0)]:
        assert group.run(resources, group_id) == Status.DONE
    assert resources["spdGlobalAtomic"][0] == 0  # the last group reset the counter
    expected = source[0].astype(np.float64)
    tolerance = 2e-3 if "A_HALF" in defines else 1e-6
    for level in range(mips):
        expected = expected.reshape(expected.shape[0] // 2, 2, expected.shape[1] // 2, 2, 4).mean(axis=(1, 3))
        np.testing.assert_allclose(targets[level][0], expected, atol=tolerance, err_msg=f"mip {level + 1}")
