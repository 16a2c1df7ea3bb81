"""Divergent ``if`` shapes on the RDNA2 listing: an empty arm (then or else, a bare edge or a block
that only branches), a nested or chained ``if``, one inside a loop, and arms that leave with
``break``, ``continue`` or ``return``. Each kernel runs through the host JIT and through its listing
(``simulate_dispatch``), at wave32 and wave64, and both must leave the output bit for bit equal.
The arms store to the output themselves, so an arm run for the wrong lanes shows up as a wrong
or missing element, not only as a wrong joined value."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.simulate_group import simulate_dispatch
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_source

HEADER = """
    StructuredBuffer<uint> a : register(t0);
    RWStructuredBuffer<uint> o : register(u0);
"""
ENTRY = """
    [numthreads(64, 1, 1)]
    void main(uint i : SV_DispatchThreadID) {
        uint x = a[i];
        uint r = 7;
"""

# each body reads x (lane-varying) and leaves r; o[64 + i] and up are free for the arms' stores
SHAPES = {
    "then_only": "if (x > 3) { r = 1; o[64 + i] = 5; }",
    "else_only": "if (x > 3) {} else { r = 2; o[64 + i] = 6; }",
    "else_only_no_join_value": "if (x > 3) {} else { o[64 + i] = 6; }",
    "negated_else_only": "if (!(x > 3)) {} else { r = x; o[64 + i] = x; }",
    "both_arms": "if (x > 3) { r = 1; o[64 + i] = 5; } else { r = 2; o[128 + i] = 6; }",
    "else_if_chain_empty_arms": ("if (x < 2) {} else if (x < 9) { r = 3; o[64 + i] = 3; } "
                                 "else if (x < 20) {} else { r = 4; o[128 + i] = 4; }"),
    "nested_empty_inner_then": ("if (x & 1) { if (x > 10) {} else { r = 5; o[64 + i] = 5; } } "
                                "else { if (x > 10) { r = 6; } else {} o[128 + i] = r; }"),
    "nested_empty_outer_then": "if (x > 30) {} else { if (x & 2) {} else { r = 8; } o[64 + i] = r + 1; }",
    "or_short_circuit": "bool q = (x > 3) || (o[64 + i] = 2) != 0; r = q ? 1 : 0;",
    "and_short_circuit": "bool q = (x > 3) && (o[64 + i] = 3) != 0; r = q ? 1 : 0;",
    "loop_else_only": "for (uint k = 0; k < 4; ++k) { if ((x + k) & 1) {} else { r += k + 1; o[64 + i] += x; } }",
    "loop_or_short_circuit": "for (uint k = 0; k < 4; ++k) { if ((x > 8 * k) || (o[64 + i] += k + 1) > 3) r += 1; }",
    "loop_else_breaks": "for (uint k = 0; k < 8; ++k) { if (x > k) {} else { r = k; break; } r += 1; }",
    "loop_then_continues": ("for (uint k = 0; k < 8; ++k) { if ((x ^ k) & 1) { continue; } else {} "
                            "r += k; }"),
    "loop_else_continues": "for (uint k = 0; k < 8; ++k) { if ((x ^ k) & 2) {} else { continue; } r += k; }",
    "loop_then_only_breaks": "for (uint k = 0; k < 8; ++k) { r += k; if (r > x) break; }",
    "while_else_only": "uint k = x; while (k != 0) { if (k & 1) {} else { r += k; } k >>= 1; }",
    "else_returns": "if (x > 3) {} else { o[i] = 100 + x; return; } r = x * 2;",
    "then_returns_else_empty": "if (x > 3) { o[i] = 200; return; } else {} r = x + 1;",
    "loop_returns_from_empty_then": ("for (uint k = 0; k < 6; ++k) { if (x != k) {} else { o[i] = 300 + k; "
                                     "return; } } r = 9;"),
    "switch_empty_case": "switch (x % 4) { case 0: break; case 1: r = 11; break; default: break; }",
}


def _source(body: str) -> str:
    return textwrap.dedent(HEADER) + textwrap.dedent(ENTRY) + "    " + body + "\n    o[i] = r;\n}\n"


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_divergent_shape_runs_its_arms_for_the_right_lanes(shape, wave):
    source = _source(SHAPES[shape])
    data = np.array([(lane * 7 + 3) % 41 for lane in range(64)], np.uint32)
    jit = np.zeros(256, np.uint32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), a=data, o=jit)
    diagnostics = Diagnostics()
    module = compile_source(source, "shape.hlsl", Options(wave_size=wave), diagnostics)
    listing = render_listing(module, sources=diagnostics.sources)
    state = simulate_dispatch(listing.function, module, (1, 1, 1), {"a": data, "o": np.zeros(256, np.uint32)},
                              sources=diagnostics.sources)
    assert len(np.unique(jit)) > 2  # the lanes do diverge
    assert state.difference("o", jit.tobytes(), np.uint32) is None, f"{shape} at wave{wave}"
