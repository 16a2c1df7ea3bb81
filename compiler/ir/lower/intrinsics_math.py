"""HLSL's transcendental functions as the primitives every executor shares.

DXIL has base-2 ``Exp`` and ``Log`` only, and DXC's HL-to-DXIL lowering (HLOperationLower.cpp)
writes the others in terms of them; ``Tan``, ``Hsin``/``Hcos``/``Htan`` and
``Asin``/``Acos``/``Atan`` stay DXIL operations that each driver expands. shc makes both
expansions here, while lowering, so the IR interpreter, the host JIT and the RDNA2 listing see
the same primitives (``math {fn=exp2|log2|sin|cos|rsqrt|rcp|sqrt}``), whose values
``compiler/machine/transcendentals.py`` defines:

=======================  ==============================================================
``exp(x)``               ``exp2(x * f32(log2 e))``                                 (DXC)
``log(x)``, ``log10``    ``log2(x) * f32(ln 2)``, ``log2(x) * f32(ln 2 / ln 10)``  (DXC)
``pow(x, y)``            ``x * x`` when y is the constant 2 (every component), else
                         ``exp2(log2(x) * y)``                                     (DXC)
``ldexp(x, e)``          ``exp2(e) * x``                                           (DXC)
``atan2(y, x)``          ``atan(y / x)``, then + pi (x < 0, y >= 0), - pi (x < 0, y < 0),
                         -pi/2 (x == 0, y < 0), pi/2 (x == 0, y >= 0)              (DXC)
``tan(x)``               ``sin(x) * rcp(cos(x))``
``sinh`` / ``cosh``      ``(e -/+ rcp(e)) * 0.5`` with ``e = exp2(x * f32(log2 e))``
``tanh(x)``              ``1 - 2 * rcp(exp2(x * f32(2 log2 e)) + 1)`` (exactly +-1 at the ends)
``atan(x)``              a range reduction and a polynomial, below
``asin(x)``              ``atan(x * rsqrt((1 - x) * (1 + x)))``
``acos(x)``              ``2 * atan(sqrt((1 - x) * rcp(1 + x)))``
=======================  ==============================================================

``atan``: with m = |x|, s = -rcp(m) above tan(3pi/8) (and pi/2 is added back), s = (m - 1) /
(m + 1) above tan(pi/8) (pi/4 added back; the quotient from the reciprocal and one fma
correction step), else s = m; with z = s^2, atan(s) is ``s + s z P(z)``, P a degree-4 fit of
``(atan(s) / s - 1) / z`` whose relative error is below 7e-10 on |s| <= tan(pi/8) (the f32
coefficients below); pi/2 and pi/4 are added as a low f32 part, then the f32 nearest them. x's
sign is copied onto the result, so -0 stays -0 and NaN stays NaN. The result is within 2.1 ulps
of atan (every 7th f32 checked), asin's and acos's within 2.7.

``half`` operands (of these and of the primitives exp2, log2, sin, cos, rsqrt) are widened to
float, computed in float and rounded back to half once. ``double`` arguments never get here:
overload resolution converts them to float (with DXC's -Wconversion warning).
"""

from __future__ import annotations

import math

from ...diagnostics import Coord
from ...frontend import hlsl_types as T
from ..core import Inst
from ..ops import Op
from .values import constant_components, matrix_shape, round_float

LOG2_E = math.log2(math.e)
ATAN_POLYNOMIAL = (-0.33333316445350647, 0.19998489320278168, -0.14243848621845245,
                   0.10596001148223877, -0.060834530740976334)
TAN_PI_8, TAN_3PI_8 = math.tan(math.pi / 8), math.tan(3 * math.pi / 8)
# pi/2 and pi/4 as an f32 and the f32 nearest what it leaves out, added low part first
HALF_PI, QUARTER_PI = round_float(math.pi / 2, 32), round_float(math.pi / 4, 32)
HALF_PI_LOW, QUARTER_PI_LOW = round_float(math.pi / 2 - HALF_PI, 32), round_float(math.pi / 4 - QUARTER_PI, 32)

