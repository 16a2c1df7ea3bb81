"""Fuzzing the whole front end: no input may make shc fail with anything but diagnostics.

Every sample is mutated the ways people and tools break sources (a token deleted,
duplicated, swapped or replaced, an identifier renamed, the file cut short, random bytes
dropped in) and run through preprocessing, parsing and checking in-process. The only
exception allowed out is ``CompileError``, and every diagnostic must carry a position.
The stdlib headers are mutated too (through ``-I``), and hypothesis strings random HLSL
tokens together. Seeds and counts are fixed, so a run is reproducible and bounded
(about 30 s on two cores); a failure prints the mutation so it can be replayed.
"""

import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.pipeline import Options, check_source

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.hlsl"))
HEADERS = sorted((ROOT / "stdlib").glob("*.h"))
MUTATIONS_PER_SAMPLE = 24
MUTATIONS_PER_HEADER = 8
SEED = 20240611

TOKEN = re.compile(
    r"[A-Za-z_]\w*"
    r"|0[xX][0-9a-fA-F]+[uUlL]*"
    r"|\d+\.?\d*(?:[eE][-+]?\d+)?[fFhHuUlL]*"
    r"|\.\d+(?:[eE][-+]?\d+)?[fFhH]?"
    r"|<<=|>>=|&&|\|\||[-+*/%&|^<>=!]=|\+\+|--|<<|>>|::|##"
    r"|\S"
)
IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
NOISE = [
    "{", "}", "(", ")", "[", "]", ";", ",", ".", "#", "#define X", "#if", "#endif", "#include",
    "\"", "'", "\\", "/*", "*/", "//", "\n#", "?", ":", "::", "<", ">", "struct", "void", "return",
    "[numthreads(1,1,1)]", "groupshared", "cbuffer", "float4", "RWTexture2D<", "0x", "1e", "1.0h",
    "\x00", "\x7f", "\t", "\r", "\u00e9", "\u2028", "\ufeff", "\U0001F600",
]


def tokens(text):
    return [(m.start(), m.end()) for m in TOKEN.finditer(text)]


def replace(text, spans, rng, make):
    index = rng.randrange(len(spans))
    start, end = spans[index]
    return text[:start] + make(index, text[start:end]) + text[end:]


def mutate(text, rng):
    """One random mutation of ``text`` and its description."""
    spans = tokens(text)
    kind = rng.choice(["delete", "duplicate", "swap", "swap-far", "replace", "rename",
                       "truncate", "bytes", "noise", "delete-run"])
    if kind == "delete":
        return kind, replace(text, spans, rng, lambda i, tok: "")
    if kind == "duplicate":
        return kind, replace(text, spans, rng, lambda i, tok: tok + " " + tok)
    if kind == "replace":
        other = spans[rng.randrange(len(spans))]
        return kind, replace(text, spans, rng, lambda i, tok: text[other[0]:other[1]])
    if kind in ("swap", "swap-far"):
        first = rng.randrange(len(spans) - 1)
        second = first + 1 if kind == "swap" else rng.randrange(first + 1, len(spans))
        (a0, a1), (b0, b1) = spans[first], spans[second]
        return kind, text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
    if kind == "rename":
        names = sorted(set(IDENTIFIER.findall(text)))
        old = rng.choice(names)
        new = rng.choice([rng.choice(names), "x" + str(rng.randrange(100)), "float4", "main", "_"])
        return f"rename {old}->{new}", re.sub(rf"\b{re.escape(old)}\b", new, text)
    if kind == "truncate":
        cut = rng.randrange(len(text))
        return f"truncate at {cut}", text[:cut]
    if kind == "bytes":
        cut = rng.randrange(len(text))
        junk = "".join(chr(rng.choice([rng.randrange(0, 128), rng.randrange(128, 0x3000)]))
                       for _ in range(rng.randrange(1, 8)))
        return f"bytes at {cut}", text[:cut] + junk + text[cut:]
    if kind == "noise":
        cut = rng.choice(spans)[rng.randrange(2)]
        return f"noise at {cut}", text[:cut] + rng.choice(NOISE) + text[cut:]
    start = rng.randrange(len(spans))
    stop = min(len(spans) - 1, start + rng.randrange(2, 12))
    return "delete-run", text[:spans[start][0]] + text[spans[stop][1]:]


