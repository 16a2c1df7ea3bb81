"""Binding NumPy arrays and Python values to a kernel's slots: validation, layouts, conversions.

These run without the host code generator: kernels are compiled through the real
front and middle end, with a stand-in host module (``hand_kernels.fake_host``).
"""

from __future__ import annotations

import os
import struct
import sys

import numpy as np
import pytest

import shc
from shc.compiler.frontend import hlsl_types as T
from shc.runtime import jit
from shc.runtime import kernel as kernel_module
from shc.compiler.machine.abi import META_ABSENT_CHANNELS, META_FIELDS, META_INTS, META_TEXEL_FORMAT, ResourceKind
from shc.runtime.layout import BindingError, numpy_dtype
from shc.runtime.resources import Sampler, bind
from shc.runtime.textures import bind_texture

sys.path.insert(0, os.path.dirname(__file__))
import hand_kernels  # noqa: E402

SOURCE = r"""
struct S { float x; uint2 y; };
cbuffer Params : register(b0) { float a; float3 b; float c; int2 d; float e[2]; S s; float unused; };
float scale;
StructuredBuffer<S> items;
RWStructuredBuffer<float4> out4;
Texture2D<float4> tex;
RWTexture2D<float> rw;
SamplerState lin;
ByteAddressBuffer raw;
Texture2D<float> arr[3];
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    S it = items[id.x];
    float4 t = tex.SampleLevel(lin, float2(0.5, 0.5), 0);
    out4[id.x] = float4(a, b.y, c + e[id.x & 1] + s.x + d.x, scale) + t + it.x + arr[id.x % 3].Load(int3(0, 0, 0));
    rw[uint2(id.x, 0)] = raw.Load(id.x * 4);
}
"""


@pytest.fixture(scope="module")
def kernel(tmp_path_factory):
    """SOURCE compiled with a do-nothing host module, in a private cache."""
    patch = pytest.MonkeyPatch()
    cache = tmp_path_factory.mktemp("fake-kernels")
    patch.setattr(kernel_module, "_build_host", hand_kernels.fake_host)
    patch.setattr(jit, "default_cache_dir", lambda: cache)
    try:
        return shc.compile(SOURCE)
    finally:
        patch.undo()  # the compiled-HLSL tests below need the real code generator


def arguments(kernel):
    item = np.zeros(8, kernel.bindings["items"].dtype)
    return dict(
        a=1.0, b=(2.0, 3.0, 4.0), c=5.0, d=(6, -7), e=[8.0, 9.0], s={"x": 10.0, "y": (11, 12)}, scale=0.5,
        items=item, out4=np.zeros((64, 4), np.float32), tex=np.zeros((4, 4, 4), np.float32),
        rw=np.zeros((1, 64), np.float32), lin=Sampler("linear", "wrap"), raw=np.zeros(64, np.uint32),
        arr=[np.zeros((2, 2), np.float32) for _ in range(3)],
    )


def meta(table, slot: int, name: str) -> int:
    return int(table.meta[slot * META_INTS + META_FIELDS.index(name)])


def test_bindings_describe_each_resource(kernel):
    names = kernel.bindings.names()
    assert names == ["$Globals", "Params", "items", "out4", "tex", "rw", "lin", "raw", "arr"]
    out4 = kernel.bindings["out4"]
    assert (out4.kind, str(out4.element), out4.register, out4.space) == ("RWStructuredBuffer", "float4", "u0", 0)
    assert kernel.bindings["arr"].count == 3
    assert str(kernel.bindings["items"]) == "StructuredBuffer<S> items : register(t0)"
    assert out4.dtype == np.dtype((np.float32, (4,)))


def test_struct_dtype_follows_the_tight_layout():
    struct = T.StructType("P", (("h", T.HALF), ("f", T.FLOAT), ("v", T.VectorType(T.HALF, 3)), ("u", T.UINT16)))
    dtype = numpy_dtype(struct)
    assert [dtype.fields[name][1] for name in ("h", "f", "v", "u")] == [0, 4, 8, 14]
    assert dtype.itemsize == 16


