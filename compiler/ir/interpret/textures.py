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

A load converts the texel's channels to the result type's element (no format
decoding: give UNORM data as floats); a result wider than the texel gets 0 in the
missing channels and 1 in a missing fourth (D3D's defaults). A store writes the
texel's channels from the value's first components. Out of bounds (any coordinate,
or a mip level that was not given) reads 0 and is not written. ``texture_sample``
(SampleLevel, any texture) and cube textures are not supported: both raise
``InterpretError`` (the host JIT runs them).
"""

from __future__ import annotations

import numpy as np

from ...frontend import hlsl_types as T
from . import memory
from .memory import as_bytes, buffer_info
from .values import InterpretError, dtype_of, width_of, zeros
from ..ops import Op

_CUBES = ("TextureCube", "TextureCubeArray")


def _binding(m, inst):
    binding = m.bindings.get(inst.attrs.get("resource"))
    if binding is None:
        raise InterpretError(f"{inst.op.value} needs the resource line of {inst.attrs.get('resource')!r}")
    if binding.kind in _CUBES:
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


def _channels(level: np.ndarray, dims: int) -> int:
    return level.shape[dims] if level.ndim > dims else 1


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
        texel = np.atleast_1d(level[position])
        values = np.zeros(width, dtype=np.float64 if texel.dtype.kind == "f" else np.int64)
        values[:min(width, len(texel))] = texel[:width]
        if width == 4 and len(texel) < 4:
            values[3] = 1
        result[lane] = values.astype(dtype_of(inst.type))
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
        channels = _channels(level, dims)
        if level.ndim > dims:
            level[position][:channels] = value[lane, :channels].astype(level.dtype)
        else:
            level[position] = value[lane, 0].astype(level.dtype)
    return None


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
    Op.TEXTURE_STORE: texture_store,
    Op.RESOURCE_INFO: resource_info,
}
