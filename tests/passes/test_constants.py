"""Constant evaluation in plain Python, checked bit for bit against NumPy's float32,
float16 and wrapping integer arithmetic (the model the GPU's results are defined by), with
fp32 denormals flushed on the way in and out as the interpreter flushes them (D3D)."""

import math
import struct

import numpy as np
import pytest
from hypothesis import assume, example, given, settings, strategies as st

from shc.compiler.frontend import hlsl_types as T
from shc.compiler.ir.core import Inst
from shc.compiler.ir.interpret.arith import flush
from shc.compiler.ir.ops import Op
from shc.compiler.passes.constants import constant_of, evaluate, to_attr
from shc.compiler.passes.scalars import int_to_float, round_float

NUMPY_TYPES = {
    T.BOOL: np.bool_, T.INT: np.int32, T.UINT: np.uint32, T.FLOAT: np.float32, T.HALF: np.float16,
    T.INT16: np.int16, T.UINT16: np.uint16,
}
UFUNCS = {
    Op.ADD: np.add, Op.SUB: np.subtract, Op.MUL: np.multiply, Op.MIN: np.fmin, Op.MAX: np.fmax,  # D3D: a NaN operand loses
    Op.AND: np.bitwise_and, Op.OR: np.bitwise_or, Op.XOR: np.bitwise_xor,
    Op.EQ: np.equal, Op.NE: np.not_equal, Op.LT: np.less, Op.LE: np.less_equal,
    Op.GT: np.greater, Op.GE: np.greater_equal,
}
COMPARISONS = {Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE}


def values_of(element):
    if element.kind == "bool":
        return st.booleans()
    if element.kind == "float":
        special = st.sampled_from([0.0, -0.0, math.inf, -math.inf, math.nan, -math.nan, 65504.0, 3.4028234663852886e38])
        return st.floats(width=element.bits) | special
    bits = element.bits
    low, high = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if element.kind == "int" else (0, (1 << bits) - 1)
    return st.integers(low, high) | st.sampled_from([low, high, 0, 1])


def const(element, values):
    t = T.vector(element, len(values))
    return Inst(Op.CONST, [], t, {"value": values if len(values) > 1 else values[0]})


def fold(op, result_element, *operands, **attrs):
    inst = Inst(op, list(operands), T.vector(result_element, len(operands[0].attrs["value"])
                                             if isinstance(operands[0].attrs["value"], list) else 1), attrs)
    folded = evaluate(inst, [constant_of(operand) for operand in operands])
    return None if folded is None else to_attr(folded, inst.type)


def bits(value):
    """What the listing would show: the exact float bits (NaN sign, -0.0) or the integer/bool."""
    return struct.pack("<d", value) if isinstance(value, float) else (type(value), value)


def as_list(value):
    return value if isinstance(value, list) else [value]


def d3d(ufunc, dtype, *operands):
    """``ufunc`` on arrays of ``dtype`` as D3D arithmetic computes it: fp32 denormals flushed."""
    with np.errstate(all="ignore"):
        return flush(np.asarray(ufunc(*(flush(np.array(x, dtype)) for x in operands)))).tolist()


@st.composite
def binary_operands(draw):
    element = draw(st.sampled_from(list(NUMPY_TYPES)))
    op = draw(st.sampled_from(list(UFUNCS)))
    size = draw(st.integers(1, 4))
    a = [draw(values_of(element)) for _ in range(size)]
    b = [draw(values_of(element)) for _ in range(size)]
    return op, element, a, b


@settings(max_examples=400, deadline=None)
@given(binary_operands())
@example((Op.ADD, T.HALF, [math.nan, 1.0], [-math.nan, math.nan]))
@example((Op.MAX, T.HALF, [-math.nan, 2.0], [math.nan, -math.nan]))
def test_elementwise_operations_match_numpy_bit_for_bit(case):
    op, element, a, b = case
    if element.kind == "float" and op in (Op.AND, Op.OR, Op.XOR):
        assert fold(op, element, const(element, a), const(element, b)) is None
        return
    ufunc = UFUNCS[op]
    if element.kind == "bool" and op is Op.SUB:
        ufunc = np.not_equal  # one-bit subtraction wraps (NumPy has none; HLSL promotes bools first)
    expected = d3d(ufunc, NUMPY_TYPES[element], a, b)
    result = T.BOOL if op in COMPARISONS else element
    folded = fold(op, result, const(element, a), const(element, b))
    # Which of two NaNs survives is unspecified (NumPy's float16 add keeps the second, fmin the
    # first): a half lane with two NaN operands must give a NaN, any one; every other lane the bits.
    either_nan = element is T.HALF and op in (Op.ADD, Op.MUL, Op.MIN, Op.MAX)
    for got, want, x, y in zip(as_list(folded), expected, a, b, strict=True):
        if either_nan and x != x and y != y:
            assert got != got, (x, y, got)
        else:
            assert bits(got) == bits(want)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([T.FLOAT, T.HALF]), st.data())