def test_cbuffer_members_are_packed_at_hlsl_offsets(kernel):
    table = bind(kernel.info, arguments(kernel))
    params = table.slot_bytes(kernel.info.slots["Params"])
    assert len(params) == 96
    floats = lambda offset, n: struct.unpack_from(f"<{n}f", params, offset)  # noqa: E731
    assert floats(0, 4) == (1.0, 2.0, 3.0, 4.0)  # a, then b packed into the same row
    assert floats(16, 1) == (5.0,) and struct.unpack_from("<2i", params, 20) == (6, -7)
    assert floats(32, 1) == (8.0,) and floats(48, 1) == (9.0,)  # array elements a row apart
    assert floats(64, 1) == (10.0,) and struct.unpack_from("<2I", params, 68) == (11, 12)
    assert struct.unpack_from("<f", table.slot_bytes(kernel.info.slots["$Globals"]))[0] == 0.5
    assert meta(table, kernel.info.slots["Params"], "kind") == ResourceKind.CBUFFER


def test_a_whole_cbuffer_by_name(kernel):
    values = arguments(kernel)
    for name in ("a", "b", "c", "d", "e", "s"):
        del values[name]
    values["Params"] = {"a": 1.0, "b": (0, 0, 0), "c": 2.0, "d": (0, 0), "e": [0, 0], "s": (3.0, (0, 0))}
    params = bind(kernel.info, values).slot_bytes(kernel.info.slots["Params"])
    assert struct.unpack_from("<f", params, 16)[0] == 2.0 and struct.unpack_from("<f", params, 64)[0] == 3.0
    values["Params"] = bytes(range(96))
    assert bind(kernel.info, values).slot_bytes(kernel.info.slots["Params"]) == bytes(range(96))


def test_unread_members_may_be_left_out_but_read_ones_may_not(kernel):
    values = arguments(kernel)
    bind(kernel.info, values)  # 'unused' was never given
    del values["c"]
    with pytest.raises(BindingError, match=r"missing constant 'c' \(float, in cbuffer 'Params'\)"):
        bind(kernel.info, values)


@pytest.mark.parametrize("name, value, message", [
    ("b", (1.0, 2.0), r"'b' is float3: expected shape \(3,\), got shape \(2,\)"),
    ("d", (1.5, 2), r"'d' is int2: expected integers"),
    ("e", [1.0], r"'e' is float\[2\]: expected 2 elements, got 1"),
    ("s", {"x": 1.0}, r"'s' is struct S \(x, y\): missing y"),
    ("a", "one", r"'a' is float"),
])
def test_bad_constants_are_named(kernel, name, value, message):
    values = arguments(kernel)
    values[name] = value
    with pytest.raises(BindingError, match=message):
        bind(kernel.info, values)


def test_missing_resource_names_it_and_what_is_expected(kernel):
    values = arguments(kernel)
    del values["out4"]
    with pytest.raises(BindingError, match=r"missing resource 'out4' \(RWStructuredBuffer<float4> at u0\): "
                                           r"pass out4=a float32 array of shape \(N, 4\)"):
        bind(kernel.info, values)


