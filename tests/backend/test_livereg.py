"""Live VGPRs per listing instruction (backend/rdna2/livereg.py).

Two kinds of checks: hand-countable registers on small kernels (tuples, an if/else whose
sides write the same registers, a loop), and a semantic one: the listing simulator runs each
kernel with every VGPR the analysis calls free overwritten with garbage, in every lane,
before every instruction; the kernel's output must not change.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.livereg import live_registers, render_livereg
from shc.compiler.backend.rdna2.simulate import Machine
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_file, compile_source

SAMPLES = Path(__file__).resolve().parent.parent.parent / "samples"

IF_ELSE_LOOP = """
    StructuredBuffer<float4> a : register(t0);
    RWStructuredBuffer<float4> o : register(u0);
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex) {
        float4 x = a[i];
        float4 y;
        if (x.x > 0.5) {
            y = x * 2.0;
        } else {
            y = a[i + 1] + x;
        }
        float s = 0;
        for (uint k = 0; k < i % 7; k++) {
            s += y.x * k + y.w;
        }
        o[i] = y + s;
    }
"""

BREAK_CONTINUE = """
    RWStructuredBuffer<uint> buf : register(u0);
    [numthreads(64, 1, 1)]
    void main(uint tid : SV_GroupIndex) {
        uint r = 0;
        uint q = tid * 3;
        for (uint i = 0; i < tid; i++) {
            if (buf[tid + i] % 3 == 0) continue;
            if (buf[tid + i + 1] % 5 == 4) { q += i; break; }
            r += i * q;
        }
        buf[tid] = r + q;
    }
"""

WAVE_OPS_LDS = """
    RWStructuredBuffer<uint> buf : register(u0);
    groupshared uint tile[64];
    [numthreads(64, 1, 1)]
    void main(uint tid : SV_GroupIndex) {
        uint v = buf[tid];
        uint p = WavePrefixSum(v);
        if (v & 1) { tile[tid] = p + QuadReadAcrossX(v); } else { tile[tid] = WaveActiveMax(v); }
        GroupMemoryBarrierWithGroupSync();
        buf[tid] = tile[63 - tid] + p;
    }
"""

SWITCH_LOOPS = """
    RWStructuredBuffer<uint> buf : register(u0);
    cbuffer C : register(b0) { uint count; uint mode; };
    [numthreads(64, 1, 1)]
    void main(uint tid : SV_GroupIndex) {
        uint r = 0;
        for (uint i = 0; i < count; i++) { r += buf[i] * (tid + i); }
        switch (buf[tid] & 3) {
        case 0: r = r * 5; break;
        case 1: r += 7;
        case 2: r += 9; break;
        default: r = 1; break;
        }
        uint j = tid;
        while (j < 100) { r ^= j; j += tid + 1; }
        buf[tid] = r + mode;
    }
