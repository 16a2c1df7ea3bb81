"""Interpreter handlers for the lane-local operations: constants, thread inputs,
arithmetic, comparisons, conversions, vector shaping, ``math`` and ``bits``.

Arithmetic happens in the result element's NumPy dtype, per component: integers
wrap around (32-bit registers), ``float`` is float32, ``half`` is float16.
Choices where HLSL leaves the result open (pinned by the interpreter tests):

* integer ``div`` / ``rem`` by zero give all ones (``0xFFFFFFFF``, ``-1`` for int):
  D3D11's ``udiv`` rule, applied to signed division too. Signed division truncates
  toward zero and the remainder takes the dividend's sign; ``INT_MIN / -1`` wraps.
* float ``div`` / ``rem`` follow IEEE (``x / 0`` is infinity, ``rem`` is ``fmod``).
* ``min`` / ``max`` on floats return the non-NaN operand (IEEE minNum / maxNum).
* shift amounts use their low bits only (``& 31`` for 32-bit values).
* ``convert``: see ``interpret_values.convert`` (float -> int truncates and saturates,
  NaN -> 0).
* ``bits`` ``firstbitlow`` / ``firstbithigh`` of a value with no such bit give all ones.
* fp32 denormals flush to zero of their sign on the input and output of float arithmetic,
  comparisons, ``min`` / ``max``, ``dot`` and the math functions (D3D12 on RDNA2; the host
  JIT sets MXCSR's DAZ and FTZ): ``flush``. Moves, bitcasts, ``abs`` and negation keep them;
  half and double keep theirs.
"""

from __future__ import annotations

import numpy as np

from ...machine import transcendentals
from ..ops import Op
from .fused import fused_multiply_add as fused_multiply_add_rounded_once
from .values import (InterpretError, Whole, as_lanes, cast_wrapping, convert, dtype_of, is_aggregate,
                                width_of)


def _result(inst, array) -> np.ndarray:
    """``array`` shaped ``(W, n)`` in the result type's dtype."""
    wave = array.shape[0]
    return np.broadcast_to(cast_wrapping(array, dtype_of(inst.type)), (wave, width_of(inst.type)))


# ---------------------------------------------------------------------------------------
# constants and thread inputs
# ---------------------------------------------------------------------------------------


def const(m, inst, args, exec_lanes):
    """A constant lives in an SGPR or an inline literal: every lane sees it."""
    if "value" not in inst.attrs:
        raise InterpretError("const without a value attribute")
    return Whole(as_lanes(inst.attrs["value"], m.wave_size, inst.type))


def thread_input(m, inst, args, exec_lanes):
    which = inst.attrs.get("which")
    if which not in m.lane_inputs:
        raise InterpretError(f"unknown thread input {which!r}")
    data = m.lane_inputs[which]
    width = width_of(inst.type)
    first = inst.attrs.get("component", 0)
    if data.shape[1] < first + width:
        raise InterpretError(f"thread input {which} has {data.shape[1]} components, {inst.type} asked")
    return data[:, first:first + width]


def identity(m, inst, args, exec_lanes):
    """``non_uniform`` (and the waterfall markers): the operand, unchanged."""
    return args[0] if args else None


# ---------------------------------------------------------------------------------------
# arithmetic
# ---------------------------------------------------------------------------------------

_ELEMENTWISE = {
    Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply,
    Op.AND: np.bitwise_and, Op.OR: np.bitwise_or, Op.XOR: np.bitwise_xor,
}


FLT_MIN = np.float32(1.1754944e-38)  # the smallest normal fp32


def flush(values: np.ndarray) -> np.ndarray:
    """fp32 denormals as zeros of their sign (other dtypes unchanged)."""
    if values.dtype != np.float32:
        return values
    return np.where(np.abs(values) < FLT_MIN, np.copysign(np.float32(0), values), values)


def _operands_in(inst, args):
    dtype = dtype_of(inst.type)
    return [flush(cast_wrapping(arg, dtype)) for arg in args]


def elementwise(m, inst, args, exec_lanes):
    a, b = _operands_in(inst, args)
    with np.errstate(all="ignore"):
        return _result(inst, flush(_ELEMENTWISE[inst.op](a, b)))


def minimum_maximum(m, inst, args, exec_lanes):
    a, b = _operands_in(inst, args)
    floats = a.dtype.kind == "f"
    if inst.op is Op.MIN:
        return _result(inst, np.fmin(a, b) if floats else np.minimum(a, b))
    return _result(inst, np.fmax(a, b) if floats else np.maximum(a, b))


def negate(m, inst, args, exec_lanes):
    a = cast_wrapping(args[0], dtype_of(inst.type))  # a source modifier: no flushing
    with np.errstate(all="ignore"):
        return _result(inst, np.negative(a))


