"""The dispatch loop: groups on threads, waves region by region, barrier errors, the watchdog.

Hand-written ``shc_wave`` functions (``hand_kernels.py``) test the runtime on its own;
the tests at the end run compiled HLSL once the host code generator exists.
"""

from __future__ import annotations

import os
import sys
import time

import numpy as np
import pytest

import shc
from shc.runtime.dispatch import DispatchError, DispatchTimeout, normalise_groups

sys.path.insert(0, os.path.dirname(__file__))
import hand_kernels  # noqa: E402


@pytest.fixture(scope="module")
def copy():
    return hand_kernels.copy_kernel((50, 1, 1))


@pytest.fixture(scope="module")
def barrier():
    return hand_kernels.barrier_kernel((100, 1, 1))  # 4 waves, the last one partial


def test_copy_covers_every_group_and_partial_wave(copy):
    src = np.arange(2000, dtype=np.uint32) * 7
    dst = np.zeros_like(src)
    result = copy.dispatch((40, 1, 1), src=src, dst=dst)
    assert np.array_equal(dst, src)
    stats = result.stats
    assert stats.waves == 40 * 2
    assert stats.instructions["vmem"] == 2 * 80 and stats.instructions["valu"] == 80
    assert stats.mean_active_lanes == pytest.approx(25.0)  # 50 threads in two waves of 32


def test_out_of_range_groups_write_nothing_outside(copy):
    src = np.arange(100, dtype=np.uint32)
    dst = np.zeros(60, dtype=np.uint32)
    copy.dispatch((4, 1, 1), src=src, dst=dst)  # 200 threads; the buffers are shorter
    assert np.array_equal(dst, src[:60])


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_result_does_not_depend_on_thread_count(barrier, threads):
    out = np.zeros(4 * 30, dtype=np.uint32)
    barrier.dispatch((30, 1, 1), threads=threads, out=out, mode=np.zeros(1, np.uint32))
    waves = np.arange(4)
    expected = np.concatenate([((waves + 1) % 4 + 1) * 100 + g for g in range(30)])
    assert np.array_equal(out, expected)


def test_groups_in_three_dimensions(copy):
    src = np.arange(50 * 24, dtype=np.uint32)
    dst = np.zeros_like(src)
    # the hand kernel only reads group_id.x: groups with the same x write the same data
    copy.dispatch((2, 3, 4), src=src, dst=dst)
    assert np.array_equal(dst[:100], src[:100]) and not dst[100:].any()


def test_divergent_barrier_names_the_source_line(barrier):
    with pytest.raises(DispatchError, match=r"barrier in divergent control flow at hand.hlsl:7:5.*wave 1"):
        barrier.dispatch((3, 1, 1), out=np.zeros(12, np.uint32), mode=np.array([1], np.uint32))


def test_waves_at_different_barriers(barrier):
    with pytest.raises(DispatchError, match=r"wave 0 waits at the barrier at hand.hlsl:7:5 while wave 1 "
                                            r"waits at the one at hand.hlsl:9:5"):
        barrier.dispatch((3, 1, 1), out=np.zeros(12, np.uint32), mode=np.array([2], np.uint32))


def test_a_wave_finishing_while_others_wait(barrier):
    with pytest.raises(DispatchError, match=r"at hand.hlsl:7:5: in group \(0, 0, 0\), wave 1 finished while"):
        barrier.dispatch((1, 1, 1), out=np.zeros(12, np.uint32), mode=np.array([3], np.uint32))


@pytest.mark.parametrize("mode", [4, 5], ids=["spinning wave", "endless barriers"])
def test_watchdog_stops_a_runaway_kernel_and_the_process_stays_usable(barrier, copy, mode):
    started = time.perf_counter()
    with pytest.raises(DispatchTimeout, match="ran longer than its timeout of 0.5 s"):
        barrier.dispatch((8, 1, 1), timeout=0.5, out=np.zeros(32, np.uint32), mode=np.array([mode], np.uint32))
    assert time.perf_counter() - started < 5
    src = np.arange(100, dtype=np.uint32)
    dst = np.zeros_like(src)
    copy.dispatch((2, 1, 1), src=src, dst=dst)
    assert np.array_equal(dst, src)


def test_empty_dispatch_runs_nothing(copy):
    dst = np.zeros(10, np.uint32)
    result = copy.dispatch((0, 1, 1), src=np.ones(10, np.uint32), dst=dst)
    assert result.stats.waves == 0 and not dst.any()


def test_group_counts_are_checked():
    assert normalise_groups(5) == (5, 1, 1)
    assert normalise_groups((2, 3)) == (2, 3, 1)
    with pytest.raises(ValueError, match="0..65535"):
        normalise_groups((70000, 1, 1))
    with pytest.raises(ValueError, match="at most"):
        normalise_groups((65535, 65535, 2))
    with pytest.raises(ValueError, match=r"\(gx, gy, gz\)"):
        normalise_groups((1, 2, 3, 4))


