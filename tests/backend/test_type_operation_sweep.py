"""Every scalar type the front end accepts (and 2-vectors of some) x every operator and the
common intrinsics, on divergent operands: the RDNA2 listing, run by the listing simulator,
computes what the host JIT and the IR interpreter compute, bit for bit.

One kernel per type (wave32 and wave64) holds every operation on it, one output slot each
(four words, enough for a 2-vector of 64-bit values): arithmetic, bitwise and shift
operators, comparisons, select, min/max/clamp/mad/abs, sqrt/rcp/floor/frac/saturate, the bit
functions, dot, wave reductions and lane reads, and conversions to every other scalar type.
Operands are read per lane from a buffer of words, so every value is divergent; results go
back as words (``asuint``, ``f32tof16``, the halves of a 64-bit value), so the comparison is
of bits. Integer divisors include 0 (all ones, D3D's rule) and -1 under the most negative
value. The lanes' values stay where the result is defined: no float-to-unsigned conversion
of a negative value (the 64-bit one has no saturating form), no 0/0 and no square root of a
negative number (NaNs whose sign the executors may choose differently).

What no target runs (bit operators on floats) the front end refuses at the operator.
"""

from __future__ import annotations

import numpy as np
import pytest

import shc
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

WAVES = (32, 64)
SLOT_WORDS = 4

# type -> (HLSL to read one from words[i], words[i + 1]; statements storing v at word w)
SCALARS = {
    "bool": ("(words[i] & 1) != 0", "o[w] = v ? 1u : 0u;"),
    "int16_t": ("(int16_t)words[i]", "o[w] = (uint)(uint16_t)v;"),
    "uint16_t": ("(uint16_t)words[i]", "o[w] = (uint)v;"),
    "int": ("(int)words[i]", "o[w] = (uint)v;"),
    "uint": ("words[i]", "o[w] = v;"),
    "int64_t": ("(int64_t)(((uint64_t)words[i + 1] << 32) | words[i])", "o[w] = (uint)v; o[w + 1] = (uint)(v >> 32);"),
    "uint64_t": ("((uint64_t)words[i + 1] << 32) | words[i]", "o[w] = (uint)v; o[w + 1] = (uint)(v >> 32);"),
    "half": ("(half)f16tof32(words[i])", "o[w] = f32tof16((float)v);"),
    "float": ("asfloat(words[i])", "o[w] = asuint(v);"),
    "double": ("asdouble(words[i], words[i + 1])", "uint lo, hi; asuint(v, lo, hi); o[w] = lo; o[w + 1] = hi;"),
}
VECTORS = {"half2": "half", "int16_t2": "int16_t", "float2": "float", "double2": "double", "int64_t2": "int64_t",
           "uint2": "uint"}
INTEGER_BITS = {"int16_t": 16, "uint16_t": 16, "int": 32, "uint": 32, "int64_t": 64, "uint64_t": 64}
INTEGERS = tuple(INTEGER_BITS)
FLOATS = ("half", "float", "double")


def element(type_name: str) -> str:
    return VECTORS.get(type_name, type_name)


