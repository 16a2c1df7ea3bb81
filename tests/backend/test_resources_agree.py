"""Raw-buffer and counter resources in three executors: the IR interpreter (the reference), the
host JIT and the RDNA2 listing simulator compute the same buffers, bit for bit, at wave32 and
wave64, and the listing assembles with llvm-mc.

``Load<T>``/``Store<T>`` on byte-address buffers (16-, 32- and 64-bit scalars, vectors, odd
16-bit vectors, bools, structs, matrices), SM 6.6's 64-bit ``Interlocked*64``, hidden counters
(``IncrementCounter``/``DecrementCounter``, ``Append``/``Consume``) and ``tex.mips[l][p]`` read
as ``Load``. Each kernel runs as one group of one wave. Some expectations are also checked by
value against NumPy (``test_*_values``).
"""

from __future__ import annotations

import shutil
import subprocess
import textwrap

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

RAW = "RWByteAddressBuffer b : register(u0);\n"
WORDS = 64 * 32  # 8 KiB of raw buffer


def _raw(words: int = WORDS) -> np.ndarray:
    """A recognisable, irregular pattern (every byte differs from its neighbours)."""
    return (np.arange(words, dtype=np.uint64) * 2654435761 % 2**32).astype(np.uint32)


KERNELS = {
    # Load<T>/Store<T> of 32-bit vectors and 16-bit scalars and pairs at 2-byte-aligned addresses
    "templated_load_store_scalars_vectors": (RAW, """
        float2 v = b.Load<float2>(tid * 8);
        b.Store<float2>(1024 + tid * 8, v.yx);
        half h = b.Load<half>(tid * 2 + 2);
        b.Store<half>(512 + tid * 2, h);
        uint16_t2 p = b.Load<uint16_t2>(tid * 4 + 2);
        b.Store<uint16_t2>(768 + tid * 4, p.yx);
        uint64_t w = b.Load<uint64_t>(tid * 8);
        b.Store<uint64_t>(1536 + tid * 8, w);
    """, {"b": _raw}),
    # 6-byte vectors write 6 bytes (not 8), bools are 32-bit words, doubles 8 bytes
    "templated_odd_16bit_vectors_bools_doubles": (RAW, """
        half3 h = b.Load<half3>(tid * 6);
        b.Store<half3>(1024 + tid * 6, h.zxy);
        bool2 c = b.Load<bool2>(tid * 8);
        b.Store<bool2>(2048 + tid * 8, c);
        double d = b.Load<double>(tid * 8);
        b.Store<double>(3072 + tid * 8, d);
        int16_t3 i = b.Load<int16_t3>(tid * 6 + 2);
        b.Store<int16_t3>(4096 + tid * 6, i);
    """, {"b": _raw}),
    # a struct in the structured-buffer layout, a column_major matrix
    "templated_structs_and_matrices": (RAW + "struct S { float a; uint2 c; };\n", """
        S s = b.Load<S>(tid * 12);
        s.c = s.c.yx;
        b.Store<S>(2048 + tid * 12, s);
        float2x2 m = b.Load<float2x2>(tid * 4);
        b.Store<float2x2>(2048 + 64 * 12 + tid * 16, transpose(m));
    """, {"b": _raw}),
    # SM 6.6 64-bit atomics: signed and unsigned min/max, returned originals
    "interlocked_64": (RAW, """
        uint64_t v = b.Load<uint64_t>(4096 + tid * 8);
        int64_t s = b.Load<int64_t>(4096 + (tid ^ 5) * 8);
        uint64_t orig;
        b.InterlockedAdd64(0, v, orig);
        b.Store<uint64_t>(1024 + tid * 8, orig);
        int64_t o2;
        b.InterlockedMin64(8 + (tid & 3) * 8, s, o2);
        b.Store<int64_t>(1536 + tid * 8, o2);
        b.InterlockedMax64(40, s);
        b.InterlockedMin64(48, v);
        b.InterlockedOr64(56, v);
        b.InterlockedXor64(64, v);
        b.InterlockedAnd64(72, v);
        uint64_t o3;
        b.InterlockedExchange64(80, v, o3);
        b.Store<uint64_t>(2048 + tid * 8, o3);
        uint64_t o4;
        b.InterlockedCompareExchange64(88 + (tid & 1) * 8, b.Load<uint64_t>(88), v, o4);
        b.Store<uint64_t>(3072 + tid * 8, o4);
        b.InterlockedCompareStore64(104, b.Load<uint64_t>(104), v);
    """, {"b": _raw}),
    # 32-bit Min/Max with an int value compare signed (DXC's int overloads), with a uint unsigned
    "interlocked_32_signedness": (RAW, """
        int s = (int)b.Load(4096 + tid * 4);
        int before;
        b.InterlockedMin(0, s, before);
        b.Store(1024 + tid * 4, (uint)before);
        b.InterlockedMax(4, s);
        b.InterlockedMin(8, (uint)s);
        b.InterlockedMax(12, (uint)s);
    """, {"b": _raw}),
    # atomics on an RW texture's texels: image_atomic_* in the listing, returning and not
    "texture_atomics": (RAW + "RWTexture2D<uint> img : register(u1);\n", """
        uint2 p = uint2(tid & 7, (tid >> 3) & 7);
        uint before;
        InterlockedMin(img[p], tid * 3, before);
        b.Store(tid * 4, before);
        InterlockedAdd(img[uint2(0, 0)], 1);
        InterlockedMax(img[p ^ 1], tid);
        uint swapped;
        InterlockedCompareExchange(img[uint2(7, 7)], tid + 300, tid, swapped);
        b.Store(1024 + tid * 4, swapped);
        InterlockedXor(img[uint2(3, tid & 7)], 1u << (tid & 31));
    """, {"b": _raw, "img": lambda: (np.arange(64, dtype=np.uint32) * 7919 % 1000).reshape(8, 8)}),
    # hidden counters: IncrementCounter/DecrementCounter, Append of a struct, Consume
    "counters_append_consume": ("""
        struct P { float2 xy; uint id; };
        RWStructuredBuffer<uint> o : register(u0);
        AppendStructuredBuffer<P> app : register(u1);
        ConsumeStructuredBuffer<uint> con : register(u2);
    """, """
        uint i = o.IncrementCounter();
        o[i & 63] = tid + 100;
        if (tid % 3 == 0) { P p; p.xy = float2(tid, i); p.id = tid; app.Append(p); }
        uint d = o.DecrementCounter();
        o[64 + tid] = con.Consume() * 1000 + d;
    """, {"o": lambda: np.zeros(128, np.uint32), "o_counter": lambda: np.array([3], np.uint32),
          "app": lambda: np.zeros(16 * 3, np.uint32), "app_counter": lambda: np.array([2], np.uint32),
          "con": lambda: np.arange(100, dtype=np.uint32) * 7 + 1, "con_counter": lambda: np.array([90], np.uint32)}),
}


