"""Semantic analysis, the entry point: numthreads, WaveSize, compute inputs, the
groupshared limit, recursion, and the program facts later passes read.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

import pytest

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.frontend import ast
from shc.compiler.pipeline import Options, check_source

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import (  # noqa: E402
    FILE, error, errors, every_expression_is_typed, kernel, nodes, run, source_of, valid, warnings,
)


# ------------------------------------------------------------------ the entry point


def test_program_facts():
    program = valid(kernel("outBuf[id.x] = 1;", before="""
        RWStructuredBuffer<float> outBuf;
        groupshared float scratch[64];
        groupshared uint counter;
        cbuffer C { float k; };
    """))
    assert program.entry.name == "main"
    assert program.numthreads == (8, 8, 1)
    assert program.wave_size is None
    assert program.groupshared_bytes == 64 * 4 + 4
    assert [d.name for d in program.resources] == ["outBuf"]
    assert [d.name for d in program.groupshared] == ["scratch", "counter"]


def test_missing_entry_point_names_the_file():
    program, items = run("void helper() { }\n")
    assert program is None
    assert [(d.coord.file, d.coord.line, d.message) for d in items] == [
        (FILE, 0, "entry point 'main' not found"),
    ]
    assert items[0].format() == "t.hlsl: error: entry point 'main' not found"


def test_another_entry_point_with_E():
    text = "[numthreads(4, 1, 1)] void other() { }\n"
    assert valid(text, entry="other").numthreads == (4, 1, 1)
    assert errors(text) == [(0, 0, "entry point 'main' not found")]


def test_numthreads_is_required():
    error("void main() { }\n", 1, 6, "compute entry point 'main' needs a [numthreads(x, y, z)] attribute")


@pytest.mark.parametrize("args, message", [
    ("1025, 1, 1", "numthreads x is 1025; it must be from 1 to 1024"),
    ("1, 1025, 1", "numthreads y is 1025; it must be from 1 to 1024"),
    ("1, 1, 65", "numthreads z is 65; it must be from 1 to 64"),
    ("0, 1, 1", "numthreads x is 0; it must be from 1 to 1024"),
    ("64, 4, 8", "numthreads(64, 4, 8) is 2048 threads; a group has at most 1024"),
    ("32, 32, 2", "numthreads(32, 32, 2) is 2048 threads; a group has at most 1024"),
    ("8, 8", "numthreads needs three integer constants: [numthreads(x, y, z)]"),
    ("8, n, 1", "numthreads needs three integer constants: [numthreads(x, y, z)]"),
])
def test_numthreads_limits(args, message):
    error(f"static uint n = 2;\n[numthreads({args})]\nvoid main() {{ }}\n", 2, 2, message)


@pytest.mark.parametrize("args", ["1024, 1, 1", "1, 1024, 1", "16, 1, 64", "32, 32, 1", "X, Y * 2, 1"])
def test_numthreads_at_the_limits_is_valid(args):
    valid(f"static const uint X = 16;\n#define Y 8\n[numthreads({args})]\nvoid main() {{ }}\n")


@pytest.mark.parametrize("size", [32, 64])
def test_wave_size_32_and_64(size):
    program = valid(f"[numthreads(64, 1, 1)]\n[WaveSize({size})]\nvoid main() {{ }}\n")
    assert program.wave_size == size


@pytest.mark.parametrize("args", ["16", "128", "48", "32, 64"])
def test_other_wave_sizes_are_errors(args):
    error(f"[numthreads(64, 1, 1)]\n[WaveSize({args})]\nvoid main() {{ }}\n", 2, 2,
          f"WaveSize({args}) is not supported: RDNA2 runs waves of 32 or 64 lanes")


def test_the_entry_point_returns_void():
    error("[numthreads(1, 1, 1)]\nint main() { return 0; }\n", 2, 5,
          "compute entry point 'main' must return void, not 'int'")


def test_the_four_compute_inputs_bind():
    program = valid(source_of("""
        [numthreads(8, 8, 1)]
        void main(uint3 g : SV_GroupID, uint3 t : SV_GroupThreadID, uint3 d : SV_DispatchThreadID,
                  uint i : SV_GroupIndex, uint2 xy : sv_dispatchthreadid, int x : SV_GroupThreadID)
        { }
    """))
    assert [p.semantic for p in program.entry.params][:4] == [
        "SV_GroupID", "SV_GroupThreadID", "SV_DispatchThreadID", "SV_GroupIndex",
    ]


def test_entry_parameter_errors():
    text = source_of("""
        [numthreads(8, 8, 1)]
        void main(float4 p : SV_Position, uint q, out uint3 g : SV_GroupID,
                  uint2 i : SV_GroupIndex, float3 d : SV_DispatchThreadID)
        { }
    """)
    assert errors(text) == [
        (2, 18, "'SV_Position' is not a compute shader input; use SV_GroupID, SV_GroupThreadID, "
                "SV_DispatchThreadID or SV_GroupIndex"),
        (2, 40, "entry point parameter 'q' needs a semantic (SV_GroupID, SV_GroupThreadID, "
                "SV_DispatchThreadID or SV_GroupIndex)"),
        (2, 53, "compute shader input 'g' cannot be 'out' or 'inout'"),
        (3, 17, "'SV_GroupIndex' is 'uint'; it cannot bind to 'uint2'"),
        (3, 43, "'SV_DispatchThreadID' is 'uint3'; it cannot bind to 'float3'"),
    ]


def test_groupshared_limit():
    at_limit = "groupshared float a[4096];\ngroupshared uint b[4096];\n[numthreads(1, 1, 1)] void main() { }\n"
    assert valid(at_limit).groupshared_bytes == 32 * 1024
    over = "groupshared float a[4096];\ngroupshared uint b[4096];\ngroupshared half c;\n" \
           "groupshared float4 d[2];\n[numthreads(1, 1, 1)] void main() { }\n"
    error(over, 3, 18, "groupshared memory is 32802 bytes in total; the limit is 32768 (32 KiB)")


def test_direct_recursion():
    text = source_of("""
        uint fact(uint n) { return n <= 1 ? 1 : n * fact(n - 1); }
        [numthreads(1, 1, 1)] void main() { fact(3); }
    """)
    error(text, 1, 45, "recursive call to 'fact' ('fact' calls itself): HLSL does not allow recursion")


def test_mutual_recursion_through_a_prototype():
    text = source_of("""
        void pong(uint n);
        void ping(uint n) { if (n > 0) pong(n - 1); }
        void pong(uint n) { if (n > 0) ping(n - 1); }
        [numthreads(1, 1, 1)] void main() { ping(3); }
    """)
    error(text, 3, 32, "recursive call to 'ping' (ping -> pong -> ping): HLSL does not allow recursion")


def test_entry_point_defined_twice():
    text = source_of("""
        [numthreads(1, 1, 1)] void main() { }
        [numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) { }
    """)
    error(text, 2, 28, "entry point 'main' is overloaded; it must be defined once")


def test_unknown_attributes_warn():
    text = "[numthreads(1, 1, 1)]\n[fancy]\nvoid main() { [wobble] for (;;) { break; } }\n"
    assert warnings(text) == [
        (3, 16, "unknown attribute 'wobble' ignored"),
        (2, 2, "unknown attribute 'fancy' ignored"),
    ]


def test_every_expression_in_a_sample_is_typed():
    import pathlib

    sample = pathlib.Path(__file__).resolve().parents[2] / "samples" / "prefix_sum.hlsl"
    diagnostics = Diagnostics()
    program = check_source(sample.read_text(), str(sample), Options(), diagnostics)
    every_expression_is_typed(program)
    for identifier in nodes(program.unit, ast.Identifier):
        assert identifier.decl is not None, identifier.coord
    for call in nodes(program.unit, (ast.Call, ast.MethodCall)):
        assert call.decl is not None, call.coord
