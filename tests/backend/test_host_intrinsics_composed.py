"""The intrinsics lowered as compositions (compiler/ir/lower/intrinsics_composed.py), by value:
the host JIT and the IR interpreter against a NumPy model of DXC's definition, wave32 and
wave64. Each kernel runs one wave (numthreads = the wave size); lane ``i`` reads ``a[i]`` and
writes ``o[i * N ...]``.
"""

from __future__ import annotations

import struct

import numpy as np
import pytest

import shc
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

WAVE_SIZES = (32, 64)
HEAD = ("StructuredBuffer<uint> a : register(t0);\nRWStructuredBuffer<uint> o : register(u0);\n"
        "[numthreads({wave}, 1, 1)]\nvoid main(uint tid : SV_GroupIndex) {{\n    uint w = a[tid];\n")


def run_both(body: str, words: np.ndarray, per_lane: int, wave: int) -> np.ndarray:
    """``o`` after the kernel, from the host JIT; the interpreter must compute the same bits."""
    source = HEAD.format(wave=wave) + body + "\n}\n"
    inputs = np.asarray(words, np.uint32)
    jit_out = np.zeros(wave * per_lane, np.uint32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), a=inputs, o=jit_out)
    module = compile_source(source, "composed.hlsl", Options(wave_size=wave), Diagnostics())
    state = run_wave(module, buffers={"a": inputs, "o": np.zeros(wave * per_lane, np.uint32)})
    interpreted = np.asarray(state.buffers["o"]).view(np.uint32)
    assert np.array_equal(jit_out, interpreted), np.flatnonzero(jit_out != interpreted)[:8]
    return jit_out.reshape(wave, per_lane)


def words_for(wave: int) -> np.ndarray:
    rng = np.random.default_rng(wave)
    words = rng.integers(0, 2**32, wave, dtype=np.uint64).astype(np.uint32)
    words[:4] = [0, 0xFFFFFFFF, 0x7F80FF01, 0x80808080]  # the byte extremes
    return words


def byte_lanes(words: np.ndarray, signed: bool) -> np.ndarray:
    """(W, 4) bytes of each word, byte 0 first."""
    as_bytes = words.astype("<u4").view(np.uint8).reshape(-1, 4)
    return as_bytes.view(np.int8).astype(np.int64) if signed else as_bytes.astype(np.int64)