@pytest.mark.parametrize("name, value, message", [
    ("out4", np.zeros((64, 4), np.float64), r"'out4' \(RWStructuredBuffer<float4> at u0\): expected float32 "
                                            r"elements, got float64"),
    ("out4", np.zeros((64, 3), np.float32), r"expected shape \(N, 4\) \(the float4 components as the last axis\)"),
    ("items", np.zeros(8, np.float32), r"expected a structured array of dtype .*Kernel.bindings\['items'\].dtype"),
    ("raw", np.zeros(8, np.float32), r"'raw' \(ByteAddressBuffer at t2\): expected a uint32 or uint8 array"),
    ("lin", "linear", r"'lin' \(SamplerState at s0\): expected shc.Sampler"),
    ("arr", [np.zeros((2, 2), np.float32)] * 2, r"'arr' is a resource array of 3: got a list of 2"),
    ("tex", np.zeros((4, 4, 5), np.float32), r"texture 'tex' \(Texture2D\): expected an array of shape \(H, W, C\)"),
    ("tex", np.zeros((4, 4, 4), np.uint32), r"a float texture is float32, float16, uint8 \(UNORM\)"),
    ("out4", [np.zeros((64, 4), np.float32)], r"'out4' is one RWStructuredBuffer, not a resource array"),
])
def test_wrong_arrays_are_named(kernel, name, value, message):
    values = arguments(kernel)
    values[name] = value
    with pytest.raises(BindingError, match=message):
        bind(kernel.info, values)


def test_read_only_array_for_a_uav(kernel):
    values = arguments(kernel)
    values["out4"].flags.writeable = False
    with pytest.raises(BindingError, match="written by the kernel: the array is read-only"):
        bind(kernel.info, values)


def test_unknown_names_are_typos(kernel):
    values = arguments(kernel)
    values["out"] = np.zeros(4, np.float32)
    with pytest.raises(BindingError, match=r"no resource or constant named 'out' \(it binds: .*out4"):
        bind(kernel.info, values)


def test_declared_but_unused_names_are_accepted(kernel):
    values = arguments(kernel)
    values["unused"] = 3.0
    bind(kernel.info, values)


def test_buffers_are_used_in_place_unless_they_cannot_be(kernel):
    values = arguments(kernel)
    table = bind(kernel.info, values)
    assert int(table.pointers[kernel.info.slots["out4"]]) == values["out4"].ctypes.data
    strided = np.zeros((128, 4), np.float32)[::2]
    values["out4"] = strided
    table = bind(kernel.info, values)
    assert int(table.pointers[kernel.info.slots["out4"]]) != strided.ctypes.data
    assert table.copies_back and table.copies_back[0][0] is strided


def test_buffer_meta_gives_stride_and_count(kernel):
    table = bind(kernel.info, arguments(kernel))
    items = kernel.info.slots["items"]
    assert (meta(table, items, "kind"), meta(table, items, "stride"), meta(table, items, "width")) == \
        (ResourceKind.BUFFER, 12, 8)
    raw = kernel.info.slots["raw"]
    assert meta(table, raw, "kind") == ResourceKind.BYTE_ADDRESS and table.sizes[raw] == 256


def test_sampler_slot_holds_its_border_and_modes(kernel):
    values = arguments(kernel)
    values["lin"] = Sampler(filter="linear", address="border", border=(1, 0.5, 0, 1))
    table = bind(kernel.info, values)
    slot = kernel.info.slots["lin"]
    assert struct.unpack("<4f", table.slot_bytes(slot)) == (1.0, 0.5, 0.0, 1.0)
    assert (meta(table, slot, "filter"), meta(table, slot, "address")) == (1, 3)
    with pytest.raises(ValueError, match="filter must be one of point, linear"):
        Sampler(filter="cubic")
    with pytest.raises(ValueError, match="address must be one of clamp, wrap, mirror, border"):
        Sampler(address="repeat")


def test_texture_slots_and_mip_offsets(kernel):
    values = arguments(kernel)
    values["tex"] = [np.zeros((8, 4, 4), np.float32), np.zeros((4, 2, 4), np.float32), np.zeros((2, 1, 4), np.float32)]
    table = bind(kernel.info, values)
    slot = kernel.info.slots["tex"]
    assert [meta(table, slot, name) for name in ("kind", "stride", "width", "height", "depth", "mips")] == \
        [ResourceKind.TEXTURE, 16, 4, 8, 1, 3]
    start = meta(table, slot, "mip_offsets")
    assert list(table.meta[start:start + 3]) == [0, 32, 40]
    assert table.sizes[slot] == (32 + 8 + 2) * 16
    values["tex"] = [np.zeros((8, 4, 4), np.float32), np.zeros((4, 4, 4), np.float32)]
    with pytest.raises(BindingError, match=r"mip 1 should be float32 of shape \(4, 2, 4\)"):
        bind(kernel.info, values)


