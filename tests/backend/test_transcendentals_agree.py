"""Transcendentals have one meaning: the IR interpreter, the host JIT and the RDNA2 listing
simulator compute the same f32 (and f16) values, bit for bit, at wave32 and wave64.

Each kernel writes the raw bits of ``f(x)`` (or ``f(x, y)``) for inputs chosen where
implementations part ways: zeros of both signs, denormals (flushed), the smallest normal,
infinities, NaN, large arguments of sin and cos, exp2 where it overflows and underflows, logs of
negative numbers and of zero, and a spread of ordinary values. The values themselves are pinned
by ``compiler/machine/transcendentals.py`` (tested at the end against its definition).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.machine import transcendentals as tr
from shc.compiler.pipeline import Options, compile_source

PER_LANE = 4  # inputs per lane: 128 at wave32, 256 at wave64

SPECIAL_BITS = [
    0x00000000, 0x80000000, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F800000, 0xFF800000,
    0x7FC00000, 0x7F7FFFFF, 0xFF7FFFFF, 0x3F800000, 0xBF800000,
]
SPECIAL_VALUES = [
    0.5, -0.5, 2.0, 1e-3, -1e-3, 1e-20, math.pi, -math.pi, math.pi / 2, 2 * math.pi, 100.0, -100.0,
    1e4, 12345.678, -98765.43, 1e6, 1e7, 16777216.0, 3e9, 1e20, -1e30, 88.72, 89.0, -87.3, -103.9,
    127.9, 128.0, -126.0, -149.0, -150.0, 0.999999, 1.000001, -0.9999, 0.70710677, 0.41421357,
    2.4142137, 1e-7, 0.25, 3.0, 10.0, 0.1, -2.5, 0.0009765625, 1024.0, 65504.0, 65520.0, 6e-5,
]

# HLSL expression over float x and y -> the case name
EXPRESSIONS = {
    "sin": "sin(x)", "cos": "cos(x)", "tan": "tan(x)", "exp": "exp(x)", "exp2": "exp2(x)",
    "log": "log(x)", "log2": "log2(x)", "log10": "log10(x)", "pow": "pow(x, y)",
    "pow_constant": "pow(x, 2.0f) + pow(x, 2.5f)", "rsqrt": "rsqrt(x)", "sqrt": "sqrt(x)",
    "rcp": "rcp(x)", "sinh": "sinh(x)", "cosh": "cosh(x)", "tanh": "tanh(x)", "atan": "atan(x)",
    "atan2": "atan2(x, y)", "asin": "asin(x)", "acos": "acos(x)", "ldexp": "ldexp(x, y)",
    "sincos": "s * 3.0f + c",
    "half": "(float)(sin((half)x) + exp2((half)y) * 0.25h + atan((half)x) * log(abs((half)y)) + rsqrt(abs((half)x)))",
    # a kernel with double values runs the JIT in IEEE mode, flushing fp32 by hand
    "in_ieee_mode": "(float)((double)sin(x) + (double)log2(y) * 0.5 + (double)rsqrt(x))",
    "vector": "dot(sin(float3(x, y, x + y)) + atan2(float3(y, x, 1), float3(x, -y, x)), float3(1, 3, 7))",
}


def inputs(count: int) -> tuple[np.ndarray, np.ndarray]:
    """x and y per input: the special values first, then a deterministic spread."""
    special = np.concatenate([np.array(SPECIAL_BITS, np.uint32).view(np.float32),
                              np.array(SPECIAL_VALUES, np.float32)])
    x = np.concatenate([special, -special])
    rng = np.random.default_rng(16)
    spread = (rng.standard_normal(count) * np.exp2(rng.integers(-8, 8, count))).astype(np.float32)
    x = np.concatenate([x, spread])[:count]
    return x, np.roll(x, 37)


def kernel_source(expression: str, wave: int) -> str:
    return f"""