def pack(values: np.ndarray) -> np.ndarray:
    low = values.astype(np.int64) & 0xFF
    return (low[:, 0] | low[:, 1] << 8 | low[:, 2] << 16 | low[:, 3] << 24).astype(np.uint32)


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_unpack_sign_and_zero_extend(wave):
    words = words_for(wave)
    out = run_both("""
        int4 s = unpack_s8s32((int8_t4_packed)w);
        uint4 u = unpack_u8u32((uint8_t4_packed)w);
        int16_t4 s16 = unpack_s8s16((int8_t4_packed)w);
        uint16_t4 u16 = unpack_u8u16((uint8_t4_packed)w);
        o[tid * 16 + 0] = s.x; o[tid * 16 + 1] = s.y; o[tid * 16 + 2] = s.z; o[tid * 16 + 3] = s.w;
        o[tid * 16 + 4] = u.x; o[tid * 16 + 5] = u.y; o[tid * 16 + 6] = u.z; o[tid * 16 + 7] = u.w;
        int4 s32 = s16; uint4 u32 = u16;
        o[tid * 16 + 8] = s32.x; o[tid * 16 + 9] = s32.y; o[tid * 16 + 10] = s32.z; o[tid * 16 + 11] = s32.w;
        o[tid * 16 + 12] = u32.x; o[tid * 16 + 13] = u32.y; o[tid * 16 + 14] = u32.z; o[tid * 16 + 15] = u32.w;
    """, words, 16, wave)
    signed = byte_lanes(words, True).astype(np.uint32)
    unsigned = byte_lanes(words, False).astype(np.uint32)
    assert out[:, 0:4].tolist() == signed.tolist()
    assert out[:, 4:8].tolist() == unsigned.tolist()
    assert out[:, 8:12].tolist() == signed.tolist()
    assert out[:, 12:16].tolist() == unsigned.tolist()
    assert out[2, 0:4].tolist() == [1, 0xFFFFFFFF, 0xFFFFFF80, 127]  # 0x7F80FF01


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_pack_truncates_and_pack_clamp_saturates(wave):
    words = words_for(wave)
    out = run_both("""
        int4 v = unpack_s8s32((int8_t4_packed)w) * int4(3, -5, 7, 200);
        int16_t4 h = (int16_t4)(v * 100);
        o[tid * 6 + 0] = pack_u8((uint4)v);
        o[tid * 6 + 1] = pack_s8(v);
        o[tid * 6 + 2] = pack_clamp_u8(v);
        o[tid * 6 + 3] = pack_clamp_s8(v);
        o[tid * 6 + 4] = pack_clamp_s8(h);
        o[tid * 6 + 5] = pack_u8((uint16_t4)h);
    """, words, 6, wave)
    v = byte_lanes(words, True) * np.array([3, -5, 7, 200])
    h = ((v * 100 + 2**15) % 2**16) - 2**15  # int16 wrap
    assert out[:, 0].tolist() == pack(v).tolist()
    assert out[:, 1].tolist() == pack(v).tolist()
    assert out[:, 2].tolist() == pack(np.clip(v, 0, 255)).tolist()
    assert out[:, 3].tolist() == pack(np.clip(v, -128, 127)).tolist()
    assert out[:, 4].tolist() == pack(np.clip(h, -128, 127)).tolist()
    assert out[:, 5].tolist() == pack(h).tolist()


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_dot4add_packed_bytes(wave):
    words = words_for(wave)
    out = run_both("""
        uint b = w * 2654435761u + 12345u;
        o[tid * 2 + 0] = dot4add_i8packed(w, b, (int)tid * -1000);
        o[tid * 2 + 1] = dot4add_u8packed(w, b, 0xFFFFFF00u + tid);
    """, words, 2, wave)
    b = (words.astype(np.uint64) * 2654435761 + 12345).astype(np.uint32)
    lanes = np.arange(wave)
    signed = (byte_lanes(words, True) * byte_lanes(b, True)).sum(axis=1) - 1000 * lanes
    unsigned = (byte_lanes(words, False) * byte_lanes(b, False)).sum(axis=1) + 0xFFFFFF00 + lanes
    assert out[:, 0].tolist() == (signed % 2**32).tolist()
    assert out[:, 1].tolist() == (unsigned % 2**32).tolist()  # wraps past 2^32


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_add_uint64_carries(wave):
    words = words_for(wave)
    out = run_both("""
        uint2 x = uint2(w, w >> 7);
        uint4 y = uint4(~w, tid, w * 3, 0xFFFFFFFFu);
        uint2 r = AddUint64(x, uint2(0x80000001u, 5));
        uint4 q = AddUint64(y, uint4(tid + 1, 0xFFFFFFFFu, w, tid));
        o[tid * 6 + 0] = r.x; o[tid * 6 + 1] = r.y;
        o[tid * 6 + 2] = q.x; o[tid * 6 + 3] = q.y; o[tid * 6 + 4] = q.z; o[tid * 6 + 5] = q.w;
    """, words, 6, wave)
    for lane, word in enumerate(int(x) for x in words):
        first = (word | (word >> 7) << 32) + (0x80000001 | 5 << 32)
        second = ((~word & 0xFFFFFFFF) | lane << 32) + ((lane + 1) | 0xFFFFFFFF << 32)
        third = ((word * 3 & 0xFFFFFFFF) | 0xFFFFFFFF << 32) + (word | lane << 32)
        words64 = [value % 2**64 for value in (first, second, third)]
        expected = [half for value in words64 for half in (value & 0xFFFFFFFF, value >> 32)]
        assert out[lane].tolist() == expected, lane