def absolute(m, inst, args, exec_lanes):
    a = cast_wrapping(args[0], dtype_of(inst.type))  # a source modifier: no flushing
    with np.errstate(all="ignore"):
        return _result(inst, np.abs(a))


def bitwise_not(m, inst, args, exec_lanes):
    (a,) = _operands_in(inst, args)
    return _result(inst, np.invert(a))


def fused_multiply_add(m, inst, args, exec_lanes):
    a, b, c = _operands_in(inst, args)
    with np.errstate(all="ignore"):
        if a.dtype.kind == "f":
            return _result(inst, flush(fused_multiply_add_rounded_once(a, b, c)))
        return _result(inst, a * b + c)


def shift(m, inst, args, exec_lanes):
    a = cast_wrapping(args[0], dtype_of(inst.type))
    bits = a.dtype.itemsize * 8
    amount = (args[1].astype(np.int64) & (bits - 1)).astype(a.dtype)
    shifted = np.left_shift(a, amount) if inst.op is Op.SHL else np.right_shift(a, amount)
    return _result(inst, shifted)


def divide(m, inst, args, exec_lanes):
    a, b = _operands_in(inst, args)
    if a.dtype.kind == "f":
        with np.errstate(all="ignore"):
            return _result(inst, flush(a / b if inst.op is Op.DIV else np.fmod(a, b)))
    a, b = np.broadcast_arrays(a, b)
    out = np.empty(a.shape, dtype=object)
    for position in np.ndindex(a.shape):
        out[position] = _integer_divide(int(a[position]), int(b[position]), inst.op is Op.REM)
    return _result(inst, _wrap_ints(out, a.dtype))


def _integer_divide(a: int, b: int, remainder: bool) -> int:
    if b == 0:
        return -1  # all ones once wrapped to the element width
    quotient = abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1)
    return a - quotient * b if remainder else quotient


def _wrap_ints(values: np.ndarray, dtype: np.dtype) -> np.ndarray:
    bits = dtype.itemsize * 8
    wrapped = [int(v) & ((1 << bits) - 1) for v in values.reshape(-1)]
    unsigned = np.array(wrapped, dtype=f"u{dtype.itemsize}").reshape(values.shape)
    return unsigned.view(dtype)


# ---------------------------------------------------------------------------------------
# comparisons and selection
# ---------------------------------------------------------------------------------------

_COMPARE = {
    Op.EQ: np.equal, Op.NE: np.not_equal, Op.LT: np.less, Op.LE: np.less_equal,
    Op.GT: np.greater, Op.GE: np.greater_equal,
}


def compare(m, inst, args, exec_lanes):
    a, b = args
    dtype = np.result_type(a.dtype, b.dtype) if a.dtype != b.dtype else a.dtype
    with np.errstate(all="ignore"):
        return _result(inst, _COMPARE[inst.op](flush(a.astype(dtype)), flush(b.astype(dtype))))


def _where(condition: np.ndarray, when_true, when_false):
    if isinstance(when_true, tuple):  # an array or struct: member by member
        return tuple(_where(condition, a, b) for a, b in zip(when_true, when_false))
    return np.where(condition, when_true, when_false)


def select(m, inst, args, exec_lanes):
    condition, when_true, when_false = args
    if is_aggregate(inst.type):
        return _where(condition[:, :1].astype(bool), when_true, when_false)
    dtype = dtype_of(inst.type)
    return _result(inst, np.where(condition.astype(bool), when_true.astype(dtype), when_false.astype(dtype)))


# ---------------------------------------------------------------------------------------
# conversions
# ---------------------------------------------------------------------------------------


def convert_value(m, inst, args, exec_lanes):
    return _result(inst, convert(args[0], dtype_of(inst.type)))


def bitcast(m, inst, args, exec_lanes):
    source = np.ascontiguousarray(args[0])
    if source.dtype == np.bool_:
        source = source.astype(np.uint32)
    target = dtype_of(inst.type)
    if target == np.bool_:
        raise InterpretError("bitcast to bool")
    if source.shape[1] * source.dtype.itemsize != width_of(inst.type) * target.itemsize:
        raise InterpretError(f"bitcast changes the size: {inst.operands[0].type} -> {inst.type}")
    return source.view(target).reshape(source.shape[0], width_of(inst.type))


def f32_to_f16(m, inst, args, exec_lanes):
    with np.errstate(all="ignore"):
        halves = args[0].astype(np.float32).astype(np.float16)
    return _result(inst, halves.view(np.uint16).astype(np.uint32))