def _source(header: str, body: str, wave: int) -> str:
    return (textwrap.dedent(header) + f"[numthreads({wave}, 1, 1)]\nvoid main(uint tid : SV_GroupIndex) {{\n"
            + textwrap.indent(textwrap.dedent(body), "    ") + "\n}\n")


def _words(array) -> np.ndarray:
    return np.asarray(array).reshape(-1).view(np.uint32)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_interpreter_jit_and_listing_agree(name, wave):
    header, body, buffers = KERNELS[name]
    source = _source(header, body, wave)
    initial = {key: make() for key, make in buffers.items()}

    module = compile_source(source, f"{name}.hlsl", Options(wave_size=wave), Diagnostics())
    reference = run_wave(module, buffers={key: value.copy() for key, value in initial.items()})

    jit = {key: value.copy() for key, value in initial.items()}
    kernel = shc.compile(source, wave_size=wave)
    if "app" in jit:  # the JIT binds a structured buffer of structs as its structured dtype
        jit["app"] = jit["app"].view(kernel.bindings["app"].dtype)
    kernel.dispatch((1, 1, 1), **jit)

    function = select(module)
    allocate(function)
    listing = simulate(function, module, buffers={key: value.copy() for key, value in initial.items()})

    changed = 0
    for key in initial:
        expected = _words(reference.buffers[key])
        changed += np.count_nonzero(expected != _words(initial[key]))
        assert np.array_equal(_words(jit[key]), expected), (key, np.flatnonzero(_words(jit[key]) != expected)[:8])
        simulated = _words(listing.buffers[key])
        assert np.array_equal(simulated, expected), (key, np.flatnonzero(simulated != expected)[:8])
    assert changed > wave  # the kernel wrote something per lane