def f32(value) -> np.float32:
    return np.float32(value)


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_reflect_refract_and_total_internal_reflection(wave):
    words = words_for(wave)
    out = run_both("""
        float3 i = float3((tid % 9) * 0.25 - 1.0, -1.0, (tid % 5) * 0.125);
        float3 n = float3(0.6, 0.8, 0.0);
        float eta = 0.5 + (tid % 7) * 0.25;
        float3 r = reflect(i, n);
        float3 f = refract(i, n, eta);
        o[tid * 6 + 0] = asuint(r.x); o[tid * 6 + 1] = asuint(r.y); o[tid * 6 + 2] = asuint(r.z);
        o[tid * 6 + 3] = asuint(f.x); o[tid * 6 + 4] = asuint(f.y); o[tid * 6 + 5] = asuint(f.z);
    """, words, 6, wave)
    n = np.array([0.6, 0.8, 0.0], np.float32)
    total_internal = 0
    for lane in range(wave):
        i = np.array([(lane % 9) * 0.25 - 1.0, -1.0, (lane % 5) * 0.125], np.float32)
        eta = f32(0.5 + (lane % 7) * 0.25)
        d = f32(f32(i[0] * n[0]) + f32(i[1] * n[1])) + f32(i[2] * n[2])
        reflected = i - (f32(2.0) * d) * n
        t = f32(1.0) - f32(f32(f32(1.0) - d * d) * f32(eta * eta))
        if t >= 0:
            refracted = eta * i - f32(eta * d + np.sqrt(t)) * n
        else:
            refracted, total_internal = np.zeros(3, np.float32), total_internal + 1
        assert out[lane, :3].tolist() == reflected.view(np.uint32).tolist(), lane
        assert out[lane, 3:].tolist() == refracted.astype(np.float32).view(np.uint32).tolist(), lane
    assert 0 < total_internal < wave  # both outcomes were exercised


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_d3dcolor_to_ubyte4_and_dot2add(wave):
    words = words_for(wave)
    out = run_both("""
        float4 c = float4(tid / 63.0, 0.5, 1.0 - tid / 63.0, (tid % 4) / 3.0);
        int4 b = D3DCOLORtoUBYTE4(c);
        half2 x = half2(tid * 0.5 - 8.0, 0.125 * tid);
        half2 y = half2(3.0, (int)tid * -0.25);
        o[tid * 5 + 0] = b.x; o[tid * 5 + 1] = b.y; o[tid * 5 + 2] = b.z; o[tid * 5 + 3] = b.w;
        o[tid * 5 + 4] = asuint(dot2add(x, y, tid * 0.75));
    """, words, 5, wave)
    for lane in range(wave):
        c = np.array([f32(lane) / f32(63.0), 0.5, f32(1.0) - f32(lane) / f32(63.0), f32(lane % 4) / f32(3.0)],
                     np.float32)
        scaled = c[[2, 1, 0, 3]] * f32(255.001953)
        assert out[lane, :4].tolist() == np.trunc(scaled).astype(np.int64).tolist(), lane
        x = np.array([lane * 0.5 - 8.0, 0.125 * lane], np.float16).astype(np.float32)
        y = np.array([3.0, -lane * 0.25], np.float16).astype(np.float32)
        total = f32(f32(f32(lane * 0.75) + x[0] * y[0]) + x[1] * y[1])
        assert out[lane, 4] == total.view(np.uint32), lane
    assert out[0, :4].tolist() == [255, 127, 0, 0]  # (0, 0.5, 1, 0).zyxw: 0.5 * 255.001953 truncates to 127


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_16bit_reinterpretations(wave):
    words = words_for(wave)
    out = run_both("""
        uint16_t2 bits = uint16_t2(w & 0xFFFF, w >> 16);
        half2 h = asfloat16(bits);
        int16_t2 s = asint16(h);
        uint16_t2 u = asuint16(s);
        o[tid * 3 + 0] = (uint)(int)s.x;
        o[tid * 3 + 1] = u.y;
        o[tid * 3 + 2] = asuint16(asfloat16((int16_t)-1));
    """, words, 3, wave)
    low = (words & 0xFFFF).astype(np.uint16)
    assert out[:, 0].tolist() == low.view(np.int16).astype(np.int64).astype(np.uint32).tolist()
    assert out[:, 1].tolist() == (words >> 16).tolist()
    assert set(out[:, 2].tolist()) == {0xFFFF}


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_asdouble_and_asuint_split_round_trip(wave):
    words = words_for(wave)
    out = run_both("""
        double d = asdouble(w, 0x3FF00000u | (w & 0xFFFFF));
        uint lo, hi;
        asuint(d * 2.0, lo, hi);
        uint2 lo2, hi2;
        asuint(asdouble(uint2(w, ~w), uint2(0x40000000u, 0xC0100000u)), lo2, hi2);
        o[tid * 4 + 0] = lo; o[tid * 4 + 1] = hi; o[tid * 4 + 2] = lo2.y; o[tid * 4 + 3] = hi2.y;
    """, words, 4, wave)
    for lane, word in enumerate(int(x) for x in words):
        d = struct.unpack("<d", struct.pack("<II", word, 0x3FF00000 | (word & 0xFFFFF)))[0]
        assert out[lane, :2].tolist() == list(struct.unpack("<II", struct.pack("<d", d * 2.0))), lane
        assert out[lane, 2:].tolist() == [~word & 0xFFFFFFFF, 0xC0100000], lane