def f16_to_f32(m, inst, args, exec_lanes):
    low_bits = (args[0].astype(np.uint32) & 0xFFFF).astype(np.uint16)
    return _result(inst, low_bits.view(np.float16).astype(np.float32))


# ---------------------------------------------------------------------------------------
# vector shaping
# ---------------------------------------------------------------------------------------


def construct(m, inst, args, exec_lanes):
    """Vectors: the operands' components laid end to end. Arrays and structs: one operand per
    element or field."""
    if is_aggregate(inst.type):
        return tuple(args)
    dtype = dtype_of(inst.type)
    joined = np.concatenate([cast_wrapping(arg, dtype) for arg in args], axis=1)
    if joined.shape[1] != width_of(inst.type):
        raise InterpretError(f"construct of {joined.shape[1]} components into {inst.type}")
    return joined


def _index_operand(inst, args, position: int) -> np.ndarray:
    """The component index per lane: the ``index`` attribute, or a dynamic operand."""
    if "index" in inst.attrs:
        return np.full(len(args[position - 1]), int(inst.attrs["index"]), dtype=np.int64)
    if len(args) <= position:
        raise InterpretError(f"{inst.op.value} without an index attribute or operand")
    return args[position][:, 0].astype(np.int64)


def extract(m, inst, args, exec_lanes):
    """Element ``index`` of an array or struct; component (or chunk: a matrix row) ``index``
    of a vector, where a dynamic index outside the vector reads 0."""
    source = args[0]
    if isinstance(source, tuple):
        return source[int(inst.attrs["index"])]
    chunk = width_of(inst.type)
    index = _index_operand(inst, args, 1)
    result = np.zeros((source.shape[0], chunk), dtype=source.dtype)
    inside = (index >= 0) & ((index + 1) * chunk <= source.shape[1])
    for lane in np.flatnonzero(inside):
        result[lane] = source[lane, index[lane] * chunk:(index[lane] + 1) * chunk]
    return _result(inst, result)


def insert(m, inst, args, exec_lanes):
    """Operand 0 with element / component (chunk) ``index`` replaced by operand 1.

    A dynamic index outside the vector changes nothing.
    """
    if isinstance(args[0], tuple):
        replaced = list(args[0])
        replaced[int(inst.attrs["index"])] = args[1]
        return tuple(replaced)
    result = cast_wrapping(args[0], dtype_of(inst.type)).copy()
    part = cast_wrapping(args[1], result.dtype)
    chunk = part.shape[1]
    index = _index_operand(inst, args, 2)
    inside = (index >= 0) & ((index + 1) * chunk <= result.shape[1])
    for lane in np.flatnonzero(inside):
        result[lane, index[lane] * chunk:(index[lane] + 1) * chunk] = part[lane]
    return result


def shuffle(m, inst, args, exec_lanes):
    """A swizzle: ``lanes`` index the components of the operands laid end to end."""
    joined = np.concatenate(args, axis=1)
    return _result(inst, joined[:, list(inst.attrs["lanes"])])


def dot(m, inst, args, exec_lanes):
    a, b = (flush(cast_wrapping(arg, dtype_of(inst.type))) for arg in args)
    with np.errstate(all="ignore"):
        total = flush(a[:, :1] * b[:, :1])
        for component in range(1, a.shape[1]):
            total = flush(total + flush(a[:, component:component + 1] * b[:, component:component + 1]))
    return _result(inst, total)


# ---------------------------------------------------------------------------------------
# math {fn=...}: HLSL's names
# ---------------------------------------------------------------------------------------


def _length(v):
    return np.sqrt(np.sum(v * v, axis=1, keepdims=True, dtype=v.dtype))


def _smoothstep(lo, hi, x):
    t = np.clip((x - lo) / (hi - lo), 0, 1)
    return t * t * (3 - 2 * t)


def _cross(a, b):
    return np.stack([a[:, 1] * b[:, 2] - a[:, 2] * b[:, 1],
                     a[:, 2] * b[:, 0] - a[:, 0] * b[:, 2],
                     a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]], axis=1)


def _rsqrt(x):
    return 1 / np.sqrt(x) if x.dtype == np.float64 else transcendentals.rsqrt(x)


def _saturate(x):
    """Clamped to [0, 1]; NaN gives 0 (D3D), -0.0 gives +0.0 (as ``llvm.maximum`` orders them)."""
    x = np.where(np.isnan(x), 0, x)
    return np.where(x <= 0, np.zeros_like(x), np.minimum(x, 1)).astype(x.dtype)


