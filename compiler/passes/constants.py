"""Evaluating IR operations on constants, with HLSL's integer and float rules.

Shared by constant folding, simplification and wave-op lowering. Values are
stored in ``const`` attributes as Python scalars (or lists for vectors). A
``Constant`` holds one Python number per component, normalised to the element
type (``scalars.normalise``), and every operation normalises its result again,
so 32-bit wrap-around and float32/float16 rounding match what the GPU computes,
bit for bit as NumPy's arithmetic in those types (tests/passes/test_constants.py).

Arithmetic and comparisons fold only when their operands share one element
type, as typed IR gives them; a shift converts its amount to the shifted type.
Integer division by zero is left for run time. fp32 arithmetic, comparisons and min/max
flush denormal operands and results to zeros of their sign, as D3D12 runs RDNA2 (``flush``);
negation, ``abs``, conversions and moves keep them.
"""

from __future__ import annotations

import math
import operator
from dataclasses import dataclass

from .scalars import DEFAULT_NAN, convert, normalise, wrap
from ..frontend import hlsl_types as T
from ..ir.core import Inst
from ..ir.ops import Op


@dataclass(frozen=True, slots=True)
class Constant:
    """A constant's components, each a Python bool, int or float of ``element``."""

    element: T.ScalarType
    values: list

    @property
    def is_float(self) -> bool:
        return self.element.kind == "float"

    @property
    def is_integer(self) -> bool:
        return self.element.kind in ("int", "uint")


def constant_of(inst: Inst) -> Constant | None:
    """A constant instruction's value with one entry per component."""
    if inst.op is not Op.CONST:
        return None
    element = T.element_of(inst.type)
    if element is None:
        return None
    value = inst.attrs["value"]
    components = value if isinstance(value, list) else [value] * getattr(inst.type, "components", 1)
    return _normalised(components, element)


def to_attr(constant: Constant, t: T.Type):
    if isinstance(t, T.ScalarType):
        return constant.values[0]
    return list(constant.values)


def _normalised(values, element: T.ScalarType) -> Constant:
    return Constant(element, [normalise(value, element) for value in values])


# ---------------------------------------------------------------- elementwise operations


def _min_max(op: Op, element: T.ScalarType):
    """D3D's ``min``/``max`` as the interpreter computes them (NumPy's ``fmin``/``fmax``): a
    NaN operand loses to a number (of two NaNs the second is kept); of equal values (0.0 and
    -0.0) a float keeps the first."""
    ties_to_first = element.kind == "float"

    def pick(a, b):
        if math.isnan(a):
            return b
        if math.isnan(b):
            return a
        if a == b:
            return a if ties_to_first else b
        smaller = a if a < b else b
        larger = b if a < b else a
        return smaller if op is Op.MIN else larger

    return pick


_ARITHMETIC = {Op.ADD: operator.add, Op.SUB: operator.sub, Op.MUL: operator.mul}
_BITWISE = {Op.AND: operator.and_, Op.OR: operator.or_, Op.XOR: operator.xor}
_COMPARISONS = {
    Op.EQ: operator.eq, Op.NE: operator.ne, Op.LT: operator.lt, Op.LE: operator.le,
    Op.GT: operator.gt, Op.GE: operator.ge,
}
_BINARY = frozenset([*_ARITHMETIC, *_BITWISE, *_COMPARISONS, Op.MIN, Op.MAX, Op.DIV, Op.REM])


def _first_nan(function):
    """``function`` on floats, except that of two NaN operands the first propagates, as
    the x86 arithmetic NumPy runs does (Python's own + and * may swap their operands)."""

    def apply(a: float, b: float) -> float:
        if math.isnan(a) and math.isnan(b):
            return a
        return function(a, b)

    return apply


def _float_divide(a: float, b: float) -> float:
    """IEEE division: x/0 is an infinity of the combined signs, 0/0 the default NaN."""
    if b != 0:
        return a / b
    if math.isnan(a):
        return a
    if a == 0:
        return DEFAULT_NAN
    return math.copysign(math.inf, a) * math.copysign(1.0, b)


def _float_remainder(a: float, b: float) -> float:
    """C ``fmod``: the sign of ``a``; fmod(x, 0) and fmod(inf, y) are NaN, fmod(x, inf) is x."""
    if math.isnan(a):
        return a
    if math.isnan(b):
        return b
    if math.isinf(a) or b == 0:
        return DEFAULT_NAN
    if math.isinf(b):
        return a
    return math.fmod(a, b)


def _truncating_divide(a: int, b: int) -> int:
    quotient = abs(a) // abs(b)
    return quotient if (a < 0) == (b < 0) else -quotient


def _integer_divide(op: Op, a: int, b: int) -> int:
    quotient = _truncating_divide(a, b)
    return quotient if op is Op.DIV else a - quotient * b


def _negate(value, element: T.ScalarType):
    return -value if element.kind == "float" else wrap(-value, element)


def _invert(value, element: T.ScalarType):
    return not value if element.kind == "bool" else wrap(~value, element)