def test_float_division_and_remainder_match_numpy(element, data):
    a = data.draw(values_of(element))
    b = data.draw(values_of(element))
    dtype = NUMPY_TYPES[element]
    quotient = d3d(np.divide, dtype, [a], [b])[0]
    remainder = d3d(np.fmod, dtype, [a], [b])[0]
    assert bits(fold(Op.DIV, element, const(element, [a]), const(element, [b]))) == bits(quotient)
    assert bits(fold(Op.REM, element, const(element, [a]), const(element, [b]))) == bits(remainder)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(list(NUMPY_TYPES)), st.sampled_from(list(NUMPY_TYPES)), st.data())
def test_conversions_match_numpy(source, target, data):
    value = data.draw(values_of(source))
    if source.kind == "float" and target.kind in ("int", "uint"):
        low, high = np.iinfo(NUMPY_TYPES[target]).min, np.iinfo(NUMPY_TYPES[target]).max
        assume(math.isfinite(value) and low <= math.trunc(value) <= high)  # saturation: see below
    with np.errstate(all="ignore"):  # integers too large for a half become infinities
        expected = np.array([value], NUMPY_TYPES[source]).astype(NUMPY_TYPES[target]).tolist()[0]
    assert bits(fold(Op.CONVERT, target, const(source, [value]))) == bits(expected)


def test_integers_wrap_and_divide_toward_zero():
    assert fold(Op.ADD, T.UINT, const(T.UINT, [4294967295]), const(T.UINT, [7])) == 6
    assert fold(Op.MUL, T.INT, const(T.INT, [65536]), const(T.INT, [-65536])) == 0
    assert fold(Op.NEG, T.INT, const(T.INT, [-2147483648])) == -2147483648
    assert fold(Op.NOT, T.UINT, const(T.UINT, [0])) == 4294967295
    assert fold(Op.DIV, T.INT, const(T.INT, [-7]), const(T.INT, [2])) == -3
    assert fold(Op.REM, T.INT, const(T.INT, [-7]), const(T.INT, [2])) == -1
    assert fold(Op.DIV, T.INT, const(T.INT, [-2147483648]), const(T.INT, [-1])) == -2147483648
    assert fold(Op.DIV, T.INT, const(T.INT, [1]), const(T.INT, [0])) is None
    assert fold(Op.SHL, T.UINT, const(T.UINT, [1]), const(T.UINT, [33])) == 2  # amount masked to 5 bits
    assert fold(Op.SHR, T.INT, const(T.INT, [-8]), const(T.UINT, [1])) == -4  # arithmetic for int
    assert fold(Op.SHR, T.UINT, const(T.UINT, [4294967288]), const(T.INT, [1])) == 2147483644


def test_float_to_integer_conversion_saturates():
    assert fold(Op.CONVERT, T.INT, const(T.FLOAT, [3e9])) == 2147483647
    assert fold(Op.CONVERT, T.UINT, const(T.FLOAT, [-1.5])) == 0
    assert fold(Op.CONVERT, T.INT, const(T.FLOAT, [math.nan])) == 0
    assert fold(Op.CONVERT, T.INT, const(T.FLOAT, [-2.9])) == -2
    assert fold(Op.CONVERT, T.INT64, const(T.DOUBLE, [math.inf])) == (1 << 63) - 1


@pytest.mark.parametrize("value", [(1 << 24) + 1, (1 << 53) + 1, (1 << 60) + (1 << 36) + 1, -(1 << 62) - 3, 2**64 - 1])
def test_wide_integers_round_once_to_float(value):
    if np.finfo(np.longdouble).nmant < 63:
        pytest.skip("needs an 80-bit long double to hold the integers exactly")
    assert int_to_float(value, 32) == float(np.float32(np.longdouble(value)))  # exact -> float32 in one step
    assert int_to_float(value, 64) == float(value)
    assert int_to_float((1 << 60) + (1 << 36) + 1, 32) == float(2**60 + 2**37)  # float(value) first would tie to 2**60


def test_float_rounding_overflows_to_infinity():
    assert round_float(65520.0, 16) == math.inf  # halfway past the largest half rounds up to inf
    assert round_float(65519.0, 16) == 65504.0
    assert round_float(-3.5e38, 32) == -math.inf
    assert round_float(0.1, 32) == float(np.float32(0.1))


def test_fp32_denormals_flush_to_signed_zero_but_half_ones_stay():
    tiny = 1.401298464324817e-45  # the smallest fp32 denormal
    assert bits(fold(Op.MUL, T.FLOAT, const(T.FLOAT, [-tiny]), const(T.FLOAT, [1.0]))) == bits(-0.0)
    assert bits(fold(Op.MUL, T.FLOAT, const(T.FLOAT, [1e-20]), const(T.FLOAT, [1e-20]))) == bits(0.0)
    assert fold(Op.EQ, T.BOOL, const(T.FLOAT, [tiny]), const(T.FLOAT, [0.0])) is True
    assert bits(fold(Op.NEG, T.FLOAT, const(T.FLOAT, [tiny]))) == bits(-tiny)  # a modifier, no flush
    half_tiny = 5.960464477539063e-08  # the smallest fp16 denormal
    assert fold(Op.MUL, T.HALF, const(T.HALF, [half_tiny]), const(T.HALF, [2.0])) == 2 * half_tiny
