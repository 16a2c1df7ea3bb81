"""The listing simulator's images, typed buffers and descriptors against the host JIT, bit for bit:
SampleLevel (``image_sample_l``, ``_lz``, ``_o``, ``_c``) with every sampler the runtime models,
texture loads and stores in every format the runtime binds, typed buffers, GetDimensions; and the
descriptor words themselves (fields where RDNA2's V#, T# and S# have them).

Each kernel runs through the host JIT (one host thread) and through its RDNA2 listing
(``simulate_group.simulate_dispatch``), and every bound array must come out the same.
"""

from __future__ import annotations

import os
import sys

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2 import simulate_descriptors as descriptors
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.simulate import SimulationError
from shc.compiler.backend.rdna2.simulate_group import simulate_dispatch
from shc.compiler.frontend import hlsl_types as T
from shc.compiler.ir.core import Binding
from shc.runtime.layout import pack_cbuffer

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import SAMPLE_LEVEL_KERNEL  # noqa: E402


pytestmark = pytest.mark.usefixtures("private_kernel_cache")


def _copy(value):
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value.copy() if isinstance(value, np.ndarray) else value


def _disagreements(source: str, resources: dict, wave: int, constants: dict | None = None) -> tuple[list, dict]:
    """(what differs between the JIT's arrays and the listing's, the JIT's arrays)."""
    kernel = shc.compile(source, wave_size=wave)
    ran = _copy(resources)
    kernel.dispatch((1, 1, 1), {**ran, **(constants or {})}, threads=1)
    listing = render_listing(kernel.module)
    cbuffers = {layout.name: pack_cbuffer(layout, constants or {}) for layout in kernel.info.cbuffers.values()}
    state = simulate_dispatch(listing.function, kernel.module, (1, 1, 1), _copy(resources), cbuffers, None,
                              listing.lds_bytes)
    problems = []
    for name, value in ran.items():
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        for index, array in items:
            if isinstance(array, np.ndarray):
                key = name if index is None else f"{name}[{index}]"
                problem = state.difference(key, array.tobytes(), array.dtype)
                if problem:
                    problems.append(problem)
    return problems, ran


# ------------------------------------------------------------------------------ SampleLevel


def _chain(rng, shape: tuple, mips: int, dtype=np.float32) -> list:
    """A mip chain: each level half the last (the leading axis too, unless ``shape`` says otherwise)."""
    levels = []
    for mip in range(mips):
        level_shape = tuple(max(1, size >> mip) for size in shape[:-1]) + shape[-1:]
        levels.append(rng.random(level_shape, dtype=np.float32).astype(dtype))
    return levels


def _sampling_resources(wave: int, filter_: str, address: str) -> dict:
    rng = np.random.default_rng(5)
    coords = np.zeros((wave, 4), np.float32)
    coords[:, :2] = rng.uniform(-1.25, 2.25, (wave, 2))
    coords[:, 2] = rng.integers(-1, 4, wave)  # slices past both ends clamp
    coords[:, 3] = rng.uniform(-0.5, 3.5, wave)  # levels of detail: integers, fractions, past the last
    coords[:8, 3] = [0, 1, 2, 0.5, 1.5, 4, -1, 2.75]
    coords[:8, 0] = np.array([0.5, 1, 2, 3, 3.5, 0, 7, 6.5], np.float32) / 7  # texel centres and edges
    array = [rng.random((3, max(1, 5 >> mip), max(1, 7 >> mip), 4), dtype=np.float32) for mip in range(3)]
    return {
        "t2": _chain(rng, (5, 7, 4), 3), "ta": array, "t1": _chain(rng, (9, 2), 4), "t3": _chain(rng, (4, 6, 5, 4), 3),
        "s": shc.Sampler(filter_, address, border=(0.25, 0.5, 0.75, 1.0)),
        "c": shc.Sampler(filter_, address, border=(0.5, 0, 0, 0), comparison="less"),
        "coords": coords, "o": np.zeros((wave * 6, 4), np.float32)}


@pytest.mark.parametrize("address", ["clamp", "wrap", "mirror", "border"])
@pytest.mark.parametrize("filter_", ["point", "linear"])
def test_sample_level_agrees_with_the_jit(filter_, address):
    problems, ran = _disagreements(SAMPLE_LEVEL_KERNEL.replace("WAVE", "32"), _sampling_resources(32, filter_, address), 32)
    assert np.count_nonzero(ran["o"]) >= 32 * 20
    assert problems == []