def test_timeout_and_threads_must_be_positive(copy):
    with pytest.raises(ValueError, match="timeout"):
        copy.dispatch((1, 1, 1), timeout=0, src=np.zeros(1, np.uint32), dst=np.zeros(1, np.uint32))
    with pytest.raises(ValueError, match="threads must be a positive number"):
        copy.dispatch((1, 1, 1), threads=0, src=np.zeros(1, np.uint32), dst=np.zeros(1, np.uint32))


def test_stats_format_names_every_class(copy):
    result = copy.dispatch((1, 1, 1), src=np.zeros(50, np.uint32), dst=np.zeros(50, np.uint32))
    text = result.stats.format()
    for title in ("VALU", "SALU", "lane-exchange", "LDS", "VMEM", "mean active lanes", "atomics"):
        assert title in text


def test_lazy_exports():
    assert shc.DispatchTimeout is DispatchTimeout
    assert "compile" in dir(shc)


# -- compiled HLSL (runs once the host code generator exists) ------------------------------


@pytest.fixture
def kernel_cache(tmp_path_factory, monkeypatch):
    from shc.runtime import jit

    directory = tmp_path_factory.getbasetemp() / "dispatch-kernels"
    monkeypatch.setattr(jit, "default_cache_dir", lambda: directory)
    return directory


