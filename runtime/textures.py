"""Textures between the caller's NumPy arrays and the JIT's texel arrays.

The caller gives a texture as an array indexed like the texel coordinate
reversed with the channels last: ``(W, C)`` for 1-D, ``(H, W, C)`` for 2-D,
``(S, H, W, C)`` for 2-D arrays and cubes (``S`` = 6 faces per cube), ``(D, H, W, C)``
for 3-D; ``C`` (1 to 4) may be left out for one channel. A read-only texture may
be a list of such arrays, one per mip level, each half the size of the one
before (rounded down, at least 1). The dtype gives the format:

    float texture (Texture2D<float4>):  float32, float16, uint8 (UNORM), uint16 (UNORM)
    integer texture (Texture2D<uint>):  uint32, int32, uint16, int16, uint8, int8

The JIT sees 4 channels of 32 bits per texel (float32, or uint32/int32 for
integer textures), every mip level back to back, each level laid out
``(depth, height, width, 4)``. Missing channels read as (0, 0, 0, 1), as in
D3D. Written textures go back to the caller's dtype and channel count: UNORM
clamps to [0, 1] and rounds to nearest (NaN becomes 0), float16 rounds to
nearest even, narrow integer formats saturate. A texel written and read back in
the same dispatch reads as the format keeps it, as on a GPU: the JIT's stores
convert through the caller's format (``abi.META_TEXEL_FORMAT``), so the read
gets the rounded value and the caller's missing channels as (0, 0, 0, 1). A
float32 (or 32-bit integer) 4-channel texture with one level is used in place,
without a copy.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..compiler.frontend import hlsl_types as T
from ..compiler.machine.texels import FLOAT_FORMATS, INTEGER_FORMATS, store_rounding
from ..compiler.machine.texels import decode as _decode, encode as _encode
from .layout import BindingError

# Axes before the channel axis, by kind (without the RW prefix).
_AXES = {
    "Texture1D": ("W",), "Texture1DArray": ("S", "W"),
    "Texture2D": ("H", "W"), "Texture2DArray": ("S", "H", "W"),
    "Texture3D": ("D", "H", "W"),
    "TextureCube": ("6", "H", "W"), "TextureCubeArray": ("S", "H", "W"),
}
_FLOAT_FORMATS, _INTEGER_FORMATS = FLOAT_FORMATS, INTEGER_FORMATS  # compiler/machine/texels.py


def base_kind(kind: str) -> str:
    return kind[2:] if kind.startswith("RW") else kind


@functools.cache  # every dispatch asks again for each texture binding (types are hashable)
def texel_dtype(element: T.Type | None) -> np.dtype:
    """float32 for float textures, uint32/int32 for integer ones."""
    scalar = T.element_of(element) if element is not None else T.FLOAT
    if scalar is None or scalar.kind == "float":
        return np.dtype(np.float32)
    return np.dtype(np.int32 if scalar.kind == "int" else np.uint32)


@dataclass(eq=False)
class Texture:
    """One bound texture: the JIT's texels, their shape, and how to give writes back."""

    texels: np.ndarray  # (texels, 4), 32-bit
    width: int
    height: int
    depth: int
    offsets: list[int]  # first texel of each mip level
    source: np.ndarray | None = None  # the caller's array, when written texels go back to it
    channels: int = 4
    scale: float | None = None  # UNORM scale of the caller's format
    levels: list[tuple[int, int, int]] = field(default_factory=list)
    rounding: int = 0  # what a store converts through (texels.store_rounding; abi.META_TEXEL_FORMAT)

    @property
    def mips(self) -> int:
        return len(self.offsets)

    def write_back(self) -> None:
        """Mip 0's texels into the caller's array, in its format (RW textures)."""
        if self.source is None:
            return
        depth, height, width = self.levels[0]
        texels = self.texels[:depth * height * width].reshape(depth, height, width, 4)[..., :self.channels]
        target = self.source
        values = texels.reshape(target.shape)
        np.copyto(target, _encode(values, target.dtype, self.scale), casting="unsafe")


