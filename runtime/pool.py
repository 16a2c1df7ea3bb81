"""Warm memory for arrays that are handed out call after call: a small caching allocator.

    pool = StoragePool(limit=256 << 20)
    arrays = pool.arrays([(1024, 1024, 4), (512, 512, 4)], np.float32)   # views of one block

Fresh memory is expensive to write the first time: every page faults, and the
kernel zeroes it before the program's own writes land. For a 4096 x 4096 SPD
chain (85 MiB) that is about 15 ms of CPU on the development machine, a fifth of
the dispatch. ``shc.spd.downsample`` returns new arrays on every call, but a
caller usually drops the last result before asking for the next one, so the pool
keeps the memory of dropped results and hands it out again, already mapped.

``arrays`` carves the arrays out of one block. When the last array (or view) of
a block dies, the block comes back to the pool (a ``weakref.finalize`` on the
buffer object the arrays are views of); blocks kept unused are capped at
``limit`` bytes, oldest dropped first. A block that is handed out again is NOT
zeroed: callers must write every element before anyone reads it.
"""

from __future__ import annotations

import ctypes
import threading
import weakref
from collections import OrderedDict

import numpy as np

ALIGNMENT = 64  # every array starts on a cache line


def _aligned_size(nbytes: int) -> int:
    return -(-nbytes // ALIGNMENT) * ALIGNMENT


class StoragePool:
    """Blocks of memory by size; see the module docstring."""

    def __init__(self, limit: int):
        self.limit = int(limit)
        self._idle: OrderedDict[int, list[np.ndarray]] = OrderedDict()  # size -> blocks nobody holds
        self._idle_bytes = 0
        self._lock = threading.Lock()

    @property
    def idle_bytes(self) -> int:
        """Bytes of blocks kept for reuse (nobody holds an array of them)."""
        return self._idle_bytes

    def arrays(self, shapes, dtype) -> list[np.ndarray]:
        """C-contiguous arrays of ``shapes`` and ``dtype``, with unspecified contents."""
        dtype = np.dtype(dtype)
        sizes = [_aligned_size(int(np.prod(shape)) * dtype.itemsize) for shape in shapes]
        block = self._take(sum(sizes) + ALIGNMENT)
        exporter = (ctypes.c_char * block.nbytes).from_buffer(block)
        returned = weakref.finalize(exporter, self._give_back, block)
        returned.atexit = False  # nothing to give back at exit
        offset = -block.ctypes.data % ALIGNMENT
        arrays = []
        for shape, size in zip(shapes, sizes):
            count = int(np.prod(shape))
            arrays.append(np.frombuffer(exporter, dtype, count, offset).reshape(shape))
            offset += size
        return arrays

    def clear(self) -> None:
        """Give the memory of every idle block back."""
        with self._lock:
            self._idle.clear()
            self._idle_bytes = 0

    def _take(self, nbytes: int) -> np.ndarray:
        with self._lock:
            blocks = self._idle.get(nbytes)
            if blocks:
                block = blocks.pop()
                if not blocks:
                    del self._idle[nbytes]
                self._idle_bytes -= nbytes
                return block
        return np.empty(nbytes, np.uint8)

    def _give_back(self, block: np.ndarray) -> None:
        if block.nbytes > self.limit:
            return
        with self._lock:
            self._idle.setdefault(block.nbytes, []).append(block)
            self._idle.move_to_end(block.nbytes)
            self._idle_bytes += block.nbytes
            while self._idle_bytes > self.limit:
                size, blocks = next(iter(self._idle.items()))
                blocks.pop(0)
                self._idle_bytes -= size
                if not blocks:
                    del self._idle[size]
