"""Interpreter handlers for textures (``texture_load``, ``texture_store``) and ``resource_info``.

A texture is a NumPy array indexed like the texel coordinate reversed, with an
optional trailing channel axis: ``(width[, C])`` for 1-D, ``(height, width[, C])``
for 2-D, ``(slices, height, width[, C])`` for 2-D arrays, ``(depth, height,
width[, C])`` for 3-D. A read-only texture may be a list of such arrays, one per
mip level (a single array is mip 0 alone); a resource array is a list with one
texture per element. Operands (AST lowering's, ``lower/resources.py``):

    texture_load T [i], coordinate {resource}   coordinate: x[, y][, z or slice][, mip]
    texture_store [i], coordinate, value {resource}              (RW textures: no mip)
    resource_info uintN [i], [mip] {resource, fields}   fields: width, height, depth,
                                                        elements, levels (buffers: bytes,
                                                        count, stride)

The array's dtype is the texture's format, as the runtime reads it (``runtime/textures.py``,
``machine/texels.py``): a load decodes the texel to four 32-bit channels (UNORM as
``value / 255`` or ``/ 65535`` in float32, float16 widened, channels the array lacks 0, 0,
0, 1), then converts them to the result type's element. A store encodes into the format at
once, as a GPU does (UNORM clamped and rounded to nearest even, float16 rounded, narrow
integers saturated; channels the array lacks are dropped), so a texel read back later in the
dispatch reads as the format keeps it. Out of bounds (any coordinate, or a mip level that
was not given) reads 0 and is not written. Cube textures raise ``InterpretError`` (the host
JIT runs them).

    texture_sample float4 [i], [j], coordinate, lod[, reference] {resource, sampler[, offset][, compare]}

is SampleLevel (SampleCmpLevelZero with ``compare``): ``machine/sampling.py`` filters each lane
in float32 step by step as the host JIT does, over the decoded texels of every mip given. The
sampler is given under its name as the runtime's ``shc.Sampler`` or a tuple ``(filter,
address[, border rgba[, comparison name]])`` with the runtime's numbers (0 point, 1 linear;
0 clamp, 1 wrap, 2 mirror, 3 border). An index into an array of textures or samplers is the
first active lane's, as the JIT and the hardware read a descriptor from SGPRs.
"""

from __future__ import annotations

import numpy as np

from ...frontend import hlsl_types as T
from ...machine.abi import COMPARISONS
from ...machine.sampling import array_slice, sample
from ...machine.texels import encode
from . import memory
from .gather import sampler_comparison, sampler_state
from .memory import as_bytes, buffer_info
from .texels import decoded_levels, decoded_texel, scale_of
from .values import InterpretError, dtype_of, width_of, zeros
from ..ops import Op


def _binding(m, inst):
    binding = m.bindings.get(inst.attrs.get("resource"))
    if binding is None:
        raise InterpretError(f"{inst.op.value} needs the resource line of {inst.attrs.get('resource')!r}")
    if binding.kind in T.CUBE_KINDS:
        raise InterpretError(f"{binding.kind} is not supported by the interpreter")
    return binding


def _mips(m, binding, array_index: int | None) -> list[np.ndarray] | None:
    """The mip chain of the texture (element ``array_index`` of a resource array), or None."""
    if binding.name not in m.buffers:
        raise InterpretError(f"no texture named {binding.name!r} was given (buffers={{...}})")
    resource = m.buffers[binding.name]
    if binding.count != 1:
        if array_index is None or not 0 <= array_index < len(resource):
            return None
        resource = resource[array_index]
    return resource if isinstance(resource, list) else [resource]


def _split(binding, args, plain_count: int):
    if binding.count != 1:
        return args[0][:, 0].astype(np.int64), args[1:]
    return None, args


def _texel_index(binding, level: np.ndarray, coordinate) -> tuple | None:
    """The NumPy index of a texel (x, y, ... reversed), or None when it is outside ``level``."""
    dims = T.RESOURCE_KINDS[binding.kind][1]
    position = tuple(int(c) for c in reversed(coordinate[:dims]))
    if any(not 0 <= p < size for p, size in zip(position, level.shape[:dims])):
        return None
    return position


def texture_load(m, inst, args, exec_lanes):
    binding = _binding(m, inst)
    array_index, (coordinates,) = _split(binding, args, 1)
    dims = T.RESOURCE_KINDS[binding.kind][1]
    has_mip = not T.RESOURCE_KINDS[binding.kind][0]
    width = width_of(inst.type)
    result = zeros(m.wave_size, inst.type)
    for lane in np.flatnonzero(exec_lanes):
        mips = _mips(m, binding, None if array_index is None else int(array_index[lane]))
        mip = int(coordinates[lane, dims]) if has_mip else 0
        if mips is None or not 0 <= mip < len(mips):
            continue
        level = mips[mip]
        position = _texel_index(binding, level, coordinates[lane])
        if position is None:
            continue
        texel = decoded_texel(binding, level, position)[:width]
        result[lane] = texel.astype(np.float64 if texel.dtype.kind == "f" else np.int64).astype(dtype_of(inst.type))
    return result


def texture_store(m, inst, args, exec_lanes):
    binding = _binding(m, inst)
    array_index, (coordinates, value) = _split(binding, args, 2)
    dims = T.RESOURCE_KINDS[binding.kind][1]
    for lane in np.flatnonzero(exec_lanes):  # lane order: with equal texels the highest lane wins
        mips = _mips(m, binding, None if array_index is None else int(array_index[lane]))
        if mips is None:
            continue
        level = mips[0]
        position = _texel_index(binding, level, coordinates[lane])
        if position is None:
            continue
        texel = decoded_texel(binding, level, position)
        width = min(value.shape[1] if value.ndim > 1 else 1, 4)
        with np.errstate(all="ignore"):  # wrapping to the texel's 32 bits, as the JIT's casts
            texel[:width] = np.reshape(value[lane], -1)[:width].astype(texel.dtype)
        channels = level.shape[dims] if level.ndim > dims else 1
        stored = encode(texel[None, :channels], level.dtype, scale_of(level, texel.dtype))
        level[position] = stored[0] if level.ndim > dims else stored[0, 0]
    return None


