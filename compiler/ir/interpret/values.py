"""Shared pieces of the IR interpreter: the error, value shapes and dtypes.

Inside the interpreter every scalar or vector SSA value is a 2-D NumPy array of
shape ``(W, n)``: one row per lane, one column per component (``n`` is 1 for
scalars, the size for vectors, ``rows * cols`` row-major for matrices).
``WaveState.value`` hands scalars back as ``(W,)``. An aggregate (an array or a
struct: local arrays with constant indices and structs stay SSA values) is a tuple
of its elements' or fields' values.

An operation handler is ``handler(machine, inst, args, exec_lanes)`` where ``args``
are the operands' values. It returns a value (written to the active lanes;
inactive lanes keep the value's previous contents), a ``Whole`` (every lane is
written: SGPR results and lane-exchange primitives that define their own inactive
lanes), or ``None`` (no result: stores, barriers).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ...frontend import hlsl_types as T

# The element dtype of each scalar type; the constant folder uses the same table.
DTYPES = {
    "bool": np.bool_, "int": np.int32, "uint": np.uint32, "float": np.float32, "half": np.float16,
    "double": np.float64, "int16_t": np.int16, "uint16_t": np.uint16, "int64_t": np.int64,
    "uint64_t": np.uint64,
}


class InterpretError(Exception):
    """The IR cannot be run: unsupported op, unstructured flow, a runaway loop, bad inputs."""


class Whole(NamedTuple):
    """A handler result that defines every lane (not masked by exec)."""

    array: np.ndarray


def is_aggregate(t: T.Type) -> bool:
    return isinstance(t, (T.ArrayType, T.StructType))


def members(t: T.Type) -> list[T.Type]:
    """The element types of an array or the field types of a struct."""
    if isinstance(t, T.ArrayType):
        if t.size is None:
            raise InterpretError(f"unsized array type {t} cannot be a value")
        return [t.element] * t.size
    return [field_type for _, field_type in t.fields]


def scalar_element(t: T.Type) -> T.ScalarType:
    element = T.element_of(t)
    if element is None:
        raise InterpretError(f"the interpreter has no value representation for type {t}")
    return element


def dtype_of(t: T.Type) -> np.dtype:
    return np.dtype(DTYPES[scalar_element(t).name])


def width_of(t: T.Type) -> int:
    """How many components a scalar, vector or matrix value has (its column count)."""
    if t == T.VOID:
        return 0
    if isinstance(t, (T.ScalarType, T.VectorType, T.MatrixType)):
        return t.components
    raise InterpretError(f"the interpreter has no lane array for type {t}")


def bytes_of(t: T.Type) -> int:
    """Bytes a value of ``t`` takes in memory (bool is stored as a 32-bit word)."""
    element = scalar_element(t)
    element_bytes = 4 if element.kind == "bool" else element.bits // 8
    return width_of(t) * element_bytes


def zeros(wave_size: int, t: T.Type):
    if is_aggregate(t):
        return tuple(zeros(wave_size, member) for member in members(t))
    return np.zeros((wave_size, width_of(t)), dtype=dtype_of(t))


def as_lanes(value, wave_size: int, t: T.Type):
    """A constant (scalar or list) in every lane: ``(W, n)`` of ``t``'s dtype, or a tuple."""
    if is_aggregate(t):
        parts = members(t)
        if not isinstance(value, (list, tuple)) or len(value) != len(parts):
            raise InterpretError(f"constant {value!r} does not have the {len(parts)} members of {t}")
        return tuple(as_lanes(item, wave_size, member) for item, member in zip(value, parts))
    width = width_of(t)
    flat = np.array(value if isinstance(value, (list, tuple)) else [value] * width)
    if flat.size != width:
        raise InterpretError(f"constant {value!r} does not have {width} components of {t}")
    return np.broadcast_to(convert(flat, dtype_of(t)), (wave_size, width)).copy()


def coerce(value, t: T.Type, wave_size: int):
    """A handler's result in the representation of ``t`` (dtype and shape checked)."""
    if is_aggregate(t):
        parts = members(t)
        if not isinstance(value, tuple) or len(value) != len(parts):
            raise InterpretError(f"a value of {t} needs {len(parts)} members")
        return tuple(coerce(item, member, wave_size) for item, member in zip(value, parts))
    array = np.asarray(value)
    if array.shape != (wave_size, width_of(t)):
        raise InterpretError(f"a value of {t} has shape {(wave_size, width_of(t))}, not {array.shape}")
    return array.astype(dtype_of(t), copy=False)


def merge(lanes: np.ndarray, new, old):
    """``new`` on ``lanes``, ``old`` elsewhere (member by member for aggregates)."""
    if isinstance(old, tuple):
        return tuple(merge(lanes, new_part, old_part) for new_part, old_part in zip(new, old))
    return np.where(lanes[:, None], new, old)


def present(value, t: T.Type):
    """The outside view: ``(W,)`` for scalars, ``(W, n)`` for vectors, tuples for aggregates."""
    if is_aggregate(t):
        return tuple(present(item, member) for item, member in zip(value, members(t)))
    return value[:, 0] if isinstance(t, T.ScalarType) else value


def convert(array: np.ndarray, dtype) -> np.ndarray:
    """HLSL's value conversion (``CONVERT``), as the constant folder does it.

    float -> integer truncates toward zero and saturates to the integer's range, NaN
    gives 0 (what ``v_cvt_i32_f32`` / ``v_cvt_u32_f32`` do); -> bool is ``!= 0``;
    everything else is NumPy's cast: integers wrap or extend, int -> float rounds to
    nearest, float -> half rounds to nearest even and overflows to infinity.
    """
    dtype = np.dtype(dtype)
    array = np.asarray(array)
    with np.errstate(all="ignore"):
        if dtype.kind in "iu" and array.dtype.kind == "f":
            info = np.iinfo(dtype)
            whole = np.nan_to_num(np.trunc(array.astype(np.float64)), nan=0.0, posinf=info.max, neginf=info.min)
            # float64 cannot hold 2**64 - 1 exactly: clip in Python ints for 64-bit types
            if dtype.itemsize == 8:
                clipped = [min(max(int(item), info.min), info.max) for item in whole.reshape(-1)]
                return np.array(clipped, dtype=dtype).reshape(array.shape)
            return np.clip(whole, info.min, info.max).astype(dtype)
        if dtype == np.bool_:
            return array != 0
        return array.astype(dtype)


def cast_wrapping(array: np.ndarray, dtype) -> np.ndarray:
    """A same-kind operand cast for arithmetic: integers wrap, floats round."""
    with np.errstate(all="ignore"):
        return np.asarray(array).astype(dtype)
