"""Arrays inside buffer elements, groupshared structs and cbuffer structs, indexed at run time.

``s[i].counter[j]``, ``s[i].inner[e].pair[c].y``, ``s[i].grid[a][b]``: loads, stores and every
Interlocked* through a dynamic index inside a structured-buffer element, on the IR
interpreter, the host JIT and the RDNA2 listing simulator (one wave, wave32 and wave64), with
the expected buffers computed here from what the HLSL means: a NumPy model of the element
layout (tight, 4-byte words) run lane after lane in lane order. The same forms on groupshared
arrays of structs of arrays and on a cbuffer array of structs (16-byte rows) follow, and each
kernel must also pass LLVM's AMDGPU back end (the amdgcn cross-check).
"""

from __future__ import annotations

import os
import struct
import sys
import textwrap

import numpy as np
import pytest

from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source

pytest.importorskip("llvmlite.binding")

from shc.compiler.backend.amdgcn.check import cross_check  # noqa: E402
from shc.compiler.backend.host.module import build_host_module  # noqa: E402
from shc.compiler.machine.abi import Status  # noqa: E402

sys.path.insert(0, os.path.dirname(__file__))
from host_helpers import Group  # noqa: E402

HEADER = """
struct Inner { uint2 pair[2]; uint arr[3]; };
struct S { uint head; uint counter[6]; Inner inner[2]; uint grid[2][3]; uint tail; };
struct Row { float f; uint a[3]; };
RWStructuredBuffer<uint> o : register(u0);
RWStructuredBuffer<S> s : register(u1);
StructuredBuffer<S> r : register(t0);
cbuffer C : register(b0) { uint idx; uint count; Row rows[2]; };
"""
ELEMENTS = 8
WORDS = 28  # the tight size of S in 4-byte words
IDX, COUNT = 5, 3
MASK = 0xFFFFFFFF


# -- the layout, by hand: word offsets inside one S ----------------------------------------
def counter(j):
    return 1 + j


def pair(e, k, c):
    return 7 + 7 * e + 2 * k + c


def arr(e, m):
    return 7 + 7 * e + 4 + m


def grid(a, b):
    return 21 + 3 * a + b


def cbuffer_bytes() -> bytes:
    """idx, count, then rows[i] at 16 + 64 i: f, and a[k] one 16-byte row apart from byte 16."""
    data = bytearray(16 + 2 * 64)
    struct.pack_into("<II", data, 0, IDX, COUNT)
    for i in range(2):
        struct.pack_into("<f", data, 16 + 64 * i, 0.5 + i)
        for k in range(3):
            struct.pack_into("<I", data, 16 + 64 * i + 16 + 16 * k, 100 * (i + 1) + k)
    return bytes(data)


def row_a(i, k):
    return 100 * (i + 1) + k


def initial() -> np.ndarray:
    return (np.arange(ELEMENTS * WORDS, dtype=np.uint32) * 3 + 1).reshape(ELEMENTS, WORDS)


def source(body: str, wave: int, shared: str = "") -> str:
    return (HEADER + shared + f"\n[numthreads({wave}, 1, 1)]\nvoid main(uint tid : SV_GroupIndex) {{\n"
            + textwrap.indent(textwrap.dedent(body), "    ") + "\n}\n")


def run_everywhere(text: str, wave: int) -> list[dict]:
    """``{"o", "s"}`` after the interpreter, the host JIT and the listing simulator."""
    module = compile_source(text, "arrays.hlsl", Options(wave_size=wave, verify=True), Diagnostics())
    cbuffer = cbuffer_bytes()

    def fresh():
        return {"o": np.zeros(wave, np.uint32), "s": initial(), "r": initial()}

    reference = run_wave(module, buffers=fresh(), cbuffers={"C": cbuffer})
    results = [{name: np.asarray(reference.buffers[name]).view(np.uint32).reshape(-1) for name in ("o", "s")}]

    resources = fresh()
    group = Group(build_host_module(module))
    assert group.run({**resources, "C": cbuffer}) == Status.DONE
    results.append({name: resources[name].reshape(-1) for name in ("o", "s")})

    function = select(module)
    allocate(function)
    listing = simulate(function, module, buffers=fresh(), cbuffers={"C": cbuffer})
    results.append({name: np.asarray(listing.buffers[name]).view(np.uint32).reshape(-1) for name in ("o", "s")})

    checked = cross_check(module)
    assert checked.ok, f"{checked.message}\n{checked.stderr}"
    return results