def run_front_end(text, filename, include_dirs=(), defines=None):
    """Check ``text``; fail on anything but CompileError, or on a diagnostic without a position."""
    diagnostics = Diagnostics()
    options = Options(defines=dict(defines or {}), include_dirs=list(include_dirs))
    try:
        check_source(text, filename, options, diagnostics)
    except CompileError:
        pass
    for item in diagnostics.items:
        coord = item.coord
        assert isinstance(coord.file, str) and coord.file, item
        assert isinstance(coord.line, int) and isinstance(coord.col, int), item
        if coord.line == 0:  # only whole-file problems have no line
            assert item.message.startswith(("entry point", "the program nests")), item
        else:
            assert coord.line >= 1 and coord.col >= 1, item
    diagnostics.render()  # printing the source lines must work too
    return diagnostics


def replay_hint(name, description, text):
    return f"{name}: {description}\n--- mutated source (first 3000 characters) ---\n{text[:3000]}"


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_mutated_samples(sample):
    original = sample.read_text()
    rng = random.Random(f"{SEED}:{sample.name}")
    for _ in range(MUTATIONS_PER_SAMPLE):
        description, text = mutate(original, rng)
        try:
            run_front_end(text, str(sample))
        except Exception as failure:  # report the input, then fail with the original error
            raise AssertionError(replay_hint(sample.name, description, text)) from failure


@pytest.mark.parametrize("header", HEADERS, ids=lambda path: path.name)
def test_mutated_stdlib_headers(header, tmp_path):
    """Break a stdlib header and check the SPD sample against it (an -I dir wins over stdlib)."""
    spd = ROOT / "samples" / "spd.hlsl"
    rng = random.Random(f"{SEED}:{header.name}")
    for number in range(MUTATIONS_PER_HEADER):
        description, text = mutate(header.read_text(), rng)
        directory = tmp_path / str(number)
        directory.mkdir()
        (directory / header.name).write_text(text)
        try:
            run_front_end(spd.read_text(), str(spd), include_dirs=[directory])
        except Exception as failure:
            raise AssertionError(replay_hint(header.name, description, text)) from failure


HLSL_TOKENS = [
    "float", "float2", "float4", "int", "uint3", "half", "bool", "void", "struct", "S", "cbuffer",
    "RWStructuredBuffer<float>", "Texture2D<float4>", "groupshared", "static", "const", "in", "out",
    "inout", "return", "if", "else", "for", "while", "do", "switch", "case", "default", "break",
    "continue", "discard", "x", "y", "main", "id", "tex", "buf", "f", "a", "b", ".x", ".xyz", ".q",
    "_m00", "0", "1", "2.5", "1u", "0.5h", "true", "(", ")", "{", "}", "[", "]", ";", ",", "=", "+=",
    "+", "-", "*", "/", "%", "<<", "&", "|", "^", "!", "~", "&&", "||", "<", ">", "==", "?", ":", "++",
    "--", ".", "[numthreads(8,8,1)]", "[WaveSize(32)]", ": SV_DispatchThreadID", ": SV_GroupIndex",
    "register(u0)", "dot", "max", "WaveActiveSum", "InterlockedAdd", "GroupMemoryBarrierWithGroupSync",
    "Load", "Store", "SampleLevel", "GetDimensions", "#define", "#if", "#endif", "\n",
]
PRELUDE = ("RWStructuredBuffer<float> buf; Texture2D<float4> tex; struct S { float a; float2 b; };\n"
           "[numthreads(8, 8, 1)] void main(uint3 id : SV_DispatchThreadID) {\n")


@settings(max_examples=300, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(HLSL_TOKENS), min_size=1, max_size=40), st.booleans())
def test_random_token_soup(words, inside_a_kernel):
    body = " ".join(words)
    text = PRELUDE + body + "\n}\n" if inside_a_kernel else body + "\n"
    run_front_end(text, "soup.hlsl")


