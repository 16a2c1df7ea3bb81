"""Float constants in the amdgcn back end's LLVM IR: ``half`` and ``float`` values rounded to
nearest even, as NumPy's conversions round them (the back end writes them with ``struct``, so
``shc regs`` does not import NumPy for its LLVM cross-check)."""

from __future__ import annotations

import struct

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from shc.compiler.backend.amdgcn.values import float_literal


def numpy_literal(value: float, bits: int) -> str:
    """The spelling from NumPy's conversions: the reference the back end must agree with."""
    with np.errstate(over="ignore"):
        if bits == 16:
            return f"0xH{int(np.array(value, dtype=np.float16).view(np.uint16)):04X}"
        return f"0x{struct.unpack('<Q', struct.pack('<d', float(np.float32(value))))[0]:016X}"


EDGES = [0.0, -0.0, 1.0, 0.1, 65504.0, 65519.99, 65520.0, -65520.0, 1e-8, 6e-8, 2.0 ** -25, 3.4028235e38,
         3.4028236e38, 3.5e38, -1e39, 1e-46, float("inf"), float("-inf"), float("nan"), -float("nan"), 7, True]


def test_edge_values_round_as_numpy_rounds():
    for value in EDGES:
        for bits in (16, 32):
            assert float_literal(value, bits) == numpy_literal(value, bits), (value, bits)


@settings(max_examples=500, deadline=None)
@given(st.floats(allow_nan=True, allow_infinity=True, width=64))
def test_any_double_rounds_as_numpy_rounds(value):
    for bits in (16, 32):
        assert float_literal(value, bits) == numpy_literal(value, bits)
