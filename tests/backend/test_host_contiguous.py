"""The host JIT's inline path for back-to-back lane accesses (``host/contiguous.py``).

A wave whose lanes read or write consecutive elements, all in bounds on the active lanes,
is one vector load or store inline (masked by the exec mask when lanes are off); anything
else calls the out-of-line helper. Both must give what the interpreter gives: out-of-bounds
reads 0, writes dropped, inactive lanes never touching memory.
"""

from __future__ import annotations

import os
import re
import sys

import numpy as np
import pytest

pytest.importorskip("llvmlite.binding")

from shc.compiler.backend.host.module import build_host_module

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import WAVE_SIZES, assert_same, cbuffer_bytes, compile_hlsl, run_both

SENTINEL = 0xDEADBEEF

CONTIGUOUS = """
cbuffer Params : register(b0) { uint shift; uint cut; };
StructuredBuffer<uint> src : register(t0);
StructuredBuffer<float4> src4 : register(t1);
StructuredBuffer<uint16_t> src16 : register(t2);
RWStructuredBuffer<uint> whole : register(u0);
RWStructuredBuffer<uint> some : register(u1);
RWStructuredBuffer<float4> out4 : register(u2);
RWStructuredBuffer<uint16_t> out16 : register(u3);
RWStructuredBuffer<uint> tail : register(u4);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    whole[i] = src[i + shift];                   // lanes past src's end read 0
    if (i % 4 != 3)                               // lanes off: masked, the others untouched
        some[i] = src[i] * 3;
    if (i < cut)                                  // off lanes past the end: never touched
        tail[i + shift] = src[i + shift] + 1;
    out4[i] = src4[i + shift] * 2;                // four words a lane, the end cuts the wave
    if (i % 2 == 0)                               // 16-bit words with lanes off
        out16[i] = src16[i] + (uint16_t)1;
}
"""


def _buffers(threads: int) -> dict:
    rng = np.random.default_rng(threads)
    return {"src": rng.integers(0, 1 << 31, threads + 3, dtype=np.uint32),
            "src4": rng.uniform(-4, 4, (threads + 3, 4)).astype(np.float32),
            "src16": rng.integers(0, 1 << 15, threads, dtype=np.uint16),
            "whole": np.full(threads, SENTINEL, np.uint32), "some": np.full(threads, SENTINEL, np.uint32),
            "out4": np.zeros((threads, 4), np.float32), "out16": np.full(threads, 7, np.uint16),
            "tail": np.full(threads + 3, SENTINEL, np.uint32)}


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("shift", [0, 3, 5])
def test_back_to_back_lanes_follow_d3d12(wave_size, shift):
    threads = wave_size
    cut = threads - 2
    buffers = _buffers(threads)
    actual, expected, _ = run_both(CONTIGUOUS.replace("NT", str(threads)), wave_size, buffers,
                                   {"Params": cbuffer_bytes(shift, cut)})
    assert_same(actual, expected)
    src, lanes = buffers["src"], np.arange(threads)
    read = np.where(lanes + shift < len(src), src[np.minimum(lanes + shift, len(src) - 1)], 0)
    assert actual["whole"].tolist() == read.tolist()
    some = np.where(lanes % 4 != 3, src[:threads] * np.uint32(3), SENTINEL)
    assert actual["some"].tolist() == some.tolist()
    tail = np.full(threads + 3, SENTINEL, np.uint32)  # lanes cut .. threads - 1 are off
    on = lanes[(lanes < cut) & (lanes + shift < threads + 3)]
    tail[on + shift] = src[on + shift] + np.uint32(1)
    assert actual["tail"].tolist() == tail.tolist()
    out16 = np.where(lanes % 2 == 0, buffers["src16"] + np.uint16(1), 7)
    assert actual["out16"].tolist() == out16.tolist()


def test_back_to_back_accesses_are_inline_vector_accesses():
    kernel = build_host_module(compile_hlsl(CONTIGUOUS.replace("NT", "32"), 32))
    body = kernel.llvm_ir[kernel.llvm_ir.index(f"@{kernel.entry}("):]  # the kernel, not the helpers
    assert re.search(r"= load <32 x i32>, ptr %v\d+, align 1", body)  # whole[i] = src[i + shift]: every lane on
    assert re.search(r"call <32 x i32> @llvm\.masked\.load\.v32i32", body)  # lanes off
    assert re.search(r"call void @llvm\.masked\.store\.v32i32", body)
    assert re.search(r"= load <128 x float>, ptr %v\d+, align 1", body)  # float4 lanes: one load of 128 words
    assert re.search(r"store <128 x float> %v\d+, ptr %v\d+, align 1", body)