@pytest.mark.parametrize("wave", WAVE_SIZES)
def test_one_column_matrices_and_flat_casts(wave):
    words = words_for(wave)
    out = run_both("""
        int3x1 m = int3x1(tid, tid * 2, 7);
        int1x3 t = transpose(m);
        m[tid % 3][0] += 100;
        uint a[4] = {w, tid, 3, w >> 8};
        float4 v = (float4)a;
        typedef int I4[4];
        I4 back = (I4)int4(t[0][2], m[1].x, m[0][0], 9);
        int2x2 q = (int2x2)a;
        typedef uint U6[6];
        U6 flat = (U6)uint2x3(1, 2, 3, 4, 5, tid);
        o[tid * 6 + 0] = asuint(v.y); o[tid * 6 + 1] = back[0] + back[1] * 1000;
        o[tid * 6 + 2] = back[2]; o[tid * 6 + 3] = q[1][0] + q._m11; o[tid * 6 + 4] = flat[5] + flat[0];
        o[tid * 6 + 5] = m[2][0];
    """, words, 6, wave)
    lanes = np.arange(wave)
    column = np.stack([lanes, lanes * 2, np.full(wave, 7)], axis=1)
    bumped = column.copy()
    bumped[lanes, lanes % 3] += 100
    assert out[:, 0].tolist() == lanes.astype(np.float32).view(np.uint32).tolist()
    assert out[:, 1].tolist() == (7 + bumped[:, 1] * 1000).tolist()
    assert out[:, 2].tolist() == bumped[:, 0].tolist()
    assert out[:, 3].tolist() == (3 + (words >> 8).astype(np.int64)).tolist()
    assert out[:, 4].tolist() == (lanes + 1).tolist()
    assert out[:, 5].tolist() == bumped[:, 2].tolist()


MATRIX_ELEMENTS = ["bool", "int", "uint", "float", "half", "double", "int16_t", "uint16_t", "int64_t", "uint64_t"]


@pytest.mark.parametrize("element", MATRIX_ELEMENTS)
def test_transpose_and_subscripts_of_every_matrix_shape(element):
    """Every shape from 1x1 to 4x4: transpose, a constant-index write, a run-time-index write,
    then every element of the matrix and of its transpose (one wave; the shapes do not depend
    on the wave size)."""
    lines, slots = [], 0
    for rows in range(1, 5):
        for cols in range(1, 5):
            name = f"m{rows}{cols}"
            values = ", ".join(f"({element})((tid + {k}) % 3)" for k in range(rows * cols))
            lines += [f"{element}{rows}x{cols} {name} = {element}{rows}x{cols}({values});",
                      f"{element}{cols}x{rows} t{name} = transpose({name});",
                      f"{name}[{rows - 1}][{cols - 1}] = t{name}[0][0];",
                      f"{name}[tid % {rows}][tid % {cols}] = ({element})2;"]
            for i in range(rows):
                for j in range(cols):
                    lines.append(f"o[tid * SLOTS + {slots}] = (uint){name}[{i}][{j}] + 10 * (uint)t{name}[{j}][{i}];")
                    slots += 1
    body = "\n".join(lines).replace("SLOTS", str(slots))
    out = run_both(body, words_for(32), slots, 32)
    expected = []
    for lane in range(32):
        for rows in range(1, 5):
            for cols in range(1, 5):
                m = np.array([(lane + k) % 3 for k in range(rows * cols)]).reshape(rows, cols)
                if element == "bool":
                    m = (m != 0).astype(np.int64)
                transposed = m.T.copy()
                m[rows - 1, cols - 1] = transposed[0, 0]
                m[lane % rows, lane % cols] = 1 if element == "bool" else 2
                expected += [m[i, j] + 10 * transposed[j, i] for i in range(rows) for j in range(cols)]
    assert out.reshape(-1).tolist() == expected
