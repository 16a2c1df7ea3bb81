"""Matrices in AST lowering (compiler/ir/lower_matrices.py): values as arrays of rows, every
``mul`` shape, swizzles, conversions and element-wise operations against NumPy on the IR
interpreter and the RDNA2 listing simulator, and the memory layouts: constant buffers
(column_major rows, ``row_major``), structured buffers (DXC's column_major), groupshared
memory and scratch."""

from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.lower.from_ast import Lowerer, lower
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.ir.ops import Op
from shc.compiler.ir.printer import print_module
from shc.compiler.pipeline import Options, check_source, compile_source

def lowered(source: str, wave_size: int = 32):
    diagnostics = Diagnostics()
    program = check_source(dedent(source), "kernel.hlsl", Options(), diagnostics)
    module = lower(program, wave_size, diagnostics)
    assert diagnostics.error_count == 0, diagnostics.render()
    return module


def run_everywhere(source: str, wave_size: int, buffers: dict, cbuffers: dict | None = None,
                   listing: bool = True) -> dict:
    """The buffers after one wave: the lowered IR and the optimised IR on the interpreter and
    (``listing``) the RDNA2 listing on its simulator, which must all agree to the bit."""
    cbuffers = cbuffers or {}
    results = [run_wave(lowered(source, wave_size), wave_size, buffers=buffers, cbuffers=cbuffers).buffers]
    module = compile_source(dedent(source), "kernel.hlsl", Options(wave_size=wave_size, verify=True), Diagnostics())
    results.append(run_wave(module, wave_size, buffers=buffers, cbuffers=cbuffers).buffers)
    if not listing:
        return _agree(results, buffers)
    function = select(module)
    allocate(function)
    words = {name: np.frombuffer(data, np.uint32).copy() for name, data in cbuffers.items()}
    # the simulator reads a constant buffer indexed dynamically (buffer_load ... offen) as a buffer
    listing = simulate(function, module, buffers={**buffers, **words}, cbuffers=words)
    results.append(listing.buffers)
    return _agree(results, buffers)


def _agree(results: list[dict], buffers: dict) -> dict:
    for name in buffers:
        reference = np.asarray(results[0][name]).view(np.uint32)
        for other in results[1:]:
            assert np.array_equal(reference, np.asarray(other[name]).view(np.uint32)), name
    return results[0]


# ------------------------------------------------------------ values and mul

VALUES = """
StructuredBuffer<float> src;
RWStructuredBuffer<float> dst;
static const float2x2 K = { 1, 2, 3, 4 };
void put(uint i, inout uint k, float value) { dst[i * 80 + k] = value; k++; }
void put4(uint i, inout uint k, float4 value) { put(i, k, value.x); put(i, k, value.y); put(i, k, value.z);
                                                put(i, k, value.w); }
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float a = src[i], b = src[i + 1], c = src[i + 2], d = src[i + 3];
    float3x4 m = float3x4(a, b, c, d,  b, c, d, a,  c, d, a, b);
    float2x3 n = { a, 1, b, 2, c, 3 };
    float4 v = float4(a, 2, b, -1);
    float3 w = float3(1, c, d);
    uint k = 0;
    put4(i, k, mul(w, m));                           // vector x matrix
    float3 mv = mul(m, v);                           // matrix x vector
    put(i, k, mv.x); put(i, k, mv.y); put(i, k, mv.z);
    float2x4 nm = mul(n, m);                         // matrix x matrix
    put4(i, k, nm[0]); put4(i, k, nm[1]);
    float3x4 scaled = mul(2.0, m) - mul(m, 0.5);     // scalar x matrix
    put4(i, k, scaled[2]);
    put(i, k, mul(a, b)); put4(i, k, mul(v, 3.0));   // scalar and vector forms still work
    float4x3 t = transpose(m);
    put4(i, k, float4(t[0], t[3].z));
    uint r = i % 3;                                  // dynamic rows and elements
    put4(i, k, m[r]);
    put(i, k, m[r][i % 4]);
    float2 picked = m._m01_m20 + m._12_31;           // zero- and one-based swizzles
    put(i, k, picked.x); put(i, k, picked.y);
    put(i, k, m._m01_m20[1] + v.wzyx[2] * 10);      // an index after a swizzle
    m._m00_m11 = float2(7, 8);
    m[2].w = 9;
    m[r].y = 5;
    m._m10_m02 = m._m23_m21;
    put4(i, k, m[0]); put4(i, k, m[1]); put4(i, k, m[2]);
    float2x2 q = (float2x2)m;                         // truncation to the top-left block
    put4(i, k, (float4)q);                           // same count: row-major order
    float2x2 fromv = float2x2(v);
    put(i, k, fromv._21);
    int2x2 im = (int2x2)q;
    im += 3;
    im *= im;
    im++;
    put(i, k, im[0][0]); put(i, k, im[1][1]);
    bool2x2 big = q > 6;
    put(i, k, all(big)); put(i, k, any(big)); put4(i, k, (float4)(float2x2)big);
    float2x2 e = abs(-q) + clamp(q, 1, 3) * q / 2 + K;
    put4(i, k, (float4)e);
    float3x3 n3 = float3x3(n[0], n[1], w);
    put(i, k, mul(n3, w).z);
    put(i, k, K[1][0] + K._m01);
}
"""