def test_texture_slots_carry_what_a_store_converts_through(kernel):
    """META_TEXEL_FORMAT: the one-channel gfx10 format of an 8/16-bit array (0 for 32-bit), and
    META_ABSENT_CHANNELS: the channels the array lacks; the JIT's stores round through them."""
    values = arguments(kernel)
    table = bind(kernel.info, values)
    for name, expected in (("rw", (0, 3)), ("tex", (0, 0))):  # (1, 64) float32, (4, 4, 4) float32
        slot = kernel.info.slots[name]
        assert (table.meta[slot * META_INTS + META_TEXEL_FORMAT], table.meta[slot * META_INTS + META_ABSENT_CHANNELS]) \
            == expected
    formats = {np.uint8: 1, np.float16: 13, np.uint16: 7}  # 8_UNORM, 16_FLOAT, 16_UNORM
    for dtype, number in formats.items():
        values["rw"] = np.zeros((1, 64, 2), dtype)
        slot = kernel.info.slots["rw"]
        table = bind(kernel.info, values)
        assert table.meta[slot * META_INTS + META_TEXEL_FORMAT] == number
        assert table.meta[slot * META_INTS + META_ABSENT_CHANNELS] == 2


def test_resource_array_elements_get_consecutive_slots(kernel):
    values = arguments(kernel)
    values["arr"] = [np.full((2, 2), i, np.float32) for i in range(2)] + [None]
    table = bind(kernel.info, values)
    first = kernel.info.slots["arr"]
    texels = np.frombuffer(table.slot_bytes(first + 1), np.float32).reshape(-1, 4)
    assert np.array_equal(texels, np.tile([1, 0, 0, 1], (4, 1)))
    assert table.sizes[first + 2] == 0


# -- texture formats --------------------------------------------------------------------


def test_unorm8_is_scaled_and_missing_channels_are_0001():
    image = np.array([[[0, 255], [128, 1]]], np.uint8)  # (1, 2, 2): two channels
    texture = bind_texture("t", "Texture2D", T.VectorType(T.FLOAT, 4), image)
    assert texture.texels.dtype == np.float32 and texture.texels.shape == (2, 4)
    assert np.allclose(texture.texels, [[0, 1, 0, 1], [128 / 255, 1 / 255, 0, 1]])


def test_writes_go_back_in_the_callers_format():
    image = np.zeros((1, 4, 1), np.uint8)
    texture = bind_texture("t", "RWTexture2D", T.FLOAT, image)
    texture.texels[:, 0] = [0.5, 1.7, -3.0, np.nan]
    texture.write_back()
    assert image[0, :, 0].tolist() == [128, 255, 0, 0]
    half = np.zeros((2, 2), np.float16)
    texture = bind_texture("h", "RWTexture2D", T.HALF, half)
    texture.texels[:, 0] = [1 + 2 ** -11, 1 + 3 * 2 ** -11, 65520.0, 1 / 3]
    texture.write_back()
    assert half.ravel().tolist() == [1.0, 1 + 2 ** -9, np.inf, np.float16(1 / 3)]


def test_integer_textures_keep_integers_and_saturate_narrow_formats():
    image = np.array([[[1, 2], [250, 3]]], np.uint8)
    texture = bind_texture("t", "RWTexture2D", T.VectorType(T.UINT, 2), image)
    assert texture.texels.dtype == np.uint32 and texture.texels[1].tolist() == [250, 3, 0, 1]
    texture.texels[0, :2] = [300, 7]
    texture.write_back()
    assert image[0, 0].tolist() == [255, 7]


