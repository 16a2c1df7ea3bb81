"""Texture loads and stores prefetch for the group's next wave (host_memory._prefetch_text), and
so do back-to-back buffer accesses outside loops (prefetch.prefetch_next_wave).

Prefetching is a hint: these tests check that results do not depend on it where the
predicted addresses fall outside the texture or jump around, and that it is emitted
only where it belongs.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import shc
from shc.compiler.backend.host.module import build_host_module
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_source

TILED = """
Texture2D<float4> src : register(t0);
RWTexture2D<float4> dst : register(u0);
globallycoherent RWTexture2D<float4> flag : register(u1);

[numthreads(8, 8, 1)]
void main(uint3 group : SV_GroupID, uint3 thread : SV_GroupThreadID)
{
    // lanes read a transposed, strided 8 x 8 block of their group's 16 x 16 tile (a scattered
    // access); the last groups step past the texture's edge, which reads 0 and drops the write
    uint2 at = group.xy * 16 + thread.yx * 2;
    float4 sum = src[at] + src[at + uint2(1, 1)];
    dst[group.xy * 8 + thread.xy] = sum + flag[uint2(thread.x % 2, 0)];
}
"""


def _expected(source: np.ndarray, flag: np.ndarray, groups: tuple[int, int]) -> np.ndarray:
    height, width = source.shape[:2]
    out_h, out_w = groups[1] * 8, groups[0] * 8

    def texel(y, x):
        inside = (y < height) & (x < width)
        return np.where(inside[..., None], source[np.minimum(y, height - 1), np.minimum(x, width - 1)], 0)

    gy, gx = np.meshgrid(np.arange(out_h), np.arange(out_w), indexing="ij")
    # thread (tx, ty) of group (bx, by) writes (bx*8 + tx, by*8 + ty) from (bx*16 + ty*2, by*16 + tx*2)
    x = (gx // 8) * 16 + (gy % 8) * 2
    y = (gy // 8) * 16 + (gx % 8) * 2
    return texel(y, x) + texel(y + 1, x + 1) + flag[0, gx % 2]


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("threads", [1, 2])
def test_tiled_reads_and_writes_are_exact(wave_size, threads):
    kernel = shc.compile(TILED, wave_size=wave_size)
    rng = np.random.default_rng(wave_size + threads)
    source = rng.random((70, 90, 4), dtype=np.float32)  # groups past 64 x 80 read partly outside
    flag = np.array([[[0.5] * 4, [0.25] * 4]], np.float32)
    groups = (6, 5)
    for _ in range(2):  # the second dispatch starts from a fresh history
        out = np.full((groups[1] * 8, groups[0] * 8, 4), np.nan, np.float32)
        kernel.dispatch((*groups, 1), src=source, dst=out, flag=flag, threads=threads)
        np.testing.assert_array_equal(out, _expected(source, flag, groups))


BUFFERS = """
StructuredBuffer<float4> src : register(t0);
RWStructuredBuffer<float4> dst : register(u0);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    dst[id.x * 3] = src[id.x * 2];  // strided, so the helpers' scattered paths are in use
}
"""


def _host_ir(source: str) -> str:
    module = compile_source(source, "kernel.hlsl", Options(wave_size=32), Diagnostics())
    return build_host_module(module).llvm_ir


def test_texture_loads_and_stores_prefetch():
    text = _host_ir(TILED)
    calls = [line for line in text.splitlines() if "call " in line and "@shc." in line]
    assert any("@shc.load.4xf32.32.prefetch(" in line for line in calls)
    assert any("@shc.store.4xf32.32.prefetch(" in line for line in calls)
    assert "call void @llvm.prefetch.p0" in text
    # a globallycoherent texture is read as it is now, never ahead
    assert any("@shc.load.4xf32.32.coherent(" in line for line in calls)
    assert not any(".coherent.prefetch" in line for line in calls)


def test_buffer_helpers_do_not_prefetch():
    # the scattered path of a buffer access calls the plain helpers; only the inline fast path
    # (lanes back to back) prefetches, for the group's next wave (the next tests)
    text = _host_ir(BUFFERS)
    assert ".prefetch(" not in text
    helpers = [f for f in text.split("\ndefine ") if f.startswith(("internal", "private")) and "@shc." in f[:80]]
    assert helpers and not any("@llvm.prefetch" in helper for helper in helpers)


TILED_BUFFERS = """
cbuffer Size : register(b0) { uint width; uint height; };
StructuredBuffer<float> src : register(t0);
RWStructuredBuffer<float> dst : register(u0);