# the primitives (each one RDNA2 instruction) that half values reach through float
PRIMITIVES = frozenset({"exp2", "log2", "sin", "cos", "rsqrt"})
TRANSCENDENTALS = frozenset({"exp", "log", "log10", "pow", "ldexp", "tan", "sinh", "cosh", "tanh", "atan",
                             "atan2", "asin", "acos"})


class _Float:
    """f32 arithmetic of one type (float or a float vector) at one source position."""

    def __init__(self, lowering, t: T.Type, coord: Coord):
        self.lowering, self.t, self.coord = lowering, t, coord
        self.flags = T.with_element(t, T.BOOL)
        self.bits = T.with_element(t, T.UINT)

    def emit(self, op: Op, operands: list[Inst], t: T.Type | None = None, attrs: dict | None = None) -> Inst:
        return self.lowering.b.emit(op, operands, self.t if t is None else t, attrs, self.coord)

    def const(self, value, t: T.Type | None = None) -> Inst:
        return self.lowering.const(self.t if t is None else t, value, self.coord)

    def math(self, fn: str, *operands: Inst) -> Inst:
        return self.emit(Op.MATH, list(operands), None, {"fn": fn})

    def add(self, a, b):
        return self.emit(Op.ADD, [a, b])

    def sub(self, a, b):
        return self.emit(Op.SUB, [a, b])

    def mul(self, a, b):
        return self.emit(Op.MUL, [a, b])

    def fma(self, a, b, c):
        return self.emit(Op.FMA, [a, b, c])

    def compare(self, op: Op, a, b):
        return self.emit(op, [a, b], self.flags)

    def select(self, condition, when_true, when_false):
        return self.emit(Op.SELECT, [condition, when_true, when_false])

    def both(self, a, b):
        return self.emit(Op.AND, [a, b], self.flags)


