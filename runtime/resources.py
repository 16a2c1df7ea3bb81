"""Binding a dispatch's NumPy arrays and values to the kernel's resource slots.

    table = bind(info, {"src": a, "dst": b, "scale": 2.0, "lin": Sampler("linear")})
    ... run the dispatch with table.resources / table.sizes / table.meta ...
    table.write_back()

Everything is bound by its HLSL name (``abi.py`` describes the slots):

- typed and structured buffers: NumPy arrays of the element's dtype, a vector's
  components as the trailing axis (``float4`` -> ``(..., 4)`` float32), a struct as
  a structured dtype with HLSL's tight layout (``Kernel.bindings[name].dtype``), a
  matrix as ``(rows, cols)`` axes in HLSL's logical order (column_major ones, the
  default, are bound as a transposed copy and copied back: ``layout.py``);
- byte-address buffers: uint32 or uint8 arrays;
- textures: see ``textures.py``; samplers: ``Sampler``;
- constant-buffer members and global uniforms by their own names (a whole
  cbuffer may also be given by its name, as a dict of members or raw bytes);
- resource arrays as Python lists, one entry per element (``None`` leaves an
  element unbound: accesses through it read 0 and drop writes).

Buffers that are C-contiguous, aligned and of the right dtype are used in place,
so writes land in the caller's arrays as the kernel makes them; anything else is
copied in and, for UAVs, copied back after the dispatch. Wrong names, dtypes or
shapes raise ``BindingError`` naming the resource and what was expected.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field

import numpy as np

from ..compiler.frontend import hlsl_types as T
from ..compiler.machine.abi import (COMPARISONS, META_ABSENT_CHANNELS, META_COMPARISON, META_FIELDS, META_INTS,
                                    META_TEXEL_FORMAT, ResourceKind)
from ..compiler.machine.sampling import ADDRESS_MODES
from .layout import (DISPATCH_OPTIONS, BindingError, CBufferLayout, element_shape, from_memory, memory_type,
                     numpy_dtype, pack_cbuffer, to_memory, transposes)
from .textures import Texture, base_kind, bind_texture, texel_dtype

__all__ = ["BindingError", "ResourceTable", "Sampler", "bind"]

_META = {name: index for index, name in enumerate(META_FIELDS)}
_META["array_count"] = 9  # host.META_ARRAY_COUNT: an unbounded resource array's length, in its first slot
_META["comparison"] = META_COMPARISON
_META["texel_format"], _META["absent_channels"] = META_TEXEL_FORMAT, META_ABSENT_CHANNELS
_FILTERS = {"point": 0, "linear": 1}
_ADDRESSES = ADDRESS_MODES  # the numbers the JIT and the simulators read
_ALIGN = 16


@dataclass(frozen=True)
class Sampler:
    """A sampler for ``SampleLevel``: point or bilinear filtering, and an address mode; bound to a
    ``SamplerComparisonState``, ``comparison`` is how ``SampleCmpLevelZero`` compares its
    reference with each texel (``ref <op> texel``, 1 when true), before filtering."""

    filter: str = "point"
    address: str = "clamp"
    border: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    comparison: str = "less_equal"

    def __post_init__(self):
        if self.filter not in _FILTERS:
            raise ValueError(f"Sampler filter must be one of {', '.join(_FILTERS)}, not {self.filter!r}")
        if self.address not in _ADDRESSES:
            raise ValueError(f"Sampler address must be one of {', '.join(_ADDRESSES)}, not {self.address!r}")
        if self.comparison not in COMPARISONS:
            raise ValueError(f"Sampler comparison must be one of {', '.join(COMPARISONS)}, not {self.comparison!r}")
        border = tuple(float(x) for x in self.border)
        if len(border) != 4:
            raise ValueError(f"Sampler border is 4 numbers (r, g, b, a), not {self.border!r}")
        object.__setattr__(self, "border", border)


@functools.cache  # every dispatch asks again for each binding
def binding_category(kind: str) -> str:
    """buffer, byte_address, texture, sampler or cbuffer."""
    if kind in T.RESOURCE_KINDS:
        if T.RESOURCE_KINDS[kind][2]:
            return "texture"
        return "byte_address" if "ByteAddress" in kind else "buffer"
    if kind in T.SAMPLER_KINDS:
        return "sampler"
    return "cbuffer"


@dataclass
class ResourceTable:
    """The context's per-slot arrays, and what must outlive the dispatch or go back after it."""

    pointers: np.ndarray  # uint64, one per slot
    sizes: np.ndarray  # int64 bytes, one per slot
    meta: np.ndarray  # int32, META_INTS per slot, then texture mip offsets
    keep: list = field(default_factory=list)
    copies_back: list[tuple[np.ndarray, np.ndarray]] = field(default_factory=list)  # (caller's, ours)
    # (caller's, ours in memory order, element as stored): buffers of column_major matrices
    transposed_back: list[tuple[np.ndarray, np.ndarray, T.Type]] = field(default_factory=list)
    textures_back: list[Texture] = field(default_factory=list)

    def slot_bytes(self, slot: int) -> bytes:
        """What slot ``slot`` points at (tests and debugging)."""
        import ctypes

        return ctypes.string_at(int(self.pointers[slot]), int(self.sizes[slot]))

    def write_back(self) -> None:
        for target, ours in self.copies_back:
            target[...] = ours
        for target, ours, stored in self.transposed_back:
            from_memory(target, ours, stored)
        for texture in self.textures_back:
            texture.write_back()