@settings(max_examples=100, derandomize=True, deadline=None, database=None)
@given(st.text(max_size=200))
def test_random_text(text):
    run_front_end(text, "random.hlsl")


# Well-formed but arbitrarily typed expressions: they parse, so they exercise the checker.
EXPRESSION_PRELUDE = """struct S { float a; float2 b[2]; };
RWStructuredBuffer<float4> rw; StructuredBuffer<S> sb; Texture2D<float4> tex; SamplerState smp;
RWByteAddressBuffer raw; groupshared uint gs[4]; cbuffer C { float4x4 m; uint n; };
float f(float x) { return x; } void g(out float x) { x = 1; } int h(int a, int b = 2) { return a; }
[numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {
int i = 1; uint u = 2; float fl = 3; half hf = 4; bool b = true; float2 v2 = 1; float4 v4 = 3;
S s; float arr[3];
"""
LEAVES = st.sampled_from(["i", "u", "fl", "hf", "b", "v2", "v4", "m", "s", "arr", "rw", "sb", "tex", "smp",
                          "raw", "gs", "n", "id", "0", "1", "-1", "1.5", "2u", "0.5h", "true", "1e40"])
CALLEES = st.sampled_from(["f", "g", "h", "dot", "max", "sqrt", "mul", "lerp", "asuint", "WaveActiveSum",
                           "InterlockedAdd", "all", "GroupMemoryBarrierWithGroupSync", "undefined"])
MEMBERS = st.sampled_from(["x", "xy", "xyzw", "xx", "a", "b", "_m00", "_11_22", "q", "Load", "Store",
                           "SampleLevel", "GetDimensions"])
TYPE_NAMES = st.sampled_from(["float", "float2", "int3", "uint", "half4", "bool2", "float2x2", "S"])
OPERATORS = st.sampled_from(["+", "-", "*", "/", "%", "<<", "&", "|", "&&", "<", "==", ",", "=", "+=", "<<="])


def _compound(inner):
    arguments = st.lists(inner, max_size=3).map(", ".join)
    return st.one_of(
        st.tuples(st.sampled_from(["-", "!", "~", "++", "--"]), inner).map(lambda t: f"({t[0]}{t[1]})"),
        st.tuples(inner, OPERATORS, inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(CALLEES, arguments).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, MEMBERS).map(lambda t: f"{t[0]}.{t[1]}"),
        st.tuples(inner, inner).map(lambda t: f"{t[0]}[{t[1]}]"),
        st.tuples(TYPE_NAMES, inner).map(lambda t: f"(({t[0]}){t[1]})"),
        st.tuples(TYPE_NAMES, arguments).map(lambda t: f"{t[0]}({t[1]})"),
        st.tuples(inner, MEMBERS, arguments).map(lambda t: f"{t[0]}.{t[1]}({t[2]})"),
        st.tuples(inner, inner, inner).map(lambda t: f"({t[0]} ? {t[1]} : {t[2]})"),
    )


@settings(max_examples=200, derandomize=True, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.recursive(LEAVES, _compound, max_leaves=12), min_size=1, max_size=3))
def test_random_typed_expressions(expressions):
    text = EXPRESSION_PRELUDE + "".join(f"{expr};\n" for expr in expressions) + "}\n"
    run_front_end(text, "expressions.hlsl")


# Inputs that once escaped as Python exceptions, kept as regression cases.
REGRESSIONS = [
    "cbuffer C { ; };\n[numthreads(1, 1, 1)] void main() { }\n",  # parser: error token in a member list
    "cbuffer scanConstants : register(b0) { ;;",
    "[numthreads(1, 1, 1)] void main() { switch (1) { case x: default: break; } }\n",
    "[numthreads(1, 1, 1)] void main() { float a[2] = {tex, 1}; }\nTexture2D tex;\n",
    "struct S { float a; };\n[numthreads(1, 1, 1)] void main() { S s = {Texture2D, 1}; }\n",
    "void f(int a = b);\n[numthreads(1, 1, 1)] void main() { f(); }\n",
]


@pytest.mark.parametrize("text", REGRESSIONS)
def test_regressions(text):
    run_front_end(text, "regression.hlsl")
