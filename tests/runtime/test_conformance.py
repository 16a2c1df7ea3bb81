"""Every wave intrinsic, compiled and run by the JIT, against the NumPy model (compiler/machine/wavemodel.py).

Each kernel evaluates one intrinsic three times, in wave32 and wave64:

- ``full``: every lane active;
- ``partial``: inside ``if (WaveGetLaneIndex() % 3 != 2)``, so every third lane is off
  (those lanes must keep the sentinel: nothing is written for them);
- ``divergent``: on both sides of an ``if`` on random per-thread bits, so each side
  runs under its own mask and the two results are merged.

Only the lanes where HLSL defines the result are compared (``WaveResult.defined``):
reading an inactive lane through QuadRead*/WaveReadLaneAt/WaveShuffleXor is undefined.
Two waves per group and two groups check that waves and groups do not mix.
"""

from __future__ import annotations

import os
import sys
import zlib

import numpy as np
import pytest

import shc
from shc.compiler.machine import wavemodel as wm

sys.path.insert(0, os.path.dirname(__file__))

GROUPS = 2
SENTINEL = 0xA5


pytestmark = pytest.mark.usefixtures("private_kernel_cache")


TEMPLATE = """
StructuredBuffer<{T}> src;
StructuredBuffer<uint> pick;
RWStructuredBuffer<{R}> full;
RWStructuredBuffer<{R}> partial;
RWStructuredBuffer<{R}> divergent;
[numthreads({N}, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {{
    {T} v = src[id.x];
    uint lane = WaveGetLaneIndex();
    full[id.x] = {E};
    if (lane % 3 != 2) {{
        partial[id.x] = {E};
    }}
    if (pick[id.x] != 0) {{
        divergent[id.x] = {E};
    }} else {{
        divergent[id.x] = {E};
    }}
}}
"""

DTYPES = {"float": np.float32, "int": np.int32, "uint": np.uint32, "half": np.float16,
          "uint16_t": np.uint16, "int16_t": np.int16, "uint4": np.uint32}