class _Builder:
    def __init__(self, slot_count: int):
        self.pointers = np.zeros(max(slot_count, 1), dtype=np.uint64)
        self.sizes = np.zeros(max(slot_count, 1), dtype=np.int64)
        self.slot_meta: list[int] = [0] * (max(slot_count, 1) * META_INTS)
        self.mip_offsets: dict[int, list[int]] = {}  # texture slot -> first texel of each mip
        self.textures: dict[tuple, Texture] = {}  # one conversion per caller's array (aliases)
        self.copies: dict[int, np.ndarray] = {}  # id(caller's buffer) -> our copy
        self.transposed: dict[int, np.ndarray] = {}  # id(caller's buffer) -> our copy in memory order
        self.orientations: dict[tuple[str, str], bool] = {}  # KernelInfo.orientations
        self.table = ResourceTable(self.pointers, self.sizes, np.zeros(0, np.int32))
        self.empty = np.zeros(_ALIGN, dtype=np.uint8)  # what an unbound or empty slot points at
        self.empty_address = self.empty.ctypes.data  # read once: each ``.ctypes`` makes an object
        self.table.keep.append(self.empty)

    def grow(self, slot_count: int) -> None:
        """Room for ``slot_count`` slots (an unbounded resource array at the end)."""
        if slot_count > len(self.pointers):
            extra = slot_count - len(self.pointers)
            self.pointers = self.table.pointers = np.concatenate([self.pointers, np.zeros(extra, np.uint64)])
            self.sizes = self.table.sizes = np.concatenate([self.sizes, np.zeros(extra, np.int64)])
            self.slot_meta.extend([0] * (extra * META_INTS))

    def set_meta(self, slot: int, **values: int) -> None:
        for name, value in values.items():
            self.slot_meta[slot * META_INTS + _META[name]] = int(value)

    def set_memory(self, slot: int, array: np.ndarray) -> None:
        self.table.keep.append(array)
        if array.nbytes == 0:
            self.pointers[slot] = self.empty_address
            self.sizes[slot] = 0
        else:
            self.pointers[slot] = array.ctypes.data
            self.sizes[slot] = array.nbytes

    def unbound(self, slot: int, kind: ResourceKind) -> None:
        self.pointers[slot] = self.empty_address
        self.sizes[slot] = 0
        self.set_meta(slot, kind=kind)

    def finish(self) -> ResourceTable:
        """Every slot's META_INTS, then each texture's mip offsets (``mip_offsets`` points at them)."""
        meta = list(self.slot_meta)
        field = _META["mip_offsets"]
        for slot in range(len(self.pointers)):
            offsets = self.mip_offsets.get(slot)
            meta[slot * META_INTS + field] = -1 if offsets is None else len(meta)
            meta.extend(offsets or [])
        self.table.meta = np.array(meta, dtype=np.int32)
        return self.table


