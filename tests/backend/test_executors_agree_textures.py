"""Textures in every executor: the IR interpreter, the host JIT and the RDNA2 listing simulator
leave the same arrays, bit for bit, after one wave of a kernel that writes RW textures and reads
the same texels back in the same dispatch (every format class the runtime binds), samples them
(SampleLevel, SampleCmpLevelZero: ``machine/sampling.py``'s float32 filter) or gathers them.

The listing simulator converts at each image store as the hardware does; the JIT rounds its
32-bit texels through the bound format at the store (``backend/host/texel_rounding.py``), the
interpreter encodes and decodes with ``machine/texels.py``.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import SAMPLE_LEVEL_KERNEL  # noqa: E402


def _copied(resources: dict) -> dict:
    return {name: [level.copy() for level in value] if isinstance(value, list) else
            value.copy() if isinstance(value, np.ndarray) else value for name, value in resources.items()}


def _run_everywhere(source: str, wave: int, resources: dict) -> dict:
    """Each executor's arrays after one wave of ``source``: {"interpreter"|"jit"|"listing": {name: array}}."""
    module = compile_source(source, "textures.hlsl", Options(wave_size=wave), Diagnostics())
    interpreted = run_wave(module, buffers=_copied(resources))
    jit = _copied(resources)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), jit, threads=1)
    function = select(module)
    allocate(function)
    listing = simulate(function, module, buffers=_copied(resources))
    return {"interpreter": interpreted.buffers, "jit": jit, "listing": listing.buffers}


def _bits(array) -> bytes:
    if isinstance(array, (list, tuple)):
        return b"".join(_bits(level) for level in array)
    return np.asarray(array).tobytes()


def _assert_agree(results: dict, names) -> None:
    for name in names:
        reference = _bits(results["listing"][name])
        for executor in ("interpreter", "jit"):
            assert _bits(results[executor][name]) == reference, f"{executor} disagrees with the listing on '{name}'"


# every format class the runtime binds for RW textures, written and read back at the same texel in
# one dispatch: the read returns the stored value as the format keeps it (UNORM rounded and clamped,
# float16 rounded, narrow integers saturated, channels the array lacks as 0, 0, 0, 1)
READ_BACK = """
RWTexture2D<float4> unorm8 : register(u0);
RWTexture2D<float2> unorm16 : register(u1);
RWTexture2D<float4> halves : register(u2);
RWTexture2D<float4> one_channel : register(u3);
RWTexture2D<float4> three_channels : register(u4);
RWTexture2D<int4> sint8 : register(u5);
RWTexture2D<uint2> uint16 : register(u6);
RWTexture2D<uint4> uint8_rgb : register(u7);
RWTexture2D<int> sint16 : register(u8);
RWTexture2D<uint> uint_in_int8 : register(u9);
RWStructuredBuffer<float4> o : register(u10);
RWStructuredBuffer<int4> n : register(u11);
[numthreads(WAVE, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint2 p = uint2(i % 8, i / 8);
    float v = i * 0.0731 - 0.6;
    unorm8[p] = float4(v, 1 - v, v * 3, 0.5);
    o[i * 5 + 0] = unorm8[p];
    unorm16[p] = float2(v * 0.37, -v);
    o[i * 5 + 1] = float4(unorm16[p], 0, 0);
    halves[p] = float4(v * 70000, v / 3, 1e-6 * i, v);
    o[i * 5 + 2] = halves[p];
    one_channel[p] = float4(v / 3, 7, 8, 9);
    o[i * 5 + 3] = one_channel[p];
    three_channels[p] = float4(v / 7, 2, 3, 4);
    o[i * 5 + 4] = three_channels[p];
    sint8[p] = int4(i * 13 - 200, -(int)i, i * 9, 5);
    n[i * 4 + 0] = sint8[p];
    uint16[p] = uint2(i * 4000, i);
    n[i * 4 + 1] = int4(uint16[p], 0, 0);
    uint8_rgb[p] = uint4(i * 11, 300, i, 77);
    n[i * 4 + 2] = uint8_rgb[p];
    sint16[p] = i * 3000 - 90000;
    uint_in_int8[p] = i * 5;
    n[i * 4 + 3] = int4(sint16[p], uint_in_int8[p], 0, 0);
}
"""


