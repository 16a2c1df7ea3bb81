"""64-bit atomics on the RDNA2 listing: every ``Interlocked*`` on a groupshared ``uint64_t`` /
``int64_t`` (``ds_*_u64``/``_i64``/``_b64`` and their ``_rtn`` forms) and on a 64-bit buffer
element (``buffer_atomic_*_x2``), with and without the original value, runs through the host JIT
and the listing simulator at wave32 and wave64 and must leave the same bytes. The operands carry
across the low dword (an add of 0x80000000 per lane), so a 32-bit form shows."""

from __future__ import annotations

import shutil
import subprocess
import textwrap

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.simulate_group import simulate_dispatch
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_source

# fn -> (the call on destination d, the start value of d); v is each lane's 64-bit operand
CALLS = {
    "add": ("InterlockedAdd(d, v, old)", "0xFFFFFFF0ull"),
    "and": ("InterlockedAnd(d, v | 0xFFFF0000FFFFFFFFull, old)", "~0ull"),
    "or": ("InterlockedOr(d, v << 7, old)", "0"),
    "xor": ("InterlockedXor(d, v, old)", "0x0123456789ABCDEFull"),
    "min": ("InterlockedMin(d, v, old)", "~0ull >> 1"),
    "max": ("InterlockedMax(d, v, old)", "0"),
    "exchange": ("InterlockedExchange(d, v, old)", "5"),
    "cmpxchg": ("InterlockedCompareExchange(d, v - 0x80000000ull, v, old)", "3"),
}
BUFFER_START = {"add": 0xFFFFFFF0, "and": 2**64 - 1, "or": 0, "xor": 0x0123456789ABCDEF, "min": 2**63 - 1, "max": 0,
                "exchange": 5, "cmpxchg": 3}

LDS = """
    RWStructuredBuffer<ELEM> o : register(u0);
    groupshared ELEM d;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupThreadID) {
        if (i == 0) d = (ELEM)(START);
        GroupMemoryBarrierWithGroupSync();
        ELEM v = (ELEM)(i + 1) * 0x80000000ull - (ELEM)(i & 4) * 0x100000000ull + 3;
        ELEM old = 0;
        CALL;
        GroupMemoryBarrierWithGroupSync();
        o[i] = RETURN;
        if (i == 0) o[64] = d;
    }
"""

BUFFER = """
    RWStructuredBuffer<ELEM> o : register(u0);
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupThreadID) {
        ELEM v = (ELEM)(i + 1) * 0x80000000ull - (ELEM)(i & 4) * 0x100000000ull + 3;
        ELEM old = 0;
        CALL;
        o[i] = RETURN;
    }
"""


def _source(template: str, fn: str, kind: str, returns: bool) -> str:
    call, start = CALLS[fn]
    if template is BUFFER:
        call = call.replace("(d,", "(o[64],")
    if not returns and fn not in ("exchange", "cmpxchg"):
        call = call.replace(", old)", ")")
    text = textwrap.dedent(template).replace("CALL", call).replace("START", start)
    return text.replace("RETURN", "old" if returns else "v").replace("ELEM", kind)


def _listing(source: str, wave: int):
    diagnostics = Diagnostics()
    module = compile_source(source, "atomic64.hlsl", Options(wave_size=wave), diagnostics)
    return module, render_listing(module, sources=diagnostics.sources), diagnostics.sources


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("returns", [False, True], ids=["no_return", "returns"])
@pytest.mark.parametrize("kind", ["uint64_t", "int64_t"])
@pytest.mark.parametrize("memory", ["lds", "buffer"])
@pytest.mark.parametrize("fn", sorted(CALLS))
def test_64_bit_atomic_listing_computes_what_the_jit_computes(fn, memory, kind, returns, wave):
    source = _source(LDS if memory == "lds" else BUFFER, fn, kind, returns)
    dtype = np.uint64 if kind == "uint64_t" else np.int64
    start = np.zeros(65, np.uint64)
    if memory == "buffer":  # the buffer's element starts where the groupshared one is set to
        start[64] = np.uint64(BUFFER_START[fn])
    start = start.view(dtype)
    jit = start.copy()
    shc.compile(source, wave_size=wave).dispatch((1, 1, 1), o=jit)
    module, listing, sources = _listing(source, wave)
    state = simulate_dispatch(listing.function, module, (1, 1, 1), {"o": start.copy()}, sources=sources)
    assert jit[64] != start[64]
    assert state.difference("o", jit.tobytes(), dtype) is None, listing.text


@pytest.mark.parametrize("kind", ["uint64_t", "int64_t"])
@pytest.mark.parametrize("fn", sorted(CALLS))
def test_64_bit_lds_atomics_are_the_64_bit_forms(fn, kind):
    _, listing, _ = _listing(_source(LDS, fn, kind, True), 64)
    atomics = [line.split()[0] for line in listing.text.splitlines() if line.strip().startswith("ds_")
               and not line.strip().startswith(("ds_read", "ds_write"))]
    assert atomics and all(name.endswith(("_u64", "_i64", "_b64")) for name in atomics), atomics


# llvm-mc (Debian's llvm package) is a check the test command must not depend on.
@pytest.mark.skipif(shutil.which("llvm-mc") is None, reason="llvm-mc is not installed")
@pytest.mark.parametrize("kind", ["uint64_t", "int64_t"])
@pytest.mark.parametrize("fn", sorted(CALLS))
def test_64_bit_lds_atomics_assemble(fn, kind):
    _, listing, _ = _listing(_source(LDS, fn, kind, True), 64)
    code = "\n".join(line for line in listing.text.splitlines() if not line.startswith(";"))
    run = subprocess.run(["llvm-mc", "-arch=amdgcn", "-mcpu=gfx1030", "-mattr=+wavefrontsize64"],
                         input=code, capture_output=True, text=True, timeout=60, check=False)
    assert run.returncode == 0, run.stderr