def values_for(type_name: str, count: int, purpose: str, rng: np.random.Generator) -> np.ndarray:
    dtype = DTYPES[type_name]
    if purpose == "product":  # exact in any order: powers of two and signs
        return rng.choice(np.array([0.5, 1, 1, 2, -1], dtype=dtype), count)
    if purpose == "bits" and np.dtype(dtype).kind == "u":
        info = np.iinfo(dtype)
        return rng.integers(0, int(info.max) + 1, count, dtype=np.uint64).astype(dtype)
    if purpose == "equal":  # whole waves equal in some places
        return np.repeat(rng.integers(0, 2, count // 16), 16).astype(dtype)
    if np.dtype(dtype).kind == "u":
        return rng.integers(0, 100, count).astype(dtype)
    return rng.integers(-8, 9, count).astype(dtype)


def _cond(model):
    """An intrinsic of ``v > 3`` (its model takes the condition)."""
    return lambda v, exec_lanes, w: model(v > 3, exec_lanes)


def _bool(model):
    def run(v, exec_lanes, w):
        result = model(v, exec_lanes)
        return wm.WaveResult(result.values.astype(np.uint32), result.defined)
    return run


def _plain(model):
    return lambda v, exec_lanes, w: model(v, exec_lanes)


# (id, HLSL expression, value type, result type, model(values, exec, wave size), data purpose)
CASES = []
for t in ("float", "int", "uint", "half"):
    CASES += [
        (f"sum-{t}", "WaveActiveSum(v)", t, t, _plain(wm.HLSL_INTRINSICS["WaveActiveSum"]), "small"),
        (f"min-{t}", "WaveActiveMin(v)", t, t, _plain(wm.HLSL_INTRINSICS["WaveActiveMin"]), "small"),
        (f"max-{t}", "WaveActiveMax(v)", t, t, _plain(wm.HLSL_INTRINSICS["WaveActiveMax"]), "small"),
        (f"prefix-sum-{t}", "WavePrefixSum(v)", t, t, _plain(wm.HLSL_INTRINSICS["WavePrefixSum"]), "small"),
        (f"read-first-{t}", "WaveReadLaneFirst(v)", t, t, _plain(wm.wave_read_lane_first), "small"),
        (f"quad-x-{t}", "QuadReadAcrossX(v)", t, t, _plain(wm.quad_read_across_x), "small"),
    ]
for t in ("float", "int"):
    CASES += [
        (f"product-{t}", "WaveActiveProduct(v)", t, t, _plain(wm.HLSL_INTRINSICS["WaveActiveProduct"]), "product"),
        (f"prefix-product-{t}", "WavePrefixProduct(v)", t, t, _plain(wm.HLSL_INTRINSICS["WavePrefixProduct"]),
         "product"),
    ]
for t in ("uint", "int", "uint16_t"):
    CASES += [
        (f"and-{t}", "WaveActiveBitAnd(v)", t, t, _plain(wm.HLSL_INTRINSICS["WaveActiveBitAnd"]), "bits"),
        (f"or-{t}", "WaveActiveBitOr(v)", t, t, _plain(wm.HLSL_INTRINSICS["WaveActiveBitOr"]), "bits"),
        (f"xor-{t}", "WaveActiveBitXor(v)", t, t, _plain(wm.HLSL_INTRINSICS["WaveActiveBitXor"]), "bits"),
    ]
CASES += [
    ("sum-int16", "WaveActiveSum(v)", "int16_t", "int16_t", _plain(wm.HLSL_INTRINSICS["WaveActiveSum"]), "small"),
    ("quad-y", "QuadReadAcrossY(v)", "float", "float", _plain(wm.quad_read_across_y), "small"),
    ("quad-diagonal", "QuadReadAcrossDiagonal(v)", "float", "float", _plain(wm.quad_read_across_diagonal), "small"),
    *[(f"quad-lane-{k}", f"QuadReadLaneAt(v, {k})", "uint", "uint",
       (lambda k: lambda v, e, w: wm.quad_read_lane_at(v, e, k))(k), "small") for k in range(4)],
    ("read-lane-uniform", "WaveReadLaneAt(v, 5)", "float", "float",
     lambda v, e, w: wm.wave_read_lane_at(v, e, 5), "small"),
    ("read-lane-divergent", "WaveReadLaneAt(v, (lane + 7) % WaveGetLaneCount())", "uint", "uint",
     lambda v, e, w: wm.wave_read_lane_at(v, e, (np.arange(w) + 7) % w), "small"),
    ("read-lane-other-half", "WaveReadLaneAt(v, lane ^ (WaveGetLaneCount() / 2))", "uint", "uint",
     lambda v, e, w: wm.wave_read_lane_at(v, e, np.arange(w) ^ (w // 2)), "small"),
    *[(f"shuffle-xor-{m}", f"WaveShuffleXor(v, {m})", "uint", "uint",
       (lambda m: lambda v, e, w: wm.wave_shuffle_xor(v, e, m))(m), "small") for m in (1, 2, 3, 4, 5, 8, 12, 16)],
    ("lane-index", "WaveGetLaneIndex()", "uint", "uint", lambda v, e, w: wm.wave_get_lane_index(e), "small"),
    ("lane-count", "WaveGetLaneCount()", "uint", "uint", lambda v, e, w: wm.wave_get_lane_count(e), "small"),
    ("is-first-lane", "WaveIsFirstLane() ? 1u : 0u", "uint", "uint",
     lambda v, e, w: wm.WaveResult(wm.wave_is_first_lane(e).values.astype(np.uint32), e.copy()), "small"),
    ("any-true", "WaveActiveAnyTrue(v > 3) ? 1u : 0u", "int", "uint",
     _bool(lambda v, e: wm.wave_active_any_true(v > 3, e)), "small"),
    ("all-true", "WaveActiveAllTrue(v > -8) ? 1u : 0u", "int", "uint",
     _bool(lambda v, e: wm.wave_active_all_true(v > -8, e)), "small"),
    ("all-equal", "WaveActiveAllEqual(v) ? 1u : 0u", "uint", "uint", _bool(wm.wave_active_all_equal), "equal"),
    ("ballot", "WaveActiveBallot(v > 3)", "int", "uint4", _cond(wm.wave_active_ballot), "small"),
    ("count-bits", "WaveActiveCountBits(v > 3)", "int", "uint", _cond(wm.wave_active_count_bits), "small"),
    ("prefix-count-bits", "WavePrefixCountBits(v > 3)", "int", "uint", _cond(wm.wave_prefix_count_bits), "small"),
]
CASES += [("shuffle-xor-32", "WaveShuffleXor(v, 32)", "uint", "uint",
           lambda v, e, w: wm.wave_shuffle_xor(v, e, 32), "small")]  # wave64 only (see below)


def expected_for(model, values: np.ndarray, exec_lanes: np.ndarray, wave_size: int):
    result = model(values, exec_lanes, wave_size)
    return np.asarray(result.values), np.asarray(result.defined)


def check(name: str, got: np.ndarray, want: np.ndarray, defined: np.ndarray, written: np.ndarray, dtype) -> None:
    """Defined lanes equal the model; lanes that did not run keep the sentinel."""
    got_defined, want_defined = got[defined], want[defined].astype(got.dtype)
    if np.dtype(dtype).kind == "f":
        same = np.isclose(got_defined.astype(np.float64), want_defined.astype(np.float64), rtol=1e-6,
                          equal_nan=True)
    else:
        same = got_defined == want_defined
    if same.ndim > 1:
        same = same.all(axis=1)
    bad = np.flatnonzero(defined)[~same]
    assert not len(bad), f"{name}: lanes {bad[:8].tolist()} got {got[bad[:8]].tolist()} " \
                         f"expected {want[bad[:8]].tolist()}"
    untouched = ~written
    if untouched.any():
        sentinel = np.full_like(got[untouched], SENTINEL)
        assert np.array_equal(got[untouched], sentinel), f"{name}: inactive lanes were written"


# lane ^ 32 exists only in wave64
WAVE_CASES = [(case, wave) for case in CASES for wave in (32, 64) if not (case[0] == "shuffle-xor-32" and wave == 32)]


@pytest.mark.parametrize("case, wave_size", WAVE_CASES, ids=[f"{case[0]}-wave{wave}" for case, wave in WAVE_CASES])
def test_wave_intrinsic_matches_the_model(case, wave_size):
    name, expression, value_type, result_type, model, purpose = case
    threads = 2 * wave_size
    source = TEMPLATE.format(T=value_type, R=result_type, N=threads, E=expression)
    kernel = shc.compile(source, wave_size=wave_size)
    assert kernel.wave_size == wave_size
    total = GROUPS * threads
    rng = np.random.default_rng(zlib.crc32(f"{name}/{wave_size}".encode()))
    values = values_for(value_type, total, purpose, rng)
    pick = rng.integers(0, 2, total).astype(np.uint32)
    vector = result_type == "uint4"
    shape = (total, 4) if vector else (total,)
    dtype = DTYPES[result_type]
    outputs = {label: np.full(shape, SENTINEL, dtype=dtype) for label in ("full", "partial", "divergent")}
    kernel.dispatch((GROUPS, 1, 1), src=values, pick=pick, **outputs)

    lanes = np.arange(wave_size)
    for start in range(0, total, wave_size):
        wave = slice(start, start + wave_size)
        v = values[wave]
        every = np.ones(wave_size, bool)
        partial_lanes = lanes % 3 != 2
        chosen = pick[wave] != 0
        want, defined = expected_for(model, v, every, wave_size)
        check(f"{name} full", outputs["full"][wave], want, defined, every, dtype)
        want, defined = expected_for(model, v, partial_lanes, wave_size)
        check(f"{name} partial", outputs["partial"][wave], want, defined & partial_lanes, partial_lanes, dtype)
        want_on, defined_on = expected_for(model, v, chosen, wave_size)
        want_off, defined_off = expected_for(model, v, ~chosen, wave_size)
        pick_rows = chosen[:, None] if vector else chosen
        want = np.where(pick_rows, want_on, want_off)
        defined = np.where(chosen, defined_on, defined_off)
        check(f"{name} divergent", outputs["divergent"][wave], want, defined, every, dtype)


@pytest.mark.parametrize("wave_size", [32, 64])
def test_vector_reduction_works_per_component(wave_size):
    source = """
    StructuredBuffer<float3> src; RWStructuredBuffer<float3> dst;
    [numthreads(64, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = WaveActiveSum(src[id.x]) + QuadReadAcrossX(src[id.x]); }
    """
    kernel = shc.compile(source, wave_size=wave_size)
    src = np.random.default_rng(1).integers(-8, 8, (64, 3)).astype(np.float32)
    dst = np.zeros_like(src)
    kernel.dispatch((1, 1, 1), src=src, dst=dst)
    sums = src.reshape(-1, wave_size, 3).sum(axis=1)
    expected = np.repeat(sums, wave_size, axis=0) + src[np.arange(64) ^ 1]
    assert np.array_equal(dst, expected)


# -- out of bounds ------------------------------------------------------------------------

OOB = """
StructuredBuffer<uint> src;
RWStructuredBuffer<uint> dst;
RWByteAddressBuffer raw;
RWTexture2D<float> image;
groupshared uint cells[16];
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex) {
    uint far = id.x * 1000003u + 1000u;       // far out of range
    dst[id.x] = src[id.x + 40] + 1;           // reads past the end give 0
    dst[far] = 7;                             // writes past the end are dropped
    raw.Store(far * 4, 9);
    raw.Store(id.x * 4 + 200, 5);             // the tail of the buffer, then past it
    image[uint2(id.x, id.x * 3)] = 2.0;       // outside the texture except for threads 0 and 1
    cells[gi * 977] = gi;                     // groupshared out of range stays in the group's LDS
    GroupMemoryBarrierWithGroupSync();
    dst[id.x + 64] = cells[gi % 16];
}
"""


def guarded(count: int, dtype):
    """An array of ``count`` inside a larger one whose ends must never change."""
    backing = np.full(count + 64, 0x5A, dtype=dtype)
    return backing, backing[32:32 + count]


def test_out_of_bounds_reads_return_zero_and_writes_are_dropped():
    kernel = shc.compile(OOB)
    src_backing, src = guarded(64, np.uint32)
    src[:] = np.arange(64)
    dst_backing, dst = guarded(128, np.uint32)
    dst[:] = 0
    raw_backing, raw = guarded(64, np.uint32)
    raw[:] = 0
    image_backing, image = guarded(16, np.float32)
    image[:] = 0
    image = image.reshape(4, 4)
    for threads in (1, 2):
        kernel.dispatch((1, 1, 1), threads=threads, src=src, dst=dst, raw=raw, image=image)
    expected_reads = np.where(np.arange(64) + 40 < 64, np.arange(64) + 40, 0) + 1
    assert np.array_equal(dst[:64], expected_reads)
    assert raw[50:].tolist() == [5] * 14 and not raw[:50].any()
    assert image[0, 0] == 2.0 and image[3, 1] == 2.0 and np.count_nonzero(image) == 2
    for backing in (src_backing, dst_backing, raw_backing):
        assert np.all(backing[:32] == 0x5A) and np.all(backing[-32:] == 0x5A)
    assert np.all(image_backing[:32] == 0x5A) and np.all(image_backing[-32:] == 0x5A)


# -- 16-bit types ------------------------------------------------------------------------


def test_16_bit_arithmetic_and_storage():
    source = """
    StructuredBuffer<half> a; StructuredBuffer<uint16_t> b; RWStructuredBuffer<half> h; RWStructuredBuffer<int16_t> s;
    [numthreads(64, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        h[id.x] = a[id.x] * (half)3.0 + (half)0.125;
        s[id.x] = (int16_t)b[id.x] - (int16_t)300;
    }
    """
    kernel = shc.compile(source)
    a = np.linspace(-10, 10, 64).astype(np.float16)
    b = np.arange(0, 64 * 1000, 1000, dtype=np.uint16)
    h = np.zeros(64, np.float16)
    s = np.zeros(64, np.int16)
    kernel.dispatch((1, 1, 1), a=a, b=b, h=h, s=s)
    assert np.array_equal(h, (a * np.float16(3)) + np.float16(0.125))
    assert np.array_equal(s, (b.astype(np.int16) - np.int16(300)))