def values_expected(src: np.ndarray, lanes: int) -> np.ndarray:
    out = np.zeros((lanes, 80), np.float32)
    f = np.float32
    K = np.array([[1, 2], [3, 4]], f)
    for i in range(lanes):
        a, b, c, d = src[i:i + 4]
        m = np.array([[a, b, c, d], [b, c, d, a], [c, d, a, b]], f)
        n = np.array([[a, 1, b], [2, c, 3]], f)
        v = np.array([a, 2, b, -1], f)
        w = np.array([1, c, d], f)
        values = list(w @ m) + list(m @ v)
        nm = n @ m
        values += list(nm[0]) + list(nm[1])
        values += list((2 * m - m * f(0.5))[2])
        values += [a * b] + list(v * 3)
        t = m.T
        values += list(t[0]) + [t[3][2]]
        r = i % 3
        values += list(m[r]) + [m[r][i % 4]]
        values += [m[0][1] + m[0][1], m[2][0] + m[2][0]]
        values += [m[2][0] + v[1] * 10]
        m = m.copy()
        m[0][0], m[1][1] = 7, 8
        m[2][3] = 9
        m[r][1] = 5
        m[1][0], m[0][2] = m[2][3], m[2][1]
        values += list(m[0]) + list(m[1]) + list(m[2])
        q = m[:2, :2]
        values += list(q.reshape(4))
        values += [v.reshape(2, 2)[1][0]]
        im = q.astype(np.int32) + 3
        im = im * im + 1
        values += [im[0][0], im[1][1]]
        big = q > 6
        values += [float(big.all()), float(big.any())] + list(big.reshape(4).astype(f))
        e = np.abs(-q) + np.clip(q, 1, 3) * q / 2 + K
        values += list(e.reshape(4))
        n3 = np.array([n[0], n[1], w], f)
        values += [(n3 @ w)[2]]
        values += [K[1][0] + K[0][1]]
        out[i, :len(values)] = values
    return out


@pytest.mark.parametrize("wave_size", [32, 64])
def test_matrix_values_mul_swizzles_and_conversions(wave_size):
    src = np.random.default_rng(3).integers(-4, 5, wave_size + 3).astype(np.float32)
    dst = np.zeros(80 * wave_size, np.float32)
    result = run_everywhere(VALUES, wave_size, {"src": src, "dst": dst})["dst"].reshape(wave_size, 80)
    assert np.array_equal(result, values_expected(src, wave_size))


def test_golden_row_major_cbuffer_matrix_swizzle_write_and_vector_times_matrix():
    module = lowered("""
    cbuffer Camera { row_major float2x3 view; };
    RWStructuredBuffer<float3> dst;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {
        float2x3 m = view;                  // row_major: each row is one float3 load
        m._m00_m12 = float2(i, 2 * i);
        dst[i] = mul(float2(1, -1), m);     // the rows scaled by the vector's components, added
    }
    """)
    assert print_module(module, show_coords=False).strip() == dedent("""
        resource @Camera cbuffer b0 space0
        resource @dst RWStructuredBuffer<float3> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=2}
          %2 = const float3 {value=[1.0, 1.0, 1.0]}
          %3 = const float3 {value=[-1.0, -1.0, -1.0]}
          %4 = cbuffer_load float3 {buffer="Camera", offset=0}
          %5 = cbuffer_load float3 {buffer="Camera", offset=16}
          %6 = mul uint %1, %0
          %7 = convert float %0
          %8 = convert float %6
          %9 = insert float3 %4, %7 {index=0}
          %10 = insert float3 %5, %8 {index=2}
          %11 = mul float3 %2, %9
          %12 = mul float3 %3, %10
          %13 = add float3 %11, %12
          buffer_store %0, %13 {resource="dst"}
          ret
        }
    """).strip()


def test_matrices_stay_in_ssa_values_and_a_dynamic_row_is_a_select_chain():
    module = lowered("""
    RWStructuredBuffer<float4> dst;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {
        float3x4 m = float3x4(dst[0], dst[1], dst[2]);
        m[i % 3].x = 1;
        dst[i] = m[i % 3];
    }
    """)
    assert module.scratch_bytes == 0
    text = print_module(module, show_coords=False)
    assert text.count(" select float4 ") == 3 + 2  # a select per row to write, a chain of two to read


