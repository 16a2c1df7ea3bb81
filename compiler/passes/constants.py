"""Evaluating IR operations on constants with NumPy, with HLSL's integer and float rules.

Shared by constant folding and simplification. Values are stored in ``const``
attributes as Python scalars (or lists for vectors); arithmetic happens in the
element type's NumPy dtype, so 32-bit wrap-around and float32 rounding match
what the GPU computes.
"""

from __future__ import annotations

import numpy as np

from ..frontend import hlsl_types as T
from ..ir.core import Inst
from ..ir.ops import Op

DTYPES = {
    "bool": np.bool_, "int": np.int32, "uint": np.uint32, "float": np.float32, "half": np.float16,
    "double": np.float64, "int16_t": np.int16, "uint16_t": np.uint16, "int64_t": np.int64,
    "uint64_t": np.uint64,
}


def dtype_of(t: T.Type):
    element = T.element_of(t)
    return DTYPES[element.name] if element is not None else None


def constant_array(inst: Inst) -> np.ndarray | None:
    """A constant instruction's value as an array with one entry per component."""
    if inst.op is not Op.CONST or dtype_of(inst.type) is None:
        return None
    value = inst.attrs["value"]
    components = getattr(inst.type, "components", 1)
    array = np.array(value if isinstance(value, list) else [value] * components)
    return array.astype(dtype_of(inst.type))


def to_attr(array: np.ndarray, t: T.Type):
    values = [v.item() for v in array]
    if isinstance(t, T.ScalarType):
        return values[0]
    return values


def _shift_amount(array: np.ndarray, bits: int) -> np.ndarray:
    return (array.astype(np.int64) & (bits - 1)).astype(array.dtype)


def _integer_divide(op: Op, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    if np.any(b == 0):
        return None  # undefined on the GPU: leave it for run time
    quotient = np.trunc(a.astype(np.float64) / b.astype(np.float64)).astype(a.dtype)
    return quotient if op is Op.DIV else (a - quotient * b).astype(a.dtype)


BINARY = {
    Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply, Op.MIN: np.minimum, Op.MAX: np.maximum,
    Op.AND: np.bitwise_and, Op.OR: np.bitwise_or, Op.XOR: np.bitwise_xor,
    Op.EQ: np.equal, Op.NE: np.not_equal, Op.LT: np.less, Op.LE: np.less_equal,
    Op.GT: np.greater, Op.GE: np.greater_equal,
}


def evaluate(inst: Inst, args: list[np.ndarray]) -> np.ndarray | None:
    """The folded value of ``inst`` given constant operands, or None if it can't be folded."""
    op = inst.op
    result_dtype = dtype_of(inst.type)
    if result_dtype is None:
        return None
    with np.errstate(all="ignore"):
        if op in BINARY and len(args) == 2:
            a, b = args
            if op in (Op.AND, Op.OR, Op.XOR) and a.dtype.kind == "f":
                return None
            return BINARY[op](a, b).astype(result_dtype)
        if op in (Op.DIV, Op.REM) and len(args) == 2:
            a, b = args
            if a.dtype.kind == "f":
                return (a / b if op is Op.DIV else np.fmod(a, b)).astype(result_dtype)
            return _integer_divide(op, a, b)
        if op in (Op.SHL, Op.SHR) and len(args) == 2:
            a, b = args
            amount = _shift_amount(b.astype(a.dtype), a.dtype.itemsize * 8)
            shifted = np.left_shift(a, amount) if op is Op.SHL else np.right_shift(a, amount)
            return shifted.astype(result_dtype)
        if op is Op.NEG:
            return np.negative(args[0]).astype(result_dtype)
        if op is Op.NOT:
            a = args[0]
            return (np.logical_not(a) if a.dtype == np.bool_ else np.invert(a)).astype(result_dtype)
        if op is Op.ABS:
            return np.abs(args[0]).astype(result_dtype)
        if op is Op.CONVERT:
            return _convert(args[0], result_dtype)
        if op is Op.SELECT:
            cond, a, b = args
            return np.where(cond.astype(bool), a, b).astype(result_dtype)
        if op is Op.CONSTRUCT:
            return np.concatenate([a.astype(result_dtype) for a in args])
        if op is Op.EXTRACT and "index" in inst.attrs and len(args) == 1:
            return args[0][inst.attrs["index"]: inst.attrs["index"] + 1].astype(result_dtype)
        if op is Op.SHUFFLE and len(args) == 1:
            return args[0][list(inst.attrs["lanes"])].astype(result_dtype)
    return None


def _convert(array: np.ndarray, dtype) -> np.ndarray:
    if np.dtype(dtype).kind in "iu" and array.dtype.kind == "f":
        info = np.iinfo(dtype)
        clipped = np.clip(np.nan_to_num(np.trunc(array.astype(np.float64))), info.min, info.max)
        return clipped.astype(dtype)
    if np.dtype(dtype) == np.bool_:
        return array != 0
    return array.astype(dtype)