def operations(type_name: str) -> dict[str, tuple[str, str]]:
    """name -> (expression over a, b, c, result type) for one type."""
    scalar = element(type_name)
    t = type_name
    ops: dict[str, tuple[str, str]] = {}
    if scalar == "bool":
        for name, text in (("and", "a && b"), ("or", "a || b"), ("xor", "a ^ b"), ("not", "!a"), ("eq", "a == b"),
                           ("ne", "a != b"), ("select", "a ? b : c")):
            ops[name] = (text, "bool")
        for name, text in (("add", "a + b"), ("mul", "a * b"), ("div", "a / b"), ("shl", "a << b"), ("compl", "~a")):
            ops[name] = (text, "int")  # arithmetic promotes bools to int
    else:
        for name, symbol in (("add", "+"), ("sub", "-"), ("mul", "*"), ("div", "/"), ("rem", "%")):
            ops[name] = (f"a {symbol} b", t)
        ops["neg"] = ("-a", t)
        ops["min"], ops["max"] = ("min(a, b)", t), ("max(a, b)", t)
        ops["clamp"] = ("clamp(a, min(b, c), max(b, c))", t)
        ops["mad"] = ("mad(a, b, c)", t)
        ops["abs"] = ("abs(a)", t)
        ops["select"] = ("a < b ? c : a" if t == scalar else "select(a < b, c, a)", t)
        for name, symbol in (("lt", "<"), ("le", "<="), ("gt", ">"), ("ge", ">="), ("eq", "=="), ("ne", "!=")):
            ops[name] = (f"a {symbol} b", "bool" if t == scalar else f"bool{t[-1]}")
    if scalar in INTEGERS:
        for name, symbol in (("and", "&"), ("or", "|"), ("xor", "^"), ("shl", "<<"), ("shr", ">>")):
            ops[name] = (f"a {symbol} b", t)
        ops["not"] = ("~a", t)
        for fn in ("countbits", "firstbithigh", "firstbitlow"):
            ops[fn] = (f"{fn}(a)", "uint" if t == scalar else "uint2")
        ops["reversebits"] = ("reversebits(a)", t)
    if scalar in FLOATS:
        narrowed = t.replace("double", "float")  # DXC computes these double functions in float
        for fn in ("sqrt", "floor", "frac"):
            argument = "abs(a)" if fn == "sqrt" else "a"
            ops[fn] = (f"{fn}({argument})", narrowed)
        ops["rcp"] = ("rcp(b)", t)
        ops["fma"] = (f"({t})fma(a, b, c)", t)  # fma takes doubles only: the others convert
        ops["saturate"] = ("saturate(a)", t)
    if t != scalar:
        ops["dot"] = ("dot(a, b)", scalar)
    if scalar != "bool":  # lane exchanges, word by word for 64-bit values
        for name, text in (("wave_sum", "WaveActiveSum(a)"), ("wave_prefix_sum", "WavePrefixSum(a)"),
                           ("wave_max", "WaveActiveMax(a)"), ("read_lane", "WaveReadLaneAt(a, 3)"),
                           ("quad_swap", "QuadReadAcrossX(a)")):
            ops[name] = (text, t)
    if t == scalar:
        for target in SCALARS:
            if target != t:
                unsigned_target = target.startswith("uint") and scalar in FLOATS
                source = "abs(a)" if unsigned_target else "a"
                ops[f"to_{target}"] = (f"({target}){source}", target)
    return ops


def store(type_name: str, slot: int, value: str) -> str:
    scalar = element(type_name)
    statements = []
    components = [f".{c}" for c in "xy"] if type_name in VECTORS or type_name.startswith("bool") and \
        type_name[-1] == "2" else [""]
    if type_name.startswith("bool") and type_name != "bool":
        scalar = "bool"
    for index, swizzle in enumerate(components):
        text = SCALARS[scalar][1].replace("o[w + 1]", f"o[base + {2 * index + 1}]").replace(
            "o[w]", f"o[base + {2 * index}]")
        statements.append(f"{{ {scalar} v = r{swizzle}; {text} }}")
    return f"{{ uint base = (tid * SLOTS + {slot}) * {SLOT_WORDS}; {type_name} r = {value}; " + " ".join(statements) + " }"


def load(type_name: str, word: int) -> str:
    scalar = element(type_name)
    reader = SCALARS[scalar][0]
    if type_name == scalar:
        return reader.replace("words[i + 1]", f"words[tid * 12 + {word + 1}]").replace("words[i]",
                                                                                    f"words[tid * 12 + {word}]")
    parts = [reader.replace("words[i + 1]", f"words[tid * 12 + {word + k + 1}]").replace(
        "words[i]", f"words[tid * 12 + {word + k}]") for k in (0, 2)]
    return f"{type_name}({parts[0]}, {parts[1]})"


def kernel(type_name: str, wave: int) -> tuple[str, list[str]]:
    ops = operations(type_name)
    lines = [f"{type_name} a = {load(type_name, 0)};", f"{type_name} b = {load(type_name, 4)};",
             f"{type_name} c = {load(type_name, 8)};"]
    for slot, (expression, result) in enumerate(ops.values()):
        lines.append(store(result, slot, expression))
    body = "\n    ".join(lines)
    source = (f"RWStructuredBuffer<uint> words : register(u0);\nRWStructuredBuffer<uint> o : register(u1);\n"
              f"static const uint SLOTS = {len(ops)};\n[numthreads({wave}, 1, 1)]\n"
              f"void main(uint tid : SV_GroupIndex) {{\n    {body}\n}}\n")
    return source, list(ops)


