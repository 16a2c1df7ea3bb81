"""Interpreter handler for ``texture_gather`` (Gather, GatherRed/Green/Blue/Alpha), and the
NumPy model of one gather that the RDNA2 listing simulator shares.

D3D's gather4: the four texels a bilinear filter would read at mip 0, one channel of each,
in counter-clockwise order from the lower left (v grows downward)::

    x = (u0, v1)   y = (u1, v1)   z = (u1, v0)   w = (u0, v0)

with ``u0 = floor(u * width - 0.5 + offset.x)``, ``u1 = u0 + 1`` (likewise v), computed in
float32 in that order, as the host JIT does. The sampler's address mode (0 clamp, 1 wrap,
2 mirror, 3 border) applies to each texel index; its filter does not. A Texture2DArray's
slice is ``round(w)`` clamped to the slices. The interpreter gathers from the texels decoded
as loads decode them (``texels.py``: UNORM as ``value / 255``, float16 widened), so a texture
without the channel gives D3D's default (0, or 1 for alpha); border mode gives the border
color's channel outside.

The sampler is given under its name as the runtime's ``shc.Sampler`` (``address``,
``border`` and, for GatherCmp*, ``comparison`` are read) or a tuple ``(filter, address[,
border rgba[, comparison name]])`` with the runtime's numbers. ``GatherCmp*`` compares its
reference with each gathered value (``ref <comparison> texel``, border color included):
1.0 or 0.0. Resource arrays of textures or samplers raise ``InterpretError``.
"""

from __future__ import annotations

import numpy as np

from ...machine.sampling import ADDRESS_MODES
from ..ops import Op
from .texels import decoded_levels
from .values import InterpretError, dtype_of, zeros

# (du, dv) of x, y, z, w: lower left, lower right, upper right, upper left
CORNERS = ((0, 1), (1, 1), (1, 0), (0, 0))


def _address(index: int, size: int, mode: int) -> int | None:
    """A texel index through the address mode; None: outside, in border mode."""
    if mode == 1:
        return index % size
    if mode == 2:
        folded = index % (2 * size)
        return folded if folded < size else 2 * size - 1 - folded
    if mode == 3:
        return index if 0 <= index < size else None
    return min(max(index, 0), size - 1)


def sampler_state(sampler) -> tuple[int, list]:
    """(address mode number, border rgba) of an ``shc.Sampler`` or a ``(filter, address[, border])``."""
    if isinstance(sampler, np.ndarray) and sampler.ndim == 0:  # the interpreter's copy of the object
        sampler = sampler.item()
    if hasattr(sampler, "address"):
        return ADDRESS_MODES[sampler.address], list(sampler.border)
    return int(sampler[1]), list(sampler[2]) if len(sampler) > 2 else [0.0, 0.0, 0.0, 0.0]


def sampler_comparison(sampler) -> str:
    """The comparison function of an ``shc.Sampler`` (or the 4th item of a tuple; default less_equal)."""
    if isinstance(sampler, np.ndarray) and sampler.ndim == 0:
        sampler = sampler.item()
    if hasattr(sampler, "comparison"):
        return sampler.comparison
    return sampler[3] if len(sampler) > 3 else "less_equal"


COMPARE = {"never": lambda r, t: False, "less": lambda r, t: r < t, "equal": lambda r, t: r == t,
           "less_equal": lambda r, t: r <= t, "greater": lambda r, t: r > t, "not_equal": lambda r, t: not r == t,
           "greater_equal": lambda r, t: r >= t, "always": lambda r, t: True}


def compared(values: list, reference, sampler) -> list:
    """GatherCmp: ``reference <comparison> texel`` of each gathered value, as float32 1.0 or 0.0."""
    test = COMPARE[sampler_comparison(sampler)]
    return [np.float32(1.0 if test(np.float32(reference), np.float32(value)) else 0.0) for value in values]


def gather_texels(texels: np.ndarray, u, v, layer, channel: int, sampler, offset=(0, 0)) -> list:
    """One lane's gather from mip 0 (``(height, width[, C])`` or ``(slices, height, width[, C])``
    when ``layer`` is not None): four values of ``texels.dtype``, x, y, z, w."""
    mode, border = sampler_state(sampler)
    if layer is not None:
        slices = texels.shape[0]
        chosen = np.floor(np.float32(layer) + np.float32(0.5))
        texels = texels[int(min(max(chosen, 0), slices - 1))]
    height, width = texels.shape[:2]
    starts = []
    for coordinate, size, shift in ((u, width, offset[0]), (v, height, offset[1])):
        position = np.float32(coordinate) * np.float32(size)
        position = np.float32(position - np.float32(0.5))
        position = np.float32(position + np.float32(shift))
        starts.append(int(np.floor(position)))
    default = 1 if channel == 3 else 0
    values = []
    for du, dv in CORNERS:
        x = _address(starts[0] + du, width, mode)
        y = _address(starts[1] + dv, height, mode)
        if x is None or y is None:
            values.append(border[channel])
        elif texels.ndim == 2:
            values.append(texels[y, x] if channel == 0 else default)
        else:
            values.append(texels[y, x, channel] if channel < texels.shape[2] else default)
    return values


def texture_gather(m, inst, args, exec_lanes):
    names = inst.attrs["resource"], inst.attrs["sampler"]
    bindings = [m.bindings.get(name) for name in names]
    if any(binding is None or binding.count != 1 for binding in bindings):
        raise InterpretError("texture_gather needs one texture and one sampler (no resource arrays)")
    if any(name not in m.buffers for name in names):
        raise InterpretError(f"texture_gather needs {names[0]!r} and its sampler {names[1]!r} (buffers={{...}})")
    resource, sampler = m.buffers[names[0]], m.buffers[names[1]]
    level = decoded_levels(bindings[0], [np.asarray(resource[0] if isinstance(resource, list) else resource)])[0]
    if not bindings[0].kind.endswith("Array"):
        level = level[0]  # (height, width, 4): the texels decoded as loads decode them
    uv, *reference = args  # GatherCmp*: the reference value, compared with each texel
    is_array = bindings[0].kind.endswith("Array")
    offset = inst.attrs.get("offset", [0, 0])
    result = zeros(m.wave_size, inst.type)
    for lane in np.flatnonzero(exec_lanes):
        layer = uv[lane, 2] if is_array else None
        values = gather_texels(level, uv[lane, 0], uv[lane, 1], layer, inst.attrs["channel"], sampler, offset)
        if reference:
            values = compared(values, reference[0][lane], sampler)
        result[lane] = np.array(values, dtype=np.float32 if reference else level.dtype).astype(dtype_of(inst.type))
    return result


HANDLERS = {Op.TEXTURE_GATHER: texture_gather}
