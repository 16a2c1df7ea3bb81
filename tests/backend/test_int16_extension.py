"""Signed 16-bit operands on the RDNA2 listing: a 16-bit value's upper register bits are undefined
(``buffer_load_ushort`` zero-extends, a truncation leaves the old word), so every signed operation
reads it through a 16-bit form or sign-extends it first. Each operation runs on values whose
upper bits are zero and on values whose upper bits are garbage, through the host JIT and the
listing simulator, and both must store the same words."""

from __future__ import annotations

import textwrap

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.simulate_group import simulate_dispatch
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_source

OPERATIONS = {
    "abs": "abs(x)", "neg": "-x", "min": "min(x, y)", "max": "max(x, y)", "clamp": "clamp(x, (int16_t)-9, y)",
    "less": "x < y ? 1 : 2", "greater_equal": "x >= (int16_t)-3 ? 1 : 2", "divide": "y != 0 ? x / y : 0",
    "remainder": "y != 0 ? x % y : 0", "shift_right": "x >> 3", "sign": "sign(x)", "to_int": "(int)x",
    "to_float": "asint((float)x)", "to_int64": "(int)((int64_t)x >> 8)", "to_half": "asint(f16tof32(asuint16((half)x)))",
    "mad": "mad(x, y, (int16_t)3)",
    "unsigned_sign": "sign((uint16_t)x) + 2 * sign((uint)(int)x)",  # 0 or 1, also for 0x80000000 and up
}

SOURCE = """
    StructuredBuffer<int16_t> a : register(t0);
    StructuredBuffer<uint> w : register(t1);
    RWStructuredBuffer<int> o : register(u0);
    [numthreads(64, 1, 1)]
    void main(uint i : SV_DispatchThreadID) {
        int16_t x = WIDE ? (int16_t)w[i] : a[i];
        int16_t y = WIDE ? (int16_t)w[63 - i] : a[63 - i];
        o[i] = (int)(EXPRESSION);
    }
"""


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("wide", [False, True], ids=["loaded", "truncated"])
@pytest.mark.parametrize("operation", sorted(OPERATIONS))
def test_signed_16_bit_operation_reads_its_operand_sign_extended(operation, wide, wave):
    source = textwrap.dedent(SOURCE).replace("WIDE", "true" if wide else "false")
    source = source.replace("EXPRESSION", OPERATIONS[operation])
    values = np.array([-5, 5, 20, -32767, -32768, 32767, -1, 0] * 8, np.int16) + np.repeat(np.arange(8, dtype=np.int16), 8)
    words = values.view(np.uint16).astype(np.uint32) | (np.arange(64, dtype=np.uint32) * 0x10001 << 16)
    jit = np.zeros(64, np.int32)
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), a=values, w=words, o=jit)
    diagnostics = Diagnostics()
    module = compile_source(source, "int16.hlsl", Options(wave_size=wave), diagnostics)
    listing = render_listing(module, sources=diagnostics.sources)
    state = simulate_dispatch(listing.function, module, (1, 1, 1), {"a": values, "w": words, "o": np.zeros(64, np.int32)},
                              sources=diagnostics.sources)
    assert len(np.unique(jit)) > 1
    assert state.difference("o", jit.tobytes(), np.int32) is None, listing.text