@pytest.mark.skipif(shutil.which("llvm-mc") is None, reason="llvm-mc is not installed")
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_listing_assembles(name, wave):
    header, body, _ = KERNELS[name]
    listing = shc.compile(_source(header, body, wave), wave_size=wave).listing
    text = "\n".join(line.split(";")[0] for line in listing.splitlines()
                     if line.strip() and not line.lstrip().startswith(";"))
    result = subprocess.run(["llvm-mc", "-arch=amdgcn", "-mcpu=gfx1030", f"-mattr=+wavefrontsize{wave}"],
                            input=text, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr[:1500]


def test_templated_values():
    """Load<T>/Store<T> by value: bytes move unchanged, at 2-byte-aligned addresses too."""
    source = _source(RAW, """
        if (tid == 0) {
            b.Store<half>(2, b.Load<half>(0) + (half)1);
            b.Store<float2>(8, b.Load<float2>(16) * 2);
            b.Store<uint64_t>(24, b.Load<uint64_t>(32) + 1);
            b.Store<half3>(40, b.Load<half3>(48).zyx);
        }
    """, 32)
    data = np.zeros(16, np.uint32)
    data[0] = np.float16(1.5).view(np.uint16)
    data[4:6] = np.array([2.5, -4.0], np.float32).view(np.uint32)
    data[8:10] = [0xFFFFFFFF, 7]
    data[12:14] = np.array([1, 2, 3, 9], np.float16).view(np.uint32)
    shc.compile(source, wave_size=32).dispatch((1, 1, 1), b=data)
    assert data.view(np.float16)[1] == np.float16(2.5) and data.view(np.float16)[0] == np.float16(1.5)
    assert data[2:4].view(np.float32).tolist() == [5.0, -8.0]
    assert data[6:8].view(np.uint64)[0] == 8 << 32  # 0x7_FFFFFFFF + 1, the carry crossing the dwords
    assert data.view(np.float16)[20:24].tolist() == [3.0, 2.0, 1.0, 0.0]  # 6 bytes written, not 8


def test_interlocked_64_values():
    source = _source(RAW, """
        int64_t s = b.Load<int64_t>(64 + tid * 8);
        uint64_t old;
        b.InterlockedAdd64(0, (uint64_t)s, old);
        b.InterlockedMin64(8, s);
        b.InterlockedMax64(16, (uint64_t)s);
        b.InterlockedCompareExchange64(24, 0, (uint64_t)tid + 1, old);
    """, 32)
    values = np.arange(32, dtype=np.int64) * 0x100000001 - 5 * 0x100000001
    data = np.zeros(16 + 64, np.uint32)
    data[16:].view(np.int64)[:] = values
    shc.compile(source, wave_size=32).dispatch((1, 1, 1), b=data)
    head = data[:8].view(np.uint64)
    assert head[0] == values.sum().astype(np.uint64)
    assert data[2:4].view(np.int64)[0] == min(0, values.min())  # signed: the negative values win
    assert head[2] == values.view(np.uint64).max()  # unsigned: the negative values are the largest
    assert head[3] == 1  # lane 0 found 0 and stored 1; the others found 1


def test_counter_values():
    """D3D: IncrementCounter returns the value before, DecrementCounter the value after; lanes
    take their turns in lane order in every executor; the counter is read back from Python."""
    header, body, buffers = KERNELS["counters_append_consume"]
    kernel = shc.compile(_source(header, body, 32), wave_size=32)
    arrays = {key: make() for key, make in buffers.items()}
    arrays["app"] = arrays["app"].view(kernel.bindings["app"].dtype)
    kernel.dispatch((1, 1, 1), **arrays)
    tid = np.arange(32)
    o = arrays["o"]
    assert o[3:35].tolist() == (tid + 100).tolist()  # lane k incremented 3 + k
    assert arrays["o_counter"][0] == 3  # 32 up, 32 down
    assert o[64:96].tolist() == ((arrays["con"][89 - tid]) * 1000 + (34 - tid)).tolist()
    assert arrays["con_counter"][0] == 90 - 32
    appended = arrays["app"][2:13]
    assert arrays["app_counter"][0] == 2 + 11 and appended["id"].tolist() == list(range(0, 32, 3))
    assert appended["xy"][:, 1].tolist() == [3 + k for k in range(0, 32, 3)]  # each lane's own i


def test_get_dimensions_of_append_and_consume_buffers():
    source = _source("""
        AppendStructuredBuffer<float3> app : register(u0);
        ConsumeStructuredBuffer<uint> con : register(u1);
        RWStructuredBuffer<uint> o : register(u2);
    """, """
        uint n, s, m, t;
        app.GetDimensions(n, s);
        con.GetDimensions(m, t);
        o[tid] = n * 1000000 + s * 10000 + m * 100 + t;
    """, 32)
    o = np.zeros(32, np.uint32)
    shc.compile(source, wave_size=32).dispatch((1, 1, 1), app=np.zeros((7, 3), np.float32),
                                                con=np.zeros(5, np.uint32), o=o)
    assert set(o.tolist()) == {7 * 1000000 + 12 * 10000 + 5 * 100 + 4}


def test_texel_atomics_reach_the_texel_at_the_whole_coordinate():
    """InterlockedAdd(img[uint2(x, y)]) changes texel (x, y), not (x, 0) (once the case: the
    interpreter, the host JIT and the listing all used only x)."""
    kernel = shc.compile("RWTexture2D<uint> img : register(u0);\n[numthreads(4, 1, 1)]\n"
                         "void main(uint tid : SV_GroupIndex) { InterlockedAdd(img[uint2(1, tid & 1)], 1 + tid); }\n")
    img = np.zeros((3, 3), np.uint32)
    kernel.dispatch((1, 1, 1), img=img)
    assert img.tolist() == [[0, 1 + 3, 0], [0, 2 + 4, 0], [0, 0, 0]]
    assert "image_atomic_add" in kernel.listing and "buffer_atomic" not in kernel.listing