"""


def compiled(text: str, wave: int = 32):
    module = compile_source(textwrap.dedent(text), "test.hlsl", Options(wave_size=wave), Diagnostics())
    listing = render_listing(module)
    return module, listing, live_registers(listing.function, listing.vgprs_allocated, listing.vgprs, listing.text)


def rows_of(result, mnemonic: str):
    return [row for row in result.rows if row.text.split()[0] == mnemonic]


def test_rows_follow_the_listing_text_and_tuples_count_every_register():
    _, listing, result = compiled(IF_ELSE_LOOP)
    lines = listing.text.splitlines()
    for row in result.rows:
        assert lines[row.line - 1].strip().startswith(row.text)
        assert row.live == len(row.registers) == sum(mark != " " for mark in row.bar)
        assert len(row.bar) == listing.vgprs_allocated
    load = rows_of(result, "buffer_load_dwordx4")[0]  # v[1:4] written from the index in v0
    first = int(load.text.split("v[")[1].split(":")[0])
    assert load.bar[first:first + 4] == "^^^^"
    assert result.peak <= listing.vgprs and result.peak_rows


def test_an_else_side_holds_what_the_then_side_computed_and_nothing_is_live_before_it_is_written():
    _, _, result = compiled(IF_ELSE_LOOP)
    then_writes = rows_of(result, "v_mul_f32")[:4]  # y = x * 2.0, one component each
    y = [int(row.text.split()[1].strip("v,")) for row in then_writes]
    compare = rows_of(result, "v_cmp_lt_f32")[0]  # before the if: y is not live anywhere yet
    assert not set(y) & set(compare.registers)
    else_load = [row for row in rows_of(result, "buffer_load_dwordx4") if row.line > then_writes[-1].line][0]
    # in the else side, the then side's y is held for the lanes exec switched off
    assert all(else_load.bar[reg] == "." for reg in y)
    assert set(y) <= set(else_load.registers)


def test_a_value_accumulated_in_a_loop_stays_live_through_the_loop():
    _, listing, result = compiled(IF_ELSE_LOOP)
    start = [row for row in rows_of(result, "v_mov_b32") if row.text.endswith(", 0.0")][0]  # s = 0
    s = int(start.text.split()[1].strip("v,"))
    accumulate = [row for row in rows_of(result, "v_add_f32") if row.text.startswith(f"v_add_f32 v{s}, v{s},")][0]
    loop = [row for row in result.rows if start.line < row.line < accumulate.line]
    assert len(loop) > 20 and all(s in row.registers for row in loop)
    after = rows_of(result, "buffer_store_dwordx4")[0]
    assert s not in after.registers  # o[i] = y + s read it for the last time before the store


def test_wave64_uses_the_same_analysis():
    _, listing, result = compiled(BREAK_CONTINUE, 64)
    assert "exec," in listing.text and result.wave_size == 64
    assert result.peak <= listing.vgprs


def test_the_view_prints_every_listing_line_and_the_peak():
    _, listing, result = compiled(IF_ELSE_LOOP)
    text = render_livereg(listing.text, result)
    body = text.split("\n\n")[0].splitlines()[2:]
    assert len(body) == len(listing.text.splitlines())
    assert f"peak {result.peak} live VGPRs" in text and f"{listing.vgprs_allocated} allocated" in text
    for row in result.peak_rows:
        assert f"at line {row.line}: {row.text}" in text


class Clobbering(Machine):
    """The simulator, overwriting every VGPR the analysis calls free before each instruction."""

    def __init__(self, *args, held: dict, width: int):
        super().__init__(*args)
        self.held, self.width = held, width

    def execute(self, inst):
        keep = self.held.get(id(inst))
        if keep is not None:
            for reg in range(self.width):
                if reg not in keep:
                    self.v[reg] = 0xDEADBEEF
        super().execute(inst)


@pytest.mark.parametrize("source", [IF_ELSE_LOOP, BREAK_CONTINUE, WAVE_OPS_LDS, SWITCH_LOOPS],
                         ids=["if-else-loop", "break", "wave-ops", "switch-loops"])
@pytest.mark.parametrize("wave", [32, 64])
def test_overwriting_every_register_called_free_changes_nothing(source, wave):
    module, listing, result = compiled(source, wave)
    rng = np.random.default_rng(7)
    if "float4" in source:
        buffers = {"a": rng.random((65, 4), dtype=np.float32), "o": np.zeros((64, 4), np.float32)}
    else:
        buffers = {"buf": rng.integers(0, 100, 128).astype(np.uint32)}
    cbuffers = {"C": np.array([5, 3, 0, 0], np.uint32).tobytes()} if "cbuffer" in source else {}
    assert_clobbering_changes_nothing(module, listing, result, buffers, cbuffers)


def assert_clobbering_changes_nothing(module, listing, result, buffers, cbuffers):
    insts = [inst for inst in listing.function.instructions() if not inst.is_marker]
    held = {id(inst): set(row.registers) for inst, row in zip(insts, result.rows)}
    lds = module.lds_bytes + 4096
    plain = Machine(listing.function, module, buffers, cbuffers, lds).run()
    clobbered = Clobbering(listing.function, module, buffers, cbuffers, lds, held=held, width=listing.vgprs + 4).run()
    for name in buffers:
        assert np.array_equal(plain.buffers[name], clobbered.buffers[name]), name
    assert any(np.any(array) for array in plain.buffers.values())
    # the clobbering is not vacuous: some instruction holds fewer registers than the kernel uses
    assert min(row.live for row in result.rows) < listing.vgprs


@pytest.mark.parametrize("wave", [32, 64])
def test_the_samples_survive_the_clobbering_too(wave):
    """Stream compaction (a returning atomic, nested ifs, a mask predicate) and the prefix sum
    (whole-wave mode, set-inactive, DPP scans)."""
    rng = np.random.default_rng(11)
    cases = [
        ("compaction.hlsl", {"values": rng.random(512, dtype=np.float32), "survivors": np.zeros(512, np.uint32),
                             "survivorCount": np.zeros(4, np.uint32)},
         {"compactConstants": np.array([300, 0x3F000000, 0, 0], np.uint32).tobytes()}),
        ("prefix_sum.hlsl", {"input": rng.integers(0, 9, 1024).astype(np.uint32),
                             "output": np.zeros(1024, np.uint32), "blockSums": np.zeros(4, np.uint32)}, {}),
    ]
    for name, buffers, cbuffers in cases:
        module = compile_file(str(SAMPLES / name), Options(wave_size=wave), Diagnostics())
        listing = render_listing(module)
        result = live_registers(listing.function, listing.vgprs_allocated, listing.vgprs, listing.text)
        assert_clobbering_changes_nothing(module, listing, result, buffers, cbuffers)


@pytest.mark.parametrize("wave", [32, 64])
def test_spd_survives_the_clobbering(wave):
    """SPD's one group with 12 mips: quad DPP, LDS mips, the global atomic and the last group's path."""
    module = compile_file(str(SAMPLES / "spd.hlsl"), Options(wave_size=wave), Diagnostics())
    rng = np.random.default_rng(12)
    resources = {
        "imgSrc": [rng.random((1, 64 >> k, 64 >> k, 4), dtype=np.float32) for k in range(7)],
        "imgDst": [np.zeros((1, max(1, 32 >> k), max(1, 32 >> k), 4), np.float32) for k in range(12)],
        "imgDst6": np.zeros((1, 1, 1, 4), np.float32),
        "spdGlobalAtomic": np.zeros(4, np.uint32),
    }
    constants = {"spdConstants": np.array([12, 1, 0, 0], np.uint32).tobytes()}
    listing = render_listing(module)
    result = live_registers(listing.function, listing.vgprs_allocated, listing.vgprs, listing.text)
    insts = [inst for inst in listing.function.instructions() if not inst.is_marker]
    held = {id(inst): set(row.registers) for inst, row in zip(insts, result.rows)}
    lds = module.lds_bytes + 8192
    plain = Machine(listing.function, module, resources, constants, lds).run()
    clobbered = Clobbering(listing.function, module, resources, constants, lds, held=held,
                           width=listing.vgprs + 4).run()
    for want, have in zip(plain.buffers["imgDst"], clobbered.buffers["imgDst"]):
        assert np.array_equal(want, have)
    assert np.count_nonzero(plain.buffers["imgDst"][11]) > 0  # the last group built mip 12
    assert result.peak <= listing.vgprs