def bind_texture(name: str, kind: str, element: T.Type | None, value) -> Texture:
    """Validate ``value`` for a texture binding and build its texel array."""
    writable = kind.startswith("RW")
    levels = value if isinstance(value, (list, tuple)) else [value]
    if not levels:
        raise BindingError(f"texture '{name}' ({kind}): the mip chain is empty")
    if writable and len(levels) != 1:
        raise BindingError(f"texture '{name}' ({kind}): a writable texture has one level, got {len(levels)}")
    arrays = [_as_array(name, kind, level) for level in levels]
    dtype = texel_dtype(element)
    first = arrays[0]
    axes = _AXES[base_kind(kind)]
    channels = _channels(name, kind, first, axes)
    shape = _shape3(first, axes, channels)
    _check_format(name, kind, element, first.dtype, dtype)
    _check_faces(name, kind, shape)
    levels_3d = [_level_shape(shape, kind, mip) for mip in range(len(arrays))]
    for mip, array in enumerate(arrays[1:], start=1):
        expected = _caller_shape(levels_3d[mip], axes, channels, first.ndim)
        if array.shape != expected or array.dtype != first.dtype:
            raise BindingError(f"texture '{name}' ({kind}): mip {mip} should be {first.dtype} of shape "
                               f"{expected} (each level half the last), got {array.dtype} {array.shape}")
    scale = _FLOAT_FORMATS.get(first.dtype) if dtype.kind == "f" else None
    in_place = (len(arrays) == 1 and channels == 4 and first.dtype == dtype and first.flags.c_contiguous
                and first.flags.aligned and first.ctypes.data % 16 == 0)
    offsets, total = [], 0
    for depth, height, width in levels_3d:
        offsets.append(total)
        total += depth * height * width
    if in_place:
        texels = first.reshape(-1, 4)
    else:
        texels = np.empty((total, 4), dtype=dtype)
        for offset, (depth, height, width), array in zip(offsets, levels_3d, arrays):
            count = depth * height * width
            texels[offset:offset + count] = _decode(array.reshape(count, channels), dtype, scale)
    depth, height, width = shape
    return Texture(texels, width, height, depth, offsets,
                   source=first if writable and not in_place else None,
                   channels=channels, scale=scale, levels=levels_3d,
                   rounding=store_rounding(first.dtype, dtype.kind != "f"))


def _as_array(name: str, kind: str, value) -> np.ndarray:
    if not isinstance(value, np.ndarray):
        raise BindingError(f"texture '{name}' ({kind}): expected a NumPy array, got {type(value).__name__}")
    if not value.dtype.isnative:
        return value.astype(value.dtype.newbyteorder("="))
    return value


def _channels(name: str, kind: str, array: np.ndarray, axes: tuple[str, ...]) -> int:
    layout = "(" + ", ".join(axes) + ", C)"
    if array.ndim == len(axes):
        return 1
    if array.ndim == len(axes) + 1 and 1 <= array.shape[-1] <= 4:
        return array.shape[-1]
    raise BindingError(f"texture '{name}' ({kind}): expected an array of shape {layout} with C of 1 to 4, "
                       f"got shape {array.shape}")


def _shape3(array: np.ndarray, axes: tuple[str, ...], channels: int) -> tuple[int, int, int]:
    """(depth, height, width) of mip 0; depth counts array slices and cube faces."""
    spatial = array.shape[:len(axes)]
    if axes == ("W",):
        return 1, 1, spatial[0]
    if axes == ("S", "W"):
        return spatial[0], 1, spatial[1]
    if len(axes) == 2:
        return 1, spatial[0], spatial[1]
    return spatial[0], spatial[1], spatial[2]


def _level_shape(shape: tuple[int, int, int], kind: str, mip: int) -> tuple[int, int, int]:
    depth, height, width = shape
    if base_kind(kind) == "Texture3D":
        depth = max(1, depth >> mip)
    return depth, max(1, height >> mip), max(1, width >> mip)


def _caller_shape(level: tuple[int, int, int], axes: tuple[str, ...], channels: int, ndim: int) -> tuple:
    depth, height, width = level
    spatial = {1: (width,), 2: (height, width) if axes != ("S", "W") else (depth, width),
               3: (depth, height, width)}[len(axes)]
    return spatial + ((channels,) if ndim > len(axes) else ())


def _check_format(name: str, kind: str, element, given: np.dtype, texel: np.dtype) -> None:
    if texel.kind == "f":
        if given not in _FLOAT_FORMATS:
            raise BindingError(f"texture '{name}' ({kind}<{element}>): a float texture is float32, float16, "
                               f"uint8 (UNORM) or uint16 (UNORM), got {given}")
    elif given not in _INTEGER_FORMATS:
        raise BindingError(f"texture '{name}' ({kind}<{element}>): an integer texture is uint32, int32, uint16, "
                           f"int16, uint8 or int8, got {given}")


def _check_faces(name: str, kind: str, shape: tuple[int, int, int]) -> None:
    base = base_kind(kind)
    depth = shape[0]
    if base == "TextureCube" and depth != 6:
        raise BindingError(f"texture '{name}' ({kind}): a cube is (6, H, W, C), got {depth} faces")
    if base == "TextureCubeArray" and depth % 6:
        raise BindingError(f"texture '{name}' ({kind}): a cube array is (6 * cubes, H, W, C), got {depth} faces")
    if min(shape) < 1:
        raise BindingError(f"texture '{name}' ({kind}): a texture needs at least one texel, got {shape}")