def lane_words(type_name: str, wave: int) -> np.ndarray:
    """Twelve words per lane: a, b, c at words 0, 4, 8 (two components two words apart)."""
    scalar = element(type_name)
    lane = np.arange(wave, dtype=np.int64)
    words = np.zeros((wave, 12), np.uint32)
    for operand in range(3):
        for component in range(2):
            k = operand * 3 + component + 1
            if scalar in FLOATS:
                value = (lane - 11) * (0.375 + 0.25 * k) + 0.125 * k  # nonzero a never meets b == 0
                value = np.where((lane % 5 == 0) & (operand == 1), 0.0, value)
                if scalar == "half":
                    bits = value.astype(np.float16).view(np.uint16).astype(np.uint64)
                elif scalar == "float":
                    bits = value.astype(np.float32).view(np.uint32).astype(np.uint64)
                else:
                    bits = (value * 1.0000001).view(np.uint64)
            elif scalar == "bool":
                bits = ((lane >> (operand + component)) & 1).astype(np.uint64)
            else:
                big = scalar.endswith("64")
                value = (lane - 9) * (0x1234567 * k if big else 13 * k) + k * 3
                if big:
                    value = value * (1 << 20) + lane
                if operand == 1:  # divisors: small ones of both signs, zero, and -1 on lane 5
                    value = np.where(lane % 4 == 1, -(lane % 7) - 1, np.where(lane % 8 == 3, 0, value))
                    value = np.where(lane == 5, -1, value)
                if operand == 0:  # the most negative value on lane 5
                    value = np.where(lane == 5, -(1 << (INTEGER_BITS[scalar] - 1)), value)
                bits = value.astype(np.int64).view(np.uint64)
            words[:, operand * 4 + component * 2] = (bits & 0xFFFFFFFF).astype(np.uint32)
            words[:, operand * 4 + component * 2 + 1] = (bits >> np.uint64(32)).astype(np.uint32)
    return words.reshape(-1)


TYPES = [*SCALARS, *VECTORS]


@pytest.mark.parametrize("wave", WAVES)
@pytest.mark.parametrize("type_name", TYPES)
def test_every_operation_agrees_across_executors(type_name, wave):
    source, names = kernel(type_name, wave)
    words = lane_words(type_name, wave)
    outputs = len(names) * SLOT_WORDS * wave
    module = compile_source(source, f"{type_name}.hlsl", Options(wave_size=wave), Diagnostics())
    reference = run_wave(module, buffers={"words": words, "o": np.zeros(outputs, np.uint32)})
    expected = np.asarray(reference.buffers["o"]).view(np.uint32)

    jit = np.zeros(outputs, np.uint32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), words=words.copy(), o=jit)

    function = select(module)
    allocate(function)
    state = simulate(function, module, buffers={"words": words, "o": np.zeros(outputs, np.uint32)})
    simulated = np.asarray(state.buffers["o"]).view(np.uint32)

    def wrong(result):
        slots = sorted({names[(index // SLOT_WORDS) % len(names)] for index in np.flatnonzero(result != expected)})
        return slots

    assert wrong(jit) == [], "host JIT"
    assert wrong(simulated) == [], "listing simulator"


BIT_OPERATORS = ("<<", ">>", "&", "|", "^", "~")


@pytest.mark.parametrize("type_name", FLOATS + ("float2", "double2"))
@pytest.mark.parametrize("operator", BIT_OPERATORS)
def test_bit_operators_on_floats_are_refused_with_a_position(type_name, operator):
    """What no target runs is refused by the front end, at the operator, before any back end."""
    expression = "~a" if operator == "~" else f"a {operator} b"
    source = (f"RWStructuredBuffer<{type_name}> o : register(u0);\n[numthreads(32, 1, 1)]\n"
              f"void main(uint tid : SV_GroupIndex) {{\n    {type_name} a = o[tid], b = o[tid + 1];\n"
              f"    o[tid] = {expression};\n}}\n")
    with pytest.raises(CompileError) as failure:
        compile_source(source, "bits.hlsl", Options(wave_size=32), Diagnostics())
    (error,) = [item for item in failure.value.diagnostics if item.severity == "error"]
    assert (error.coord.line, error.coord.col) == (5, 14 if operator == "~" else 16)
    if operator == "~":
        assert error.message == f"'~' needs an integer operand, not '{type_name}'"
    else:
        assert error.message == f"'{operator}' needs integer operands, not '{type_name}' and '{type_name}'"
