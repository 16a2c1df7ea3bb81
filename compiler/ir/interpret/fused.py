"""``fma`` rounded once, for NumPy arrays of float16, float32 or float64.

A product of two float32 (or float16) values is exact in float64, and so is the rounding
error of adding the third operand (Knuth's TwoSum); the float64 sum is then made odd when
it was inexact (round to odd), which a second rounding to float32 or float16 turns into
the correctly rounded fma (float64 carries more than twice their significand plus two
bits). float64 operands are summed exactly as rationals and rounded once.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np


def fused_multiply_add(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """a * b + c with one rounding, in ``a``'s dtype (operands broadcast together)."""
    a, b, c = np.broadcast_arrays(np.asarray(a), np.asarray(b), np.asarray(c))
    if a.dtype == np.float64:
        flat = [_fma64(float(x), float(y), float(z)) for x, y, z in zip(a.ravel(), b.ravel(), c.ravel())]
        return np.array(flat, dtype=np.float64).reshape(a.shape)
    with np.errstate(all="ignore"):
        product = a.astype(np.float64) * b.astype(np.float64)
        addend = c.astype(np.float64)
        total = product + addend
        virtual = total - product
        error = (product - (total - virtual)) + (addend - virtual)
        even = (total.view(np.uint64) & np.uint64(1)) == 0
        inexact = (error != 0) & np.isfinite(total) & even
        odd = np.where(inexact, np.nextafter(total, np.where(error > 0, np.inf, -np.inf)), total)
        return odd.astype(a.dtype)


def _fma64(a: float, b: float, c: float) -> float:
    if not all(math.isfinite(x) for x in (a, b, c)):
        return a * b + c
    exact = Fraction(a) * Fraction(b) + Fraction(c)
    if exact == 0:  # the sign of an exact zero: -0 only from two zeros of that sign
        return a * b + c if a == 0 or b == 0 else 0.0
    try:
        return float(exact)
    except OverflowError:
        return math.copysign(math.inf, exact)