RWStructuredBuffer<float> a : register(u0);
RWStructuredBuffer<float> b : register(u1);
RWStructuredBuffer<uint> o : register(u2);
[numthreads({wave}, 1, 1)]
void main(uint tid : SV_GroupIndex) {{
    [unroll] for (uint k = 0; k < {PER_LANE}; k++) {{
        uint i = tid * {PER_LANE} + k;
        float x = a[i];
        float y = b[i];
        float s, c;
        sincos(y, s, c);
        o[i] = asuint({expression});
    }}
}}
"""


def run_three(expression: str, wave: int):
    count = wave * PER_LANE
    x, y = inputs(count)
    source = kernel_source(expression, wave)

    def fresh():
        return {"a": x.copy(), "b": y.copy(), "o": np.zeros(count, np.uint32)}

    module = compile_source(source, "transcendentals.hlsl", Options(wave_size=wave), Diagnostics())
    interpreted = np.asarray(run_wave(module, buffers=fresh()).buffers["o"]).view(np.uint32)

    jit = fresh()
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), **jit)

    function = select(module)
    allocate(function)
    simulated = np.asarray(simulate(function, module, buffers=fresh()).buffers["o"]).view(np.uint32)
    return x, y, interpreted, jit["o"], simulated


def _same(expected: np.ndarray, got: np.ndarray) -> np.ndarray:
    """Bit for bit, except that two NaNs agree (HLSL leaves a NaN's bits open, as the listing check does)."""
    return (expected == got) | (np.isnan(expected.view(np.float32)) & np.isnan(got.view(np.float32)))


def _first_differences(x, y, expected, got) -> str:
    lanes = np.flatnonzero(~_same(expected, got))[:6]
    return ", ".join(f"x={x[i]!r} y={y[i]!r}: {expected[i]:#010x} vs {got[i]:#010x}" for i in lanes)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
def test_interpreter_jit_and_listing_compute_the_same_bits(name, wave):
    x, y, interpreted, jit, simulated = run_three(EXPRESSIONS[name], wave)
    assert len(np.unique(interpreted)) > wave // 2  # the kernel computed something per input
    assert _same(interpreted, jit).all(), "JIT: " + _first_differences(x, y, interpreted, jit)
    assert _same(interpreted, simulated).all(), "listing: " + _first_differences(x, y, interpreted, simulated)


def test_the_values_are_the_machine_definition():
    """sin, exp2, log2 and rsqrt as computed by the JIT are the definitions, value for value."""
    wave = 32
    for expression, definition in (("sin(x)", tr.sin), ("exp2(x)", tr.exp2), ("log2(x)", tr.log2),
                                   ("rsqrt(x)", tr.rsqrt), ("cos(x)", tr.cos)):
        x, _, _, jit, _ = run_three(expression, wave)
        expected = definition(x).view(np.uint32)
        assert _same(expected, jit).all(), expression + ": " + _first_differences(x, x, expected, jit)


def _ulps(got: np.ndarray, exact: np.ndarray) -> np.ndarray:
    finite = np.isfinite(exact)
    spacing = np.spacing(np.abs(exact[finite]).astype(np.float32)).astype(np.float64)
    return np.abs(got[finite].astype(np.float64) - exact[finite]) / spacing


@pytest.mark.parametrize("name, reference, ulps", [("atan", np.arctan, 2.1), ("asin", np.arcsin, 2.7),
                                                   ("acos", np.arccos, 2.7)])
def test_inverse_trigonometry_is_within_a_few_ulps(name, reference, ulps):
    x, _, interpreted, _, _ = run_three(f"{name}(x)", 64)
    if name != "atan":
        x = np.fmin(np.fmax(x, np.float32(-1)), np.float32(1))  # as HLSL's clamp: NaN gives -1
        _, _, interpreted, _, _ = run_three(f"{name}(clamp(x, -1.0f, 1.0f))", 64)
    got = interpreted.view(np.float32)
    with np.errstate(all="ignore"):
        exact = reference(tr.flush(x).astype(np.float64))
    assert np.max(_ulps(got, exact)) <= ulps
    assert np.array_equal(np.isnan(got), np.isnan(exact))


def test_special_values():
    flt_min = np.float32(1.1754944e-38)
    denormal = np.array([0x00000001], np.uint32).view(np.float32)
    assert tr.exp2(np.float32([0.0, -0.0, 128.0, -150.0, -np.inf, np.inf])).tolist() == [1, 1, np.inf, 0, 0, np.inf]
    assert tr.log2(np.float32([1.0, 0.0, -0.0, np.inf])).tolist() == [0, -np.inf, -np.inf, np.inf]
    assert np.isnan(tr.log2(np.float32([-1.0, -np.inf, np.nan]))).all()
    assert tr.log2(denormal).tolist() == [-np.inf]  # a denormal reads as zero
    assert tr.rsqrt(np.float32([0.0, -0.0, np.inf, 4.0])).tolist() == [np.inf, -np.inf, 0.0, 0.5]
    assert tr.exp2(np.float32([-126.0])).tolist() == [flt_min]
    assert tr.exp2(np.float32([-126.5])).tolist() == [0.0]  # a denormal result flushes
    sines = tr.sin(np.float32([-0.0, 0.0, 1e9, -1e30]))
    assert [math.copysign(1, value) for value in sines] == [-1, 1, 1, -1] and not sines.any()
    assert np.isnan(tr.sin(np.float32([np.inf, np.nan]))).all()
    assert tr.cos(np.float32([0.0])).tolist() == [1.0]