def _read_back_resources(wave: int) -> dict:
    height = wave // 8
    return {"unorm8": np.zeros((height, 8, 4), np.uint8), "unorm16": np.zeros((height, 8, 2), np.uint16),
            "halves": np.zeros((height, 8, 4), np.float16), "one_channel": np.zeros((height, 8), np.float32),
            "three_channels": np.zeros((height, 8, 3), np.float32), "sint8": np.zeros((height, 8, 4), np.int8),
            "uint16": np.zeros((height, 8, 2), np.uint16), "uint8_rgb": np.zeros((height, 8, 3), np.uint8),
            "sint16": np.zeros((height, 8), np.int16), "uint_in_int8": np.zeros((height, 8), np.int8),
            "o": np.zeros((wave * 5, 4), np.float32), "n": np.zeros((wave * 4, 4), np.int32)}


@pytest.mark.parametrize("wave", [32, 64])
def test_a_texel_written_then_read_in_one_dispatch_reads_as_the_format_keeps_it(wave):
    results = _run_everywhere(READ_BACK.replace("WAVE", str(wave)), wave, _read_back_resources(wave))
    _assert_agree(results, _read_back_resources(wave))


def test_read_back_values():
    """By value (the listing, which converts as the hardware does): the read is the stored texel."""
    results = _run_everywhere(READ_BACK.replace("WAVE", "32"), 32, _read_back_resources(32))
    o, n = results["jit"]["o"].reshape(32, 5, 4), results["jit"]["n"].reshape(32, 4, 4)
    v = np.arange(32, dtype=np.float32) * np.float32(0.0731) - np.float32(0.6)
    assert o[:, 0, 0].tolist() == (np.rint(np.clip(v, 0, 1) * 255) / np.float32(255)).astype(np.float32).tolist()
    assert o[:, 0, 3].tolist() == [128 / np.float32(255)] * 32  # 127.5 rounds to even
    assert o[:, 2, 1].tolist() == (v / 3).astype(np.float16).astype(np.float32).tolist()
    assert np.isinf(o[:, 2, 0]).any()  # past half's range
    assert o[:, 3].tolist() == [[float(np.float32(x / np.float32(3))), 0, 0, 1] for x in v]
    assert o[:, 4, 1:].tolist() == [[2, 3, 1]] * 32
    assert n[:, 0, 0].tolist() == np.clip(np.arange(32) * 13 - 200, -128, 127).tolist()
    assert n[:, 2, 1:].tolist() == [[255, np.arange(32)[k], 1] for k in range(32)]
    assert n[:, 3, 0].tolist() == np.clip(np.arange(32) * 3000 - 90000, -32768, 32767).tolist()
    assert n[:, 3, 1].tolist() == np.minimum(np.arange(32) * 5, 127).tolist()


# SampleLevel (and SampleCmpLevelZero) of 1-D, 2-D, 2-D array and 3-D textures in several formats:
# the interpreter filters with machine/sampling.py, the JIT's float32 arithmetic (the kernel:
# host_helpers.SAMPLE_LEVEL_KERNEL)
def _sample_resources(wave: int, filter_: str, address: str) -> dict:
    rng = np.random.default_rng(5)
    coords = np.zeros((wave, 4), np.float32)
    coords[:, :2] = rng.uniform(-1.25, 2.25, (wave, 2))
    coords[:, 2] = rng.integers(-1, 4, wave)  # slices past both ends clamp
    coords[:, 3] = rng.uniform(-0.5, 3.5, wave)  # levels of detail: integers, fractions, past the last
    coords[:8, 3] = [0, 1, 2, 0.5, 1.5, 4, -1, 2.75]
    coords[:8, 0] = np.array([0.5, 1, 2, 3, 3.5, 0, 7, 6.5], np.float32) / 7  # texel centres and edges

    def chain(shape: tuple, mips: int, dtype, kept: tuple = (-1,)) -> list:
        """Each level half the last, except on the axes ``kept`` (channels, array slices)."""
        levels = []
        for mip in range(mips):
            sizes = [size if axis in kept or axis - len(shape) in kept else max(1, size >> mip)
                     for axis, size in enumerate(shape)]
            values = rng.random(sizes, dtype=np.float32)
            levels.append((values * 255).astype(np.uint8) if dtype == np.uint8 else
                          (values * 65535).astype(np.uint16) if dtype == np.uint16 else values.astype(dtype))
        return levels

    return {"t2": chain((5, 7, 4), 3, np.float32), "ta": chain((3, 5, 7, 4), 3, np.uint8, kept=(0, -1)),
            "t1": chain((9, 2), 4, np.float16), "t3": chain((4, 6, 5), 3, np.uint16, kept=()),
            "s": shc.Sampler(filter_, address, border=(0.25, 0.5, 0.75, 1.0)),
            "c": shc.Sampler(filter_, address, border=(0.5, 0, 0, 0), comparison="less"),
            "coords": coords, "o": np.zeros((wave * 6, 4), np.float32)}