def test_an_unrolled_loop_over_matrix_rows_folds_the_indexes():
    module = lowered("""
    RWStructuredBuffer<float4> dst;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {
        float4x4 m = float4x4(dst[i], dst[i + 1], dst[i + 2], dst[i + 3]);
        float4 total = 0;
        for (int r = 0; r < 4; ++r)     // indexes a matrix with the counter: unrolled
            total += m[r] * r;
        dst[i] = total;
    }
    """)
    ops = [inst.op for inst in module.function.instructions()]
    assert Op.SELECT not in ops and not any(block.kind == "loop" for block in module.function.blocks)


# -------------------------------------------------------------------- memory

CBUFFER = """
cbuffer Params
{
    float a;                        // 0
    float3x3 m;                     // 16: three columns, 16 bytes apart, 44 bytes
    row_major float2x3 r;           // 64: two rows, 28 bytes
    float b;                        // 92: fits after r in its last 16-byte row
    float4x1 c;                     // 96: one column of 4
    float1x4 d;                     // 112: four columns of 1, 52 bytes
    int2x2 e;                       // 176: two columns, 24 bytes
    float2x1 g;                     // 200: one stored vector is placed like a float2
    row_major float1x3 h;           // 208: like a float3
};
RWStructuredBuffer<float> dst;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    uint k = i * 32;
    float3 row = m[i % 3];                         // a dynamic row: one element per column
    dst[k + 0] = a; dst[k + 1] = b;
    dst[k + 2] = row.x; dst[k + 3] = row.y; dst[k + 4] = row.z;
    dst[k + 5] = m._m12; dst[k + 6] = r[1].z; dst[k + 7] = r[i % 2][i % 3];
    float3 rv = mul(float2(1, 10), r);
    dst[k + 8] = rv.x; dst[k + 9] = rv.y; dst[k + 10] = rv.z;
    dst[k + 11] = c[3]; dst[k + 12] = d[0][3]; dst[k + 13] = d._m02;
    dst[k + 14] = e[1][0] * 100 + e[0][1];
    float3x3 whole = m;
    dst[k + 15] = whole[2][0] + whole[0][2] * 100;
    dst[k + 16] = g[1]; dst[k + 17] = h._m02;
}
"""

CBUFFER_OFFSETS = {"a": 0, "m": 16, "r": 64, "b": 92, "c": 96, "d": 112, "e": 176, "g": 200, "h": 208}


def test_cbuffer_matrices_pack_column_major_unless_row_major():
    program = check_source(dedent(CBUFFER), "kernel.hlsl", Options(), Diagnostics())
    lowerer = Lowerer(program, 32, Diagnostics())
    offsets = {decl.name: offset for decl, (_, offset) in lowerer.globals.cbuffer_member.items()}
    assert offsets == CBUFFER_OFFSETS
    loads = {(inst.attrs["offset"], str(inst.type)) for inst in lowered(CBUFFER).function.instructions()
             if inst.op is Op.CBUFFER_LOAD and not inst.operands}
    # whole stored vectors where whole rows or matrices are read: m's columns, r's second row
    assert {(16, "float3"), (32, "float3"), (48, "float3"), (80, "float3")} <= loads
    assert (160, "float") in loads  # d[0][3]: the fourth column of d


def pack_cbuffer() -> tuple[bytes, dict]:
    m = np.arange(9, dtype=np.float32).reshape(3, 3) + 1
    r = np.array([[1, 2, 3], [4, 5, 6]], np.float32) * 10
    c = np.array([5, 6, 7, 8], np.float32)
    d = np.array([9, 10, 11, 12], np.float32)
    e = np.array([[1, 2], [3, 4]], np.int32)
    data = np.zeros(224, np.uint8)

    def put(offset, array):
        raw = np.ascontiguousarray(array).tobytes()
        data[offset:offset + len(raw)] = np.frombuffer(raw, np.uint8)

    put(0, np.float32(0.5))
    for col in range(3):
        put(16 + 16 * col, m[:, col])
    for row in range(2):
        put(64 + 16 * row, r[row])
    put(92, np.float32(-2))
    put(96, c)
    for col in range(4):
        put(112 + 16 * col, d[col:col + 1])
    for col in range(2):
        put(176 + 16 * col, e[:, col])
    put(200, np.array([13, 14], np.float32))
    put(208, np.array([15, 16, 17], np.float32))
    return data.tobytes(), {"m": m, "r": r, "c": c, "d": d, "e": e}


