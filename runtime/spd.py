"""Mip chains of NumPy images with the single pass downsampler (``samples/spd.hlsl``).

    mips = shc.spd.downsample(image)              # [mip 1, mip 2, ..., mip N]
    setup = shc.spd.spd_setup(width, height)      # dispatch size and constants, as a renderer computes them
    spd = shc.spd.Downsampler(wave_ops=False)     # the compiled kernel of one option set
    run = spd.run(image, mips=4, rect=(64, 0, 128, 128), out=chain)   # .mips, .storage, .stats, .setup

``image`` is ``(H, W, C)`` or ``(S, H, W, C)`` (S array slices; ``(H, W)`` is one
channel), float32, float16 or uint8 (UNORM), C = 1..4. The kernel sees an
RGBA32F ``Texture2DArray`` and writes RGBA32F mips; the results come back with
the image's dtype, channel count and rank (a float32 RGBA image costs no copy).
Mip k is ``max(1, H >> k) x max(1, W >> k)``.

Border rule (what ``samples/spd.hlsl`` does; ``reference_mips`` is its NumPy
model): source reads clamp to the last column and row, so mips 1..6 are the
means over 2^k x 2^k blocks of the source padded by edge replication to a
multiple of 64; mips 7..12 follow the same rule starting from mip 6 as stored.
Each level is a 2x2 average ``(top-left + top-right + bottom-left +
bottom-right) * 0.25`` of the level above, in that order, as the shader sums.

Options, one compiled kernel each (kept in this process; the disk cache makes a
new process cheap): ``wave_ops=False`` builds with ``SPD_NO_WAVE_OPERATIONS``
(groupshared memory only), ``linear_sampler=True`` with ``SPD_LINEAR_SAMPLER``
(one bilinear fetch per 2x2 source block), ``packed=True`` with ``A_HALF`` (the
16-bit path, ``SpdDownsampleH``: fp16 arithmetic, results within half
precision), ``wave_size`` 32 or 64.

Sub-rectangles (``rect=(left, top, width, height)``, ``spd_setup``): the dispatch
covers the 64 x 64 tiles the rectangle touches (``workGroupOffset`` is its first
tile), so mips 1..6 change only under those tiles; the last group rebuilds mips
7..12 from all of mip 6 (pass the chain to update as ``out``). Mips past 6 need the
tiles within 4096 x 4096 texels: the last group reduces one 64 x 64 tile of mip 6.

Memory: a ``run`` without ``out`` over the whole image writes every pixel of
every mip, so its storage comes from a pool of memory that earlier results no
longer use (``runtime/pool.py``): calling ``downsample`` again and again
after dropping the previous result costs no fresh pages (page faults and the
kernel zeroing them cost a fifth of a 4096 x 4096 dispatch). Up to
``POOL_LIMIT`` bytes of unused storage stay mapped; ``release_storage()``
gives them back. A ``rect`` run without ``out`` gets zeroed arrays.

Storage formats: intermediate mips are stored as float32 (so with a uint8 image,
mips 7..12 come from an unrounded mip 6 and each mip is rounded once, at the
end). The counter buffer (one uint per slice) belongs to the ``Downsampler``; the
shader's last group puts it back to 0, and ``run`` checks that it did.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .pool import StoragePool

if TYPE_CHECKING:
    from .stats import DispatchStats

__all__ = ["Downsampler", "SpdResult", "SpdSetup", "compiled_kernel", "defines_for", "downsample", "full_chain",
           "mip_shape", "reference_mips", "release_storage", "spd_setup", "MAX_MIPS", "POOL_LIMIT", "SAMPLE",
           "TILE"]

SAMPLE = Path(__file__).resolve().parent.parent / "samples" / "spd.hlsl"
TILE = 64  # source texels per tile side: one 256-thread group per tile
MAX_MIPS = 12  # 12 mips below mip 0: a 4096 x 4096 source down to 1 x 1
MIPS_PER_PASS = 6  # a 64 x 64 tile reduces to 1 x 1 in 6 mips
MAX_SECOND_PASS_TILES = TILE  # the last group reduces one 64 x 64 tile of mip 6
_FORMATS = (np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.uint8))
POOL_LIMIT = 256 << 20  # bytes of unused mip storage kept mapped for the next run
_POOL = StoragePool(POOL_LIMIT)


# ---------------------------------------------------------------------------------------
# setup arithmetic
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class SpdSetup:
    """What a renderer computes on the CPU before dispatching SPD.

    ``dispatch`` is ``(gx, gy, slices)``; ``num_work_groups`` the groups per slice
    (the last-group test compares the counter with it); ``work_group_offset`` the
    first tile of the rectangle, added to ``SV_GroupID.xy``; ``mips`` how many mips
    to build below mip 0.
    """

    dispatch: tuple[int, int, int]
    num_work_groups: int
    work_group_offset: tuple[int, int]
    mips: int


def mip_shape(height: int, width: int, mip: int) -> tuple[int, int]:
    """``(h, w)`` of mip ``mip`` of a ``height x width`` texture (D3D's chain: halve, round down, at least 1)."""
    return max(1, height >> mip), max(1, width >> mip)


def full_chain(width: int, height: int) -> int:
    """Mips below mip 0 in a full chain: ``floor(log2(max(width, height)))``."""
    return max(int(width), int(height)).bit_length() - 1


def spd_setup(width: int, height: int, mips: int | None = None, rect=None, slices: int = 1) -> SpdSetup:
    """The dispatch and constants for SPD over ``rect`` of a ``width x height`` texture.

    ``rect`` is ``(left, top, rect_width, rect_height)`` in source texels (default:
    the whole texture). Without ``mips``, the chain of the rectangle:
    ``floor(log2(max(rect_width, rect_height)))``, at most 12, and at most 6 when the
    tiles reach past 64 x 64 (the texture's right or bottom edge of the dispatch past
    4096 texels): the last group turns only mip 6's first 64 x 64 pixels into mips
    7..12. A ``mips`` beyond those limits or the texture's own chain raises
    ``ValueError``.
    """
    width, height, slices = int(width), int(height), int(slices)
    if width < 1 or height < 1 or slices < 1:
        raise ValueError(f"SPD needs a texture of at least 1 x 1 x 1, not {width} x {height} x {slices}")
    left, top, rect_width, rect_height = (0, 0, width, height) if rect is None else (int(v) for v in rect)
    if rect_width < 1 or rect_height < 1 or left < 0 or top < 0 \
            or left + rect_width > width or top + rect_height > height:
        raise ValueError(f"rect {tuple(rect)} (left, top, width, height) is not a non-empty part of the "
                         f"{width} x {height} texture")
    right, bottom = left + rect_width, top + rect_height
    offset = (left // TILE, top // TILE)
    groups = ((right + TILE - 1) // TILE - offset[0], (bottom + TILE - 1) // TILE - offset[1])
    tiles_x, tiles_y = (right + TILE - 1) // TILE, (bottom + TILE - 1) // TILE
    grid_limit = MAX_MIPS if max(tiles_x, tiles_y) <= MAX_SECOND_PASS_TILES else MIPS_PER_PASS
    chain = min(full_chain(rect_width, rect_height), MAX_MIPS, grid_limit)
    if mips is None:
        mips = chain
    else:
        mips = int(mips)
        texture_chain = full_chain(width, height)
        if mips < 0 or mips > min(MAX_MIPS, texture_chain):
            raise ValueError(f"mips must be 0..{min(MAX_MIPS, texture_chain)} for a {width} x {height} texture, "
                             f"not {mips}")
        if mips > grid_limit:
            raise ValueError(f"{mips} mips need the dispatch within 4096 x 4096 texels (the last group "
                             f"reduces one 64 x 64 tile of mip 6): the tiles reach {right} x {bottom}, so at "
                             f"most {grid_limit} mips")
    return SpdSetup((groups[0], groups[1], slices), groups[0] * groups[1], offset, mips)


# ---------------------------------------------------------------------------------------
# the NumPy model
# ---------------------------------------------------------------------------------------


def _pad_edge(level: np.ndarray, multiple: int) -> np.ndarray:
    """(S, H, W, C) padded by repeating the last row and column up to a multiple of ``multiple``."""
    _, height, width, _ = level.shape
    pad_h, pad_w = -height % multiple, -width % multiple
    if pad_h == 0 and pad_w == 0:
        return level
    return np.pad(level, ((0, 0), (0, pad_h), (0, pad_w), (0, 0)), mode="edge")


def _reduce_2x2(level: np.ndarray) -> np.ndarray:
    """One 2x2 average of an even-sized (S, H, W, C) level, summed in the shader's order."""
    out = level[:, 0::2, 0::2] + level[:, 0::2, 1::2]
    out += level[:, 1::2, 0::2]
    out += level[:, 1::2, 1::2]
    out *= out.dtype.type(0.25)
    return out


def reference_mips(image, mips: int | None = None, dtype=np.float32) -> list[np.ndarray]:
    """Mips 1..``mips`` of ``image`` by the sample's border rule, computed in ``dtype``.

    ``image`` as for ``downsample`` (uint8 reads as UNORM: value / 255); the mips
    keep its rank and channels, in ``dtype``. ``mips`` defaults to ``spd_setup``'s
    chain. The fastest way NumPy has: strided slice-adds, one level at a time;
    float32 in the shader's summation order gives the shader's bits. With
    ``dtype=np.float16`` it approximates the packed path's rounding.
    """
    slices, rank = as_slices(image, any_float=True)
    count, height, width, _ = slices.shape
    if mips is None:
        mips = spd_setup(width, height, slices=count).mips
    if slices.dtype == np.uint8:
        source = slices.astype(np.float32) / np.float32(255.0)
    else:
        source = slices
    out: list[np.ndarray] = []
    level = _pad_edge(source.astype(dtype, copy=False), TILE)
    for mip in range(1, mips + 1):
        if mip == MIPS_PER_PASS + 1:  # the last group's pass starts from mip 6 as stored
            level = _pad_edge(out[MIPS_PER_PASS - 1], TILE)
        level = _reduce_2x2(level)
        h, w = mip_shape(height, width, mip)
        out.append(np.ascontiguousarray(level[:, :h, :w]))
    return [_with_rank(m, rank) for m in out]


def _with_rank(level: np.ndarray, rank: int) -> np.ndarray:
    """An (S, h, w, C) level as the caller's rank: (h, w) for 2, (h, w, C) for 3."""
    if rank == 2:
        return level[0, :, :, 0]
    if rank == 3:
        return level[0]
    return level


# ---------------------------------------------------------------------------------------
# running the kernel
# ---------------------------------------------------------------------------------------


@dataclass
class SpdResult:
    """One ``Downsampler.run``: the mips as asked for, the RGBA32F storage, and the dispatch."""

    mips: list[np.ndarray]  # the image's dtype, channels and rank
    storage: list[np.ndarray]  # float32 (S, h, w, 4): what the kernel wrote
    setup: SpdSetup
    stats: DispatchStats | None  # None when there was nothing to build
    source: np.ndarray | None = None  # the image the mips came from

    def _repr_html_(self) -> str:
        """Jupyter: the contact sheet as an inline PNG and a table of the mips."""
        from .kernel_views import spd_result_html

        return spd_result_html(self)


_KERNELS: dict[tuple, object] = {}
_KERNELS_LOCK = threading.Lock()


def _options_key(wave_ops: bool, linear_sampler: bool, packed: bool, wave_size: int) -> tuple:
    if wave_size not in (32, 64):
        raise ValueError(f"wave_size must be 32 or 64, not {wave_size}")
    return bool(wave_ops), bool(linear_sampler), bool(packed), int(wave_size)


def defines_for(wave_ops: bool = True, linear_sampler: bool = False, packed: bool = False) -> dict[str, str]:
    """The ``samples/spd.hlsl`` defines of an option set."""
    defines = {}
    if not wave_ops:
        defines["SPD_NO_WAVE_OPERATIONS"] = "1"
    if linear_sampler:
        defines["SPD_LINEAR_SAMPLER"] = "1"
    if packed:
        defines["A_HALF"] = "1"
    return defines


def compiled_kernel(wave_ops: bool = True, linear_sampler: bool = False, packed: bool = False,
                    wave_size: int = 32):
    """The ``shc.Kernel`` of ``samples/spd.hlsl`` for an option set, compiled once per process."""
    key = _options_key(wave_ops, linear_sampler, packed, wave_size)
    with _KERNELS_LOCK:
        kernel = _KERNELS.get(key)
        if kernel is None:
            from .kernel import compile_file

            kernel = compile_file(SAMPLE, entry="main", defines=defines_for(*key[:3]), wave_size=key[3])
            kernel._loaded()  # load the object code now: the first dispatch pays no JIT set-up
            _KERNELS[key] = kernel
        return kernel


def as_slices(image, any_float: bool = False) -> tuple[np.ndarray, int]:
    """``image`` as (S, H, W, C), and its rank (2, 3 or 4) to give the mips back in."""
    array = np.asarray(image)
    if array.dtype not in _FORMATS and not (any_float and array.dtype.kind == "f"):
        raise TypeError(f"SPD takes float32, float16 or uint8 (UNORM) images, not {array.dtype}")
    if array.ndim == 2:
        return array[None, :, :, None], 2
    if array.ndim == 3 and 1 <= array.shape[-1] <= 4:
        return array[None], 3
    if array.ndim == 4 and 1 <= array.shape[-1] <= 4:
        return array, 4
    raise ValueError(f"SPD takes an (H, W, C) or (S, H, W, C) image with C of 1 to 4, not shape {array.shape}")


def _rgba32f(slices: np.ndarray) -> np.ndarray:
    """The source texture: float32 RGBA, the caller's array itself when it already is one."""
    if slices.dtype == np.float32 and slices.shape[-1] == 4 and slices.flags.c_contiguous:
        return slices
    channels = slices.shape[-1]
    texels = np.empty(slices.shape[:3] + (4,), dtype=np.float32)
    if channels < 4:
        texels[..., channels:] = 0.0
    if slices.dtype == np.uint8:
        np.divide(slices, np.float32(255.0), out=texels[..., :channels], dtype=np.float32)
    else:
        texels[..., :channels] = slices
    return texels


def _give_back(storage: np.ndarray, dtype: np.dtype, channels: int, rank: int) -> np.ndarray:
    """One mip in the caller's format: dtype, channel count, rank (uint8: UNORM, round to nearest even)."""
    values = storage if channels == 4 else storage[..., :channels]
    if dtype == np.uint8:
        scaled = np.multiply(values, np.float32(255.0))
        np.fmax(scaled, np.float32(0.0), out=scaled)  # fmax: NaN becomes 0
        np.minimum(scaled, np.float32(255.0), out=scaled)
        np.rint(scaled, out=scaled)
        values = scaled.astype(np.uint8)
    elif dtype != np.float32:
        values = values.astype(dtype)
    elif channels != 4:
        values = np.ascontiguousarray(values)
    return _with_rank(values, rank)


class Downsampler:
    """``samples/spd.hlsl`` compiled for one option set, with its atomic counter buffer.

    One dispatch at a time per ``Downsampler`` (they share the counter, as on a GPU);
    ``downsample`` makes a new one per call.
    """

    def __init__(self, *, wave_ops: bool = True, linear_sampler: bool = False, packed: bool = False,
                 wave_size: int = 32):
        self.options = _options_key(wave_ops, linear_sampler, packed, wave_size)
        self.kernel = compiled_kernel(*self.options)
        self.counter = np.zeros(1, dtype=np.uint32)  # one uint per slice, zeroed once

    @property
    def defines(self) -> dict[str, str]:
        return defines_for(*self.options[:3])

    def storage_for(self, image_shape, mips: int) -> list[np.ndarray]:
        """Fresh zeroed float32 RGBA arrays for mips 1..``mips`` of an (S, H, W, C) image."""
        return [np.zeros(shape, dtype=np.float32) for shape in _storage_shapes(image_shape, mips)]

    def run(self, image, mips: int | None = None, rect=None, out: list[np.ndarray] | None = None,
            timeout: float | None = None, threads: int | None = None) -> SpdResult:
        """One dispatch over ``rect`` (default: the whole image) of every slice.

        ``out``: float32 ``(S, h, w, 4)`` arrays for mips 1..N to write into (pixels
        outside the rectangle's tiles keep their values; mips 7..12 are rebuilt from
        all of mip 6). ``storage`` of a previous result fits.
        """
        slices, rank = as_slices(image)
        count, height, width, channels = slices.shape
        setup = spd_setup(width, height, mips, rect, slices=count)
        if out is not None:
            storage = out
        elif rect is None:  # the dispatch writes every pixel: memory from the pool will do
            storage = _POOL.arrays(_storage_shapes(slices.shape, setup.mips), np.float32)
        else:
            storage = self.storage_for(slices.shape, setup.mips)
        self._check_storage(storage, slices.shape, setup.mips)
        stats = None
        if setup.mips > 0:
            stats = self._dispatch(_rgba32f(slices), storage, setup, timeout, threads)
        mips_out = [_give_back(level, slices.dtype, channels, rank) for level in storage[:setup.mips]]
        return SpdResult(mips_out, storage[:setup.mips], setup, stats, image)

    def _check_storage(self, storage, shape, mips: int) -> None:
        if len(storage) < mips:
            raise ValueError(f"out has {len(storage)} mips, the dispatch writes {mips}")
        for mip, level in enumerate(storage[:mips], start=1):
            expected = (shape[0],) + mip_shape(shape[1], shape[2], mip) + (4,)
            if not isinstance(level, np.ndarray) or level.shape != expected or level.dtype != np.float32 \
                    or not level.flags.c_contiguous:
                raise ValueError(f"out mip {mip} must be a C-contiguous float32 array of shape {expected}")

    def _dispatch(self, source: np.ndarray, storage: list[np.ndarray], setup: SpdSetup, timeout, threads):
        slices = setup.dispatch[2]
        if len(self.counter) < slices:
            self.counter = np.zeros(slices, dtype=np.uint32)
        counter = self.counter[:slices]
        if counter.any():
            raise RuntimeError(f"the SPD counter buffer is not 0 before the dispatch: {counter.tolist()}")
        destinations = [storage[mip] if mip < setup.mips and mip != MIPS_PER_PASS - 1 else None
                        for mip in range(MAX_MIPS)]
        constants = {"mips": setup.mips, "numWorkGroups": setup.num_work_groups,
                     "workGroupOffset": setup.work_group_offset}
        resources = {"imgSrc": source, "spdGlobalAtomic": counter, "imgDst": destinations,
                     "imgDst6": storage[MIPS_PER_PASS - 1] if setup.mips >= MIPS_PER_PASS else None}
        if self.options[1]:  # SPD_LINEAR_SAMPLER
            from .resources import Sampler

            height, width = source.shape[1:3]
            constants["invInputSize"] = (1.0 / width, 1.0 / height)
            resources["srcSampler"] = Sampler("linear", "clamp")
        try:
            result = self.kernel.dispatch(setup.dispatch, timeout=timeout, threads=threads, **resources, **constants)
        except BaseException:
            counter[:] = 0  # a dispatch that did not finish leaves no count behind for the next one
            raise
        if counter.any():
            raise RuntimeError(f"the SPD counter buffer is not back at 0 after the dispatch: {counter.tolist()} "
                               f"(the last group resets it)")
        return result.stats


def _storage_shapes(image_shape, mips: int) -> list[tuple[int, ...]]:
    slices, height, width = image_shape[:3]
    return [(slices,) + mip_shape(height, width, mip) + (4,) for mip in range(1, mips + 1)]


def release_storage() -> None:
    """Unmap the mip storage kept for reuse (results still held keep theirs)."""
    _POOL.clear()


def downsample(image, mips: int | None = None, *, wave_ops: bool = True, linear_sampler: bool = False,
               packed: bool = False, wave_size: int = 32) -> list[np.ndarray]:
    """Mips 1..N of ``image`` (see the module docstring), one SPD dispatch.

    ``mips`` defaults to the full chain, ``floor(log2(max(H, W)))`` (at most 12, and
    at most 6 past 4096 texels); 0 (or a 1 x 1 image) gives an empty list.
    """
    spd = Downsampler(wave_ops=wave_ops, linear_sampler=linear_sampler, packed=packed, wave_size=wave_size)
    return spd.run(image, mips).mips