@pytest.mark.parametrize("address", ["clamp", "wrap", "mirror", "border"])
@pytest.mark.parametrize("filter_", ["point", "linear"])
def test_sample_level_agrees_in_every_executor(filter_, address):
    results = _run_everywhere(SAMPLE_LEVEL_KERNEL.replace("WAVE", "32"), 32, _sample_resources(32, filter_, address))
    assert np.count_nonzero(results["jit"]["o"]) >= 32 * 14
    _assert_agree(results, ["o"])


def test_sample_level_agrees_in_every_executor_at_wave64():
    results = _run_everywhere(SAMPLE_LEVEL_KERNEL.replace("WAVE", "64"), 64, _sample_resources(64, "linear", "mirror"))
    _assert_agree(results, ["o"])


def test_gather_reads_decoded_texels_in_every_executor():
    """Gather of UNORM8 and float16 textures (a missing alpha channel reads 1)."""
    source = """
Texture2D<float4> t : register(t0);
Texture2DArray<float4> ta : register(t1);
SamplerState s : register(s0);
StructuredBuffer<float4> coords : register(t2);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float4 k = coords[i];
    o[i * 3 + 0] = t.Gather(s, k.xy);
    o[i * 3 + 1] = t.GatherAlpha(s, k.xy, int2(1, 0));
    o[i * 3 + 2] = ta.GatherGreen(s, k.xyz);
}
"""
    rng = np.random.default_rng(8)
    coords = rng.uniform(-0.25, 1.25, (32, 4)).astype(np.float32)
    coords[:, 2] = rng.integers(0, 3, 32)
    resources = {"t": rng.integers(0, 256, (5, 7, 3), dtype=np.uint8),
                 "ta": rng.uniform(-2, 2, (3, 4, 6, 2)).astype(np.float16),
                 "s": shc.Sampler("linear", "wrap"), "coords": coords, "o": np.zeros((96, 4), np.float32)}
    results = _run_everywhere(source, 32, resources)
    assert np.count_nonzero(results["jit"]["o"]) > 200
    _assert_agree(results, ["o"])


def test_read_back_through_a_resource_array_and_a_uniform_store():
    """The format read per lane (a lane-varying index into textures of two formats) and a store of
    one value for the whole wave (scalar in the JIT) round as the per-lane stores do."""
    source = """
RWTexture2D<float4> arr[2] : register(u0);
RWTexture2D<uint2> ints : register(u2);
RWStructuredBuffer<float4> o : register(u3);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint2 p = uint2(i % 8, i / 8);
    arr[NonUniformResourceIndex(i & 1)][p] = float4(i * 0.0371, -(int)i, 1e5, 0.3);
    o[i * 3] = arr[NonUniformResourceIndex(i & 1)][p];
    arr[1][uint2(7, 2)] = float4(0.4, 0.8, 1.2, 0.4);
    ints[uint2(1, 1)] = uint2(300, 70000);
    o[i * 3 + 1] = arr[1][uint2(7, 2)];
    o[i * 3 + 2] = float4(ints[uint2(1, 1)], 0, 0);
}
"""
    resources = {"arr": [np.zeros((4, 8, 4), np.uint8), np.zeros((4, 8, 3), np.float16)],
                 "ints": np.zeros((4, 8, 2), np.uint8), "o": np.zeros((96, 4), np.float32)}
    results = _run_everywhere(source, 32, resources)
    _assert_agree(results, resources)
    o = results["jit"]["o"].reshape(32, 3, 4)
    assert o[1, 0].tolist() == [np.float16(0.0371), -1, np.inf, 1]  # float16, three channels
    assert o[0, 1].tolist() == [np.float16(0.4), np.float16(0.8), np.float16(1.2), 1]
    assert o[0, 2, :2].tolist() == [255, 255]
