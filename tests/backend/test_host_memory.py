"""The host JIT, memory: groupshared memory and barriers, the watchdog, D3D12
out-of-bounds rules, atomics and per-lane scratch arrays.

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
from shc.compiler.ir.reader import read_module  # noqa: E402
from shc.compiler.machine.abi import Status  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, Group, assert_same, compile_hlsl, run_both  # noqa: E402


# ---------------------------------------------------------------------------------------
# groupshared memory and barriers: waves run region by region
# ---------------------------------------------------------------------------------------

LDS_ROUNDS = """
RWStructuredBuffer<uint> result : register(u0);
groupshared uint tile[NT];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint acc = i;
    float f = i * 0.5;
    half h = (half)(i % 16) * (half)0.5;          // 16-bit and bool values live across the barriers
    bool odd = (i & 1) != 0;
    for (uint round = 0; round < 4; ++round) {   // a uniform loop with two barriers
        tile[i] = acc * 3 + round;
        GroupMemoryBarrierWithGroupSync();
        acc += tile[(i + 1 + round * 7) % NT];
        f = f * 1.5 + acc;
        GroupMemoryBarrierWithGroupSync();
    }
    result[i] = (acc ^ (uint)f) + (odd ? (uint)(h * (half)4) : 7u);
}
"""


def lds_rounds_expected(threads: int) -> np.ndarray:
    acc = np.arange(threads, dtype=np.uint32)
    f = np.arange(threads, dtype=np.float32) * np.float32(0.5)
    lanes = np.arange(threads)
    for round_ in range(4):
        tile = acc * np.uint32(3) + np.uint32(round_)
        acc = acc + tile[(lanes + 1 + round_ * 7) % threads]
        f = f * np.float32(1.5) + acc.astype(np.float32)
    odd = (lanes & 1) != 0
    bonus = np.where(odd, (lanes % 16) * 2, 7).astype(np.uint32)
    return (acc ^ f.astype(np.uint32)) + bonus


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("waves", [2, 1.5], ids=["two-waves", "partial-wave"])
def test_lds_and_barriers_in_a_uniform_loop(wave_size, waves):
    threads = int(waves * wave_size)
    module = compile_hlsl(LDS_ROUNDS.replace("NT", str(threads)), wave_size)
    kernel = build_host_module(module)
    assert kernel.barriers == 2 and kernel.frame_bytes > 64
    group = Group(kernel)
    result = np.zeros(threads, np.uint32)
    assert group.run({"result": result}) == Status.DONE
    assert group.rounds == 9  # 8 barriers, then the end
    np.testing.assert_array_equal(result, lds_rounds_expected(threads))


DIVERGENT_BARRIER = """
resource @data RWStructuredBuffer<uint> u0 space0
func @main numthreads(W, 1, 1) waveW {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = buffer_load uint %0 {resource="data"}
  %2 = const uint {value=0}
  %3 = ne bool %1, %2
  selection ^end
  cond_br %3, ^then, ^end
^then:
  barrier {scope="group", sync=true}
  buffer_store %0, %2 {resource="data"}
  br ^end
^end:
  ret
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_barrier_reached_by_part_of_the_wave(wave_size):
    module = read_module(DIVERGENT_BARRIER.replace("W", str(wave_size)))
    group = Group(build_host_module(module))
    data = np.ones(wave_size, np.uint32)
    assert group.run({"data": data}) == Status.DONE and group.rounds == 2 and not data.any()
    data = np.ones(wave_size, np.uint32)
    data[5] = 0
    assert group.run({"data": data}) == Status.DIVERGENT_BARRIER


WATCHDOG = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint> result : register(u0);
[numthreads(32, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint n = 0;
    while (data[0] == 0) { n += 1; }    // never ends for data[0] == 0
    result[i] = n;
}
"""


def test_watchdog_stops_a_runaway_loop():
    group = Group(build_host_module(compile_hlsl(WATCHDOG, 32)))
    result = np.zeros(32, np.uint32)
    assert group.run({"data": np.zeros(1, np.uint32), "result": result}, stop=True) == Status.STOPPED
    assert group.run({"data": np.ones(1, np.uint32), "result": result}, stop=False) == Status.DONE


# ---------------------------------------------------------------------------------------
# D3D12 robustness: out-of-bounds reads give 0, writes are dropped
# ---------------------------------------------------------------------------------------

OUT_OF_BOUNDS = """
cbuffer Params : register(b0) { uint limit; uint pad[3]; uint4 table[2]; };
ByteAddressBuffer raw : register(t0);
StructuredBuffer<float2> pairs : register(t1);
RWByteAddressBuffer rawOut : register(u0);
RWStructuredBuffer<uint> result : register(u1);
RWStructuredBuffer<uint> arrays[2] : register(u2);
groupshared uint tile[8];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint2 a = raw.Load2(i * 6);                      // unaligned; past the end reads 0
    rawOut.Store3(i * 10, uint3(a, i));              // past the end is dropped
    float2 p = pairs[i * 3];
    tile[i % 8] = i;
    uint s = tile[i];                              // past the groupshared array: 0
    tile[i + 4] = s + 1;                           // dropped past its end
    result[i * 2] = a.x ^ a.y ^ s;
    result[i * 2 + 1] = asuint(p.x + p.y) + table[i % 3].y;
    arrays[i % 3][i] = i + 1;                        // element 2 does not exist: dropped
    arrays[NonUniformResourceIndex(i % 3)][i + 40] = arrays[i % 3][i / 2] + limit;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_out_of_bounds_accesses_follow_d3d12(wave_size):
    threads = wave_size
    source = OUT_OF_BOUNDS.replace("NT", str(threads))
    rng = np.random.default_rng(5)
    params = struct.pack("<4I", 7, 0, 0, 0) + np.arange(8, dtype=np.uint32).tobytes()
    buffers = {"raw": rng.integers(0, 1 << 32, 50, dtype=np.uint32),
               "pairs": rng.uniform(-1, 1, (20, 2)).astype(np.float32),
               "rawOut": np.zeros(60, np.uint32), "result": np.zeros(2 * threads, np.uint32),
               "arrays": [np.zeros(100, np.uint32), np.zeros(70, np.uint32)]}
    actual, expected, _ = run_both(source, wave_size, buffers, {"Params": params})
    assert_same(actual, expected)


SCATTERED_WORDS = """
StructuredBuffer<float4> src4 : register(t0);
StructuredBuffer<uint3> src3 : register(t1);
StructuredBuffer<double2> src2 : register(t2);
RWStructuredBuffer<float4> out4 : register(u0);
RWStructuredBuffer<uint4> out3 : register(u1);
RWStructuredBuffer<double2> out2 : register(u2);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint at = (i * 7) % (NT + 5);                    // scattered; some lanes past the end read 0
    float4 f = 0;
    if (i % 3 != 1)                                  // a third of the lanes off
        f = src4[at];
    out4[i] = f;
    out3[i] = uint4(src3[NT + 4 - at], i);           // three words a lane
    out2[i] = src2[at / 2] * 2.0;                    // 64-bit words
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_scattered_lanes_load_their_words_in_one_load(wave_size):
    """A load of several words a lane at scattered offsets: each lane's words in one vector
    load (off lanes from a zeroed stack slot), then split by word; no gather of single words."""
    threads = wave_size
    source = SCATTERED_WORDS.replace("NT", str(threads))
    rng = np.random.default_rng(wave_size)
    buffers = {"src4": rng.uniform(-4, 4, (threads, 4)).astype(np.float32),
               "src3": rng.integers(0, 1 << 32, (threads, 3), dtype=np.uint32),
               "src2": rng.uniform(-4, 4, (threads, 2)),
               "out4": np.full((threads, 4), 9.0, np.float32), "out3": np.zeros((threads, 4), np.uint32),
               "out2": np.zeros((threads, 2))}
    actual, expected, _ = run_both(source, wave_size, buffers)
    assert_same(actual, expected)
    lanes = np.arange(threads)
    at = lanes * 7 % (threads + 5)
    inside = (at < threads) & (lanes % 3 != 1)
    want = np.where(inside[:, None], buffers["src4"][np.minimum(at, threads - 1)], 0)
    assert actual["out4"].tolist() == want.tolist()
    helpers = build_host_module(compile_hlsl(source, wave_size)).llvm_ir
    for words in (f"4xf32.{wave_size}", f"3xi32.{wave_size}", f"2xf64.{wave_size}"):
        helper = helpers[helpers.index(f"@shc.load.{words}("):]
        helper = helper[:helper.index("\n}")]
        assert "llvm.masked.gather" not in helper
    assert "load <4 x float>, ptr" in helpers and "load <3 x i32>, ptr" in helpers


COLLIDING_STORES = """
RWStructuredBuffer<float4> out4 : register(u0);
RWStructuredBuffer<uint2> out2 : register(u1);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    if (i % 3 != 1)                                  // a third of the lanes off
        out4[i / 4] = float4(i, i * 2, -(float)i, 0.5);  // four lanes per element
    out2[(i * 7) % 5] = uint2(i, i + 100);           // collisions in scattered order
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_lanes_storing_to_the_same_element_land_in_lane_order(wave_size):
    threads = wave_size
    buffers = {"out4": np.zeros((threads // 4, 4), np.float32), "out2": np.zeros((5, 2), np.uint32)}
    actual, expected, _ = run_both(COLLIDING_STORES.replace("NT", str(threads)), wave_size, buffers)
    assert_same(actual, expected)
    lanes = np.arange(threads)
    for element in range(threads // 4):  # the highest active lane of each element wins
        writer = max(lane for lane in lanes[4 * element:4 * element + 4] if lane % 3 != 1)
        assert actual["out4"][element].tolist() == [writer, 2 * writer, -writer, 0.5]
    for element in range(5):
        writer = max(lane for lane in lanes if lane * 7 % 5 == element)
        assert actual["out2"][element].tolist() == [writer, writer + 100]


# ---------------------------------------------------------------------------------------
# atomics
# ---------------------------------------------------------------------------------------

ATOMICS = """
RWStructuredBuffer<uint> counter : register(u0);
RWStructuredBuffer<int> result : register(u1);
groupshared int tile[4];
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint old;
    InterlockedAdd(counter[0], i + 1, old);
    int a, b, c, d, e;
    InterlockedMin(tile[1], (int)i * 7 - 100, a);
    InterlockedMax(tile[2], (int)(i * 13 % 17), b);
    InterlockedCompareExchange(tile[3], (int)(i % 4), (int)i + 1, c);
    InterlockedExchange(tile[0], (int)i, d);
    InterlockedXor(counter[1], 1u << (i % 32));
    InterlockedOr(counter[2], i * 3);
    uint f;
    InterlockedMax(counter[3], i * 0x9E3779B9u, f);
    InterlockedAdd(counter[100], 1u, e);             // out of bounds: no effect, returns 0
    result[i * 6] = (int)old;
    result[i * 6 + 1] = a;
    result[i * 6 + 2] = b;
    result[i * 6 + 3] = c;
    result[i * 6 + 4] = d + e;
    result[i * 6 + 5] = (int)f;
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_atomics_run_lane_by_lane(wave_size):
    threads = wave_size - 5
    source = ATOMICS.replace("NT", str(threads))
    buffers = {"counter": np.array([10, 0, 0, 0], np.uint32), "result": np.zeros(6 * threads, np.int32)}
    actual, expected, group = run_both(source, wave_size, buffers)
    assert_same(actual, expected)
    assert group.stats["atomics"] == 9


ATOMIC_COUNTER = """
RWStructuredBuffer<uint> counter : register(u0);
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex) {
    for (uint k = 0; k < 100; ++k) {
        InterlockedAdd(counter[0], 1u);
    }
}
"""


def test_atomics_are_atomic_across_host_threads():
    import threading
    first = Group(build_host_module(compile_hlsl(ATOMIC_COUNTER, 32)))
    counter = np.zeros(1, np.uint32)
    groups = [first] + [Group(first.kernel, compiled=first) for _ in range(3)]
    threads = [threading.Thread(target=group.run, args=({"counter": counter},)) for group in groups]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counter[0] == 4 * 64 * 100


# ---------------------------------------------------------------------------------------
# per-lane scratch arrays
# ---------------------------------------------------------------------------------------


SCRATCH = """
StructuredBuffer<uint> data : register(t0);
RWStructuredBuffer<uint> result : register(u0);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    float4 v[8];
    uint w[5];
    for (uint k = 0; k < 8; ++k) v[k] = float4(k, i, k * i, 1);
    for (uint m = 0; m < 5; ++m) w[m] = data[(i + m) % NT];
    uint j = data[i] % 8;
    v[j].y += 100;
    result[i] = (uint)v[(j + 3) % 8].y + (uint)v[j].y + w[j % 5] + w[data[i] % 7];   // w[5], w[6]: past the end
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_scratch_arrays_match_interpreter(wave_size):
    threads = wave_size + 16
    source = SCRATCH.replace("NT", str(threads))
    module = compile_hlsl(source, wave_size)
    assert any(inst.op.value == "scratch_store" for inst in module.function.instructions())
    data = np.random.default_rng(4).integers(0, 1000, threads).astype(np.uint32)
    actual, expected, _ = run_both(source, wave_size, {"data": data, "result": np.zeros(threads, np.uint32)},
                                   module=module)
    assert_same(actual, expected)
