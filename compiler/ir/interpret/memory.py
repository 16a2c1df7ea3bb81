"""Interpreter handlers for memory: resources, LDS, constant buffers, scratch, atomics.

Memory is bytes: every access reads or writes the bytes of its value type (bool as
a 32-bit word) at a byte address, so a buffer's NumPy dtype need not match the
type a kernel loads it as. Operand orders are AST lowering's (``lower/resources.py``,
``lower/places.py``); ``[i]`` is the flattened resource-array index, present when
the binding is a resource array (or, with no binding, when there is one more operand):

    buffer_load T [i], index[, dynamic] {resource[, offset]}
    buffer_store [i], index[, dynamic], value {resource[, offset]}
    buffer_atomic T [i], index[, dynamic], value {resource, fn[, offset]}  cmpxchg: ..., compare, value
    (``dynamic``, bytes added to ``offset``, is there when ``dynamic_offset`` is set)
    lds_load T address {var}          lds_store address, value {var}
    lds_atomic T address, value {var, fn}                       cmpxchg: address, compare, value
    scratch_load T address            scratch_store address, value    (per-lane memory)
    cbuffer_load T [dynamic] {buffer, offset}                   (the dynamic bytes are added)

A cbuffer is bytes (bytes-like or a NumPy array), or a ``{byte offset: number or list}``
dict whose numbers are converted to the loaded type (a list holds consecutive
components of the loaded element size).
    resource_info uintN [i] {resource, fields}                  buffers: bytes, count, stride

A buffer element's address is ``index * stride + offset [+ dynamic]``: ``stride`` is the
binding's element size (tight layout) when the module declares the resource, else
the NumPy array's row size (``array[0].nbytes`` for 2-D arrays), else the accessed
type's size; for (RW)ByteAddressBuffer the index is the byte address. D3D12 rules:
an access that does not fit in its buffer reads 0 and is not written; so is one
through a resource-array index the caller gave no array for. LDS and scratch follow
the same rule, so nothing outside them is ever touched (D3D12 leaves groupshared
out-of-bounds undefined).

Atomics run lane by lane in lane order; each lane gets the value memory held
before its own operation (``fn``: add, and, or, xor, min, max, exchange, cmpxchg;
min/max compare as the value type: signed for int, unsigned for uint).
"""

from __future__ import annotations

import numpy as np

from ...frontend import hlsl_types as T
from ..lower.globals import tight_size
from ..ops import Op
from .values import InterpretError, bytes_of, convert, dtype_of, width_of, zeros

# ---------------------------------------------------------------------------------------
# bytes <-> values
# ---------------------------------------------------------------------------------------


def _memory_dtype(t: T.Type) -> np.dtype:
    dtype = dtype_of(t)
    return np.dtype(np.uint32) if dtype == np.bool_ else dtype


def decode(raw: np.ndarray, t: T.Type) -> np.ndarray:
    """The ``width_of(t)`` components stored in ``raw`` (uint8)."""
    values = np.frombuffer(raw.tobytes(), dtype=_memory_dtype(t))
    return values != 0 if dtype_of(t) == np.bool_ else values


def encode(values: np.ndarray, t: T.Type) -> np.ndarray:
    return np.frombuffer(np.asarray(values).astype(_memory_dtype(t)).tobytes(), dtype=np.uint8)


def _fits(memory: np.ndarray, address: int, size: int) -> bool:
    return 0 <= address and address + size <= len(memory)


def _read(memory: np.ndarray, address: int, t: T.Type) -> np.ndarray | None:
    size = bytes_of(t)
    if not _fits(memory, address, size):
        return None
    return decode(memory[address:address + size], t)


def _write(memory: np.ndarray, address: int, values: np.ndarray, t: T.Type) -> None:
    size = bytes_of(t)
    if _fits(memory, address, size):
        memory[address:address + size] = encode(values, t)


def as_bytes(array: np.ndarray) -> np.ndarray:
    """A flat uint8 view of a C-contiguous array (writes go through to it)."""
    return array.reshape(-1).view(np.uint8)


