"""HLSL memory layouts seen from NumPy: structured dtypes and constant-buffer packing.

Two layouts, both chosen by AST lowering (``compiler/ir/lower/memory_layout.py``):

- **tight** (structured buffers, groupshared): natural alignment, no padding
  beyond it. ``numpy_dtype(t)`` is the NumPy dtype of one element laid out so:
  a struct becomes a structured dtype with the same field offsets and size, a
  vector a ``(n,)`` sub-array, an HLSL array a sub-array. ``bool`` is 4 bytes.
- **constant buffer** (``cbuffer``, ``$Globals``, ``ConstantBuffer<S>``): 16-byte
  rows, a scalar or vector never crosses a row, arrays and structs start on a row
  and array elements are a row apart. ``cbuffer_layouts`` reads the member
  offsets lowering chose (``packoffset`` included) and each member's stored type
  (``Globals.stored``); ``pack_cbuffer`` writes Python values into the bytes the
  kernel reads, with lowering's own ``cbuffer_size``/``cbuffer_offsets``.

Matrices are ``(..., rows, cols)`` arrays in HLSL's logical order, whatever their
memory holds. Memory follows AST lowering (``memory_layout.StoredMatrix``, DXC's
layouts): column_major unless a cbuffer member or a struct field says ``row_major``
(``StructuredBuffer<row_major float4x4>`` is column_major, as in DXC). In a constant
buffer each stored vector (a column, or a row when row_major) is one 16-byte row;
in a structured buffer the stored vectors are packed tightly, so a buffer holding
column_major matrices is bound as a copy with each matrix transposed
(``to_memory``) and, when written, copied back (``from_memory``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..compiler.frontend import hlsl_types as T
from ..compiler.ir.lower import memory_layout as M


# dispatch()'s own keyword options: a shader name equal to one is given in the bindings mapping.
DISPATCH_OPTIONS = ("timeout", "threads")
DEFAULT_TIMEOUT = 10.0  # seconds: the watchdog's, unless dispatch() is given a timeout

class BindingError(TypeError):
    """A dispatch argument is missing, has the wrong dtype or shape, or names nothing."""


_SCALAR_DTYPES = {key: np.dtype(kind) for key, kind in {
    ("float", 16): np.float16, ("float", 32): np.float32, ("float", 64): np.float64,
    ("int", 16): np.int16, ("int", 32): np.int32, ("int", 64): np.int64,
    ("uint", 16): np.uint16, ("uint", 32): np.uint32, ("uint", 64): np.uint64,
    ("bool", 32): np.uint32,
}.items()}


def scalar_dtype(t: T.ScalarType) -> np.dtype:
    return _SCALAR_DTYPES[(t.kind, t.bits)]


def numpy_dtype(t: T.Type) -> np.dtype:
    """The dtype of one ``t`` in the tight layout (a structured-buffer element).

    A declared type gives the logical view users see; a stored type (``memory_type``)
    the order memory holds, which differs for column_major matrices."""
    if isinstance(t, T.ScalarType):
        return scalar_dtype(t)
    if isinstance(t, T.VectorType):
        return np.dtype((scalar_dtype(t.element), (t.size,)))
    if isinstance(t, T.MatrixType):
        return np.dtype((scalar_dtype(t.element), (t.rows, t.cols)))
    if isinstance(t, M.StoredMatrix):  # memory order: (stored vectors, components)
        return np.dtype((scalar_dtype(t.element), (t.vectors, t.length)))
    if isinstance(t, T.ArrayType):
        return np.dtype((numpy_dtype(t.element), (t.size or 0,)))
    if isinstance(t, T.StructType):
        return np.dtype({
            "names": [name for name, _ in t.fields],
            "formats": [numpy_dtype(field_type) for _, field_type in t.fields],
            "offsets": M.tight_offsets(t),
            "itemsize": M.tight_size(t),
        })
    raise BindingError(f"type '{t}' has no NumPy layout")


def element_shape(t: T.Type) -> tuple[np.dtype, tuple[int, ...]]:
    """``(base dtype, trailing shape)``: how an array of ``t`` looks as a plain NumPy array.

    A scalar is ``(dtype, ())``, a vector ``(dtype, (n,))``; structs and arrays
    are one structured element, ``(numpy_dtype(t), ())``.
    """
    if isinstance(t, T.ScalarType):
        return scalar_dtype(t), ()
    if isinstance(t, T.VectorType):
        return scalar_dtype(t.element), (t.size,)
    if isinstance(t, T.MatrixType):
        return scalar_dtype(t.element), (t.rows, t.cols)
    if isinstance(t, M.StoredMatrix):
        return scalar_dtype(t.element), (t.vectors, t.length)
    return numpy_dtype(t), ()


def matrix_orientations(program) -> dict[tuple[str, str], bool]:
    """The struct fields that name a matrix orientation: (struct, field) -> row_major."""
    from ..compiler.diagnostics import Diagnostics
    from ..compiler.ir.lower import globals as G

    return G.layout_globals(program, set(), Diagnostics()).orientations


def memory_type(element: T.Type, orientations: dict[tuple[str, str], bool]) -> T.Type:
    """A structured buffer's element as memory holds it: lowering's ``Globals.stored``."""
    return M.stored_type(element, orientations)


def transposes(stored: T.Type) -> bool:
    """Whether memory holds some matrix of ``stored`` transposed (column_major, not 1xN or Nx1)."""
    if isinstance(stored, M.StoredMatrix):
        return not stored.row_major and stored.matrix.rows > 1 and stored.matrix.cols > 1
    if isinstance(stored, T.ArrayType):
        return transposes(stored.element)
    if isinstance(stored, T.StructType):
        return any(transposes(field_type) for _, field_type in stored.fields)
    return False


def to_memory(logical: np.ndarray, stored: T.Type) -> np.ndarray:
    """A new array holding ``logical`` (matrices (rows, cols)) in ``stored``'s memory order."""
    base, shape = element_shape(stored)
    memory = np.zeros(logical.shape[:logical.ndim - len(shape)] + shape, base)
    _between(memory, logical, stored, into_memory=True)
    return memory