class TranscendentalIntrinsics:
    """Mixin: ``math_function(name, values, result, coord)`` for the math group of intrinsics."""

    def math_function(self, name: str, values: list[Inst], result: T.Type, coord: Coord) -> Inst:
        """``math {fn=name}``, or the expansion of a transcendental (a row at a time on matrices)."""
        element = T.element_of(result) if matrix_shape(result) is None else T.element_of(result.element)
        half_primitive = name in PRIMITIVES and element == T.HALF
        if not (name in TRANSCENDENTALS and element in (T.FLOAT, T.HALF)) and not half_primitive:
            return self.emit_op(Op.MATH, values, result, {"fn": name}, coord)
        if matrix_shape(result) is None:
            return self._transcendental(name, values, result, coord)
        rows = []
        for r in range(result.size):
            row_values = [self.extract(value, r, coord) if isinstance(value.type, T.ArrayType) else value
                          for value in values]
            rows.append(self._transcendental(name, row_values, result.element, coord))
        return self.b.emit(Op.CONSTRUCT, rows, result, None, coord)

    def _transcendental(self, name: str, values: list[Inst], result: T.Type, coord: Coord) -> Inst:
        wide = T.with_element(result, T.FLOAT)
        f = _Float(self, wide, coord)
        narrow = T.element_of(result).bits == 16
        operands = [self.convert(value, wide, coord) for value in values] if narrow else values
        value = f.math(name, *operands) if name in PRIMITIVES else getattr(self, f"_expand_{name}")(f, *operands)
        return self.convert(value, result, coord) if narrow else value

    # each _expand_<name>(f, *operands) computes the function in float
    def _expand_exp(self, f, x):
        return f.math("exp2", f.mul(f.const(LOG2_E), x))

    def _expand_log(self, f, x):
        return f.mul(f.const(math.log(2.0)), f.math("log2", x))

    def _expand_log10(self, f, x):
        return f.mul(f.const(math.log(2.0) / math.log(10.0)), f.math("log2", x))

    def _expand_pow(self, f, x, y):
        source = y.operands[0] if y.op is Op.CONVERT else y  # a half exponent arrives widened
        if source.op is Op.CONST and all(value == 2.0 for value in constant_components(source)):
            return f.mul(x, x)
        return f.math("exp2", f.mul(f.math("log2", x), y))

    def _expand_ldexp(self, f, x, exponent):
        return f.mul(f.math("exp2", exponent), x)

    def _expand_tan(self, f, x):
        return f.mul(f.math("sin", x), f.math("rcp", f.math("cos", x)))

    def _expand_sinh(self, f, x):
        grow = self._expand_exp(f, x)
        return f.mul(f.const(0.5), f.sub(grow, f.math("rcp", grow)))

    def _expand_cosh(self, f, x):
        grow = self._expand_exp(f, x)
        return f.mul(f.const(0.5), f.add(grow, f.math("rcp", grow)))

    def _expand_tanh(self, f, x):
        grow = f.math("exp2", f.mul(f.const(2.0 * LOG2_E), x))
        inverse = f.math("rcp", f.add(grow, f.const(1.0)))
        return f.fma(f.const(-2.0), inverse, f.const(1.0))

    def _expand_atan(self, f, x):
        one = f.const(1.0)
        magnitude = f.emit(Op.ABS, [x])
        far = f.compare(Op.GT, magnitude, f.const(TAN_3PI_8))
        middle = f.compare(Op.GT, magnitude, f.const(TAN_PI_8))
        # (m - 1) / (m + 1): the reciprocal's quotient and one correction step
        above, below = f.sub(magnitude, one), f.add(magnitude, one)
        inverse = f.math("rcp", below)
        quotient = f.mul(above, inverse)
        ratio = f.fma(f.fma(f.emit(Op.NEG, [quotient]), below, above), inverse, quotient)
        s = f.select(far, f.emit(Op.NEG, [f.math("rcp", magnitude)]), f.select(middle, ratio, magnitude))
        z = f.mul(s, s)
        poly = f.const(ATAN_POLYNOMIAL[-1])
        for coefficient in reversed(ATAN_POLYNOMIAL[:-1]):
            poly = f.fma(poly, z, f.const(coefficient))
        angle = f.fma(f.mul(s, z), poly, s)  # atan(s), |s| <= tan(pi/8)
        low = f.select(far, f.const(HALF_PI_LOW), f.select(middle, f.const(QUARTER_PI_LOW), f.const(0.0)))
        high = f.select(far, f.const(HALF_PI), f.select(middle, f.const(QUARTER_PI), f.const(0.0)))
        angle = f.add(f.add(angle, low), high)
        sign = f.emit(Op.AND, [f.emit(Op.BITCAST, [x], f.bits), f.const(0x80000000, f.bits)], f.bits)
        return f.emit(Op.BITCAST, [f.emit(Op.OR, [f.emit(Op.BITCAST, [angle], f.bits), sign], f.bits)])

    def _expand_atan2(self, f, y, x):
        angle = self._expand_atan(f, f.emit(Op.DIV, [y, x]))
        zero = f.const(0.0)
        x_negative, x_zero = f.compare(Op.LT, x, zero), f.compare(Op.EQ, x, zero)
        y_negative, y_not_negative = f.compare(Op.LT, y, zero), f.compare(Op.GE, y, zero)
        pi = f.const(math.pi)
        result = f.select(f.both(x_negative, y_not_negative), f.add(angle, pi), angle)
        result = f.select(f.both(x_negative, y_negative), f.sub(angle, pi), result)
        result = f.select(f.both(x_zero, y_negative), f.const(-math.pi / 2), result)
        return f.select(f.both(x_zero, y_not_negative), f.const(math.pi / 2), result)

    def _expand_asin(self, f, x):
        one = f.const(1.0)
        return self._expand_atan(f, f.mul(x, f.math("rsqrt", f.mul(f.sub(one, x), f.add(one, x)))))

    def _expand_acos(self, f, x):
        one = f.const(1.0)
        ratio = f.mul(f.sub(one, x), f.math("rcp", f.add(one, x)))
        return f.mul(f.const(2.0), self._expand_atan(f, f.math("sqrt", ratio)))