def test_sample_level_agrees_at_wave64():
    problems, _ = _disagreements(SAMPLE_LEVEL_KERNEL.replace("WAVE", "64"), _sampling_resources(64, "linear", "wrap"), 64)
    assert problems == []


def test_the_listing_samples_with_the_descriptors_sampler():
    """Each lane's result depends on the S#: a point sampler bound where a linear one was
    expected makes the listing disagree with a JIT run that used the linear one."""
    resources = _sampling_resources(32, "linear", "clamp")
    kernel = shc.compile(SAMPLE_LEVEL_KERNEL.replace("WAVE", "32"), wave_size=32)
    ran = _copy(resources)
    kernel.dispatch((1, 1, 1), ran, threads=1)
    listing = render_listing(kernel.module)
    resources["s"] = shc.Sampler("point", "clamp")
    state = simulate_dispatch(listing.function, kernel.module, (1, 1, 1), resources, {}, None, listing.lds_bytes)
    assert state.difference("o", ran["o"].tobytes(), np.float32) is not None


# ------------------------------------------------------------------------- texel formats
FORMATS = """
Texture2D<float4> unorm8 : register(t0);
Texture2D<float2> unorm16 : register(t1);
Texture2D<float> hf : register(t2);
Texture2D<uint2> u8 : register(t3);
Texture2D<int4> i16 : register(t4);
Texture2D<int> i8 : register(t5);
SamplerState s : register(s0);
RWTexture2D<float4> wunorm : register(u0);
RWTexture2D<float> whalf : register(u1);
RWTexture2D<int2> wi8 : register(u2);
RWTexture2D<uint> wu16 : register(u3);
RWStructuredBuffer<float4> o : register(u4);
RWStructuredBuffer<int4> n : register(u5);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    int3 p = int3(i % 6, i / 6, 0);
    o[i * 4 + 0] = unorm8.Load(p);
    o[i * 4 + 1] = float4(unorm16.Load(p), hf.Load(p), 0);
    o[i * 4 + 2] = unorm8.SampleLevel(s, (p.xy + 0.3) / float2(6, 5), 0);
    o[i * 4 + 3] = float4(unorm16.SampleLevel(s, (p.xy + 0.7) / float2(6, 5), 0), hf.SampleLevel(s, p.yx / 5.0, 0), 0);
    n[i * 2 + 0] = int4(u8.Load(p), i8.Load(p), 0);
    n[i * 2 + 1] = i16.Load(p);
    float v = i * 0.07 - 0.4;
    wunorm[p.xy] = float4(v, 1 - v, v * 3, 0.5);
    whalf[p.xy] = v * 70000;
    wi8[p.xy] = int2(i * 13 - 200, -(int)i);
    wu16[p.xy] = i * 4000;
}
"""


def test_texture_formats_load_sample_and_store_as_the_jit_converts():
    rng = np.random.default_rng(9)
    resources = {
        "unorm8": rng.integers(0, 256, (5, 6, 4), dtype=np.uint8),
        "unorm16": rng.integers(0, 65536, (5, 6, 2), dtype=np.uint16),
        "hf": rng.uniform(-4, 4, (5, 6)).astype(np.float16),
        "u8": rng.integers(0, 256, (5, 6, 2), dtype=np.uint8),
        "i16": rng.integers(-2**15, 2**15, (5, 6, 4), dtype=np.int16),
        "i8": rng.integers(-128, 128, (5, 6), dtype=np.int8),
        "s": shc.Sampler("linear", "wrap"),
        "wunorm": np.zeros((5, 6, 4), np.uint8), "whalf": np.zeros((5, 6), np.float16),
        "wi8": np.zeros((5, 6, 2), np.int8), "wu16": np.zeros((5, 6), np.uint16),
        "o": np.zeros((128, 4), np.float32), "n": np.zeros((64, 4), np.int32)}
    problems, ran = _disagreements(FORMATS, resources, 32)
    assert np.count_nonzero(ran["wunorm"]) and np.count_nonzero(ran["wi8"] == 127) and np.isinf(ran["whalf"]).any()
    assert problems == []


