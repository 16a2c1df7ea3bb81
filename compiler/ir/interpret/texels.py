"""A texture's texels as the interpreter's texture ops read them: the caller's arrays decoded
through their format (``machine/texels.py``: the dtype is the format, as the runtime reads it)
into four 32-bit channels, float32 for float textures, int32 or uint32 for integer ones."""

from __future__ import annotations

import numpy as np

from ...frontend import hlsl_types as T
from ...machine.texels import decode, texel_dtype, unorm_scale


def texel_type(binding) -> np.dtype:
    """The 32-bit channel type of the binding's decoded texels: float32, int32 or uint32."""
    scalar = T.element_of(binding.element) if binding.element is not None else T.FLOAT
    integer = scalar is not None and scalar.kind != "float"
    return texel_dtype(integer, signed=integer and scalar.kind == "int")


def scale_of(level: np.ndarray, texel: np.dtype) -> float | None:
    """The UNORM scale of ``level``'s dtype read as texels of ``texel`` (None: not UNORM)."""
    return unorm_scale(level.dtype, texel.kind != "f")


def decoded_texel(binding, level: np.ndarray, position: tuple) -> np.ndarray:
    """The texel at ``position`` of ``level`` as four 32-bit channels (missing ones 0, 0, 0, 1)."""
    texel = texel_type(binding)
    stored = np.atleast_1d(level[position])
    return decode(stored[None, :], texel, scale_of(level, texel))[0]


def decoded_levels(binding, mips: list[np.ndarray]) -> list[np.ndarray]:
    """Every mip as ``(depth or slices, height, width, 4)`` decoded texels (``sampling.sample``'s)."""
    dims, is_array = T.RESOURCE_KINDS[binding.kind][1], T.RESOURCE_KINDS[binding.kind][3]
    texel = texel_type(binding)
    levels = []
    for level in mips:
        spatial = level.shape[:dims]
        if dims - is_array == 1:  # (W) or (S, W): one row
            spatial = spatial[:-1] + (1,) + spatial[-1:]
        shape = (1,) * (3 - len(spatial)) + tuple(spatial)
        stored = level.reshape(-1, level.shape[dims] if level.ndim > dims else 1)
        levels.append(decode(stored, texel, scale_of(level, texel)).reshape(shape + (4,)))
    return levels
