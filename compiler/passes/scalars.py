"""Python numbers as HLSL scalars: integers wrapped to their width, floats rounded.

Constant folding keeps each component as a plain Python ``bool``, ``int`` or
``float`` already normalised to its element type (``hlsl_types.ScalarType``):
``int``/``uint`` values wrap to their bit width (``uint`` stays non-negative,
``int`` stays in two's-complement range) and ``float``/``half`` values hold
exactly a float32/float16 value, so every step starts from what a GPU register
would hold.

A float32 or float16 result is computed in double and rounded once to its
width. For + - * / that gives the correctly rounded float32/float16 result,
because a double carries more than twice the bits plus two (53 >= 2*24 + 2), so
the intermediate rounding can never change the final one.
"""

from __future__ import annotations

import math
import struct

from ..frontend import hlsl_types as T

_FLOAT32 = struct.Struct("<f")
_FLOAT16 = struct.Struct("<e")

# Significand bits (with the implicit one) of each float width.
_PRECISION = {16: 11, 32: 24, 64: 53}

# What 0/0, inf - inf and fmod(x, 0) give on this processor (x86: the sign bit is
# set), computed the way the hardware computes it rather than written down.
DEFAULT_NAN = math.inf - math.inf


def wrap(value: int, element: T.ScalarType) -> int:
    """``value`` modulo 2**bits, as the element's signed or unsigned integer."""
    bits = element.bits
    value &= (1 << bits) - 1
    if element.kind == "int" and value >> (bits - 1):
        value -= 1 << bits
    return value


def integer_range(element: T.ScalarType) -> tuple[int, int]:
    bits = element.bits
    if element.kind == "int":
        return -(1 << (bits - 1)), (1 << (bits - 1)) - 1
    return 0, (1 << bits) - 1


def round_float(value: float, bits: int) -> float:
    """The float16/float32/float64 value nearest ``value`` (ties to even), as a double;
    too large a value becomes an infinity of its sign."""
    if bits == 64:
        return value
    packer = _FLOAT32 if bits == 32 else _FLOAT16
    try:
        return packer.unpack(packer.pack(value))[0]
    except OverflowError:
        return math.copysign(math.inf, value)


def int_to_float(value: int, bits: int) -> float:
    """An integer rounded once (ties to even) to a float of ``bits`` width.

    ``float(value)`` alone would round twice for integers wider than a double's
    significand, so the surplus low bits are rounded away here first.
    """
    precision = _PRECISION[bits]
    magnitude = abs(value)
    surplus = magnitude.bit_length() - precision
    if surplus > 0:
        kept, dropped = divmod(magnitude, 1 << surplus)
        half = 1 << (surplus - 1)
        if dropped > half or (dropped == half and kept & 1):
            kept += 1
        magnitude = kept << surplus
    rounded = float(magnitude)  # exact: at most `precision` significant bits
    return round_float(-rounded if value < 0 else rounded, bits)


def float_to_int_saturating(value: float, element: T.ScalarType) -> int:
    """HLSL's float -> integer conversion: truncate, clamp to the range, NaN -> 0."""
    if math.isnan(value):
        return 0
    low, high = integer_range(element)
    if math.isinf(value):
        return high if value > 0 else low
    return min(max(math.trunc(value), low), high)


def normalise(value, element: T.ScalarType):
    """A Python bool, int or float as a component of ``element`` (no saturation:
    integers wrap, as a bit-pattern reinterpretation would)."""
    if element.kind == "bool":
        return bool(value)
    if element.kind == "float":
        if isinstance(value, float):
            return round_float(value, element.bits)
        return int_to_float(int(value), element.bits)
    if isinstance(value, float):
        return wrap(float_to_int_saturating(value, element), element)
    return wrap(int(value), element)


def convert(value, element: T.ScalarType):
    """HLSL's conversion of one component to ``element``: floats to integers
    saturate (NaN -> 0), anything to bool tests against zero, the rest as ``normalise``."""
    if element.kind == "bool":
        return value != 0
    if element.kind in ("int", "uint") and isinstance(value, float):
        return float_to_int_saturating(value, element)
    return normalise(value, element)