# ------------------------------------------------------------------ typed buffers, GetDimensions
TYPED = """
Buffer<float> bf : register(t0);
Buffer<uint2> bu : register(t1);
Buffer<int3> bi : register(t2);
Buffer<float4> b4 : register(t3);
RWBuffer<float4> wf : register(u0);
RWBuffer<int> wi : register(u1);
RWStructuredBuffer<uint> o : register(u2);
StructuredBuffer<float3> sb : register(t4);
ByteAddressBuffer raw : register(t5);
Texture2D<float4> tex : register(t6);
Texture2DArray<float> arr : register(t7);
Texture3D<float> vol : register(t8);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    o[i * 4 + 0] = asuint(bf[i]) + bu[i].y + (uint)bi[i].z + asuint(b4[i + 20].w);  // past the end: 0
    o[i * 4 + 1] = bu[i].x ^ (uint)bi[i].x;
    wf[i] = float4(bf[i], i, -1.5, bu[i].x);
    wi[i] = bi[i].y * 3;
    uint n0, n1, n2, n3, n4, stride, bytes, w, h, levels, elements, depth;
    bf.GetDimensions(n0);
    bi.GetDimensions(n1);
    wf.GetDimensions(n2);
    sb.GetDimensions(n3, stride);
    raw.GetDimensions(bytes);
    tex.GetDimensions(i % 5, w, h, levels);
    o[i * 4 + 2] = n0 + 100 * n1 + 10000 * n2 + 1000000 * n3 + 100000000 * stride + bytes * 7 + w * 3 + h * 11
                   + levels * 13;
    arr.GetDimensions(i % 3, w, h, elements, levels);
    vol.GetDimensions(i % 4, n4, depth, elements, levels);
    o[i * 4 + 3] = w + 10 * h + 100 * elements + 1000 * levels + 10000 * n4 + 100000 * depth;
}
"""


def test_typed_buffers_and_get_dimensions_agree_with_the_jit():
    rng = np.random.default_rng(3)
    resources = {
        "bf": rng.random(32, dtype=np.float32), "bu": rng.integers(0, 2**32, (32, 2), dtype=np.uint32),
        "bi": rng.integers(-2**31, 2**31, (32, 3), dtype=np.int32), "b4": rng.random((40, 4), dtype=np.float32),
        "wf": np.zeros((32, 4), np.float32), "wi": np.zeros(32, np.int32), "o": np.zeros(128, np.uint32),
        "sb": np.zeros((5, 3), np.float32), "raw": np.zeros(9, np.uint32),
        "tex": [np.zeros((12 >> m, 20 >> m, 4), np.float32) for m in range(3)],
        "arr": [np.zeros((4, 8 >> m, 16 >> m), np.float32) for m in range(2)],
        "vol": [np.zeros((8 >> m, 4 >> m, 2 >> m) if m < 2 else (2, 1, 1), np.float32) for m in range(3)]}
    problems, ran = _disagreements(TYPED, resources, 32)
    assert np.count_nonzero(ran["o"][2::4]) and np.count_nonzero(ran["wi"])
    assert problems == []


# ----------------------------------------------------------------------------- descriptors
def test_descriptor_fields_are_where_rdna2_has_them():
    structured = Binding("sb", "StructuredBuffer", T.vector(T.FLOAT, 3), "t0")
    v = descriptors.buffer_words(structured, 2, 0, np.zeros((5, 3), np.float32))
    assert (v[1] >> 16) & 0x3FFF == 12 and v[2] == 5  # stride [61:48], num_records [95:64]
    typed = Binding("tb", "Buffer", T.vector(T.FLOAT, 4), "t1")
    v = descriptors.buffer_words(typed, 3, 0, np.zeros((7, 4), np.float32))
    assert (v[3] >> 12) & 0x7F == 77 and v[3] & 0xFFF == 0o7654  # 32_32_32_32_FLOAT; dst_sel x y z w
    texture = Binding("t", "Texture2D", T.vector(T.FLOAT, 4), "t2")
    t = descriptors.image_words(texture, 4, 0, [np.zeros((5, 7, 4), np.uint8)] * 3)
    width = ((t[1] >> 30) | (t[2] & 0xFFF) << 2) + 1
    assert (width, ((t[2] >> 14) & 0x3FFF) + 1) == (7, 5)  # width - 1 split over dwords 1-2, height - 1
    assert (t[1] >> 20) & 0x1FF == 56 and (t[3] >> 16) & 0xF == 2 and t[3] >> 28 == 9  # 8_8_8_8_UNORM, 2D
    table = []
    s = descriptors.sampler_words(shc.Sampler("linear", "mirror", border=(1, 0, 0, 1), comparison="greater"), table)
    assert s[0] & 7 == 1 and (s[0] >> 12) & 7 == 4 and (s[2] >> 20) & 3 == 1 and (s[2] >> 26) & 3 == 2
    assert table[s[3] & 0xFFF] == (1, 0, 0, 1) and s[3] >> 30 == 3


