"""The three common kernels of ``kernels/`` run from NumPy, and what NumPy does for each.

    kernels = CommonKernels()              # compiled once (or read from the kernel cache)
    kernels.histogram(words)               # == numpy_histogram(words): 256 bins of the low byte
    kernels.exclusive_scan(values)         # == numpy_exclusive_scan(values), uint32, wrapping
    kernels.transpose(matrix)              # == numpy_transpose(matrix), float32

Each method takes ``threads`` (host threads, None: one per core) and ``out`` (reused storage,
as a renderer keeps its buffers; None allocates). The scan's driver runs the reduce-then-scan
of ``kernels/scan.hlsl``: a scan of one tile is one group (``scan_tile``); a longer one
reduces every wave's segment into slot sums (``reduce_tiles``, whose last group also scans them
in place when they fit in one tile; else they are scanned here, recursively), and scans the
tiles from those offsets (``scan_tiles``): two dispatches up to 16 * ``scan_rows`` tiles (4M
values take 128 at 32 rows). ``scan_rows`` sets the scan's tile (rows of 256 x 4 values; the
tests make it small to reach the recursion with few values).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

KERNELS = Path(__file__).resolve().parent / "kernels"
HISTOGRAM_BINS = 256
HISTOGRAM_WORDS_PER_GROUP = 256 * 16 * 4  # numthreads x VECTORS_PER_THREAD uint4s in histogram.hlsl
SCAN_ROWS = 32  # rows of 256 uint4s in a tile of scan.hlsl (its ROWS; 32 ran about 8% faster than 16)
SCAN_SLOTS_PER_TILE = 256 // 4  # slot sums per tile of scan.hlsl (a slot is a 4-lane wave's segment)
TRANSPOSE_TILE = 32


def numpy_histogram(words: np.ndarray) -> np.ndarray:
    return np.bincount(words & np.uint32(HISTOGRAM_BINS - 1), minlength=HISTOGRAM_BINS).astype(np.uint32)


def numpy_exclusive_scan(values: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    out = np.empty_like(values) if out is None else out
    out[0] = 0
    np.cumsum(values[:-1], dtype=np.uint32, out=out[1:])
    return out


def numpy_transpose(matrix: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    out = np.empty(matrix.shape[::-1], matrix.dtype) if out is None else out
    np.copyto(out, matrix.T)
    return out


class CommonKernels:
    """The compiled histogram, scan and transpose kernels, with the drivers that dispatch them."""

    def __init__(self, wave_size: int = 32, scan_rows: int = SCAN_ROWS):
        import shc

        scan = {"ROWS": str(scan_rows)}
        self.scan_tile_vectors = 256 * scan_rows
        self.scan_counter = np.zeros(1, np.uint32)  # tilesDone: reduce_tiles' last group sets it back to 0
        self.histogram_kernel = shc.compile_file(KERNELS / "histogram.hlsl", wave_size=wave_size)
        self.reduce_kernel = shc.compile_file(KERNELS / "scan.hlsl", entry="reduce_tiles", defines=scan,
                                              wave_size=wave_size)
        self.scan_kernel = shc.compile_file(KERNELS / "scan.hlsl", entry="scan_tiles", defines=scan,
                                            wave_size=wave_size)
        self.scan_tile_kernel = shc.compile_file(KERNELS / "scan.hlsl", entry="scan_tile", defines=scan,
                                                 wave_size=wave_size)
        self.transpose_kernel = shc.compile_file(KERNELS / "transpose.hlsl", wave_size=wave_size)

    def histogram(self, words: np.ndarray, threads: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        bins = np.zeros(HISTOGRAM_BINS, np.uint32) if out is None else out
        bins[:] = 0
        groups = -(-words.size // HISTOGRAM_WORDS_PER_GROUP)
        self.histogram_kernel.dispatch((groups, 1, 1), threads=threads, timeout=None, words=_vectors(words),
                                       bins=bins, count=words.size)
        return bins

    def exclusive_scan(self, values: np.ndarray, threads: int | None = None,
                       out: np.ndarray | None = None) -> np.ndarray:
        out = np.empty_like(values) if out is None else out
        if values.size % 4:  # zeros pad the last uint4: they do not change the prefix sums
            out[:] = self.exclusive_scan(_vectors(values).reshape(-1), threads)[:values.size]
            return out
        self._scan_vectors(values.reshape(-1, 4), out.reshape(-1, 4), threads)
        return out

    def _scan_vectors(self, vectors: np.ndarray, out: np.ndarray, threads: int | None) -> None:
        tiles = -(-len(vectors) // self.scan_tile_vectors)
        if tiles == 1:
            self.scan_tile_kernel.dispatch((1, 1, 1), threads=threads, timeout=None, values=vectors, output=out,
                                           vectors=len(vectors))
            return
        sums = np.empty(tiles * SCAN_SLOTS_PER_TILE, np.uint32)  # reduce_tiles writes every slot
        self.reduce_kernel.dispatch((tiles, 1, 1), threads=threads, timeout=None, values=vectors,
                                    slotSums=sums, tilesDone=self.scan_counter, vectors=len(vectors))
        offsets = sums  # reduce_tiles' last group scanned them in place
        if len(sums) > 4 * self.scan_tile_vectors:  # more than one tile: it left them as they were
            offsets = np.empty_like(sums)
            self._scan_vectors(sums.reshape(-1, 4), offsets.reshape(-1, 4), threads)
        self.scan_kernel.dispatch((tiles, 1, 1), threads=threads, timeout=None, values=vectors, slotOffsets=offsets,
                                  output=out, vectors=len(vectors))

    def transpose(self, matrix: np.ndarray, threads: int | None = None, out: np.ndarray | None = None) -> np.ndarray:
        height, width = matrix.shape
        out = np.empty((width, height), matrix.dtype) if out is None else out
        groups = (-(-width // TRANSPOSE_TILE), -(-height // TRANSPOSE_TILE), 1)
        self.transpose_kernel.dispatch(groups, threads=threads, timeout=None, source=matrix.reshape(-1),
                                       target=out.reshape(-1), width=width, height=height)
        return out


def _vectors(words: np.ndarray) -> np.ndarray:
    """``words`` as uint4s (a view when their count is a multiple of 4, else a copy padded with zeros)."""
    if words.size % 4 == 0:
        return words.reshape(-1, 4)
    padded = np.zeros(-(-words.size // 4) * 4, np.uint32)
    padded[:words.size] = words
    return padded.reshape(-1, 4)