def bind(info, values: dict) -> ResourceTable:
    """A ``ResourceTable`` for ``info`` (a ``kernel.KernelInfo``) from the dispatch's keyword arguments."""
    _check_names(info, values)
    builder = _Builder(info.slot_count)
    builder.orientations = info.orientations
    for binding in info.bindings:
        first = info.slots[binding.name]
        category = binding_category(binding.kind)
        if category == "cbuffer":
            _bind_cbuffer(builder, first, info.cbuffers.get(binding.name, CBufferLayout(binding.name)), values)
            continue
        if binding.name not in values:
            if binding.name in DISPATCH_OPTIONS:  # a keyword dispatch() keeps for itself
                how = f"pass it in the bindings mapping: dispatch(groups, {{'{binding.name}': {_example(binding)}}})"
            else:
                how = f"pass {binding.name}={_example(binding)}"
            raise BindingError(f"missing resource '{binding.name}' ({_describe(binding)}): {how}")
        given = values[binding.name]
        items = _array_items(binding, given)
        if binding.count is None:  # unbounded: as many slots as the list has, its length in meta
            builder.grow(first + len(items))
            builder.set_meta(first, array_count=len(items))
        for index, item in enumerate(items):
            where = binding.name if len(items) == 1 and binding.count == 1 else f"{binding.name}[{index}]"
            slot = first + index
            if item is None:
                builder.unbound(slot, _RESOURCE_KIND[category])
            elif category == "buffer" or category == "byte_address":
                _bind_buffer(builder, slot, binding, where, item, category)
            elif category == "texture":
                _bind_texture(builder, slot, binding, where, item)
            else:
                _bind_sampler(builder, slot, binding, where, item)
    return builder.finish()


_RESOURCE_KIND = {"buffer": ResourceKind.BUFFER, "byte_address": ResourceKind.BYTE_ADDRESS,
                  "texture": ResourceKind.TEXTURE, "sampler": ResourceKind.SAMPLER,
                  "cbuffer": ResourceKind.CBUFFER}


def _check_names(info, values: dict) -> None:
    known = {binding.name for binding in info.bindings}
    known |= {member.name for layout in info.cbuffers.values() for member in layout.fields}
    unknown = [name for name in values if name not in known and name not in info.declared]
    if unknown:
        names = ", ".join(sorted(name for name in known if not name.startswith("$"))) or "nothing"
        raise BindingError(f"the kernel has no resource or constant named {', '.join(map(repr, unknown))} "
                           f"(it binds: {names})")


def _describe(binding) -> str:
    element = f"<{binding.element}>" if binding.element is not None else ""
    count = "" if binding.count == 1 else f"[{binding.count or ''}]"
    return f"{binding.kind}{element}{count} at {binding.register}" + (f", space{binding.space}" if binding.space else "")


def _example(binding) -> str:
    category = binding_category(binding.kind)
    if category == "sampler":
        one = "shc.Sampler(...)"
    elif category == "byte_address":
        one = "a uint32 array"
    elif category == "texture":
        one = "an (H, W, C) array" if "2D" in binding.kind else "an array"
    else:
        dtype, shape = element_shape(binding.element)
        one = f"a {dtype} array" + (f" of shape (N, {', '.join(map(str, shape))})" if shape else "")
    return one if binding.count == 1 else f"a list of {binding.count or 'N'} ({one} each)"