def _absolute(value, element: T.ScalarType):
    return abs(value) if element.kind != "int" else wrap(abs(value), element)


# ---------------------------------------------------------------- evaluation


def _broadcast(*operands: list) -> list[tuple] | None:
    """Component tuples across operands, a one-component operand repeated; None if
    the lengths disagree otherwise."""
    length = max(len(values) for values in operands)
    if any(len(values) not in (1, length) for values in operands):
        return None
    return list(zip(*(values * length if len(values) == 1 else values for values in operands)))


def _elementwise(function, args: list[Constant], element: T.ScalarType,
                 result: T.ScalarType) -> Constant | None:
    """``function`` over the components, rounded or wrapped to the operands' element
    and then converted to the result's."""
    pairs = _broadcast(*(arg.values for arg in args))
    if pairs is None:
        return None
    computed = [normalise(function(*pair), element) for pair in pairs]
    return _normalised(computed, result)


FLT_MIN = 2.0 ** -126  # the smallest normal fp32


def flush(value):
    """An fp32 value with a denormal replaced by a zero of its sign."""
    return math.copysign(0.0, value) if abs(value) < FLT_MIN else value


def _flushing(function):
    """``function`` on fp32 operands as D3D arithmetic sees them: denormals in and out flushed."""

    def apply(*values):
        out = function(*(flush(value) for value in values))
        return flush(out) if isinstance(out, float) else out

    return apply


def _binary(op: Op, a: Constant, b: Constant, result: T.ScalarType) -> Constant | None:
    if a.element != b.element:
        return None
    element = a.element
    flushed = _flushing if element == T.FLOAT else (lambda function: function)
    if op in _ARITHMETIC:
        function = flushed(_first_nan(_ARITHMETIC[op])) if a.is_float else _ARITHMETIC[op]
        return _elementwise(function, [a, b], element, result)
    if op in (Op.MIN, Op.MAX):
        return _elementwise(flushed(_min_max(op, element)), [a, b], element, result)
    if op in _BITWISE:
        return None if a.is_float else _elementwise(_BITWISE[op], [a, b], element, result)
    if op in _COMPARISONS:
        return _elementwise(flushed(_COMPARISONS[op]), [a, b], T.BOOL, result)
    if op in (Op.DIV, Op.REM):
        if a.is_float:
            divide = _float_divide if op is Op.DIV else _float_remainder
            return _elementwise(flushed(divide), [a, b], element, result)
        if any(value == 0 for value in b.values):
            return None  # undefined on the GPU: leave it for run time
        return _elementwise(lambda x, y: _integer_divide(op, x, y), [a, b], element, result)
    return None


def _shift(op: Op, a: Constant, b: Constant, result: T.ScalarType) -> Constant | None:
    if not a.is_integer:
        return None
    mask = a.element.bits - 1
    amounts = _normalised(b.values, a.element)

    def shift(value: int, amount: int) -> int:
        return value << (amount & mask) if op is Op.SHL else value >> (amount & mask)

    return _elementwise(shift, [a, amounts], a.element, result)


def _unary(op: Op, a: Constant, result: T.ScalarType) -> Constant | None:
    element = a.element
    if op is Op.NEG and element.kind != "bool":
        return _elementwise(lambda value: _negate(value, element), [a], element, result)
    if op is Op.NOT and element.kind != "float":
        return _elementwise(lambda value: _invert(value, element), [a], element, result)
    if op is Op.ABS:
        return _elementwise(lambda value: _absolute(value, element), [a], element, result)
    return None


def _select(cond: Constant, a: Constant, b: Constant, result: T.ScalarType) -> Constant | None:
    triples = _broadcast(cond.values, a.values, b.values)
    if triples is None:
        return None
    return _normalised([when_true if test else when_false for test, when_true, when_false in triples], result)


def evaluate(inst: Inst, args: list[Constant]) -> Constant | None:
    """The folded value of ``inst`` given constant operands, or None if it can't be folded."""
    op = inst.op
    result = T.element_of(inst.type)
    if result is None:
        return None
    if op in (Op.SHL, Op.SHR) and len(args) == 2:
        return _shift(op, args[0], args[1], result)
    if op in _BINARY and len(args) == 2:
        return _binary(op, args[0], args[1], result)
    if op in (Op.NEG, Op.NOT, Op.ABS):
        return _unary(op, args[0], result)
    if op is Op.CONVERT:
        return Constant(result, [convert(value, result) for value in args[0].values])
    if op is Op.SELECT:
        cond, when_true, when_false = args
        return _select(cond, when_true, when_false, result)
    if op is Op.CONSTRUCT:
        return _normalised([value for arg in args for value in arg.values], result)
    if op is Op.EXTRACT and "index" in inst.attrs and len(args) == 1:
        index = inst.attrs["index"]
        return _normalised(args[0].values[index: index + 1], result)
    if op is Op.SHUFFLE and len(args) == 1:
        return _normalised([args[0].values[lane] for lane in inst.attrs["lanes"]], result)
    return None