def _active(exec_lanes: np.ndarray):
    return (int(lane) for lane in np.flatnonzero(exec_lanes))


# ---------------------------------------------------------------------------------------
# resources
# ---------------------------------------------------------------------------------------


def resource_array(m, name: str, array_index: int | None) -> np.ndarray | None:
    """The array behind ``name`` (element ``array_index`` of a resource array), or None."""
    if name not in m.buffers:
        raise InterpretError(f"no buffer named {name!r} was given (buffers={{...}})")
    resource = m.buffers[name]
    if array_index is None:
        if isinstance(resource, list):
            raise InterpretError(f"{name!r} is a resource array: the access needs an array index")
        return resource
    if not isinstance(resource, list):
        return resource if array_index == 0 else None
    return resource[array_index] if 0 <= array_index < len(resource) else None


def _is_byte_address(m, inst) -> bool:
    binding = m.bindings.get(inst.attrs.get("resource"))
    return binding is not None and "ByteAddress" in binding.kind


def _stride(m, inst, array: np.ndarray, value_type: T.Type) -> int:
    if _is_byte_address(m, inst):
        return 1
    binding = m.bindings.get(inst.attrs["resource"])
    if binding is not None and binding.element is not None:
        return tight_size(binding.element)  # the structured-buffer layout AST lowering uses
    if array.ndim > 1:
        return array[0].nbytes
    return bytes_of(value_type)


def _split_array_index(m, inst, args, plain_count: int):
    """``(array index per lane or None, the other operands)``: ``[i]`` comes first when present.
    A ``dynamic_offset`` operand stays with ``index`` (``_split_offset`` takes it off)."""
    plain_count += int(bool(inst.attrs.get("dynamic_offset")))
    binding = m.bindings.get(inst.attrs.get("resource"))
    has_index = binding.count != 1 if binding is not None else len(args) == plain_count + 1
    expected = plain_count + int(has_index)
    if len(args) != expected:
        raise InterpretError(f"{inst.op.value} on {inst.attrs.get('resource')!r} needs {expected} operands, "
                             f"got {len(args)}")
    if has_index:
        return args[0][:, 0].astype(np.int64), args[1:]
    return None, args


def _split_offset(inst, args):
    """``(index, dynamic byte offset or None, the rest)`` of the operands after ``[i]``."""
    if inst.attrs.get("dynamic_offset"):
        return args[0], args[1], args[2:]
    return args[0], None, args[1:]


def _element_address(m, inst, lane: int, array_index, index, value_type: T.Type, dynamic=None):
    """``(bytes of the resource, byte address)`` for one lane, or None when there is no such resource.
    The address is plain arithmetic (as DXC's raw buffer offsets are): only the buffer's end bounds it."""
    array = resource_array(m, inst.attrs["resource"], None if array_index is None else int(array_index[lane]))
    if array is None:
        return None
    address = int(index[lane, 0]) * _stride(m, inst, array, value_type) + int(inst.attrs.get("offset", 0))
    if dynamic is not None:
        address += int(dynamic[lane, 0])
    return as_bytes(array), address


def buffer_load(m, inst, args, exec_lanes):
    array_index, rest = _split_array_index(m, inst, args, 1)
    index, dynamic, _ = _split_offset(inst, rest)
    result = zeros(m.wave_size, inst.type)
    for lane in _active(exec_lanes):
        place = _element_address(m, inst, lane, array_index, index, inst.type, dynamic)
        if place is not None:
            loaded = _read(*place, inst.type)
            if loaded is not None:
                result[lane] = loaded
    return result


def buffer_store(m, inst, args, exec_lanes):
    value_type = inst.operands[-1].type
    array_index, rest = _split_array_index(m, inst, args, 2)
    index, dynamic, (value,) = _split_offset(inst, rest)
    for lane in _active(exec_lanes):  # lane order: with equal addresses the highest lane wins
        place = _element_address(m, inst, lane, array_index, index, value_type, dynamic)
        if place is not None:
            _write(*place, value[lane], value_type)
    return None