def test_float32_rgba_is_used_in_place():
    image = np.zeros((4, 4, 4), np.float32)
    texture = bind_texture("t", "RWTexture2D", T.VectorType(T.FLOAT, 4), image)
    assert texture.texels.ctypes.data == image.ctypes.data and texture.source is None


def test_array_and_cube_shapes():
    array = bind_texture("a", "Texture2DArray", T.FLOAT, np.zeros((3, 4, 8, 1), np.float32))
    assert (array.width, array.height, array.depth) == (8, 4, 3)
    cube = bind_texture("c", "TextureCube", T.FLOAT, np.zeros((6, 4, 4), np.float32))
    assert cube.depth == 6
    with pytest.raises(BindingError, match=r"a cube is \(6, H, W, C\), got 5 faces"):
        bind_texture("c", "TextureCube", T.FLOAT, np.zeros((5, 4, 4), np.float32))
    with pytest.raises(BindingError, match="a writable texture has one level"):
        bind_texture("w", "RWTexture2D", T.FLOAT, [np.zeros((2, 2), np.float32)] * 2)


# -- compiled HLSL (runs once the host code generator exists) ------------------------------


@pytest.fixture
def kernel_cache(tmp_path_factory, monkeypatch):
    directory = tmp_path_factory.getbasetemp() / "resource-kernels"
    monkeypatch.setattr(jit, "default_cache_dir", lambda: directory)
    return directory