# the transcendental primitives are compiler/machine/transcendentals.py's (f32 and f16; double
# has only sqrt, rcp and rsqrt); exp, log, pow, tan, atan... are expanded before the
# interpreter sees them (ir/lower/intrinsics_math.py)
MATH_FUNCTIONS = {
    "sqrt": np.sqrt, "rsqrt": _rsqrt, "rcp": lambda x: 1 / x,
    "exp2": transcendentals.exp2, "log2": transcendentals.log2,
    "floor": np.floor, "ceil": np.ceil, "frac": lambda x: x - np.floor(x),
    "round": np.rint, "trunc": np.trunc,
    "sin": transcendentals.sin, "cos": transcendentals.cos,
    "saturate": _saturate, "lerp": lambda a, b, s: a + s * (b - a),
    "clamp": lambda x, lo, hi: np.minimum(np.maximum(x, lo), hi),
    "step": lambda edge, x: (x >= edge).astype(x.dtype), "smoothstep": _smoothstep,
    "mad": lambda a, b, c: a * b + c, "fmod": np.fmod,
    "degrees": np.degrees, "radians": np.radians, "sign": np.sign,
    "isnan": np.isnan, "isinf": np.isinf, "isfinite": np.isfinite,
    "length": _length, "distance": lambda a, b: _length(a - b),
    "normalize": lambda v: v / _length(v), "cross": _cross,
    "all": lambda x: np.all(x != 0, axis=1, keepdims=True),
    "any": lambda x: np.any(x != 0, axis=1, keepdims=True),
}


_EXPANDED = ("exp", "log", "log10", "pow", "ldexp", "tan", "sinh", "cosh", "tanh", "atan", "atan2", "asin", "acos")


def math_function(m, inst, args, exec_lanes):
    name = inst.attrs.get("fn")
    function = MATH_FUNCTIONS.get(name)
    if function is None:
        raise InterpretError(f"math function {name!r} is not supported by the interpreter"
                             + (" (the IR lowering expands it)" if name in _EXPANDED else ""))
    # compute in the operands' type (sign, isnan, all and any have other result types)
    dtype = args[0].dtype if name in ("sign", "isnan", "isinf", "isfinite", "all", "any") else dtype_of(inst.type)
    operands = [flush(cast_wrapping(arg, dtype)) for arg in args]
    with np.errstate(all="ignore"):
        return _result(inst, flush(np.asarray(function(*operands))))


# ---------------------------------------------------------------------------------------
# bits {fn=...}
# ---------------------------------------------------------------------------------------


def _bit_function(name: str, value: int, bits: int, signed: bool) -> int:
    all_ones = (1 << bits) - 1
    value &= all_ones
    if name == "countbits":
        return bin(value).count("1")
    if name == "reversebits":
        return int(format(value, f"0{bits}b")[::-1], 2)
    if name == "firstbitlow":
        return (value & -value).bit_length() - 1 if value else all_ones
    if name == "firstbithigh":
        if signed and value >> (bits - 1):
            value = ~value & all_ones  # negative: the first bit that differs from the sign
        return value.bit_length() - 1 if value else all_ones
    raise InterpretError(f"bits function {name!r} is not supported by the interpreter")


def bit_function(m, inst, args, exec_lanes):
    source = args[0]
    width = source.dtype.itemsize * 8
    signed = source.dtype.kind == "i"
    name = inst.attrs.get("fn")
    out = np.empty(source.shape, dtype=object)
    for position in np.ndindex(source.shape):
        out[position] = _bit_function(name, int(source[position]), width, signed)
    return _result(inst, _wrap_ints(out, dtype_of(inst.type)))


HANDLERS = {
    Op.CONST: const,
    Op.THREAD_INPUT: thread_input,
    Op.NON_UNIFORM: identity,
    Op.WATERFALL_BEGIN: identity,
    Op.WATERFALL_END: identity,
    Op.ADD: elementwise, Op.SUB: elementwise, Op.MUL: elementwise,
    Op.AND: elementwise, Op.OR: elementwise, Op.XOR: elementwise,
    Op.MIN: minimum_maximum, Op.MAX: minimum_maximum,
    Op.NEG: negate, Op.ABS: absolute, Op.NOT: bitwise_not, Op.FMA: fused_multiply_add,
    Op.SHL: shift, Op.SHR: shift, Op.DIV: divide, Op.REM: divide,
    Op.EQ: compare, Op.NE: compare, Op.LT: compare, Op.LE: compare, Op.GT: compare, Op.GE: compare,
    Op.SELECT: select,
    Op.CONVERT: convert_value, Op.BITCAST: bitcast, Op.F32TOF16: f32_to_f16, Op.F16TOF32: f16_to_f32,
    Op.CONSTRUCT: construct, Op.EXTRACT: extract, Op.INSERT: insert, Op.SHUFFLE: shuffle, Op.DOT: dot,
    Op.MATH: math_function, Op.BITS: bit_function,
}