def buffer_info(m, inst, args, exec_lanes):
    """Buffer sizes by ``fields`` (bytes, count, stride; default: count then stride)."""
    name = inst.attrs.get("resource")
    binding = m.bindings.get(name)
    array_index = args[0][:, 0].astype(np.int64) if binding is not None and binding.count != 1 else None
    fields = inst.attrs.get("fields", ["count", "stride"])[:width_of(inst.type)]
    result = zeros(m.wave_size, inst.type)
    for lane in range(m.wave_size):
        array = resource_array(m, name, None if array_index is None else int(array_index[lane]))
        if array is None:
            continue
        stride = _stride(m, inst, array, T.UINT)
        sizes = {"bytes": array.nbytes, "count": array.nbytes // stride, "stride": stride}
        result[lane] = [sizes[field] for field in fields]
    return result


# ---------------------------------------------------------------------------------------
# LDS, scratch, constant buffers
# ---------------------------------------------------------------------------------------


def lds_load(m, inst, args, exec_lanes):
    result = zeros(m.wave_size, inst.type)
    for lane in _active(exec_lanes):
        loaded = _read(m.lds, int(args[0][lane, 0]), inst.type)
        if loaded is not None:
            result[lane] = loaded
    return result


def lds_store(m, inst, args, exec_lanes):
    address, value = args
    for lane in _active(exec_lanes):
        _write(m.lds, int(address[lane, 0]), value[lane], inst.operands[1].type)
    return None


def scratch_load(m, inst, args, exec_lanes):
    result = zeros(m.wave_size, inst.type)
    for lane in _active(exec_lanes):
        loaded = _read(m.scratch[lane], int(args[0][lane, 0]), inst.type)
        if loaded is not None:
            result[lane] = loaded
    return result


def scratch_store(m, inst, args, exec_lanes):
    address, value = args
    for lane in _active(exec_lanes):
        _write(m.scratch[lane], int(address[lane, 0]), value[lane], inst.operands[1].type)
    return None


def _cbuffer_component(contents: dict, address: int, step: int):
    """The value at byte ``address`` of a ``{offset: value or list}`` cbuffer (lists hold
    consecutive ``step``-byte components), 0 when nothing covers it."""
    if address in contents and not isinstance(contents[address], (list, tuple, np.ndarray)):
        return contents[address]
    for start, value in contents.items():
        if isinstance(value, (list, tuple, np.ndarray)) and start <= address and (address - start) % step == 0:
            position = (address - start) // step
            if position < len(value):
                return value[position]
    return 0


def _cbuffer_read(contents, offset: int, t: T.Type) -> np.ndarray:
    """``t`` at byte ``offset`` of a cbuffer given as bytes or as ``{offset: value}``."""
    if not isinstance(contents, dict):
        loaded = _read(contents, offset, t)
        return loaded if loaded is not None else np.zeros(width_of(t), dtype=dtype_of(t))
    step = bytes_of(t) // width_of(t)
    components = [_cbuffer_component(contents, offset + k * step, step) for k in range(width_of(t))]
    return convert(np.array(components), dtype_of(t))


def cbuffer_load(m, inst, args, exec_lanes):
    name = inst.attrs.get("buffer")
    if name not in m.cbuffers:
        raise InterpretError(f"no cbuffer named {name!r} was given (cbuffers={{...}})")
    contents = m.cbuffers[name]
    base = int(inst.attrs.get("offset", 0))
    result = zeros(m.wave_size, inst.type)
    if not args:
        result[:] = _cbuffer_read(contents, base, inst.type)
        return result
    for lane in _active(exec_lanes):
        result[lane] = _cbuffer_read(contents, base + int(args[0][lane, 0]), inst.type)
    return result


# ---------------------------------------------------------------------------------------
# atomics
# ---------------------------------------------------------------------------------------

_ATOMIC = {
    "add": lambda old, value, compare: old + value,
    "and": lambda old, value, compare: old & value,
    "or": lambda old, value, compare: old | value,
    "xor": lambda old, value, compare: old ^ value,
    "min": lambda old, value, compare: np.minimum(old, value),
    "max": lambda old, value, compare: np.maximum(old, value),
    "exchange": lambda old, value, compare: value,
    "cmpxchg": lambda old, value, compare: value if old[0] == compare[0] else old,
}


def _atomic_operands(inst, args):
    """``(address operand, compare or None, value)`` after any array index was split off."""
    if len(args) == 3:
        return args[0], args[1], args[2]
    return args[0], None, args[1]


def _atomic_step(memory: np.ndarray, address: int, fn: str, value, compare, t: T.Type):
    """One lane's read-modify-write; returns the old value (None when out of bounds)."""
    old = _read(memory, address, t)
    if old is None:
        return None
    dtype = _memory_dtype(t)
    with np.errstate(all="ignore"):
        new = _ATOMIC[fn](old.astype(dtype), np.asarray(value).astype(dtype),
                          None if compare is None else np.asarray(compare).astype(dtype))
    _write(memory, address, np.asarray(new).astype(dtype), t)
    return old


def atomic_at(m, inst, exec_lanes, place_of):
    """Each active lane's read-modify-write, in lane order, at ``place_of(lane)``: ``(bytes,
    byte address, value, compare)`` or None (no such place: the lane reads 0)."""
    return _atomic(m, inst, None, exec_lanes, place_of)


def _atomic(m, inst, args, exec_lanes, place_of):
    fn = inst.attrs.get("fn")
    if fn not in _ATOMIC:
        raise InterpretError(f"atomic fn {fn!r} is not one of {', '.join(_ATOMIC)}")
    value_type = inst.type if inst.type != T.VOID else inst.operands[-1].type
    result = zeros(m.wave_size, value_type)
    for lane in _active(exec_lanes):
        place = place_of(lane)
        if place is None:
            continue
        memory, address, value, compare = place
        old = _atomic_step(memory, address, fn, value, compare, value_type)
        if old is not None:
            result[lane] = old
    return result if inst.type != T.VOID else None


def lds_atomic(m, inst, args, exec_lanes):
    address, compare, value = _atomic_operands(inst, args)

    def place_of(lane):
        return m.lds, int(address[lane, 0]), value[lane], None if compare is None else compare[lane]

    return _atomic(m, inst, args, exec_lanes, place_of)


def buffer_atomic(m, inst, args, exec_lanes):
    plain = 3 if inst.attrs.get("fn") == "cmpxchg" else 2
    array_index, rest = _split_array_index(m, inst, args, plain)
    index, dynamic, data = _split_offset(inst, rest)
    _, compare, value = _atomic_operands(inst, [index] + list(data))
    value_type = inst.type if inst.type != T.VOID else inst.operands[-1].type

    def place_of(lane):
        place = _element_address(m, inst, lane, array_index, index, value_type, dynamic)
        if place is None:
            return None
        return place[0], place[1], value[lane], None if compare is None else compare[lane]

    return _atomic(m, inst, args, exec_lanes, place_of)


def barrier(m, inst, args, exec_lanes):
    """A single wave never waits at a barrier: count it and remember who reached it."""
    m.barrier_masks.append(exec_lanes.copy())
    return None


HANDLERS = {
    Op.BUFFER_LOAD: buffer_load, Op.BUFFER_STORE: buffer_store,
    Op.LDS_LOAD: lds_load, Op.LDS_STORE: lds_store,
    Op.SCRATCH_LOAD: scratch_load, Op.SCRATCH_STORE: scratch_store,
    Op.CBUFFER_LOAD: cbuffer_load,
    Op.LDS_ATOMIC: lds_atomic, Op.BUFFER_ATOMIC: buffer_atomic,
    Op.BARRIER: barrier,
}