REDUCE_IN_LOOPS = """
StructuredBuffer<uint> src;
RWStructuredBuffer<uint> dst;
groupshared uint partial[N];
[numthreads(N, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 group : SV_GroupID) {
    partial[gi] = src[id.x];
    GroupMemoryBarrierWithGroupSync();
    for (uint round = 0; round < ROUNDS; ++round) {         // a uniform loop around the tree
        for (uint stride = N / 2; stride > 0; stride /= 2) {
            if (gi < stride) partial[gi] += partial[gi + stride];
            GroupMemoryBarrierWithGroupSync();
        }
        if (gi == 0) dst[group.x * ROUNDS + round] = partial[0];
        GroupMemoryBarrierWithGroupSync();
        partial[gi] = round + gi;
        GroupMemoryBarrierWithGroupSync();
    }
}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("threads_per_group", [256, 96])
def test_groupshared_reduction_with_barriers_in_uniform_loops(kernel_cache, wave_size, threads_per_group):
    n, rounds, groups = threads_per_group, 3, 7
    kernel = shc.compile(REDUCE_IN_LOOPS, defines={"N": str(n), "ROUNDS": str(rounds)}, wave_size=wave_size)
    src = np.random.default_rng(5).integers(0, 1000, n * groups).astype(np.uint32)
    results = []
    for threads in (1, 2, 5):
        dst = np.zeros(groups * rounds, np.uint32)
        kernel.dispatch((groups, 1, 1), threads=threads, src=src, dst=dst)
        results.append(dst)
    if n & (n - 1) == 0:  # the tree sums everything only for a power of two
        expected = np.zeros((groups, rounds), np.uint32)
        expected[:, 0] = src.reshape(groups, n).sum(axis=1)
        for r in range(1, rounds):  # round r sums partial[i] = (r - 1) + i
            expected[:, r] = n * (r - 1) + n * (n - 1) // 2
        assert np.array_equal(results[0], expected.ravel())
    for other in results[1:]:
        assert np.array_equal(other, results[0])  # independent of the thread count


ATOMICS = """
globallycoherent RWStructuredBuffer<uint> counter;
RWStructuredBuffer<uint> partial_sums;
RWStructuredBuffer<uint> total;
RWStructuredBuffer<uint> histogram;
StructuredBuffer<uint> src;
groupshared uint group_sum;
groupshared uint is_last;
[numthreads(128, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint gi : SV_GroupIndex, uint3 group : SV_GroupID) {
    if (gi == 0) group_sum = 0;
    GroupMemoryBarrierWithGroupSync();
    uint old;
    InterlockedAdd(group_sum, src[id.x], old);          // within the group (LDS atomics)
    InterlockedAdd(histogram[src[id.x] % 16], 1);       // across groups (buffer atomics)
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) {
        partial_sums[group.x] = group_sum;
        DeviceMemoryBarrier();
        uint seen;
        InterlockedAdd(counter[0], 1, seen);
        is_last = (seen == GROUPS - 1) ? 1 : 0;
    }
    GroupMemoryBarrierWithGroupSync();
    if (is_last != 0 && gi == 0) {                      // the last group does the rest
        uint sum = 0;
        for (uint g = 0; g < GROUPS; ++g) sum += partial_sums[g];
        total[0] = sum;
        counter[0] = 0;
    }
}
"""


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_atomics_within_and_across_groups_and_the_last_group_pattern(kernel_cache, threads):
    groups = 40
    kernel = shc.compile(ATOMICS, defines={"GROUPS": str(groups)})
    src = np.random.default_rng(9).integers(0, 1000, 128 * groups).astype(np.uint32)
    counter = np.zeros(1, np.uint32)
    partial_sums = np.zeros(groups, np.uint32)
    total = np.zeros(1, np.uint32)
    histogram = np.zeros(16, np.uint32)
    result = kernel.dispatch((groups, 1, 1), threads=threads, counter=counter, partial_sums=partial_sums,
                             total=total, histogram=histogram, src=src)
    assert np.array_equal(partial_sums, src.reshape(groups, 128).sum(axis=1))
    assert total[0] == src.sum() and counter[0] == 0
    assert np.array_equal(histogram, np.bincount(src % 16, minlength=16))
    assert result.stats.atomics > 0


def test_interlocked_returns_the_old_value_and_compare_exchange(kernel_cache):
    source = """
    RWStructuredBuffer<uint> slots; RWStructuredBuffer<uint> order; RWStructuredBuffer<int> extremes;
    [numthreads(64, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        uint ticket;
        InterlockedAdd(slots[0], 1, ticket);
        order[ticket] = 1;                     // every ticket is taken exactly once
        uint previous;
        InterlockedCompareExchange(slots[1], 0, id.x + 1, previous);
        InterlockedMin(extremes[0], -(int)id.x);
        InterlockedMax(extremes[1], (int)id.x);
        InterlockedOr(slots[2], 1u << (id.x % 32));
        InterlockedXor(slots[3], id.x);
    }
    """
    kernel = shc.compile(source)
    slots = np.zeros(4, np.uint32)
    order = np.zeros(256, np.uint32)
    extremes = np.zeros(2, np.int32)
    kernel.dispatch((4, 1, 1), slots=slots, order=order, extremes=extremes)
    assert slots[0] == 256 and order.sum() == 256
    assert 1 <= slots[1] <= 256
    assert extremes.tolist() == [-255, 255]
    assert slots[2] == 0xFFFFFFFF and slots[3] == np.bitwise_xor.reduce(np.arange(256, dtype=np.uint32))


def test_watchdog_stops_an_infinite_hlsl_loop(kernel_cache):
    source = """
    RWStructuredBuffer<uint> dst; uint limit;
    [numthreads(64, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        uint i = 0;
        while (i < limit) { i = (i + 1) % limit; dst[id.x] = i; }
    }
    """
    kernel = shc.compile(source)
    dst = np.zeros(64 * 4, np.uint32)
    started = time.perf_counter()
    with pytest.raises(DispatchTimeout):
        kernel.dispatch((4, 1, 1), timeout=1, dst=dst, limit=10)
    assert time.perf_counter() - started < 10
    kernel.dispatch((4, 1, 1), timeout=1, dst=dst, limit=0)  # the next dispatch works


def test_barrier_in_divergent_control_flow_is_a_runtime_error(kernel_cache):
    source = """
    RWStructuredBuffer<uint> dst; StructuredBuffer<uint> flag;
    [numthreads(64, 1, 1)]
    void main(uint3 id : SV_DispatchThreadID) {
        if (flag[id.x] != 0) {
            GroupMemoryBarrierWithGroupSync();
        }
        dst[id.x] = 1;
    }
    """
    try:
        kernel = shc.compile(source)
    except shc.KernelCompileError as error:  # proven divergent at compile time is fine too
        assert "barrier" in str(error)
        return
    flag = np.ones(64, np.uint32)
    kernel.dispatch((1, 1, 1), dst=np.zeros(64, np.uint32), flag=flag)  # every thread: fine
    flag[5] = 0
    with pytest.raises(DispatchError, match=r"barrier in divergent control flow at <source>:6:"):
        kernel.dispatch((1, 1, 1), dst=np.zeros(64, np.uint32), flag=flag)
    flag[:] = 0
    flag[32:] = 1  # whole waves disagree: wave 0 finishes while wave 1 waits
    with pytest.raises(DispatchError, match=r"barrier in divergent control flow at <source>:6:"):
        kernel.dispatch((1, 1, 1), dst=np.zeros(64, np.uint32), flag=flag)


EVERY_GROUP = """
RWStructuredBuffer<uint> runs : register(u0);

[numthreads(40, 1, 1)]
void main(uint3 group : SV_GroupID, uint gi : SV_GroupIndex)
{
    if (gi == 0)
        InterlockedAdd(runs[group.x + 100 * group.y], 1);
}
"""


@pytest.mark.parametrize("threads", [1, 2, 3, 8])
def test_every_group_runs_exactly_once(kernel_cache, threads):
    # workers claim runs of up to MAX_RUN consecutive groups, shrinking near the end: totals
    # around the run sizes and the number of workers find a group skipped or run twice
    kernel = shc.compile(EVERY_GROUP)
    for groups in [(1, 1, 1), (15, 1, 1), (16, 1, 1), (17, 1, 1), (37, 1, 1), (100, 7, 1), (3, 5, 1)]:
        runs = np.zeros(100 * groups[1], np.uint32)
        kernel.dispatch(groups, threads=threads, runs=runs)
        expected = np.zeros((groups[1], 100), np.uint32)
        expected[:, :groups[0]] = 1
        assert np.array_equal(runs, expected.ravel()), groups