STREAMING = """
cbuffer Params : register(b0) { uint rows; };
StructuredBuffer<uint4> src : register(t0);
RWStructuredBuffer<uint4> dst : register(u0);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex) {
    uint4 sum = 0;
    for (uint row = 0; row < rows; ++row) {      // the wave walks its rows: a stream
        sum += src[row * NT + i];                 // the last row runs past src's end
        dst[row * NT + i] = sum;
    }
    dst[rows * NT + i] = src[i] + 1;              // outside the loop: no stream
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
def test_accesses_in_a_loop_prefetch_along_their_stream(wave_size):
    """A back-to-back access inside a loop prefetches the lines of its access four of its
    steps ahead (for writing when it stores); one outside loops does not. Results as ever."""
    threads, rows = wave_size, 6
    source = STREAMING.replace("NT", str(threads))
    src = np.random.default_rng(rows).integers(0, 1 << 32, (rows * threads - 3, 4), dtype=np.uint32)
    buffers = {"src": src, "dst": np.zeros(((rows + 1) * threads, 4), np.uint32)}
    actual, expected, _ = run_both(source, wave_size, buffers, {"Params": cbuffer_bytes(rows)})
    assert_same(actual, expected)
    padded = np.concatenate([src, np.zeros((3, 4), np.uint32)]).reshape(rows, threads, 4)
    assert actual["dst"][:rows * threads].tolist() == np.cumsum(padded, axis=0, dtype=np.uint32).reshape(-1, 4).tolist()
    kernel = build_host_module(compile_hlsl(source, wave_size))
    body = kernel.llvm_ir[kernel.llvm_ir.index(f"@{kernel.entry}("):]
    lines = wave_size * 16 // 64  # the lines of one wave-wide uint4 access
    assert len(re.findall(r"call void @llvm\.prefetch\.p0\(ptr %v\d+, i32 0, i32 3, i32 1\)", body)) == lines
    assert len(re.findall(r"call void @llvm\.prefetch\.p0\(ptr %v\d+, i32 1, i32 3, i32 1\)", body)) == lines


LANE_ORDERED = """
cbuffer Params : register(b0) { uint shift; };
StructuredBuffer<uint> src : register(t0);
StructuredBuffer<uint4> src4 : register(t1);
RWStructuredBuffer<uint> whole : register(u0);
RWStructuredBuffer<uint4> out4 : register(u1);
RWStructuredBuffer<uint> back : register(u2);
RWStructuredBuffer<uint> ids : register(u3);
[numthreads(NT, 1, 1)]
void main(uint i : SV_GroupIndex, uint3 id : SV_DispatchThreadID) {
    whole[i] = src[i + shift];                            // wraps past 2^32 inside the wave
    out4[i] = src4[WaveGetLaneIndex() + shift] + 1;       // index * 16 overflows i32
    back[i - shift] = src[i];
    ids[id.x] = src[WaveReadLaneFirst(i) + WaveGetLaneIndex()];
}
"""


@pytest.mark.parametrize("wave_size", WAVE_SIZES)
@pytest.mark.parametrize("shift", [0, 3, 2 ** 32 - 8, 2 ** 32 - 3, 2 ** 28, 2 ** 30, 2 ** 31 - 1])
def test_lane_ordered_indices_keep_the_d3d12_rules(wave_size, shift):
    """Indices in lane order by construction (``lane_order.py``) skip the lane test; an index
    that wraps past 2^32 inside the wave, or whose byte offset overflows, still reads 0 and
    drops its writes lane by lane, as the interpreter does."""
    threads = 2 * wave_size
    rng = np.random.default_rng(shift % 1000)
    buffers = {"src": rng.integers(0, 1 << 32, threads - 3, dtype=np.uint32),
               "src4": rng.integers(0, 1 << 32, (threads - 3, 4), dtype=np.uint32),
               "whole": np.full(threads, SENTINEL, np.uint32), "out4": np.zeros((threads, 4), np.uint32),
               "back": np.full(threads + 8, SENTINEL, np.uint32), "ids": np.full(threads, SENTINEL, np.uint32)}
    actual, expected, _ = run_both(LANE_ORDERED.replace("NT", str(threads)), wave_size, buffers,
                                   {"Params": cbuffer_bytes(shift)})
    assert_same(actual, expected)
    src, src4 = buffers["src"], buffers["src4"]
    index = [(lane + shift) % 2 ** 32 for lane in range(threads)]
    assert actual["whole"].tolist() == [int(src[k]) if k < len(src) else 0 for k in index]
    lane_index = [(lane % wave_size + shift) % 2 ** 32 for lane in range(threads)]
    assert actual["out4"].tolist() == [(src4[k] + np.uint32(1)).tolist() if k < len(src4) else [1, 1, 1, 1]
                                       for k in lane_index]
    back = [SENTINEL] * (threads + 8)
    for lane in range(threads):
        target = (lane - shift) % 2 ** 32
        if target < len(back):
            back[target] = int(src[lane]) if lane < len(src) else 0
    assert actual["back"].tolist() == back
    assert actual["ids"].tolist() == [int(src[lane]) if lane < len(src) else 0 for lane in range(threads)]


SCATTERED = """
StructuredBuffer<uint> src : register(t0);
RWStructuredBuffer<uint> dst : register(u0);
[numthreads(8, 8, 1)]
void main(uint i : SV_GroupIndex, uint3 id : SV_DispatchThreadID) {
    dst[id.x] = src[i * 2];                      // neither index is in lane order by construction
}
"""


def test_only_indices_in_lane_order_skip_the_lane_test():
    """The lane test (offsets compared with the first lane's, then reduced) is emitted for
    indices the JIT cannot prove in lane order, and not for those it can."""
    def kernel_body(source: str) -> str:
        kernel = build_host_module(compile_hlsl(source, 32))
        return kernel.llvm_ir[kernel.llvm_ir.index(f"@{kernel.entry}("):]
    ordered = kernel_body(LANE_ORDERED.replace("NT", "64"))
    assert "llvm.vector.reduce.and" not in ordered
    assert len(re.findall(r"= load <32 x i32>, ptr %v\d+, align 1", ordered)) == 3  # whole, back, ids: inline
    assert "llvm.vector.reduce.and" in kernel_body(SCATTERED)
    assert "llvm.vector.reduce.and" in kernel_body(LANE_ORDERED.replace("NT", "48"))  # id.x: rows of 48 lanes
