"""Values the type sweep's gentle operands do not reach: division sequences across the whole
exponent range, conversions that round twice if done naively, fmas that a float64 sum would
round twice. Each result is checked against an exact reference, on the IR interpreter, the
host JIT and the RDNA2 listing simulator."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.arith import flush
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

WAVE = 32


def executors(source: str, words: np.ndarray) -> dict[str, np.ndarray]:
    """The ``o`` buffer (uint words) after each executor ran ``source`` on it."""
    module = compile_source(source, "wide.hlsl", Options(wave_size=WAVE), Diagnostics())
    results = {"interpreter": np.asarray(run_wave(module, buffers={"o": words.copy()}).buffers["o"])}
    jit = words.copy()
    shc.compile(source, wave_size=WAVE).dispatch((1, 1, 1), o=jit)
    results["jit"] = jit
    function = select(module)
    allocate(function)
    results["listing"] = np.asarray(simulate(function, module, buffers={"o": words.copy()}).buffers["o"])
    return {name: result.view(np.uint32) for name, result in results.items()}


def double_words(values) -> tuple[np.ndarray, np.ndarray]:
    bits = np.asarray(values, np.float64).view(np.uint64)
    return (bits & np.uint64(0xFFFFFFFF)).astype(np.uint32), (bits >> np.uint64(32)).astype(np.uint32)


DOUBLE_DIVISION = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(32, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    double n = asdouble(o[tid], o[tid + 32]);
    double d = asdouble(o[tid + 64], o[tid + 96]);
    uint lo, hi;
    asuint(n / d, lo, hi);
    o[tid] = lo;
    o[tid + 32] = hi;
}
"""

FLOAT_DIVISION = """
RWStructuredBuffer<uint> o : register(u0);
[numthreads(32, 1, 1)]
void main(uint tid : SV_GroupIndex) {
    o[tid] = asuint(asfloat(o[tid]) / asfloat(o[tid + 32]));
}
"""


def extreme_operands(dtype, rng) -> tuple[np.ndarray, np.ndarray]:
    """Dividends and divisors from the whole range: huge over tiny, tiny over huge, subnormals,
    zeros and infinities (but never 0/0 or inf/inf)."""
    info = np.finfo(dtype)
    span = info.maxexp - 2
    exponents = rng.integers(info.minexp - info.nmant + 1, span, size=(2, WAVE))
    mantissas = rng.uniform(1.0, 2.0, size=(2, WAVE)) * rng.choice([-1.0, 1.0], size=(2, WAVE))
    values = np.ldexp(mantissas, exponents).astype(dtype)
    n, d = values
    n[:4], d[:4] = [info.max, info.tiny / 8, -info.max, 3.0], [info.tiny / 8, info.max, 0.75, -info.max]
    n[4:8], d[4:8] = [0.0, 3.0, np.inf, -5.0], [7.0, 0.0, 2.0, np.inf]
    n[8:10], d[8:10] = info.smallest_subnormal, 3.0
    return n, d


@pytest.mark.parametrize("seed", [1, 2])
def test_double_division_is_correctly_rounded_everywhere(seed):
    n, d = extreme_operands(np.float64, np.random.default_rng(seed))
    words = np.concatenate([*double_words(n), *double_words(d)])
    with np.errstate(all="ignore"):
        expected = np.concatenate(double_words(n / d))
    for name, result in executors(DOUBLE_DIVISION, words).items():
        assert np.array_equal(result[:64], expected), name


@pytest.mark.parametrize("seed", [1, 2])
def test_float_division_is_correctly_rounded_everywhere(seed):
    n, d = extreme_operands(np.float32, np.random.default_rng(seed))
    words = np.concatenate([n.view(np.uint32), d.view(np.uint32)])
    with np.errstate(all="ignore"):  # fp32 denormals flush to zeros of their sign (D3D)
        expected = flush(flush(n) / flush(d)).view(np.uint32)
    for name, result in executors(FLOAT_DIVISION, words).items():
        assert np.array_equal(result[:32], expected), name


def test_double_to_half_rounds_once():
    """Doubles just off a half's rounding midpoint: through a nearest float they would land on
    the midpoint and round to even; they must round away from it."""
    source = """
    RWStructuredBuffer<uint> o : register(u0);
    [numthreads(32, 1, 1)]
    void main(uint tid : SV_GroupIndex) {
        o[tid] = f32tof16((float)(half)asdouble(o[tid], o[tid + 32]));
    }
    """
    lane = np.arange(WAVE)
    midpoints = 1.0 + (2 * lane + 1) * 2.0 ** -11  # halfway between two halves
    values = midpoints * np.where(lane % 2, 1.0, -1.0) + np.where(lane % 3 == 0, 2.0 ** -40, -(2.0 ** -40))
    expected = values.astype(np.float16).view(np.uint16).astype(np.uint32)
    naive = values.astype(np.float32).astype(np.float16).view(np.uint16).astype(np.uint32)
    assert not np.array_equal(naive, expected)  # the cases do catch a double rounding
    for name, result in executors(source, np.concatenate(double_words(values))).items():
        assert np.array_equal(result[:32], expected), name


def test_mad_rounds_once():
    """f32 mad where a float64 sum would land on an f32 midpoint: one rounding goes past it."""
    source = """
    RWStructuredBuffer<uint> o : register(u0);
    [numthreads(32, 1, 1)]
    void main(uint tid : SV_GroupIndex) {
        o[tid] = asuint(mad(asfloat(o[tid]), asfloat(o[tid + 32]), asfloat(o[tid + 64])));
    }
    """
    # a = 2^-12 (1 + k 2^-23), b = 2^-12 (1 - m 2^-23) with k = m + 1 and k m just under 2^23:
    # a * b = 2^-24 + delta, delta below f64's half ulp at 1; with c = 1 the float64 sum is the
    # midpoint 1 + 2^-24 (ties to 1), the exact sum just above it (rounds to 1 + 2^-23)
    m = 2895.0 - np.arange(WAVE)
    a = (2.0 ** -12 * (1 + (m + 1) * 2.0 ** -23)).astype(np.float32)
    b = (2.0 ** -12 * (1 - m * 2.0 ** -23)).astype(np.float32)
    c = np.ones(WAVE, np.float32)
    exact = [Fraction(float(x)) * Fraction(float(y)) + Fraction(float(z)) for x, y, z in zip(a, b, c)]
    expected = np.array([_round32(value) for value in exact], np.float32).view(np.uint32)
    naive = (a.astype(np.float64) * b.astype(np.float64) + c.astype(np.float64)).astype(np.float32).view(np.uint32)
    assert not np.array_equal(naive, expected)
    words = np.concatenate([a.view(np.uint32), b.view(np.uint32), c.view(np.uint32)])
    for name, result in executors(source, words).items():
        assert np.array_equal(result[:32], expected), name


def _round32(value: Fraction) -> np.float32:
    """``value`` rounded to the nearest f32 (ties to even), exactly."""
    low = np.float32(float(value))  # within an ulp: step to the right neighbour
    candidates = [np.nextafter(low, np.float32(-np.inf)), low, np.nextafter(low, np.float32(np.inf))]
    distances = [abs(Fraction(float(x)) - value) for x in candidates]
    best = min(distances)
    ties = [x for x, distance in zip(candidates, distances) if distance == best]
    return min(ties, key=lambda x: int(np.float32(x).view(np.uint32)) & 1)