@pytest.mark.parametrize("wave_size", [32, 64])
def test_cbuffer_matrices_read_the_right_bytes(wave_size):
    data, values = pack_cbuffer()
    m, r, c, d, e = (values[name] for name in "mrcde")
    dst = np.zeros(32 * wave_size, np.float32)
    result = run_everywhere(CBUFFER, wave_size, {"dst": dst}, {"Params": data})["dst"].reshape(wave_size, 32)
    for i in range(wave_size):
        rv = np.array([1, 10], np.float32) @ r
        expected = [0.5, -2, *m[i % 3], m[1][2], r[1][2], r[i % 2][i % 3], *rv, c[3], d[3], d[2],
                    e[1][0] * 100 + e[0][1], m[2][0] + m[0][2] * 100, 14, 17]
        assert result[i, :len(expected)].tolist() == expected


STRUCTS = """
struct Pose
{
    float2x3 turn;              // column_major (DXC's default): 3 columns of 2, bytes 0..23
    row_major float2x3 move;    // row_major: 2 rows of 3, bytes 24..47
    float weight;               // 48
};
StructuredBuffer<Pose> poses;
StructuredBuffer<float3x2> plain;   // column_major: 2 columns of 3
RWStructuredBuffer<Pose> moved;
RWStructuredBuffer<float> dst;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    Pose pose = poses[i];
    pose.turn = pose.turn * 2 + pose.move;
    pose.move[1] = float3(pose.weight, plain[i][2][1], plain[i]._m10);
    moved[i] = pose;
    moved[i].turn._m02_m10 = float2(-1, -2);     // two elements of a matrix in a buffer, written alone
    dst[i] = plain[i][i % 3][1];                 // a dynamic row of a buffer matrix
}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
def test_structured_buffer_matrices_are_column_major_unless_row_major(wave_size):
    rng = np.random.default_rng(11)
    turn = rng.integers(-9, 9, (wave_size, 2, 3)).astype(np.float32)
    move = rng.integers(-9, 9, (wave_size, 2, 3)).astype(np.float32)
    weight = rng.integers(1, 9, wave_size).astype(np.float32)
    plain = rng.integers(-9, 9, (wave_size, 3, 2)).astype(np.float32)
    poses = np.concatenate([turn.transpose(0, 2, 1).reshape(wave_size, 6), move.reshape(wave_size, 6),
                            weight[:, None]], axis=1)
    memory = np.ascontiguousarray(plain.transpose(0, 2, 1)).reshape(wave_size, 6)
    buffers = {"poses": poses, "plain": memory, "moved": np.zeros_like(poses), "dst": np.zeros(wave_size, np.float32)}
    result = run_everywhere(STRUCTS, wave_size, buffers)
    out_turn = turn * 2 + move
    out_turn[:, 0, 2], out_turn[:, 1, 0] = -1, -2
    out_move = move.copy()
    out_move[:, 1] = np.stack([weight, plain[:, 2, 1], plain[:, 1, 0]], axis=1)
    moved = result["moved"]
    assert np.array_equal(moved[:, :6].reshape(wave_size, 3, 2).transpose(0, 2, 1), out_turn)
    assert np.array_equal(moved[:, 6:12].reshape(wave_size, 2, 3), out_move)
    assert np.array_equal(moved[:, 12], weight)
    assert result["dst"].tolist() == [plain[i, i % 3, 1] for i in range(wave_size)]


SHARED = """
groupshared float3x4 tiles[4];
RWStructuredBuffer<float> dst;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float2x2 local[3];                     // indexed dynamically: scratch memory
    for (uint s = 0; s < 3; s++)
        local[s] = float2x2(i, s, 2 * s, i + s);
    if (i < 4)
        tiles[i] = float3x4(i, 1, 2, 3,  4, 5, 6, 7,  8, 9, 10, i * 2);
    GroupMemoryBarrierWithGroupSync();
    float3x4 m = tiles[i % 4];
    tiles[0]._m21 = 0;
    dst[i] = m[2][3] * 1000 + m._m01 * 100 + local[i % 3][1][0] * 10 + local[(i + 1) % 3]._m11;
}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
def test_groupshared_and_scratch_matrices(wave_size):
    module = lowered(SHARED, wave_size)
    assert module.scratch_bytes == 3 * 16 and module.lds_bytes == 4 * 48
    dst = np.zeros(wave_size, np.float32)
    result = run_everywhere(SHARED, wave_size, {"dst": dst}, listing=False)["dst"]  # no scratch in the simulator
    expected = [(i % 4) * 2 * 1000 + 100 + 2 * (i % 3) * 10 + (i + (i + 1) % 3) for i in range(wave_size)]
    assert result.tolist() == expected
