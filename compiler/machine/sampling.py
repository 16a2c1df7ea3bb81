"""SampleLevel, one lane at a time in float32: the filter the host JIT emits, for the executors
that compute in NumPy (the RDNA2 listing simulator's ``image_sample*``, the IR interpreter's
``texture_sample``).

The arithmetic, step by step in float32, is that of ``backend/host/textures.py``
(``_sample_helper`` and ``_sample_level``), so the two agree bit for bit:

- level of detail: clamped to [0, mips - 1] (``minnum`` then ``maxnum``: NaN gives 0);
  point sampling reads mip ``floor(lod + 0.5)``; linear sampling is bilinear in mip
  ``floor(lod)`` and, where the fraction ``lod - floor(lod)`` is not 0, in the next mip
  (at most the last), blended ``near + t * (far - near)``;
- per axis: ``texel = coordinate * size`` (the mip's size, ``max(1, size >> mip)``), minus 0.5
  when filtering, plus the immediate texel offset; ``start = floor(texel)``, the weight
  ``texel - start``;
- per texel index (``start`` or ``start + 1``, still a float): the address mode (0 clamp to
  [0, size - 1], 1 wrap, 2 mirror, 3 border: outside reads the border color);
- texels are read as float (integer textures convert, unsigned or signed); a comparison
  sampler turns each texel's first channel into 1.0 or 0.0 before filtering;
- filtering: ``a + t * (b - a)`` along x on the texel pairs, then along y, then along z.

Array textures pick their slice with ``array_slice``. Cube textures are not modelled here.
"""

from __future__ import annotations

import numpy as np

F32 = np.float32
ADDRESS_MODES = {"clamp": 0, "wrap": 1, "mirror": 2, "border": 3}
# ``ref <op> texel`` of SampleCmp, by the comparison's number (abi.COMPARISONS): ordered
# comparisons (a NaN compares false) except not_equal
_COMPARE = (lambda r, t: False, lambda r, t: r < t, lambda r, t: r == t, lambda r, t: r <= t,
            lambda r, t: r > t, lambda r, t: r != t, lambda r, t: r >= t, lambda r, t: True)


def array_slice(layers: int, layer) -> int:
    """The slice a float ``layer`` coordinate picks: ``round(layer)`` clamped to ``layers``."""
    chosen = np.floor(F32(layer) + F32(0.5))
    chosen = np.fmax(np.fmin(chosen, F32(layers) - F32(1.0)), F32(0.0))
    return _to_int(chosen)


def _to_int(value) -> int:
    """``fptosi.sat``: NaN is 0, out-of-range values saturate."""
    if np.isnan(value):
        return 0
    return int(min(max(float(value), -2.0 ** 31), 2.0 ** 31 - 1))


def _modulo(value, period):
    q = np.floor(value / period)
    r = F32(value - F32(q * period))
    if r < F32(0.0):
        r = F32(r + period)
    if r >= period:
        r = F32(r - period)
    return r


def address(position, size, mode: int) -> tuple:
    """(a float texel index through the address mode, whether it reads a texel: False only
    outside the texture in border mode)."""
    if mode == 3:
        return position, bool(F32(0.0) <= position < size)
    if mode == 1:
        return _modulo(position, size), True
    if mode == 2:
        twice = F32(size + size)
        folded = _modulo(position, twice)
        return (folded if folded < size else F32(F32(twice - F32(1.0)) - folded)), True
    return np.fmax(np.fmin(position, F32(size - F32(1.0))), F32(0.0)), True


def _level_size(size: int, mip: int) -> int:
    return max(1, size >> min(mip, 31))


def _as_float(texel: np.ndarray, width: int) -> list:
    return [F32(value) for value in texel[:width]]


def sample_level(levels: list, mip: int, coords: list, filtered: bool, mode: int, border, width: int,
                 offsets=(0, 0, 0), layer: int = 0, compare=None) -> list:
    """Point or (bi/tri)linear filtering over ``len(coords)`` axes at one mip: ``width`` floats.
    ``levels[m]`` is mip m's texels, ``(depth, height, width, 4)`` of 32-bit channels;
    ``layer`` the array slice (2-D and 1-D arrays); ``compare`` (reference, comparison number)."""
    texels = levels[mip]
    base = levels[0].shape
    sizes = [_level_size(base[2], mip), _level_size(base[1], mip), _level_size(base[0], mip)]
    scales = [F32(size) for size in sizes[:len(coords)]]
    starts, fractions = [], []
    for coordinate, scale, offset in zip(coords, scales, offsets):
        texel = F32(F32(coordinate) * scale)
        if filtered:
            texel = F32(texel - F32(0.5))
        texel = F32(texel + F32(offset))
        start = np.floor(texel)
        starts.append(start)
        fractions.append(F32(texel - start))
    values = []
    for k in range(1 << len(coords) if filtered else 1):
        inside, index = True, []
        for axis in range(len(coords)):
            position = F32(starts[axis] + F32(1.0)) if (k >> axis) & 1 else starts[axis]
            wrapped, ok = address(position, scales[axis], mode)
            index.append(_to_int(wrapped))
            inside = inside and ok
        x = index[0]
        y = index[1] if len(index) > 1 else 0
        z = index[2] if len(index) > 2 else layer
        if inside and 0 <= z < texels.shape[0] and 0 <= y < texels.shape[1] and 0 <= x < texels.shape[2]:
            value = _as_float(texels[z, y, x], width)
        elif inside:  # outside the slot's bytes: the JIT's bounds check reads 0
            value = [F32(0.0)] * width
        else:
            value = [F32(color) for color in list(border)[:width]]
        if compare is not None:
            reference, function = compare
            value = [F32(1.0) if _COMPARE[function](F32(reference), value[0]) else F32(0.0)]
        values.append(value)
    if not filtered:
        return values[0]
    result = []
    for channel in range(len(values[0])):
        column = [value[channel] for value in values]
        for fraction in fractions:
            column = [lerp(column[i], column[i + 1], fraction) for i in range(0, len(column), 2)]
        result.append(column[0])
    return result


def lerp(a, b, t):
    return F32(a + F32(t * F32(b - a)))


def sample(levels: list, coords: list, lod, linear: bool, mode: int, border, width: int, offsets=(0, 0, 0),
           layer: int = 0, compare=None) -> list:
    """SampleLevel of one lane: ``width`` float32 channels (see the module docstring)."""
    last = F32(len(levels) - 1)
    clamped = np.fmax(np.fmin(F32(lod), last), F32(0.0))
    if not linear:
        mip = _to_unsigned(np.floor(F32(clamped + F32(0.5))))
        return sample_level(levels, mip, coords, False, mode, border, width, offsets, layer, compare)
    floor = np.floor(clamped)
    blend = F32(clamped - floor)
    near = sample_level(levels, _to_unsigned(floor), coords, True, mode, border, width, offsets, layer, compare)
    if blend == F32(0.0) or np.isnan(blend):
        return near
    far_mip = _to_unsigned(np.fmin(F32(floor + F32(1.0)), last))
    far = sample_level(levels, far_mip, coords, True, mode, border, width, offsets, layer, compare)
    return [lerp(closer, further, blend) for closer, further in zip(near, far)]


def _to_unsigned(value) -> int:
    """``fptoui.sat``."""
    if np.isnan(value):
        return 0
    return int(min(max(float(value), 0.0), 2.0 ** 32 - 1))