def _array_items(binding, given) -> list:
    """The resources of a binding: one, or one per element of a resource array."""
    if binding.count == 1:
        if isinstance(given, (list, tuple)) and binding_category(binding.kind) != "texture":
            raise BindingError(f"'{binding.name}' is one {binding.kind}, not a resource array: "
                               f"pass a single {'Sampler' if binding_category(binding.kind) == 'sampler' else 'array'}")
        return [given]
    if not isinstance(given, (list, tuple)):
        raise BindingError(f"'{binding.name}' is a resource array ({_describe(binding)}): pass a list")
    if binding.count is not None and len(given) != binding.count:
        raise BindingError(f"'{binding.name}' is a resource array of {binding.count}: got a list of {len(given)}")
    return list(given)


# ---------------------------------------------------------------------------------------
# buffers
# ---------------------------------------------------------------------------------------


def _bind_buffer(builder: _Builder, slot: int, binding, where: str, value, category: str) -> None:
    if not isinstance(value, np.ndarray):
        raise BindingError(f"'{where}' ({_describe(binding)}): expected a NumPy array, got {type(value).__name__}")
    writable = T.RESOURCE_KINDS[binding.kind][0]
    if writable and not value.flags.writeable:
        raise BindingError(f"'{where}' ({_describe(binding)}) is written by the kernel: the array is read-only")
    if category == "byte_address":
        if value.dtype not in (np.dtype(np.uint32), np.dtype(np.uint8)):
            raise BindingError(f"'{where}' ({_describe(binding)}): expected a uint32 or uint8 array, got {value.dtype}")
        stride = 1
        memory = _memory_of(builder, value, writable)
    else:
        _check_element(where, binding, value)
        stride = numpy_dtype(binding.element).itemsize
        stored = memory_type(binding.element, builder.orientations)
        if transposes(stored):
            memory = _memory_in_order(builder, value, stored, writable)
        else:
            memory = _memory_of(builder, value, writable)
    builder.set_memory(slot, memory)
    builder.set_meta(slot, kind=_RESOURCE_KIND[category], stride=stride, width=memory.nbytes // stride,
                     height=1, depth=1)


def _check_element(where: str, binding, value: np.ndarray) -> None:
    element = binding.element
    dtype, shape = element_shape(element)
    if dtype.names is not None:  # a struct: a structured dtype laid out like HLSL
        if value.dtype != dtype:
            raise BindingError(f"'{where}' ({_describe(binding)}): expected a structured array of dtype {dtype} "
                               f"(HLSL's layout of {element}; Kernel.bindings['{binding.name}'].dtype), "
                               f"got {value.dtype}")
        return
    if value.dtype != dtype:
        if element is not None and T.element_of(element) == T.BOOL and value.dtype == np.dtype(np.int32):
            return
        raise BindingError(f"'{where}' ({_describe(binding)}): expected {dtype} elements, got {value.dtype}")
    if shape and (value.ndim < 1 + len(shape) or value.shape[-len(shape):] != shape):
        raise BindingError(f"'{where}' ({_describe(binding)}): expected shape (N, {', '.join(map(str, shape))}) "
                           f"(the {element} components as the last axis), got {value.shape}")


def _memory_of(builder: _Builder, value: np.ndarray, writable: bool) -> np.ndarray:
    """The caller's array when it can be used in place, else a copy (copied back if written)."""
    usable = value.flags.c_contiguous and value.dtype.isnative and value.ctypes.data % _ALIGN == 0
    if usable:
        return value
    ours = builder.copies.get(id(value))
    if ours is None:  # one copy per array, so aliased bindings share it
        ours = np.empty(value.shape, dtype=value.dtype.newbyteorder("=") if not value.dtype.isnative else value.dtype)
        ours[...] = value
        builder.copies[id(value)] = ours
        builder.table.keep.append(value)
    if writable and not any(ours is copy for _, copy in builder.table.copies_back):
        builder.table.copies_back.append((value, ours))
    return ours