def from_memory(target: np.ndarray, memory: np.ndarray, stored: T.Type) -> None:
    """Write ``memory`` (from ``to_memory``) back into the logical array ``target``."""
    _between(memory, target, stored, into_memory=False)


def _between(memory: np.ndarray, logical: np.ndarray, stored: T.Type, into_memory: bool) -> None:
    if isinstance(stored, T.StructType):
        for name, field_type in stored.fields:
            _between(memory[name], logical[name], field_type, into_memory)
        return
    if isinstance(stored, T.ArrayType):  # its axis is already part of both arrays
        return _between(memory, logical, stored.element, into_memory)
    if isinstance(stored, M.StoredMatrix) and not stored.row_major:
        if into_memory:
            memory[...] = np.swapaxes(logical, -1, -2)
        else:
            logical[...] = np.swapaxes(memory, -1, -2)
    elif into_memory:
        memory[...] = np.reshape(logical, memory.shape)  # a float1 is stored as a scalar
    else:
        logical[...] = np.reshape(memory, logical.shape)


# ---------------------------------------------------------------------------------------
# constant buffers
# ---------------------------------------------------------------------------------------


@dataclass
class CBufferField:
    """One member of a constant buffer: its byte offset, its declared and its stored type."""

    name: str
    offset: int
    type: T.Type  # as declared: what a Python value must look like
    stored: T.Type  # as memory holds it (``Globals.stored``): what lowering's offsets and matrices use
    required: bool = True  # the kernel reads it; an unread member may be left out


@dataclass
class CBufferLayout:
    """A constant-buffer binding's members; ``size`` its bytes (whole 16-byte rows, at least one)."""

    name: str  # the binding's name ("$Globals" for global uniforms)
    fields: list[CBufferField] = field(default_factory=list)

    @property
    def size(self) -> int:
        end = max((f.offset + M.cbuffer_size(f.stored) for f in self.fields), default=0)
        return M.round_up(max(end, 16), 16)


def cbuffer_layouts(program, bindings, loads: dict[str, list[int]]) -> dict[str, CBufferLayout]:
    """Each constant-buffer binding's members, at the offsets AST lowering gives them.

    ``loads`` maps a buffer name to the byte offsets the kernel's ``cbuffer_load``
    instructions start at: a member none of them falls in is not required.
    """
    from ..compiler.diagnostics import Diagnostics
    from ..compiler.ir.lower import globals as G
    from ..compiler.ir.lower.scan import ProgramScan

    laid_out = G.layout_globals(program, ProgramScan(program).used, Diagnostics())
    names = {binding.name for binding in bindings}
    layouts: dict[str, CBufferLayout] = {}
    for decl, (buffer, offset) in laid_out.cbuffer_member.items():
        if buffer not in names:
            continue
        member_type = decl.type  # ConstantBuffer<S> name: sema types it as S, at offset 0
        stored = laid_out.stored(member_type, G.row_major(decl))
        size = M.cbuffer_size(stored)
        read = any(offset <= start < offset + max(size, 1) for start in loads.get(buffer, []))
        layouts.setdefault(buffer, CBufferLayout(buffer)).fields.append(
            CBufferField(decl.name, offset, member_type, stored, read))
    return layouts


def pack_cbuffer(layout: CBufferLayout, values: dict, kernel_names: str = "") -> bytes:
    """The bytes of ``layout`` with each field taken from ``values`` by name."""
    data = bytearray(layout.size)
    for member in layout.fields:
        if member.name not in values:
            if member.required:
                how = (f"pass it in the bindings mapping: dispatch(groups, {{'{member.name}': ...}})"
                       if member.name in DISPATCH_OPTIONS else f"pass {member.name}=...")
                raise BindingError(f"missing constant '{member.name}' ({member.type}, in "
                                   f"{_buffer_title(layout.name)}): {how}")
            continue
        _pack(data, member.offset, member.type, member.stored, values[member.name], member.name)
    return bytes(data)