def check(text: str, wave: int, expected_o: np.ndarray, expected_s: np.ndarray) -> None:
    for executor, result in zip(("interpreter", "host JIT", "RDNA2 simulator"), run_everywhere(text, wave)):
        np.testing.assert_array_equal(result["o"], expected_o.astype(np.uint32), err_msg=f"{executor}: o")
        np.testing.assert_array_equal(result["s"], expected_s.reshape(-1).astype(np.uint32),
                                      err_msg=f"{executor}: s")


# -- loads -----------------------------------------------------------------------------------
LOADS = """
uint i = tid % 4; uint j = (tid / 4) % 6; uint k = tid % 3; uint e = (tid >> 1) & 1; uint c = tid & 1;
uint sum = r[i].counter[j] + 3 * r[i].inner[e].arr[k] + 5 * r[i].inner[e].pair[c].y;
sum += 7 * r[i + 1].grid[e][k] + 11 * s[idx].inner[c].pair[e][c] + 13 * rows[c].a[k];
o[tid] = sum;
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_loads_at_dynamic_indexes_inside_elements(wave):
    data = initial()
    out = np.zeros(wave, np.int64)
    for tid in range(wave):
        i, j, k, e, c = tid % 4, (tid // 4) % 6, tid % 3, (tid >> 1) & 1, tid & 1
        total = int(data[i, counter(j)]) + 3 * int(data[i, arr(e, k)]) + 5 * int(data[i, pair(e, c, 1)])
        total += 7 * int(data[i + 1, grid(e, k)]) + 11 * int(data[IDX, pair(c, e, c)]) + 13 * row_a(c, k)
        out[tid] = total & MASK
    check(source(LOADS, wave), wave, out, data)


# -- stores ----------------------------------------------------------------------------------
STORES = """
uint i = tid / 4; uint q = tid % 4;
s[i].counter[q + 1] = tid + 1;
s[i].inner[q & 1].arr[q % 3] = tid * 5;
s[i].inner[q >> 1].pair[q & 1].y = tid * 7;
s[i].grid[q & 1][q >> 1] = tid * 9;
s[i].inner[q & 1].pair[q >> 1] = uint2(tid, tid + 2);
o[tid] = tid;
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_stores_at_dynamic_indexes_inside_elements(wave):
    data = initial()
    lanes = range(wave)
    for tid in lanes:  # out of bounds (i past the buffer): dropped
        if tid // 4 < ELEMENTS:
            data[tid // 4, counter(tid % 4 + 1)] = tid + 1
    for tid in lanes:
        q = tid % 4
        if tid // 4 < ELEMENTS:
            data[tid // 4, arr(q & 1, q % 3)] = tid * 5
    for tid in lanes:
        q = tid % 4
        if tid // 4 < ELEMENTS:
            data[tid // 4, pair(q >> 1, q & 1, 1)] = tid * 7
    for tid in lanes:
        q = tid % 4
        if tid // 4 < ELEMENTS:
            data[tid // 4, grid(q & 1, q >> 1)] = tid * 9
    for tid in lanes:
        q = tid % 4
        if tid // 4 < ELEMENTS:
            data[tid // 4, pair(q & 1, q >> 1, 0)] = tid
            data[tid // 4, pair(q & 1, q >> 1, 1)] = tid + 2
    check(source(STORES, wave), wave, np.arange(wave), data)


# -- every Interlocked* ---------------------------------------------------------------------
def _model(fn: str, old: int, value: int, compare: int) -> int:
    return {"Add": old + value, "Min": min(old, value), "Max": max(old, value), "And": old & value,
            "Or": old | value, "Xor": old ^ value, "Exchange": value,
            "CompareExchange": value if old == compare else old,
            "CompareStore": value if old == compare else old}[fn] & MASK


ATOMIC_CALLS = {
    "CompareExchange": "InterlockedCompareExchange(DEST, COMPARE, VALUE, old);",
    "CompareStore": "InterlockedCompareStore(DEST, COMPARE, VALUE); old = 1;",
}


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("fn", ["Add", "Min", "Max", "And", "Or", "Xor", "Exchange", "CompareExchange",
                                "CompareStore"])
def test_every_interlocked_at_dynamic_indexes_inside_elements(fn, wave):
    """Several lanes share each word: the old values show the lane order."""
    call = ATOMIC_CALLS.get(fn, f"Interlocked{fn}(DEST, VALUE, old);")
    call = (call.replace("DEST", "s[tid % 3].inner[(tid >> 3) & 1].arr[(tid >> 1) % 3]")
            .replace("VALUE", "tid * 0x01010101 + 3").replace("COMPARE", "s[0].head + tid % 2"))
    body = f"uint old = 0;\n{call}\nuint spare;\nInterlockedAdd(s[idx].counter[tid % 6], 1, spare);\n" \
           "o[tid] = old + spare * 65536;\n"
    data = initial()
    head = int(data[0, 0])
    out = np.zeros(wave, np.int64)
    for tid in range(wave):
        word = (tid % 3, arr((tid >> 3) & 1, (tid >> 1) % 3))
        old = int(data[word])
        value = (tid * 0x01010101 + 3) & MASK
        data[word] = _model(fn, old, value, head + tid % 2)
        out[tid] = 1 if fn == "CompareStore" else old
    for tid in range(wave):
        spare = int(data[IDX, counter(tid % 6)])
        data[IDX, counter(tid % 6)] = spare + 1
        out[tid] = (out[tid] + spare * 65536) & MASK
    check(source(body, wave), wave, out, data)


# -- groupshared arrays of structs of arrays -----------------------------------------------
SHARED = """
struct G { uint arr[4]; uint2 v[2]; };
groupshared G g[4];
"""
SHARED_BODY = """
g[tid % 4].arr[(tid / 4) % 4] = tid;
g[tid % 4].v[tid & 1] = uint2(0, 0);
GroupMemoryBarrierWithGroupSync();
uint old;
InterlockedMax(g[tid / 16].arr[tid % 4], tid * 3, old);
InterlockedAdd(g[tid % 4].v[(tid >> 2) & 1].y, tid, old);
GroupMemoryBarrierWithGroupSync();
o[tid] = g[tid % 4].arr[(tid >> 3) % 4] + 1000 * g[tid % 4].v[(tid >> 2) & 1].y + s[tid % 8].counter[tid % 6];
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_groupshared_structs_of_arrays(wave):
    arrays = np.zeros((4, 4), np.int64)
    v = np.zeros((4, 2, 2), np.int64)
    for tid in range(wave):
        arrays[tid % 4, (tid // 4) % 4] = tid
    for tid in range(wave):
        arrays[tid // 16, tid % 4] = max(arrays[tid // 16, tid % 4], tid * 3) if tid // 16 < 4 else 0
    for tid in range(wave):
        v[tid % 4, (tid >> 2) & 1, 1] += tid
    data = initial()
    out = np.array([arrays[tid % 4, (tid >> 3) % 4] + 1000 * v[tid % 4, (tid >> 2) & 1, 1]
                    + int(data[tid % 8, counter(tid % 6)]) for tid in range(wave)])
    check(source(SHARED_BODY, wave, SHARED), wave, out & MASK, data)


# -- the upstream SPD integration shaders ----------------------------------------------------
SPD = "/work/shared/upstream/fidelityfx/spd"


@pytest.mark.skipif(not os.path.isdir(SPD), reason="the upstream FidelityFX tree is absent")
@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name", ["SPDIntegration.hlsl", "SPDIntegrationLinearSampler.hlsl"])
def test_upstream_spd_integration_compiles(name, wave):
    """The file as the README configures it (no defines): an RDNA2 listing with the atomic."""
    from shc.compiler.backend.rdna2.listing import render_listing
    from shc.compiler.pipeline import compile_file
    module = compile_file(os.path.join(SPD, name), Options(wave_size=wave), Diagnostics())
    listing = render_listing(module)
    assert "buffer_atomic_add" in listing.text
