"""One wave, three executors: the IR interpreter (the reference), the host JIT and the RDNA2
listing simulator compute the same buffers, bit for bit, at wave32 and wave64.

Each kernel runs as one group of one wave (numthreads = the wave size), so the interpreter
and the simulator, which run one wave, see the whole dispatch the JIT runs. The cases are the
places where a value's uniformity decides how it is computed: memory each lane owns
(scratch) read at a wave-uniform address, and their siblings.
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.machine import wavemodel as wm
from shc.compiler.pipeline import Options, compile_source

HEADER = "RWStructuredBuffer<uint> o : register(u0);\ncbuffer C : register(b0) { uint idx; uint count; }\n"

KERNELS = {
    # a local array written per lane, read at the [loop] counter (wave-uniform): each lane its own
    "scratch_uniform_index_in_loop": """
        uint a[4];
        [loop] for (uint i = 0; i < 4; i++) a[i] = tid * (i + 1);
        uint k = 0;
        [loop] for (uint j = 0; j < 4; j++) k += a[j];
        o[tid] = k;
    """,
    # the same read at a cbuffer index (group-uniform)
    "scratch_cbuffer_index": """
        uint a[4];
        [loop] for (uint i = 0; i < 4; i++) a[i] = tid * (i + 1) + i;
        o[tid] = a[idx];
    """,
    # a constant index after a dynamic store
    "scratch_constant_index_after_dynamic_store": """
        uint a[8];
        [loop] for (uint i = 0; i < 8; i++) a[i] = i;
        a[tid & 7] = tid * 100;
        o[tid] = a[3] + a[idx & 7];
    """,
    # vectors and structs in a local array at a uniform index
    "scratch_vectors_and_structs": """
        struct P { uint2 xy; uint w; };
        P p[4];
        uint4 v[4];
        [loop] for (uint i = 0; i < 4; i++) { p[i].xy = uint2(tid, i); p[i].w = tid ^ i; v[i] = uint4(tid, i, tid + i, 7); }
        uint s = 0;
        [loop] for (uint j = 0; j < count; j++) { s += p[j].xy.x * 3 + p[j].w + v[j].z + v[j].y; }
        o[tid] = s;
    """,
    # nested loops: the inner counter is uniform, the array per lane
    "scratch_nested_loops": """
        uint a[4][4];
        [loop] for (uint i = 0; i < 4; i++) { [loop] for (uint j = 0; j < 4; j++) a[i][j] = tid + 10 * i + j; }
        uint s = 0;
        [loop] for (uint r = 0; r < 4; r++) { [loop] for (uint c = 0; c < 4; c++) s += a[r][c] * (r + 1); }
        o[tid] = s;
    """,
    # a divergent index, and a uniform index under divergent control flow
    "scratch_divergent_index_and_flow": """
        uint a[8];
        [loop] for (uint i = 0; i < 8; i++) a[i] = tid * 8 + i;
        uint s = a[tid & 7];
        if (tid & 1) { [loop] for (uint j = 0; j < count; j++) s += a[j]; }
        o[tid] = s;
    """,
    # groupshared at a uniform address stays one value for the whole wave
    "lds_uniform_address": """
        groupshared uint g[4];
        g[tid & 3] = tid;
        GroupMemoryBarrierWithGroupSync();
        uint s = 0;
        [loop] for (uint j = 0; j < 4; j++) s += g[j];
        o[tid] = s + tid;
    """,
    # HLSL 2021 select/and/or: element-wise, bool vector conditions, scalars broadcast
    "select_and_or_vectors": """
        uint3 v = uint3(tid, tid * 3 + 1, idx + tid % 5);
        bool3 big = v > 7;
        bool3 odd = (v & 1) != 0;
        uint3 picked = select(and(big, !odd), v, v * 2 + 1);
        uint3 either = select(or(big, odd), uint3(1, 2, 3), 100);
        uint s = select(tid > 20, picked.x, picked.y) + dot(either, uint3(1, 10, 100)) + picked.z;
        o[tid] = s + select(and(tid > 3, tid < 40), 1000, 0) + select(or(tid == 0, tid == 63), 5000, 0);
    """,
    # no short-circuit: both arms of select and both operands of and/or are evaluated
    "select_and_or_evaluate_both_arms": """
        uint a[4];
        [loop] for (uint i = 0; i < 4; i++) a[i] = i;
        uint hits = 0;
        bool t = and(tid > 5, (hits += 1) > 0);
        bool u = or(tid < 5, (hits += 10) > 0);
        uint w = select(tid & 1, hits += 100, hits += 1000);
        o[tid] = hits + (t ? 7 : 0) + (u ? 70 : 0) + w + a[tid & 3];
    """,
    # HLSL 2021: a scalar condition short-circuits vector arms too, so the wave op in the taken
    # arm runs only on the lanes that choose it
    "conditional_with_vector_wave_op_arms": """
        uint2 b = tid <= 1 ? WaveActiveSum(uint2(1, 1)) : uint2(0, 0);
        uint3 c = (tid & 1) ? WavePrefixSum(uint3(tid, 1, 2)) : uint3(7, 7, 7);
        o[tid] = tid + 1 + b.x * 1000 + b.y * 100 + c.x * 7 + c.y * 100000;
    """,
    # a uniform branch whose then-arm reads a value kept in memory across blocks, and whose
    # empty else-arm passes the same value to the merge's phi: the host JIT reused the
    # then-arm's load on the else edge (invalid LLVM IR: FSR 1 RCAS and EASU, FSR 2 passes)
    "uniform_branch_reads_across_arms": """
        uint x = o[tid] + tid * 3 + 1;
        uint y = x + idx;
        [branch] if (count == 3) { x = x * x; } else { y = y * 2; }
        [branch] if (idx == 7) { x = x + y; }
        o[tid] = x + y;
    """,
    # HLSL 2021 structs: a method writing a member array at a run-time index (its object in
    # scratch), a base's methods called on a derived object, derived-to-base conversion
    "struct_methods_and_inheritance": """
        struct Acc { uint v[4]; uint n;
                     void push(uint x) { v[n] = x; n++; }
                     uint total() { uint s = 0; for (uint i = 0; i < n; i++) s += v[i]; return s; } };
        struct Scaled : Acc { uint k;
                              uint scaled() { return total() * k; }
                              void push2(uint x) { push(x); this.push(x * k); } };
        Scaled s; s.n = 0; s.k = 3;
        s.push(tid); s.push2(idx + tid);
        Acc base = s;
        base.push(7);
        o[tid] = s.scaled() * 1000 + base.total();
    """,
    # local arrays of structs of arrays, run-time indexes at both levels, loads and stores
    "struct_array_members_at_run_time_indexes": """
        struct S { uint arr[4]; uint k; };
        S s[3];
        for (uint i = 0; i < 3; i++) { s[i].k = i; for (uint j = 0; j < 4; j++) s[i].arr[j] = i * 10 + j; }
        s[idx].arr[tid & 3] = 100 + tid;
        s[tid % 3].arr[count] += 1000;
        o[tid] = s[idx].arr[tid & 3] + s[tid % 3].arr[(tid >> 2) & 3] * 7 + s[1].k;
    """,
    # member operators, and a method writing an element of a local array of structs
    "struct_operators_and_element_methods": """
        struct V { uint x; uint y;
                   V operator+(V o) { V r; r.x = x + o.x; r.y = y + o.y; return r; }
                   uint operator[](uint i) { return i == 0 ? x : y; }
                   void bump() { x += 1; } };
        V vs[4];
        for (uint i = 0; i < 4; i++) { vs[i].x = tid + i; vs[i].y = i * 2; }
        vs[tid & 3].bump();
        V w = vs[idx] + vs[tid & 3];
        o[tid] = w[0] * 100 + w[count & 1];
    """,
    # a value computed in a branching block and read only by the merge's phi on the edge that
    # skips the arm: the host JIT wrote that edge after the arm, with the value gone ("read
    # where it was never computed": FSR 2's rcas, depth_clip, reconstruct_previous_depth)
    "phi_operand_from_a_branching_block": """
        uint x = o[tid] + tid;
        uint y = x * 3 + idx;
        [branch] if (idx == 2) { y = tid * 5; }
        uint z = x + 1;
        if (tid & 1) { z = y; }
        o[tid] = y * 10 + z;
    """,
    # SM 6.6 pack/unpack and the packed dot products, lowered to shifts, masks, min/max and dot
    # (the 16-bit unpacks pack halves with v_perm_b32)
    "packed_byte_intrinsics": """
        uint w = tid * 0x01030507u + idx * 0x10000000u + 0x00800000u;
        int4 s = unpack_s8s32((int8_t4_packed)w);
        uint4 u = unpack_u8u32((uint8_t4_packed)w);
        int16_t4 s16 = unpack_s8s16((int8_t4_packed)(w ^ 0x80808080u));
        uint16_t4 u16 = unpack_u8u16((uint8_t4_packed)(w >> 3));
        uint p = pack_u8(u.wzyx) ^ pack_s8(s * 3) ^ pack_clamp_u8(s * 5 - 40) ^ pack_clamp_s8(s16);
        p ^= pack_u8(u16) + pack_clamp_u8(int4(s16) * 7);
        o[tid] = p + dot4add_i8packed(w, w ^ 0x5a5a5a5au, (int)tid) + dot4add_u8packed(w, 0x01020304u, count)
               + (uint)(s.x + s16.y + u16.z);
    """,
    # AddUint64 on uint2 and uint4: the carry out of the low word
    "add_uint64_carry": """
        uint2 a = uint2(0xfffffff0u + tid, tid * 3);
        uint4 b = uint4(tid * 0x10000000u, idx, 0xffffffffu - tid, tid);
        uint2 r = AddUint64(a, uint2(17, count));
        uint4 q = AddUint64(b, b.wzyx);
        o[tid] = r.x * 3 + r.y * 5 + q.x + q.y * 7 + q.z * 11 + q.w * 13;
    """,
    # reflect, refract (some lanes totally reflect: 0) and D3DCOLORtoUBYTE4
    "reflect_refract_color_bytes": """
        float3 i = float3(tid * 0.25 - 3.0, -1.0, idx * 0.5);
        float3 r = reflect(i, float3(0.6, 0.8, 0.0));
        float3 f = refract(float3(0.6, -0.8, 0.0), float3(0.0, 1.0, 0.0), 0.25 + tid * 0.0625);
        float2 g = refract(float2(0.8, -0.6), float2(0, 1), 1.5);
        int4 c = D3DCOLORtoUBYTE4(float4(tid / 64.0, 0.5, 1.0 - tid / 64.0, idx / 4.0));
        o[tid] = asuint(r.x + r.y * 3 + r.z * 5) ^ asuint(f.x * 7 + f.y) ^ asuint(g.x + g.y)
               ^ (uint)(c.x + c.y * 256 + c.z * 65536 + c.w * 16777216);
    """,
    # dot2add and the 16-bit reinterpretations
    "dot2add_and_16bit_bit_casts": """
        half2 a = half2(tid * 0.5, 1.0 - tid * 0.25);
        half2 b = half2(3.0, tid * 0.125);
        float d = dot2add(a, b, tid * 0.75);
        uint16_t2 u = asuint16(a);
        half h = asfloat16((uint16_t)(0x3c00 + tid));
        o[tid] = asuint(d) + (uint)(int)asint16(a.x) + (uint)u.y * 3 + (uint)asuint16(h) * 5
               + asuint((float)asfloat16(asint16(b.y)));
    """,
    # rows of one-column matrices are 1-vectors (m[i][0]), transposes of 1xN / Nx1, and
    # element-wise casts between arrays, vectors and matrices
    "one_column_matrices_and_flat_casts": """
        float3x1 m = float3x1(tid, tid + 1, idx);
        float1x3 t = transpose(m);
        m[idx][0] = t[0][1] * 2;
        uint a[4] = {tid, tid * 2, idx, count};
        float4 v = (float4)a;
        typedef int I4[4];
        I4 back = (I4)(v * 3);
        int2x2 mm = (int2x2)a;
        o[tid] = (uint)(m[2][0] + m[1].x * 10 + t[0][2] * 100) + back[1] + back[3] * 7 + mm[1][0] + mm._m11 * 3;
    """,
    # SM 6.5 partitions: WaveMatch on scalars, vectors and float bits (-0.0 is not 0.0), and every
    # WaveMultiPrefix* over its partitions (a readlane per lane in the listing)
    "wave_match_and_multi_prefix": """
        uint key = (tid * 7 + idx) % 5;
        uint4 m = WaveMatch(key);
        uint4 mv = WaveMatch(uint2(tid & 3, tid % 3));
        uint4 mf = WaveMatch((tid & 4) ? 0.0 : -0.0);
        uint4 mh = WaveMatch(int3(tid & 1, -(int)(tid & 2), 7));
        uint s = WaveMultiPrefixSum(tid + 1, m);
        float p = WaveMultiPrefixProduct(tid * 0.5 + 1.0, m);
        uint c = WaveMultiPrefixCountBits(tid & 1, m);
        uint b = WaveMultiPrefixBitAnd(~tid, mv) ^ WaveMultiPrefixBitOr(tid << 3, mv) ^ WaveMultiPrefixBitXor(tid * 0x9e37u, mv);
        int2 v = WaveMultiPrefixSum(int2(tid, -(int)tid * 3), mh);
        o[tid] = m.x * 3 + m.y * 5 + s * 7 + asuint(p) + c * 11 + b + (mv.x ^ mv.y) + mf.x * 13 + mf.y
               + mh.x * 17 + mh.y * 19 + (uint)(v.x * 23 + v.y);
    """,
    # fp32 denormals (made at run time, so nothing folds them): arithmetic, min/max, comparisons
    # and sqrt flush them to zeros of their sign; moves, asuint and halves keep them
    "fp32_denormals_flush": """
        float d = asfloat((tid * 0x20001u + 1u) | ((tid & 2u) << 30));
        float n = asfloat(0x00800000u + tid * 3u);
        float p = d * 1.0 + n * 0.5;
        float q = max(d, -d) + min(d, n * 0.25) + sqrt(d) + (d + n) / 3.0 + d / n;
        uint c = (d == 0.0 ? 1u : 0u) + (d < n ? 2u : 0u) + (-d > d ? 4u : 0u);
        half h = asfloat16((uint16_t)(tid + 1)) * (half)2.0;
        o[tid] = asuint(p) ^ asuint(q) * 3u ^ asuint(d) * 5u ^ c * 7u ^ asuint(n * (0.5 + tid)) * 11u
               ^ (uint)asuint16(h) * 13u ^ asuint(d * n) ^ asuint(dot(float2(d, n), float2(n, 0.5)));
    """,
    # the same under divergence: inactive lanes are in no partition and add nothing
    "wave_match_and_multi_prefix_in_a_branch": """
        uint r = tid;
        if (tid % 3 != 1) {
            uint4 m = WaveMatch((tid >> 2) & 1);
            r = WaveMultiPrefixSum(tid * 5 + 1, m) * 3 + m.x + m.y * 7 + WaveMultiPrefixCountBits(tid > idx, m);
        }
        o[tid] = r + 1;
    """,
    # issue #16: the 64-bit sum, whose readlane pairs are written dword by dword, once seemed live
    # across the whole branch: 256 VGPRs at wave64, and SGPRs spilled into VGPRs (an IndexError here)
    "wave_multi_prefix_sum_64_bit_in_a_branch": """
        uint r = tid;
        if (tid % 3 != 1) {
            uint4 m = WaveMatch((tid >> 2) & 1);
            uint64_t s = WaveMultiPrefixSum((uint64_t)tid * 0x100000001ull + idx, m);
            r = (uint)s ^ (uint)(s >> 32) * 3;
        }
        o[tid] = r + 1;
    """,
    # local resources (lower/resource_cells.py): a reassigned variable, a local array of
    # resources at unrolled indexes, a struct member and a method's resource parameter
    "local_resources_array_struct_and_parameter": """
        struct Sink { RWStructuredBuffer<uint> buf; uint k;
                      void add(RWStructuredBuffer<uint> d, uint i, uint v) { d[i] += v * k; } };
        RWStructuredBuffer<uint> arr[2] = { o, o };
        RWStructuredBuffer<uint> t = arr[0];
        t[tid] = tid;
        t = arr[1];
        [unroll] for (uint k = 0; k < 2; k++) arr[k][tid] += tid * (k + 3) + idx;
        Sink s; s.buf = t; s.k = count;
        s.add(s.buf, tid, tid + idx);
        s.buf[tid] += s.k;
    """,
}


def _source(body: str, wave: int) -> str:
    body = textwrap.dedent(body)
    shared = "\n".join(line for line in body.splitlines() if line.startswith("groupshared"))
    body = "\n".join(line for line in body.splitlines() if not line.startswith("groupshared"))
    return (HEADER + shared + f"\n[numthreads({wave}, 1, 1)]\nvoid main(uint tid : SV_GroupIndex) {{\n"
            + textwrap.indent(body, "    ") + "\n}\n")


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", sorted(KERNELS))
def test_interpreter_jit_and_listing_agree(name, wave):
    source = _source(KERNELS[name], wave)
    constants = {"idx": 2, "count": 3}
    cbuffer = np.array([constants["idx"], constants["count"]], np.uint32).tobytes()

    module = compile_source(source, f"{name}.hlsl", Options(wave_size=wave), Diagnostics())
    reference = run_wave(module, buffers={"o": np.zeros(wave, np.uint32)}, cbuffers={"C": cbuffer})
    expected = np.asarray(reference.buffers["o"]).view(np.uint32)

    kernel = shc.compile(source, wave_size=wave)
    jit = np.zeros(wave, np.uint32)
    kernel.dispatch((1, 1, 1), o=jit, **constants)

    function = select(module)
    allocate(function)
    listing = simulate(function, module, buffers={"o": np.zeros(wave, np.uint32)}, cbuffers={"C": cbuffer})
    simulated = np.asarray(listing.buffers["o"]).view(np.uint32)

    assert np.count_nonzero(expected) > wave // 2  # the kernel computed something per lane
    assert np.array_equal(jit, expected), np.flatnonzero(jit != expected)[:8]
    assert np.array_equal(simulated, expected), np.flatnonzero(simulated != expected)[:8]


def test_the_uniform_scratch_read_is_per_lane():
    """The reported case, by value: lane i sums i * (1 + 2 + 3 + 4)."""
    source = _source(KERNELS["scratch_uniform_index_in_loop"], 32)
    out = np.zeros(32, np.uint32)
    shc.compile(source, wave_size=32).dispatch((1, 1, 1), o=out, idx=0, count=0)
    assert out.tolist() == [10 * lane for lane in range(32)]


@pytest.mark.parametrize("wave", [32, 64])
def test_select_and_or_values(wave):
    """select/and/or by value against a NumPy model of the same kernel, at both wave sizes."""
    source = _source(KERNELS["select_and_or_vectors"], wave)
    out = np.zeros(wave, np.uint32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), o=out, idx=2, count=3)
    tid = np.arange(wave, dtype=np.int64)
    v = np.stack([tid, tid * 3 + 1, 2 + tid % 5])
    big, odd = v > 7, (v & 1) != 0
    picked = np.where(big & ~odd, v, v * 2 + 1)
    either = np.where(big | odd, np.array([[1], [2], [3]]), 100)
    s = np.where(tid > 20, picked[0], picked[1]) + either[0] + 10 * either[1] + 100 * either[2] + picked[2]
    s += np.where((tid > 3) & (tid < 40), 1000, 0) + np.where((tid == 0) | (tid == 63), 5000, 0)
    assert out.tolist() == s.tolist()


def test_select_and_or_evaluate_both_arms():
    out = np.zeros(32, np.uint32)
    shc.compile(_source(KERNELS["select_and_or_evaluate_both_arms"], 32), wave_size=32).dispatch(
        (1, 1, 1), o=out, idx=0, count=0)
    tid = np.arange(32)
    # every side effect runs: 1 + 10 + 100 + 1000, and w is the sum after the arm it picks
    w = np.where(tid & 1, 111, 1111)
    assert out.tolist() == (1111 + np.where(tid > 5, 7, 0) + 70 + w + (tid & 3)).tolist()


@pytest.mark.parametrize("wave", [32, 64])
def test_a_scalar_condition_short_circuits_vector_arms(wave):
    """`tid <= 1 ? WaveActiveSum(uint2(1, 1)) : 0`: two lanes take the sum, so it is 2 (was 4,
    then every lane, both arms evaluated)."""
    source = _source(KERNELS["conditional_with_vector_wave_op_arms"], wave)
    out = np.zeros(wave, np.uint32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), o=out, idx=0, count=0)
    odd = np.arange(wave) % 2 == 1
    lanes = np.arange(wave)
    prefix_x = np.cumsum(np.where(odd, lanes, 0)) - np.where(odd, lanes, 0)  # exclusive, odd lanes only
    prefix_y = np.cumsum(odd) - odd
    b = np.where(lanes <= 1, 2, 0)
    c_x, c_y = np.where(odd, prefix_x, 7), np.where(odd, prefix_y, 7)
    assert out.tolist() == (lanes + 1 + b * 1100 + c_x * 7 + c_y * 100000).tolist()



@pytest.mark.parametrize("wave", [32, 64])
def test_wave_match_compares_float_bits(wave):
    """WaveMatch of +0.0, -0.0 and one NaN: three partitions (``==`` would merge the zeros and
    split the NaN lanes), by value against the lane model."""
    body = """
        float x = (tid % 3 == 0) ? 0.0 : ((tid % 3 == 1) ? -0.0 : asfloat(0x7fc00001u));
        uint4 m = WaveMatch(x);
        o[tid] = m.x ^ (m.y * 3);
    """
    out = np.zeros(wave, np.uint32)
    shc.compile(_source(body, wave), wave_size=wave).dispatch((1, 1, 1), o=out, idx=0, count=0)
    x = np.array([0.0, -0.0, np.nan], np.float32)[np.arange(wave) % 3]
    x[np.arange(wave) % 3 == 2] = np.array(0x7FC00001, np.uint32).view(np.float32)
    m = wm.wave_match(x, np.ones(wave, bool)).values
    assert len(set(m[:3, 0].tolist())) == 3
    assert out.tolist() == (m[:, 0] ^ (m[:, 1] * np.uint32(3))).tolist()