def _buffer_title(name: str) -> str:
    return "the global uniforms" if name == "$Globals" else f"cbuffer '{name}'"


def _pack(data: bytearray, offset: int, t: T.Type, stored: T.Type, value, where: str) -> None:
    """``value`` (checked against the declared ``t``) written as ``stored`` lays it out."""
    if isinstance(t, T.ScalarType):
        _put(data, offset, _numbers(value, scalar_dtype(t), (), where, t))
    elif isinstance(t, T.VectorType):
        _put(data, offset, _numbers(value, scalar_dtype(t.element), (t.size,), where, t))
    elif isinstance(t, T.MatrixType):
        matrix = _numbers(value, scalar_dtype(t.element), (t.rows, t.cols), where, t)
        vectors = matrix if stored.row_major else matrix.T
        for index in range(stored.vectors):  # each stored vector is one 16-byte row
            _put(data, offset + index * M.ROW, vectors[index])
    elif isinstance(t, T.ArrayType):
        items = _sequence(value, t.size, where, t)
        for index, item in enumerate(items):
            _pack(data, offset + index * M.cbuffer_stride(stored), t.element, stored.element, item,
                  f"{where}[{index}]")
    elif isinstance(t, T.StructType):
        members = _struct_members(value, t, where)
        for (name, field_type), (_, field_stored), field_offset in zip(t.fields, stored.fields,
                                                                     M.cbuffer_offsets(stored)):
            _pack(data, offset + field_offset, field_type, field_stored, members[name], f"{where}.{name}")
    else:
        raise BindingError(f"'{where}': type '{t}' cannot be set from Python")


def _put(data: bytearray, offset: int, array: np.ndarray) -> None:
    raw = np.ascontiguousarray(array).tobytes()
    if offset + len(raw) > len(data):
        data.extend(bytes(offset + len(raw) - len(data)))
    data[offset:offset + len(raw)] = raw


def _numbers(value, dtype: np.dtype, shape: tuple[int, ...], where: str, t: T.Type) -> np.ndarray:
    if type(value) is int and not shape:  # the common constant (a count, a size): no check can fail
        limits = _INTEGER_LIMITS.get(np.dtype(dtype))
        if limits is not None and limits[0] <= value <= limits[1]:
            return np.array(value, dtype)
    try:
        array = np.asarray(value)
    except (TypeError, ValueError) as failure:
        raise BindingError(f"'{where}' is {t}: cannot read {type(value).__name__} as numbers") from failure
    if array.dtype.kind not in "biuf" or array.shape != shape:
        want = f"shape {shape}" if shape else "a single number"
        raise BindingError(f"'{where}' is {t}: expected {want}, got "
                           f"{'shape ' + str(array.shape) if array.ndim else repr(value)}")
    if np.dtype(dtype).kind in "iu" and array.dtype.kind == "f" and not np.all(array == np.trunc(array)):
        raise BindingError(f"'{where}' is {t}: expected integers, got {value!r}")
    if np.dtype(dtype).kind in "iu" and array.dtype.kind in "iuf" and array.size:
        limits = np.iinfo(dtype)
        low, high = array.min(), array.max()
        if low < limits.min or high > limits.max:
            outside = (low if low < limits.min else high).item()
            raise BindingError(f"'{where}' is {t}: {outside!r} is out of range ({limits.min}..{limits.max})")
    with np.errstate(all="ignore"):
        return array.astype(dtype)


_INTEGER_LIMITS = {np.dtype(kind): (int(np.iinfo(kind).min), int(np.iinfo(kind).max))
                   for kind in (np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64)}


def _sequence(value, size: int | None, where: str, t: T.Type) -> list:
    if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__len__"):
        raise BindingError(f"'{where}' is {t}: expected a sequence of {size}")
    items = list(value)
    if size is not None and len(items) != size:
        raise BindingError(f"'{where}' is {t}: expected {size} elements, got {len(items)}")
    return items


def _struct_members(value, t: T.StructType, where: str) -> dict:
    names = [name for name, _ in t.fields]
    if isinstance(value, np.void) and value.dtype.names:
        value = {name: value[name] for name in value.dtype.names}
    elif isinstance(value, (tuple, list)):
        if len(value) != len(names):
            raise BindingError(f"'{where}' is struct {t}: expected {len(names)} members, got {len(value)}")
        value = dict(zip(names, value))
    if not isinstance(value, dict):
        raise BindingError(f"'{where}' is struct {t}: expected a dict of {', '.join(names)}")
    missing = [name for name in names if name not in value]
    unknown = [name for name in value if name not in names]
    if missing or unknown:
        detail = "; ".join(part for part in (
            f"missing {', '.join(missing)}" if missing else "",
            f"unknown {', '.join(map(str, unknown))}" if unknown else "") if part)
        raise BindingError(f"'{where}' is struct {t} ({', '.join(names)}): {detail}")
    return value