def test_what_is_not_simulated_is_refused_loudly():
    source = """
TextureCube<float4> cube : register(t0);
SamplerState s : register(s0);
RWStructuredBuffer<float4> o : register(u0);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) { o[i] = cube.SampleLevel(s, float3(1, i, 2), 0); }
"""
    resources = {"cube": np.zeros((6, 4, 4, 4), np.float32), "s": shc.Sampler(), "o": np.zeros((32, 4), np.float32)}
    with pytest.raises(SimulationError, match="cube textures .* are not simulated"):
        _disagreements(source, resources, 32)


def test_buffer_arrays_address_the_element_their_descriptor_names():
    source = """
StructuredBuffer<float2> parts[3] : register(t0);
RWStructuredBuffer<uint> outs[2] : register(u0);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    outs[1][i] = asuint(parts[2][i].y) ^ asuint(parts[0][31 - i].x);
    outs[0][i] = asuint(parts[1][i].x) + asuint(parts[2][5].y);  // a uniform read: s_buffer_load
}
"""
    rng = np.random.default_rng(4)
    resources = {"parts": [rng.random((32, 2), dtype=np.float32) for _ in range(3)],
                 "outs": [np.zeros(32, np.uint32), np.zeros(32, np.uint32)]}
    problems, ran = _disagreements(source, resources, 32)
    assert np.count_nonzero(ran["outs"][0]) and np.count_nonzero(ran["outs"][1])
    assert problems == []


def test_typed_buffers_of_16_bit_elements_move_raw_dwords():
    """A format load widens each 16-bit channel to a dword: ``Buffer<half4>`` is not
    ``buffer_load_format_xy`` (which the simulator, like the hardware, widens) but two raw dwords."""
    source = """
Buffer<half> h1 : register(t0);
Buffer<half4> h4 : register(t1);
Buffer<uint16_t2> u2 : register(t2);
RWBuffer<half2> wh : register(u0);
RWStructuredBuffer<float4> o : register(u1);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    o[i * 2] = float4(h1[i], h4[i].yzw);
    o[i * 2 + 1] = float4(u2[i], h4[i].x, 0);
    wh[i] = half2(h1[i] * 2, i);
}
"""
    rng = np.random.default_rng(1)
    resources = {"h1": rng.random(32).astype(np.float16), "h4": rng.random((32, 4)).astype(np.float16),
                 "u2": rng.integers(0, 65536, (32, 2)).astype(np.uint16), "wh": np.zeros((32, 2), np.float16),
                 "o": np.zeros((64, 4), np.float32)}
    problems, ran = _disagreements(source, resources, 32)
    assert np.count_nonzero(ran["wh"]) and np.count_nonzero(ran["o"])
    assert problems == []


def test_d16_loads_samples_and_stores_agree_with_the_jit():
    """16-bit results pack two channels a dword (``d16``): half channels round to nearest even
    (past half's range: infinity), 16-bit integers keep their low bits and widen by their sign."""
    source = """
Texture2D<half4> th : register(t0);
Texture2D<uint16_t2> tu : register(t1);
Texture2D<half> t1 : register(t2);
SamplerState s : register(s0);
RWTexture2D<half4> wh : register(u0);
RWTexture2D<int16_t2> wi : register(u1);
RWStructuredBuffer<float4> o : register(u2);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    int3 p = int3(i % 6, i / 6, 0);
    half4 h = th.Load(p);
    o[i * 3] = h;
    o[i * 3 + 1] = float4(tu.Load(p), t1.Load(p), 0);
    o[i * 3 + 2] = th.SampleLevel(s, (p.xy + 0.3) / float2(6, 5), 0);
    wh[p.xy] = h.wzyx * 3;
    wi[p.xy] = int16_t2(i * 1000, -(int)i);
}
"""
    rng = np.random.default_rng(1)
    resources = {"th": rng.uniform(-70000, 70000, (5, 6, 4)).astype(np.float32),
                 "tu": rng.integers(0, 2**32, (5, 6, 2), dtype=np.uint32), "t1": rng.random((5, 6)).astype(np.float16),
                 "s": shc.Sampler("linear"), "wh": np.zeros((5, 6, 4), np.float16), "wi": np.zeros((5, 6, 2), np.int16),
                 "o": np.zeros((96, 4), np.float32)}
    problems, ran = _disagreements(source, resources, 32)
    assert np.isinf(ran["o"]).any() and (ran["wi"] < 0).any()
    assert problems == []
