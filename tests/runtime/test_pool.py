"""The caching allocator behind shc.spd's mip storage (runtime/pool.py)."""

import gc

import numpy as np

from shc.runtime.pool import ALIGNMENT, StoragePool


def test_arrays_are_aligned_contiguous_views_of_one_block():
    pool = StoragePool(1 << 20)
    arrays = pool.arrays([(3, 5, 4), (7,), (2, 2)], np.float32)
    assert [a.shape for a in arrays] == [(3, 5, 4), (7,), (2, 2)]
    for a in arrays:
        assert a.dtype == np.float32 and a.flags.c_contiguous and a.flags.writeable
        assert a.ctypes.data % ALIGNMENT == 0
    for value, a in enumerate(arrays):
        a[...] = value
    assert [float(a.ravel()[0]) for a in arrays] == [0.0, 1.0, 2.0]  # no overlap


def test_a_block_comes_back_when_its_last_view_dies():
    pool = StoragePool(1 << 20)
    first, second = pool.arrays([(64,), (32,)], np.float32)
    address = first.ctypes.data
    view = second[4:]
    del first, second
    gc.collect()
    assert pool.idle_bytes == 0  # the view still holds the block
    del view
    assert pool.idle_bytes > 0
    again = pool.arrays([(64,), (32,)], np.float32)
    assert again[0].ctypes.data == address and pool.idle_bytes == 0


def test_held_blocks_are_never_handed_out_twice():
    pool = StoragePool(1 << 20)
    held = pool.arrays([(256,)], np.uint8)
    other = pool.arrays([(256,)], np.uint8)
    assert not np.shares_memory(held[0], other[0])


def test_idle_blocks_are_capped_oldest_first_and_cleared():
    pool = StoragePool(3000)
    for size in (1000, 1100, 1200):
        pool.arrays([(size,)], np.uint8)  # dropped at once
    assert 0 < pool.idle_bytes <= 3000
    assert pool.arrays([(1000,)], np.uint8)  # the oldest went first: a fresh block
    pool.clear()
    assert pool.idle_bytes == 0
    pool.arrays([(10_000,)], np.uint8)  # larger than the limit: never kept
    assert pool.idle_bytes == 0