def reference_sample(image: np.ndarray, uv: np.ndarray, sampler: Sampler) -> np.ndarray:
    """D3D SampleLevel on mip 0: texel centres at (i + 0.5) / size, then the address mode."""
    height, width, _ = image.shape

    def fetch(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        out = np.empty((len(x), 4), np.float64)
        inside = np.ones(len(x), bool)
        coords = []
        for value, size in ((x, width), (y, height)):
            if sampler.address == "clamp":
                value = np.clip(value, 0, size - 1)
            elif sampler.address == "wrap":
                value = np.mod(value, size)
            elif sampler.address == "mirror":
                value = np.mod(value, 2 * size)
                value = np.where(value >= size, 2 * size - 1 - value, value)
            else:
                inside &= (value >= 0) & (value < size)
                value = np.clip(value, 0, size - 1)
            coords.append(value)
        out[:] = image[coords[1], coords[0]]
        out[~inside] = sampler.border
        return out

    u = uv[:, 0].astype(np.float64) * width
    v = uv[:, 1].astype(np.float64) * height
    if sampler.filter == "point":
        return fetch(np.floor(u).astype(np.int64), np.floor(v).astype(np.int64))
    x, y = u - 0.5, v - 0.5
    x0, y0 = np.floor(x).astype(np.int64), np.floor(y).astype(np.int64)
    fx, fy = (x - x0)[:, None], (y - y0)[:, None]
    top = fetch(x0, y0) * (1 - fx) + fetch(x0 + 1, y0) * fx
    bottom = fetch(x0, y0 + 1) * (1 - fx) + fetch(x0 + 1, y0 + 1) * fx
    return top * (1 - fy) + bottom * fy


SAMPLE = """
Texture2D<float4> tex; SamplerState s; StructuredBuffer<float2> uv; RWStructuredBuffer<float4> dst;
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = tex.SampleLevel(s, uv[id.x], 0); }
"""


@pytest.mark.parametrize("filter", ["point", "linear"])
@pytest.mark.parametrize("address", ["clamp", "wrap", "mirror", "border"])
def test_sample_level_filters_and_address_modes(kernel_cache, filter, address):
    kernel = shc.compile(SAMPLE)
    rng = np.random.default_rng(3)
    image = rng.random((5, 7, 4)).astype(np.float32)
    uv = rng.uniform(-1.5, 2.5, (128, 2)).astype(np.float32)
    sampler = Sampler(filter=filter, address=address)  # border: transparent black
    dst = np.zeros((128, 4), np.float32)
    kernel.dispatch((2, 1, 1), tex=image, s=sampler, uv=uv, dst=dst)
    assert np.allclose(dst, reference_sample(image, uv, sampler), atol=2e-5)


def test_sampler_border_color(kernel_cache):
    kernel = shc.compile(SAMPLE)
    image = np.ones((4, 4, 4), np.float32)
    uv = np.tile(np.array([[-0.5, 0.5], [0.5, 0.5]], np.float32), (32, 1))
    sampler = Sampler(filter="point", address="border", border=(0.25, 0.5, 0.75, 1.0))
    dst = np.zeros((64, 4), np.float32)
    kernel.dispatch((1, 1, 1), tex=image, s=sampler, uv=uv, dst=dst)
    assert np.allclose(dst[0::2], [0.25, 0.5, 0.75, 1.0]) and np.allclose(dst[1::2], 1.0)


def test_texture_formats_loads_mips_and_dimensions(kernel_cache):
    source = """
    Texture2D<float4> rgba8; Texture2D<float4> halfs; Texture2D<uint> ids; Texture2DArray<float> layers;
    RWStructuredBuffer<float4> dst; RWStructuredBuffer<uint4> dims;
    [numthreads(16, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        uint x = id.x % 4, y = id.x / 4;
        dst[id.x] = rgba8.Load(int3(x, y, 0)) + halfs[uint2(x, y)] + ids.Load(int3(x / 2, y / 2, 1))
                    + layers.Load(int4(x, y, 2, 0));
        uint w, h, levels;
        rgba8.GetDimensions(1, w, h, levels);
        dims[id.x] = uint4(w, h, levels, 0);
    }
    """
    kernel = shc.compile(source)
    rng = np.random.default_rng(4)
    unorm = rng.integers(0, 256, (4, 4, 4)).astype(np.uint8)
    unorm_mips = [unorm, np.zeros((2, 2, 4), np.uint8), np.zeros((1, 1, 4), np.uint8)]
    halfs = rng.random((4, 4, 3)).astype(np.float16)
    ids = [np.zeros((4, 4), np.uint32), rng.integers(0, 1000, (2, 2)).astype(np.uint32)]
    layers = rng.random((3, 4, 4)).astype(np.float32)
    dst = np.zeros((16, 4), np.float32)
    dims = np.zeros((16, 4), np.uint32)
    kernel.dispatch((1, 1, 1), rgba8=unorm_mips, halfs=halfs, ids=ids, layers=layers, dst=dst, dims=dims)
    y, x = np.divmod(np.arange(16), 4)
    expected = unorm[y, x] / 255.0
    expected[:, :3] += halfs[y, x]
    expected[:, 3] += 1.0  # a 3-channel texture reads alpha 1
    expected[:, 0] += ids[1][y // 2, x // 2]  # a scalar load of a 1-channel texture, splatted to x
    expected[:, 1:] += ids[1][y // 2, x // 2][:, None]
    expected[:, 0] += layers[2, y, x]
    expected[:, 1:] += layers[2, y, x][:, None]
    assert np.allclose(dst, expected, atol=1e-6)
    assert dims.tolist() == [[2, 2, 3, 0]] * 16


def test_rw_texture_writes_round_to_the_callers_format(kernel_cache):
    source = """
    RWTexture2D<float4> rgba8; RWTexture2D<float> r16f;
    [numthreads(8, 8, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        float value = (id.x + 8 * id.y) / 63.0;
        rgba8[id.xy] = float4(value, 1.0 - value, 2.0, -1.0);
        r16f[id.xy] = value * 1000.0;
    }
    """
    kernel = shc.compile(source)
    rgba8 = np.zeros((8, 8, 4), np.uint8)
    r16f = np.zeros((8, 8), np.float16)
    kernel.dispatch((1, 1, 1), rgba8=rgba8, r16f=r16f)
    value = (np.arange(64, dtype=np.float32) / np.float32(63.0)).reshape(8, 8)
    assert np.array_equal(rgba8[..., 0], np.rint(value * 255).astype(np.uint8))
    assert np.all(rgba8[..., 2] == 255) and np.all(rgba8[..., 3] == 0)
    assert np.array_equal(r16f, (value * np.float32(1000.0)).astype(np.float16))


STRUCTS = """
struct Light { float3 position; float radius; uint2 flags; half intensity; };
cbuffer Scene { Light sun; float4 tint; uint count; float weights[3]; };
StructuredBuffer<Light> lights;
RWStructuredBuffer<Light> moved;
[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Light light = lights[id.x];
    light.position += sun.position * tint.xyz;
    light.radius = light.radius * weights[id.x % 3] + sun.radius;
    light.flags = uint2(light.flags.y, count);
    light.intensity = light.intensity * sun.intensity;
    moved[id.x] = light;
}
"""


def test_structs_in_cbuffers_and_structured_buffers(kernel_cache):
    kernel = shc.compile(STRUCTS)
    dtype = kernel.bindings["lights"].dtype
    assert dtype.itemsize == 28 and dtype.fields["intensity"][1] == 24
    lights = np.zeros(32, dtype)
    rng = np.random.default_rng(6)
    lights["position"] = rng.integers(-4, 4, (32, 3))
    lights["radius"] = rng.integers(1, 8, 32)
    lights["flags"] = rng.integers(0, 100, (32, 2))
    lights["intensity"] = rng.integers(1, 4, 32)
    moved = np.zeros(32, dtype)
    sun = {"position": (1.0, 2.0, 3.0), "radius": 0.5, "flags": (0, 0), "intensity": 2.0}
    kernel.dispatch((1, 1, 1), lights=lights, moved=moved, sun=sun, tint=(2.0, 1.0, 0.5, 0.0), count=77,
                    weights=[1.0, 2.0, 4.0])
    assert np.array_equal(moved["position"], lights["position"] + np.array([2.0, 2.0, 1.5], np.float32))
    assert np.array_equal(moved["radius"], lights["radius"] * np.array([1, 2, 4] * 11)[:32] + 0.5)
    assert np.array_equal(moved["flags"][:, 0], lights["flags"][:, 1]) and np.all(moved["flags"][:, 1] == 77)
    assert np.array_equal(moved["intensity"], lights["intensity"] * np.float16(2))


def test_matrices_in_cbuffers_and_structured_buffers(kernel_cache):
    source = """
    cbuffer Transform { float3x4 m; };
    StructuredBuffer<float2x2> pairs; StructuredBuffer<float4> points; RWStructuredBuffer<float3> dst;
    [numthreads(16, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        float2x2 p = pairs[id.x];
        dst[id.x] = mul(m, points[id.x]) + float3(p[0][1], p[1][0], 0);
    }
    """
    kernel = shc.compile(source)
    m = np.arange(12, dtype=np.float32).reshape(3, 4)
    pairs = np.arange(64, dtype=np.float32).reshape(16, 2, 2)
    points = np.random.default_rng(8).integers(-3, 3, (16, 4)).astype(np.float32)
    dst = np.zeros((16, 3), np.float32)
    kernel.dispatch((1, 1, 1), m=m, pairs=pairs, points=points, dst=dst)
    expected = points @ m.T
    expected[:, 0] += pairs[:, 0, 1]
    expected[:, 1] += pairs[:, 1, 0]
    assert np.allclose(dst, expected)


def test_cbuffer_matrices_of_either_orientation(kernel_cache):
    source = """
    cbuffer Transform { float k; row_major float3x4 r; float4x3 c; float2 tail; };
    StructuredBuffer<float4> points; RWStructuredBuffer<float4> dst;
    [numthreads(8, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        float3 a = mul(r, points[id.x]);
        dst[id.x] = mul(c, a) * k + float4(tail, r[2][3], c[3][0]);
    }
    """
    kernel = shc.compile(source)
    layout = kernel.info.cbuffers["Transform"]
    assert [(f.name, f.offset) for f in layout.fields] == [("k", 0), ("r", 16), ("c", 64), ("tail", 112)]
    assert layout.size == 128
    r = np.arange(12, dtype=np.float32).reshape(3, 4) - 5
    c = np.arange(12, dtype=np.float32).reshape(4, 3) * 0.5
    points = np.random.default_rng(9).integers(-3, 3, (8, 4)).astype(np.float32)
    dst = np.zeros((8, 4), np.float32)
    kernel.dispatch((1, 1, 1), k=2.0, r=r, c=c, tail=(7.0, 8.0), points=points, dst=dst)
    expected = (points @ r.T) @ c.T * 2 + np.array([7, 8, r[2, 3], c[3, 0]], np.float32)
    assert np.allclose(dst, expected)
    raw = np.frombuffer(bind(kernel.info, dict(k=2.0, r=r, c=c, tail=(7.0, 8.0), points=points, dst=dst))
                        .slot_bytes(kernel.info.slots["Transform"]), np.float32)
    assert np.array_equal(raw[4:16].reshape(3, 4), r)  # row_major: a row per 16-byte row
    assert np.array_equal(raw[16:28].reshape(3, 4), c.T)  # column_major: a column (4 floats) per row


def test_struct_matrix_fields_of_either_orientation(kernel_cache):
    source = """
    struct Body { float2x3 c; float w; row_major float3x2 r; float2x2 s[2]; };
    RWStructuredBuffer<Body> bodies; StructuredBuffer<float2x3> extra;
    cbuffer Params { Body base; };
    [numthreads(16, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        Body b = bodies[id.x];
        b.c = b.c * b.w + extra[id.x] + base.c;
        b.r = transpose(b.c) + b.r + base.r;
        b.s[1] = mul(b.s[0], b.s[1]) + base.s[1];
        b.w = b.c[1][0] + b.r[2][1];
        bodies[id.x] = b;
    }
    """
    kernel = shc.compile(source)
    dtype = kernel.bindings["bodies"].dtype
    assert dtype.fields["r"][0].shape == (3, 2) and dtype.fields["c"][0].shape == (2, 3)
    rng = np.random.default_rng(10)
    bodies = np.zeros(16, dtype)
    for name in ("c", "w", "r", "s"):
        bodies[name] = rng.integers(-4, 5, bodies[name].shape)
    extra = rng.integers(-4, 5, (16, 2, 3)).astype(np.float32)
    base = {"c": rng.integers(-4, 5, (2, 3)), "w": 0.0, "r": rng.integers(-4, 5, (3, 2)),
            "s": rng.integers(-4, 5, (2, 2, 2))}
    before = bodies.copy()
    kernel.dispatch((1, 1, 1), bodies=bodies, extra=extra, base=base)
    c = before["c"] * before["w"][:, None, None] + extra + base["c"]
    r = c.transpose(0, 2, 1) + before["r"] + base["r"]
    assert np.array_equal(bodies["c"], c)
    assert np.array_equal(bodies["r"], r)
    assert np.array_equal(bodies["s"][:, 0], before["s"][:, 0])
    assert np.array_equal(bodies["s"][:, 1], before["s"][:, 0] @ before["s"][:, 1] + base["s"][1])
    assert np.array_equal(bodies["w"], c[:, 1, 0] + r[:, 2, 1])


def test_an_array_bound_twice_is_converted_once(kernel):
    values = arguments(kernel)
    shared = np.zeros((2, 2), np.float16)
    values["arr"] = [shared, shared, np.zeros((2, 2), np.float32)]
    table = bind(kernel.info, values)
    first = kernel.info.slots["arr"]
    assert table.pointers[first] == table.pointers[first + 1] != table.pointers[first + 2]
    strided = np.zeros(16, np.uint32)[::2]
    values["raw"] = strided
    table = bind(kernel.info, values)
    assert len([1 for target, _ in table.copies_back if target is strided]) == 0  # raw is read-only