def _memory_in_order(builder: _Builder, value: np.ndarray, stored: T.Type, writable: bool) -> np.ndarray:
    """A copy of ``value`` with its column_major matrices transposed (copied back if written)."""
    ours = builder.transposed.get(id(value))
    if ours is None:  # one copy per array, so aliased bindings share it
        ours = builder.transposed[id(value)] = to_memory(value, stored)
        builder.table.keep.append(value)
    if writable and not any(ours is copy for _, copy, _ in builder.table.transposed_back):
        builder.table.transposed_back.append((value, ours, stored))
    return ours


# ---------------------------------------------------------------------------------------
# textures, samplers, constant buffers
# ---------------------------------------------------------------------------------------


def _bind_texture(builder: _Builder, slot: int, binding, where: str, value) -> None:
    """One conversion per caller's array: aliases (SPD binds mip 6 twice) see each other's writes."""
    levels = value if isinstance(value, (list, tuple)) else [value]
    key = (tuple(id(level) for level in levels), base_kind(binding.kind), texel_dtype(binding.element).kind)
    texture = builder.textures.get(key)
    if texture is None:
        texture = builder.textures[key] = bind_texture(where, binding.kind, binding.element, value)
        builder.table.keep.append(value)  # the ids in the key stay valid while the table lives
    elif binding.kind.startswith("RW") and texture.source is None and \
            texture.texels.ctypes.data != levels[0].ctypes.data:
        texture.source = levels[0]  # first bound read-only, now written: give the writes back
        builder.table.textures_back.append(texture)
        return _texture_slot(builder, slot, texture)
    _texture_slot(builder, slot, texture)
    if texture.source is not None and texture not in builder.table.textures_back:
        builder.table.textures_back.append(texture)


def _texture_slot(builder: _Builder, slot: int, texture: Texture) -> None:
    builder.set_memory(slot, texture.texels)
    builder.mip_offsets[slot] = list(texture.offsets)
    builder.set_meta(slot, kind=ResourceKind.TEXTURE, stride=16, width=texture.width, height=texture.height,
                     depth=texture.depth, mips=texture.mips, texel_format=texture.rounding,
                     absent_channels=4 - texture.channels)


def _bind_sampler(builder: _Builder, slot: int, binding, where: str, value) -> None:
    if not isinstance(value, Sampler):
        raise BindingError(f"'{where}' ({_describe(binding)}): expected shc.Sampler(filter=..., address=...), "
                           f"got {type(value).__name__}")
    border = np.array(value.border, dtype=np.float32)
    builder.set_memory(slot, border)
    builder.set_meta(slot, kind=ResourceKind.SAMPLER, filter=_FILTERS[value.filter],
                     address=_ADDRESSES[value.address], comparison=COMPARISONS.index(value.comparison))


def _bind_cbuffer(builder: _Builder, slot: int, layout: CBufferLayout, values: dict) -> None:
    whole = values.get(layout.name)
    if isinstance(whole, (bytes, bytearray, memoryview, np.ndarray)) and not _is_member(layout, layout.name):
        data = np.frombuffer(bytes(whole if not isinstance(whole, np.ndarray) else whole.tobytes()), np.uint8)
        contents = np.zeros(max(layout.size, len(data)), dtype=np.uint8)
        contents[:len(data)] = data
    else:
        members = dict(values)
        if isinstance(whole, dict) and not _is_member(layout, layout.name):
            members.update(whole)
        contents = np.frombuffer(pack_cbuffer(layout, members), dtype=np.uint8).copy()
    builder.set_memory(slot, contents)
    builder.set_meta(slot, kind=ResourceKind.CBUFFER, stride=1, width=contents.nbytes, height=1, depth=1)


def _is_member(layout: CBufferLayout, name: str) -> bool:
    return any(member.name == name for member in layout.fields)
