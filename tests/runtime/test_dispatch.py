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
    with pytest.raises(ValueError, match=r"\(gx, gy, gz\)"):
        normalise_groups((1, 2, 3, 4))


def test_timeout_must_be_positive(copy):
    with pytest.raises(ValueError, match="timeout"):
        copy.dispatch((1, 1, 1), timeout=0, src=np.zeros(1, np.uint32), dst=np.zeros(1, np.uint32))


def test_stats_format_names_every_class(copy):
    result = copy.dispatch((1, 1, 1), src=np.zeros(50, np.uint32), dst=np.zeros(50, np.uint32))
    text = result.stats.format()
    for title in ("VALU", "SALU", "lane-exchange", "LDS", "VMEM", "mean active lanes", "atomics"):
        assert title in text


def test_lazy_exports():
    assert shc.DispatchTimeout is DispatchTimeout
    assert "compile" in dir(shc)
