"""The benchmark kernels (benchmarks/kernels/*.hlsl, driven by benchmarks/common_kernels.py)
give NumPy's results exactly, at small sizes, in wave32 and wave64: the histogram equals
numpy.bincount, the exclusive scan numpy.cumsum shifted by one (uint32, wrapping), the
transpose ``a.T``. Sizes are chosen to leave partial groups, partial uint4s and, for the scan,
more slot sums than one tile holds (the recursive case)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _common_kernels():
    spec = importlib.util.spec_from_file_location("common_kernels", BENCHMARKS / "common_kernels.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


common = _common_kernels()


@pytest.fixture(scope="module", params=[32, 64], ids=["wave32", "wave64"])
def kernels(request):
    # one row of 256 uint4s per scan tile: 1024 values, so 2^20 + 5 values make 1025 tiles and
    # 65,600 slot sums, which take three more levels of the driver's recursion
    return common.CommonKernels(wave_size=request.param, scan_rows=1)


@pytest.mark.parametrize("count", [1, 255, 16384 + 7, 100_000])
def test_histogram_equals_bincount(kernels, count):
    words = np.random.default_rng(count).integers(0, 2 ** 32, count, dtype=np.uint32)
    expected = np.bincount(words & 255, minlength=256)
    assert np.array_equal(kernels.histogram(words, threads=2), expected)
    assert np.array_equal(common.numpy_histogram(words), expected)


def test_histogram_counts_one_bin_from_every_group(kernels):
    words = np.full(3 * 16384 + 1, 0x1234_5607, np.uint32)  # every group adds to bin 7
    bins = kernels.histogram(words)
    assert bins[7] == words.size and bins.sum() == words.size


# 16384 values: 16 tiles, whose 1024 slot sums fill exactly the one tile the last reduce_tiles
# group scans; 16384 + 1: 17 tiles, slot sums over one tile, so two levels of reduce_tiles
@pytest.mark.parametrize("count", [1, 2, 7, 1024, 4096 + 3, 16384, 16384 + 1, 2 ** 20 + 5])
def test_exclusive_scan_equals_shifted_cumsum(kernels, count):
    values = np.random.default_rng(count).integers(0, 2 ** 32, count, dtype=np.uint32)  # the sums wrap
    expected = np.concatenate([[0], np.cumsum(values[:-1], dtype=np.uint32)]).astype(np.uint32)
    assert np.array_equal(kernels.exclusive_scan(values, threads=2), expected)
    assert np.array_equal(common.numpy_exclusive_scan(values), expected)
    assert kernels.scan_counter[0] == 0  # the last reduce_tiles group resets it for the next scan


class _CountedKernel:
    def __init__(self, kernel, log: list):
        self.kernel, self.log = kernel, log

    def dispatch(self, groups, **bindings):
        self.log.append(groups[0])
        return self.kernel.dispatch(groups, **bindings)


# (values, groups of each dispatch): one tile is scan_tile alone; up to 16 tiles (one tile of
# slot sums) reduce_tiles, whose last group scans the slot sums, then scan_tiles; past that, each
# level of slot sums takes one reduce_tiles and one scan_tiles more
@pytest.mark.parametrize("count, dispatches", [
    (1024, [1]), (4096 + 3, [5, 5]), (16384, [16, 16]), (16384 + 1, [17, 2, 2, 17]),
    (2 ** 20 + 5, [1025, 65, 5, 5, 65, 1025])])
def test_exclusive_scan_dispatches(kernels, monkeypatch, count, dispatches):
    log = []
    for name in ("reduce_kernel", "scan_kernel", "scan_tile_kernel"):
        monkeypatch.setattr(kernels, name, _CountedKernel(getattr(kernels, name), log))
    values = np.arange(count, dtype=np.uint32)
    for _ in range(2):  # the second scan starts from the counter the first one left
        log.clear()
        assert np.array_equal(kernels.exclusive_scan(values), common.numpy_exclusive_scan(values))
        assert log == dispatches


def test_reduce_tiles_writes_every_slot_and_scans_them_last(kernels):
    # a wave of W lanes owns W / 4 slots of SLOT_VECTORS = 4 * ROWS uint4s: its segment's sum goes
    # into its first slot, 0 into the others, so slotSums covers the input slot by slot; the group
    # that counts itself last in tilesDone scans them in place and sets tilesDone back to 0
    rows, lanes = kernels.scan_tile_vectors // 256, kernels.scan_kernel.wave_size
    vectors = np.random.default_rng(5).integers(0, 2 ** 32, (3 * 256 * rows - 5, 4), dtype=np.uint32)
    tiles = -(-len(vectors) // kernels.scan_tile_vectors)
    sums = np.full(tiles * common.SCAN_SLOTS_PER_TILE, 0xDEADBEEF, np.uint32)
    counter = np.zeros(1, np.uint32)
    kernels.reduce_kernel.dispatch((tiles, 1, 1), values=vectors, slotSums=sums, tilesDone=counter,
                                   vectors=len(vectors), threads=2)
    padded = np.zeros((tiles * kernels.scan_tile_vectors, 4), np.uint32)
    padded[:len(vectors)] = vectors
    segments = padded.reshape(-1, lanes * rows * 4).sum(axis=1, dtype=np.uint32)
    expected = np.zeros((len(segments), lanes // 4), np.uint32)
    expected[:, 0] = segments
    assert np.array_equal(sums, common.numpy_exclusive_scan(expected.reshape(-1)))  # scanned in place
    assert counter[0] == 0


@pytest.mark.parametrize("shape", [(1, 1), (33, 65), (64, 32), (100, 257)])
def test_transpose_equals_numpy(kernels, shape):
    matrix = np.random.default_rng(shape[0]).random(shape, dtype=np.float32)
    assert np.array_equal(kernels.transpose(matrix, threads=2), matrix.T)
    assert np.array_equal(common.numpy_transpose(matrix), matrix.T)
