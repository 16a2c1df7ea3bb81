"""Texel formats: how a texture's stored values become the 32-bit channels shaders see, and back.

The runtime converts a caller's texture array into the host JIT's texels with ``decode``
and writes RW textures back with ``encode``; the RDNA2 listing simulator and the IR
interpreter convert each texel they load or store with the same two functions, and the
JIT's stores round through the bound format as ``decode(encode(value))`` does
(``backend/host/texel_rounding.py``, with ``store_rounding`` in the slot's meta), so a
texel read back in the same dispatch is the same in every executor, bit for bit. A
texture's format is the dtype and channel count of the caller's array, read as

    float texture (Texture2D<float4>):  float32, float16, uint8 (UNORM), uint16 (UNORM)
    integer texture (Texture2D<uint>):  uint32, int32, uint16, int16, uint8, int8

Texels have four channels of 32 bits (float32, or uint32/int32 for integer textures);
missing channels read as (0, 0, 0, 1). UNORM decodes as ``value / 255`` (or 65535) in
float32 and encodes clamped to [0, 1], times the scale, rounded to nearest (NaN becomes 0);
float16 encodes rounding to nearest even; narrow integers saturate.

``FORMATS`` numbers each format as the gfx10 descriptors do (the 9-bit ``FORMAT`` field of
an image descriptor, the 7-bit one of a buffer descriptor: RDNA2's unified format table,
e.g. 22 = 32_FLOAT, 1 = 8_UNORM, 77 = 32_32_32_32_FLOAT).
"""

from __future__ import annotations

import numpy as np

# UNORM scale of each float-texture storage dtype (None: the value is the float itself)
FLOAT_FORMATS = {np.dtype(np.float32): None, np.dtype(np.float16): None,
                 np.dtype(np.uint8): 255.0, np.dtype(np.uint16): 65535.0}
INTEGER_FORMATS = tuple(np.dtype(d) for d in (np.uint32, np.int32, np.uint16, np.int16, np.uint8, np.int8))

_BITS_AND_KIND = {  # (bits, numeric kind) -> the one-channel format number; more channels below
    (8, "unorm"): 1, (8, "uint"): 5, (8, "sint"): 6, (16, "unorm"): 7, (16, "uint"): 11, (16, "sint"): 12,
    (16, "float"): 13, (32, "uint"): 20, (32, "sint"): 21, (32, "float"): 22,
}
_TWO = {1: 14, 5: 18, 6: 19, 7: 23, 11: 27, 12: 28, 13: 29, 20: 62, 21: 63, 22: 64}
_FOUR = {1: 56, 5: 60, 6: 61, 7: 65, 11: 69, 12: 70, 13: 71, 20: 75, 21: 76, 22: 77}
_THREE = {20: 72, 21: 73, 22: 74}  # 32-bit channels only: there are no three-channel 8/16-bit formats


def numeric_kind(dtype: np.dtype, integer: bool) -> str:
    """``unorm``, ``float``, ``uint`` or ``sint``: how a stored channel of ``dtype`` reads."""
    dtype = np.dtype(dtype)
    if not integer:
        return "float" if dtype.kind == "f" else "unorm"
    return "sint" if dtype.kind == "i" else "uint"


def channel_format(dtype: np.dtype, integer: bool) -> int:
    """The one-channel gfx10 format number of a channel of ``dtype`` (e.g. 1 = 8_UNORM, 13 = 16_FLOAT,
    22 = 32_FLOAT; 0: none fits)."""
    return _BITS_AND_KIND.get((8 * np.dtype(dtype).itemsize, numeric_kind(dtype, integer)), 0)


def store_rounding(dtype: np.dtype, integer: bool) -> int:
    """What a store of 32-bit texel channels to ``dtype`` changes (``abi.META_TEXEL_FORMAT``): the
    channel format of an 8- or 16-bit ``dtype``, 0 for a 32-bit one (the value is kept)."""
    return 0 if np.dtype(dtype).itemsize == 4 else channel_format(dtype, integer)


def format_number(dtype: np.dtype, channels: int, integer: bool) -> int:
    """The gfx10 format number of ``channels`` channels of ``dtype`` (0: none fits).
    A three-channel array of 8- or 16-bit values has no format of its own; it is numbered
    as the four-channel one (the hardware reads a fourth channel)."""
    single = channel_format(dtype, integer)
    if channels == 1 or not single:
        return single
    if channels == 2:
        return _TWO[single]
    if channels == 3 and single in _THREE:
        return _THREE[single]
    return _FOUR[single]


def channel_bits(number: int) -> tuple[int, int, str]:
    """(bits per channel, channel count, numeric kind) of a format number from ``format_number``."""
    for (bits, kind), single in _BITS_AND_KIND.items():
        for count, table in ((1, {single: single}), (2, _TWO), (3, _THREE), (4, _FOUR)):
            if table.get(single) == number:
                return bits, count, kind
    raise ValueError(f"format {number} is not one shc binds")


def texel_dtype(integer: bool, signed: bool = False) -> np.dtype:
    """The 32-bit channel type of decoded texels: float32, or int32/uint32 for integer textures."""
    if not integer:
        return np.dtype(np.float32)
    return np.dtype(np.int32 if signed else np.uint32)


def unorm_scale(dtype: np.dtype, integer: bool) -> float | None:
    """255.0 or 65535.0 for a UNORM float texture, else None."""
    return None if integer else FLOAT_FORMATS.get(np.dtype(dtype))


def decode(values: np.ndarray, texel: np.dtype, scale: float | None) -> np.ndarray:
    """(n, C) stored values as (n, 4) texels of ``texel``; missing channels are (0, 0, 0, 1)."""
    out = np.zeros((values.shape[0], 4), dtype=texel)
    out[:, 3] = 1
    if scale is not None:
        out[:, :values.shape[1]] = values.astype(np.float32) / np.float32(scale)
    else:
        out[:, :values.shape[1]] = values.astype(texel)
    return out


def encode(values: np.ndarray, dtype: np.dtype, scale: float | None) -> np.ndarray:
    """32-bit texel channels as stored values of ``dtype`` (``scale``: UNORM)."""
    if scale is not None:
        clean = np.nan_to_num(values.astype(np.float32), nan=0.0)
        return np.rint(np.clip(clean, 0.0, 1.0) * np.float32(scale)).astype(dtype)
    if dtype.kind in "iu" and values.dtype.kind in "iu" and dtype.itemsize < 4:
        info = np.iinfo(dtype)
        return np.clip(values.astype(np.int64), info.min, info.max).astype(dtype)
    with np.errstate(all="ignore"):
        return values.astype(dtype)