[numthreads(WIDTH, ROWS, 1)]
void main(uint3 group : SV_GroupID, uint3 thread : SV_GroupThreadID)
{
    // each wave reads a row piece and writes it one row further down: rows are back to back
    // within a wave, a row apart from one wave to the next (the lines no hardware stream covers)
    uint x = group.x * WIDTH + thread.x;
    uint y = group.y * ROWS + thread.y;
    if (x < width)
        dst[(y + 1) * width + x] = src[y * width + x] * 2;
}
"""


def _tiled_buffers(wave_size: int, rows: int) -> str:
    return TILED_BUFFERS.replace("WIDTH", str(wave_size)).replace("ROWS", str(rows))


@pytest.mark.parametrize("wave_size", [32, 64])
def test_buffer_fast_paths_prefetch_for_the_next_wave(wave_size):
    text = _host_ir(_tiled_buffers(32, 4)) if wave_size == 32 else None
    if text is not None:
        kernel_text = text[text.index("define i32 @shc_wave"):]
        lines = 32 * 4 // 64 + 1  # a wave's 128 bytes: two lines, and the last byte's (any alignment)
        assert len(re.findall(r"call void @llvm\.prefetch\.p0\(ptr %v\d+, i32 0, i32 3, i32 1\)", kernel_text)) == lines
        assert len(re.findall(r"call void @llvm\.prefetch\.p0\(ptr %v\d+, i32 1, i32 3, i32 1\)", kernel_text)) == lines
    # a one-wave group does not (its groups follow each other: the hardware streams those)
    assert "@llvm.prefetch" not in _host_ir(_tiled_buffers(32, 1))
    kernel = shc.compile(_tiled_buffers(wave_size, 4), wave_size=wave_size)
    width, height = wave_size * 3 - 5, 4 * 5  # the last column of groups is partly outside
    src = np.random.default_rng(wave_size).random((height, width), dtype=np.float32)
    for threads in (1, 2):
        for _ in range(2):  # the second dispatch starts from a fresh history
            dst = np.full((height + 1, width), -1.0, np.float32)  # the last group writes past the end
            kernel.dispatch((3, 5, 1), src=src.reshape(-1), dst=dst.reshape(-1)[:height * width],
                            width=width, height=height, threads=threads)
            expected = np.full_like(dst, -1.0)
            expected[1:height] = src[:height - 1] * 2
            np.testing.assert_array_equal(dst, expected)


def _many_sites(count: int) -> str:
    loads = "\n".join(f"    acc += src[uint2(at.x + {k % 7}, at.y + {k // 7})];" for k in range(count))
    return f"""
Texture2D<float4> src : register(t0);
SamplerState smp : register(s0);
RWTexture2D<float4> dst : register(u0);

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{{
    uint2 at = id.yx * 3;  // scattered: every access takes the prefetching path
    float4 acc = 0;
{loads}
    acc += src.SampleLevel(smp, (float2(at) + 0.5) / 64.0, 0);
    dst[id.xy] = acc;
}}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
def test_sites_past_the_history_still_read_right(wave_size):
    # HISTORY_SITES texture accesses have history words; the ones after them do not prefetch
    from shc.compiler.machine.abi import HISTORY_SITES

    text = _host_ir(_many_sites(HISTORY_SITES + 2))
    kernel_text = text[text.index("define i32 @shc_wave"):]  # the calls of the kernel, not of the helpers
    calls = [line for line in kernel_text.splitlines() if "call " in line and "@shc." in line]
    assert sum(".prefetch(" in line for line in calls) == HISTORY_SITES
    assert sum("@shc.load.4xf32.32(" in line for line in calls) == 2
    (sample,) = [line for line in calls if "@shc.sample" in line]
    assert sample.endswith("ptr null, ptr null, ptr null, ptr null)")
    kernel = shc.compile(_many_sites(HISTORY_SITES + 2), wave_size=wave_size)
    rng = np.random.default_rng(3)
    source = rng.random((64, 64, 4), dtype=np.float32)
    out = np.zeros((16, 16, 4), np.float32)
    kernel.dispatch((2, 2, 1), src=source, smp=shc.Sampler(filter="point"), dst=out)
    expected = np.zeros((16, 16, 4))
    for y in range(16):
        for x in range(16):
            ax, ay = y * 3, x * 3  # at = id.yx * 3, dst[id.xy] = dst[y][x] holds id = (x, y)
            total = sum(source[ay + k // 7, ax + k % 7].astype(np.float64) for k in range(HISTORY_SITES + 2)
                        if ay + k // 7 < 64 and ax + k % 7 < 64)
            expected[y, x] = total + source[ay, ax]
    np.testing.assert_allclose(out, expected, rtol=1e-5)


LOOPED = """
Texture2D<float4> src : register(t0);
RWTexture2D<float4> dst : register(u0);
cbuffer Taps : register(b0) { uint taps; };

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 acc = 0;
    for (uint k = 0; k < taps; ++k)
        acc += src[uint2(id.y * 3 + k, id.x * 3)];   // a site run once per iteration
    dst[id.xy] = acc + src[id.yx * 2];               // a site run once per wave
}
"""


def test_sites_inside_loops_do_not_prefetch():
    text = _host_ir(LOOPED)
    kernel_text = text[text.index("define i32 @shc_wave"):]
    loads = [line for line in kernel_text.splitlines() if "call " in line and "@shc.load.4xf32" in line]
    assert len(loads) == 2
    assert sum(".prefetch(" in line for line in loads) == 1
