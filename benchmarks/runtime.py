"""Speed of kernels run by the JIT, next to NumPy doing the same work in the same run.

Run: python benchmarks/runtime.py [--mib 256] [--repeat 3] [--threads N]

1. copy: a bandwidth-bound kernel copying ``--mib`` MiB (float4 elements) against
   ``numpy.copyto`` of the same arrays. Target: within 2x of NumPy.
2. wave ops: per element, two quad reductions (QuadReadAcrossX/Y) and a
   WaveActiveSum, against the same arithmetic in NumPy (reshapes, no lane exchange).
3. divergent loop: a loop whose trip count differs per lane (0..63) against the same
   kernel with a uniform trip count of the same mean; reports mean active lanes.

Each figure is the best of ``--repeat`` runs after a warm-up; compile time is not
counted (the kernels are compiled, or taken from the disk cache, first).
"""

from __future__ import annotations

import argparse
import os

import numpy as np
from timing import best

COPY = """
StructuredBuffer<float4> src;
RWStructuredBuffer<float4> dst;
[numthreads(1024, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) { dst[id.x] = src[id.x]; }
"""

WAVE_OPS = """
StructuredBuffer<float> src;
RWStructuredBuffer<float> dst;
[numthreads(256, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = src[id.x];
    float quad = v + QuadReadAcrossX(v);
    quad = quad + QuadReadAcrossY(quad);
    dst[id.x] = quad * 0.25 + WaveActiveSum(v);
}
"""

LOOP = """
StructuredBuffer<uint> trips;
RWStructuredBuffer<float> dst;
[numthreads(256, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint n = trips[id.x];
    float acc = 0.0;
    float x = (float)id.x * 0.001;
    for (uint i = 0; i < n; ++i) {
        acc = acc * 0.5 + x;
        x = x + 1.0;
    }
    dst[id.x] = acc;
}
"""


def report(name: str, ours: float, theirs: float, baseline: str, extra: str = "") -> None:
    print(f"{name:<15} shc {ours * 1e3:9.1f} ms   {baseline} {theirs * 1e3:9.1f} ms   "
          f"ratio {ours / theirs:5.2f}x{extra}")


def bench_copy(shc, mib: int, repeat: int, threads) -> None:
    kernel = shc.compile(COPY)
    elements = mib * 2 ** 20 // 16
    groups = elements // 1024
    src = np.random.default_rng(0).random((elements, 4), dtype=np.float32)
    dst = np.zeros_like(src)
    ours = best(lambda: kernel.dispatch((groups, 1, 1), threads=threads, timeout=None, src=src, dst=dst), repeat)
    assert np.array_equal(dst, src), "the copy kernel copied wrongly"
    theirs = best(lambda: np.copyto(dst, src), repeat)
    gbps = 2 * elements * 16 / ours / 1e9
    report(f"copy {mib} MiB", ours, theirs, "numpy.copyto", f"   ({gbps:.1f} GB/s read+write; target <= 2x)")


def bench_wave_ops(shc, mib: int, repeat: int, threads, wave_size: int) -> None:
    kernel = shc.compile(WAVE_OPS, wave_size=wave_size)
    elements = max(mib // 8, 1) * 2 ** 20 // 4 // 256 * 256
    src = np.random.default_rng(1).integers(-8, 8, elements).astype(np.float32)
    dst = np.zeros_like(src)
    result = []

    def run():
        result[:] = [kernel.dispatch((elements // 256, 1, 1), threads=threads, timeout=None, src=src, dst=dst)]

    def numpy_version():
        quads = src.reshape(-1, 2, 2)
        pair = quads + quads[:, :, ::-1]
        quad = pair + pair[:, ::-1, :]
        waves = src.reshape(-1, wave_size).sum(axis=1, keepdims=True)
        return (quad.reshape(-1, wave_size) * np.float32(0.25) + waves).reshape(-1)

    ours = best(run, repeat)
    assert np.allclose(dst, numpy_version()), "the wave-op kernel disagrees with NumPy"
    theirs = best(numpy_version, repeat)
    stats = result[0].stats
    report(f"wave ops w{wave_size}", ours, theirs, "numpy      ",
           f"   ({stats.instructions['lane_exchange']} lane-exchange, {stats.instructions['valu']} VALU)")


def bench_loop(shc, mib: int, repeat: int, threads) -> None:
    kernel = shc.compile(LOOP)
    elements = max(mib // 16, 1) * 2 ** 20 // 4 // 256 * 256
    rng = np.random.default_rng(2)
    divergent_trips = rng.integers(0, 64, elements).astype(np.uint32)
    uniform_trips = np.full(elements, int(divergent_trips.mean()), np.uint32)
    dst = np.zeros(elements, np.float32)
    runs = {}

    def run(trips, label):
        def go():
            runs[label] = kernel.dispatch((elements // 256, 1, 1), threads=threads, timeout=None, trips=trips, dst=dst)
        return go

    divergent = best(run(divergent_trips, "divergent"), repeat)
    uniform = best(run(uniform_trips, "uniform"), repeat)
    lanes = runs["divergent"].stats.mean_active_lanes
    uniform_lanes = runs["uniform"].stats.mean_active_lanes
    report("divergent loop", divergent, uniform, "uniform loop",
           f"   (mean active lanes {lanes:.1f} vs {uniform_lanes:.1f} of 32)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mib", type=int, default=256, help="size of the copy (MiB)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None, help="host threads (default: one per core)")
    args = parser.parse_args()
    import shc

    print(f"shc runtime benchmark: {os.cpu_count()} cores, threads={args.threads or os.cpu_count()}")
    bench_copy(shc, args.mib, args.repeat, args.threads)
    for wave_size in (32, 64):
        bench_wave_ops(shc, args.mib, args.repeat, args.threads, wave_size)
    bench_loop(shc, args.mib, args.repeat, args.threads)

if __name__ == "__main__":
    main()