def _first_active(index, exec_lanes) -> int | None:
    return None if index is None else int(index[np.flatnonzero(exec_lanes)[0]])


def texture_sample(m, inst, args, exec_lanes):
    """SampleLevel / SampleCmpLevelZero, one lane at a time (``machine/sampling.py``)."""
    binding = _binding(m, inst)
    sampler_binding = m.bindings.get(inst.attrs.get("sampler"))
    rest = list(args)
    array_index = rest.pop(0)[:, 0] if binding.count != 1 else None
    sampler_index = rest.pop(0)[:, 0] if sampler_binding is not None and sampler_binding.count != 1 else None
    coordinates, lods, *reference = rest
    result = zeros(m.wave_size, inst.type)
    if not exec_lanes.any():
        return result
    mips = _mips(m, binding, _first_active(array_index, exec_lanes))
    sampler = m.buffers.get(inst.attrs["sampler"])
    if sampler is None:
        raise InterpretError(f"no sampler named {inst.attrs['sampler']!r} was given (buffers={{...}})")
    if sampler_index is not None:
        sampler = sampler[_first_active(sampler_index, exec_lanes)]
    if mips is None:
        return result
    levels = decoded_levels(binding, mips)
    mode, border = sampler_state(sampler)
    linear = _is_linear(sampler)
    comparison = COMPARISONS.index(sampler_comparison(sampler)) if reference else None
    dims, is_array = T.RESOURCE_KINDS[binding.kind][1], T.RESOURCE_KINDS[binding.kind][3]
    axes = dims - is_array
    offsets = (list(inst.attrs.get("offset", [])) + [0, 0, 0])[:3]
    width = min(width_of(inst.type), 4)
    coordinates = coordinates.reshape(m.wave_size, -1)
    for lane in np.flatnonzero(exec_lanes):
        position = [np.float32(coordinates[lane, k]) for k in range(axes)]
        layer = array_slice(levels[0].shape[0], np.float32(coordinates[lane, axes])) if is_array else 0
        compare = None if comparison is None else (np.float32(reference[0][lane]), comparison)
        values = sample(levels, position, np.float32(np.reshape(lods[lane], -1)[0]), linear, mode, border, width,
                        offsets, layer, compare)
        result[lane] = np.array(values, np.float32).astype(dtype_of(inst.type))
    return result


def _is_linear(sampler) -> bool:
    if isinstance(sampler, np.ndarray) and sampler.ndim == 0:  # the interpreter's copy of the object
        sampler = sampler.item()
    return sampler.filter == "linear" if hasattr(sampler, "filter") else int(sampler[0]) == 1


def resource_info(m, inst, args, exec_lanes):
    binding = m.bindings.get(inst.attrs.get("resource"))
    if binding is None or not T.RESOURCE_KINDS.get(binding.kind, (False, 0, False, False))[2]:
        return buffer_info(m, inst, args, exec_lanes)
    binding = _binding(m, inst)
    array_index, rest = _split(binding, args, 0)
    kind_dims = T.RESOURCE_KINDS[binding.kind][1]
    fields = inst.attrs.get("fields", [])
    result = zeros(m.wave_size, inst.type)
    for lane in range(m.wave_size):
        mips = _mips(m, binding, None if array_index is None else int(array_index[lane]))
        mip = int(rest[0][lane, 0]) if rest else 0
        if mips is None or not 0 <= mip < len(mips):
            continue
        shape = mips[mip].shape[:kind_dims][::-1]  # x first: width, height, depth or elements
        sizes = dict(zip(["width", "height", "depth"], shape))
        if T.RESOURCE_KINDS[binding.kind][3]:
            sizes["elements"] = shape[-1]
        sizes["levels"] = len(mips)
        result[lane] = [sizes.get(field, 0) for field in fields][:width_of(inst.type)]
    return result


def buffer_atomic(m, inst, args, exec_lanes):
    """``buffer_atomic`` on an RW texture: the texel at the whole coordinate (its first channel);
    on a buffer, ``memory.buffer_atomic``."""
    binding = _binding(m, inst)
    if binding is None or not T.RESOURCE_KINDS.get(binding.kind, (False, 0, False, False))[2]:
        return memory.buffer_atomic(m, inst, args, exec_lanes)
    array_index, rest = _split(binding, args, 0)
    coordinates, data = rest[0], rest[1:]
    compare, value = (data[0], data[1]) if len(data) == 2 else (None, data[0])

    def place_of(lane):
        mips = _mips(m, binding, None if array_index is None else int(array_index[lane]))
        position = None if mips is None else _texel_index(binding, mips[0], coordinates[lane])
        if position is None:
            return None
        level = mips[0]
        texel = np.ravel_multi_index(position + (0,) * (level.ndim - len(position)), level.shape)
        return as_bytes(level), texel * level.itemsize, value[lane], None if compare is None else compare[lane]

    return memory.atomic_at(m, inst, exec_lanes, place_of)


HANDLERS = {
    Op.BUFFER_ATOMIC: buffer_atomic,
    Op.TEXTURE_LOAD: texture_load,
    Op.TEXTURE_SAMPLE: texture_sample,
    Op.TEXTURE_STORE: texture_store,
    Op.RESOURCE_INFO: resource_info,
}
