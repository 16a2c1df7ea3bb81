"""The machine-IR clean-ups after selection (``cleanup.py``): three-source and SDWA merges
(``combine.py``), LDS pairs (``lds_pairs.py``), block-local common subexpressions
(``machine_cse.py``), unread results (``machine_dce.py``), and moves that allocation turned
into ``v1 = v1``. Each case checks the listing has the merged form and that
the listing simulator computes what the IR interpreter computes, at wave32 and wave64."""

from __future__ import annotations

import os
import textwrap

import numpy as np
import pytest

from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.isel_memory import Text
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.machine import Imm, MBlock, MFunction, VReg
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.backend.rdna2.simulate import simulate
from shc.compiler.backend.rdna2.smem_clauses import merge_scalar_loads
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.interpret.run import run_wave
from shc.compiler.pipeline import Options, compile_source


def module_of(body: str, wave: int, declarations: str = ""):
    source = textwrap.dedent(f"""
        RWStructuredBuffer<uint> o : register(u0);
        {textwrap.dedent(declarations)}
        [numthreads({wave}, 1, 1)]
        void main(uint tid : SV_GroupIndex) {{
        {textwrap.dedent(body)}
        }}
    """)
    return compile_source(source, "merge.hlsl", Options(wave_size=wave), Diagnostics())


def listing_and_check(body: str, wave: int, declarations: str = "", inputs: dict | None = None,
                      cbuffers: dict | None = None) -> list[str]:
    """The allocated listing's lines, after checking the simulator agrees with the interpreter."""
    module = module_of(body, wave, declarations)
    expected = run_wave(module, buffers={"o": np.zeros(wave, np.uint32), **(inputs or {})},
                        cbuffers=cbuffers).buffers["o"]
    function = select(module)
    allocate(function)
    simulated = simulate(function, module, buffers={"o": np.zeros(wave, np.uint32), **(inputs or {})},
                         cbuffers=cbuffers).buffers["o"]
    expected, simulated = np.asarray(expected).view(np.uint32), np.asarray(simulated).view(np.uint32)
    assert np.count_nonzero(expected) > wave // 2  # the kernel computed something per lane
    assert np.array_equal(simulated, expected), np.flatnonzero(simulated != expected)[:8]
    return [inst.format() for inst in function.instructions() if not inst.is_marker]


def mnemonics(lines: list[str]) -> list[str]:
    return [line.split()[0] for line in lines]


@pytest.mark.parametrize("wave", [32, 64])
def test_min_and_max_chains_become_three_source_instructions(wave):
    code = mnemonics(listing_and_check("""
        float a = float(tid) * 0.37 - 3.0, b = 5.0 - float(tid) * 0.21, c = float(tid & 7) - 2.5;
        int i = int(tid) - 20, j = 7 - int(tid), k = int(tid * 3u) - 40;
        o[tid] = asuint(min(min(a, b), -c)) ^ asuint(max(max(a, c), b)) ^ uint(min(min(i, j), k))
                 ^ uint(max(max(tid, 9u), tid * 5u % 13u)) << 1;
    """, wave))
    for name in ("v_min3_f32", "v_max3_f32", "v_min3_i32", "v_max3_u32"):
        assert name in code
    assert "v_min_f32" not in code and "v_max_f32" not in code


@pytest.mark.parametrize("wave", [32, 64])
def test_shifts_masks_and_additions_merge(wave):
    code = mnemonics(listing_and_check("""
        uint x = tid * 2654435761u;
        uint field = (x >> 5) & 63u;           // v_bfe_u32
        uint scaled = (x << 3) + tid;          // v_lshl_add_u32
        uint packed = (x & 0xF0F0u) | field;   // v_and_or_b32
        uint sum = x + tid * 7u + scaled;      // v_add3_u32
        o[tid] = field ^ scaled ^ packed ^ sum ^ ((x << 4) | tid);
    """, wave))
    for name in ("v_bfe_u32", "v_lshl_add_u32", "v_and_or_b32", "v_add3_u32", "v_lshl_or_b32"):
        assert name in code


@pytest.mark.parametrize("wave", [32, 64])
def test_a_high_half_converts_through_sdwa(wave):
    lines = listing_and_check("""
        uint x = (tid * 37u + 0x3C00u) | ((tid * 11u + 0x4000u) << 16);
        o[tid] = asuint(f16tof32(x >> 16) * 3.0 + f16tof32(x));
    """, wave)
    assert any(line.startswith("v_cvt_f32_f16_sdwa ") and line.endswith("src0_sel:WORD_1") for line in lines)
    assert not any(line.startswith("v_lshrrev_b32") and ", 16," in line for line in lines)


def test_an_intermediate_read_twice_is_not_merged():
    code = mnemonics(listing_and_check("""
        float a = float(tid) * 0.5, b = 3.0 - float(tid);
        float m = min(a, b);
        o[tid] = asuint(min(m, 1.5)) + asuint(m);
    """, 32))
    assert "v_min3_f32" not in code and code.count("v_min_f32") == 2


LDS_PLANES = """
    groupshared float r[16][16];
    groupshared float g[16][16];
    groupshared float b[16][16];
    groupshared float a[16][16];
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_lds_accesses_from_one_address_go_in_pairs(wave):
    # SPD's layout: four 1 KiB planes written and read at one index, 1 KiB apart
    lines = listing_and_check("""
        uint x = tid % 16u, y = tid / 16u;
        r[y][x] = float(tid); g[y][x] = float(tid) * 2.0; b[y][x] = float(tid) + 0.5; a[y][x] = 3.0 - float(tid);
        GroupMemoryBarrierWithGroupSync();
        uint u = (x + 1u) & 15u;
        float s = r[y][u] + g[y][u] * 3.0 + b[y][u] * 5.0 + a[y][u] * 7.0;
        float t = r[y][x] + r[y][u];
        o[tid] = asuint(s) ^ asuint(t);
    """, wave, LDS_PLANES)
    code = mnemonics(lines)
    assert "ds_write_b32" not in code and code.count("ds_write2st64_b32") == 2
    assert code.count("ds_read2st64_b32") == 2
    assert any(line.startswith("ds_write2st64_b32") and line.endswith("offset0:0 offset1:4") for line in lines)


def test_a_write_between_reads_keeps_them_apart():
    code = mnemonics(listing_and_check("""
        uint x = tid % 16u, y = tid / 16u;
        r[y][x] = float(tid);
        GroupMemoryBarrierWithGroupSync();
        float first = r[y][x];
        r[y][x] = first * 2.0;
        float second = r[y][x];
        o[tid] = asuint(first + second);
    """, 32, LDS_PLANES))
    assert "ds_read2_b32" not in code and code.count("ds_read_b32") == 2


@pytest.mark.parametrize("wave", [32, 64])
def test_repeated_expansions_are_computed_once(wave):
    # SPD's clamp: two uint2 mins share their y component, which the IR cannot see apart
    code = mnemonics(listing_and_check("""
        uint w, h;
        t.GetDimensions(w, h);
        uint2 p = uint2(tid, tid / 2u), last = uint2(w - 1u, h - 1u);
        float4 v = t.Load(int3(min(p, last), 0)) + t.Load(int3(min(p + uint2(1, 0), last), 0)) * 3.0;
        o[tid] = asuint(v.x + v.y) ^ asuint(v.w);
    """, wave, "Texture2D<float4> t : register(t0);",
        {"t": np.arange(24 * 40 * 4, dtype=np.float32).reshape(24, 40, 4)}))
    assert code.count("image_load") == 2 and code.count("v_min_u32") == 3


def test_moves_onto_themselves_are_dropped():
    # the phi's copies from the loaded tuple's parts land on those very registers
    body = """
        tile[tid] = float4(tid, 1, 2, 3);
        GroupMemoryBarrierWithGroupSync();
        float4 v = tile[tid];
        if (tid < 16u) v = tile[tid + 1u] * 0.5;
        o[tid] = asuint(v.x + v.y * 2.0 + v.z * 3.0 + v.w);
    """
    shared = "groupshared float4 tile[64];"
    lines = listing_and_check(body, 32, shared)  # the simulator agrees
    text = render_listing(module_of(body, 32, shared)).text
    def onto_itself(line: str) -> bool:
        parts = line.replace(",", " ").split()
        return len(parts) == 3 and parts[0] == "v_mov_b32" and parts[1] == parts[2]

    assert not [line for line in text.splitlines() if onto_itself(line)]
    assert not [line for line in lines if onto_itself(line)]



def test_no_valu_result_is_left_unread():
    # SPD's packed-half path unpacks both halves of every LDS word, whether it reads them or not
    from shc.compiler.pipeline import compile_file

    path = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "spd.hlsl")
    options = Options(defines={"SPD_NO_WAVE_OPERATIONS": "1", "A_HALF": "1"})
    function = select(compile_file(path, options, Diagnostics()))
    read = {reg for inst in function.instructions() for reg in inst.registers("uses")}
    unread = [inst.format() for inst in function.instructions() if inst.mnemonic.startswith("v_")
              and inst.defs and all(isinstance(op, VReg) and op not in read for op in inst.defs)]
    assert unread == []


def test_minus_zero_is_not_the_same_constant_as_zero():
    from shc.compiler.backend.rdna2.machine import Imm, MBlock, MFunction
    from shc.compiler.backend.rdna2.machine_cse import eliminate_common_subexpressions

    block = MBlock("entry")
    zeros = [VReg("v") for _ in range(3)]
    for reg, value in zip(zeros, (0.0, -0.0, 0.0)):
        block.emit("v_mov_b32", [reg], [Imm(value)])
    function = MFunction("main", [block])
    assert eliminate_common_subexpressions(function) == 1  # only the second +0.0 goes
    assert [inst.uses[0].value for inst in block.insts] == [0.0, -0.0]
    assert str(block.insts[1].uses[0].value) == "-0.0"


def test_a_resource_array_element_is_loaded_once_across_folded_branches():
    # SPD's store helper: a branch on a constant mip folds away and leaves a chain of blocks;
    # they join into one, and the element's descriptor is loaded by the first store only
    text = render_listing(compile_source(textwrap.dedent("""
        RWTexture2D<float4> dst[4] : register(u1);
        void put(uint mip, uint2 p, float4 v) {
            if (mip == 3) dst[3][p] = v * 2.0;
            else dst[mip][p] = v;
        }
        [numthreads(32, 1, 1)]
        void main(uint tid : SV_GroupIndex) {
            float4 v = float4(tid, 1, 2, 3);
            put(1, uint2(tid, 0), v);
            put(1, uint2(tid, 1), v + 1.0);
            put(1, uint2(tid, 2), v + 2.0);
        }
    """), "chain.hlsl", Options(), Diagnostics())).text
    code = mnemonics([line.strip() for line in text.split("\nmain:\n", 1)[1].splitlines() if line.startswith("  ")])
    assert code.count("image_store") == 3 and code.count("s_load_dwordx8") == 1
    assert code.count("s_waitcnt") == 1


def _pressure_kernel(fillers: int):
    """``a = 7`` read once, ``fillers`` values live to the end, then ``a = 7`` again."""
    from shc.compiler.backend.rdna2.machine import Imm, MBlock, MFunction

    block = MBlock("entry")
    first, second, sum_ = VReg("v"), VReg("v"), VReg("v")
    block.emit("v_mov_b32", [first], [Imm(7)])
    block.emit("v_add_nc_u32", [sum_], [first, first])
    held = [VReg("v") for _ in range(fillers)]
    for number, reg in enumerate(held):
        block.emit("v_mov_b32", [reg], [Imm(100 + number)])
    block.emit("v_mov_b32", [second], [Imm(7)])
    block.emit("buffer_store_dword", [], [sum_, second, *held])
    return MFunction("main", [block])


def test_a_repeat_is_kept_where_holding_its_value_would_cost_a_granule():
    from shc.compiler.backend.rdna2.machine_cse import eliminate_common_subexpressions
    from shc.compiler.backend.rdna2.pressure import Pressure

    # 14 held + the repeat + the sum: 16 live at the end, a whole wave32 granule
    assert eliminate_common_subexpressions(_pressure_kernel(14)) == 1  # without the check: merged
    function = _pressure_kernel(14)
    assert eliminate_common_subexpressions(function, Pressure(function)) == 0
    function = _pressure_kernel(8)  # half a granule: room to hold it
    assert eliminate_common_subexpressions(function, Pressure(function)) == 1


@pytest.mark.parametrize("wave", [32, 64])
def test_two_pairs_of_neighbouring_dwords_read_as_one_ds_read2_b64(wave):
    # SPD's packed halves: each plane's two neighbouring dwords, a row apart, from an 8-byte-aligned base
    lines = listing_and_check("""
        for (uint k = 0; k < 8; k++) words[tid % 32u * 8 + k] = tid * 13u + k * 7u;
        GroupMemoryBarrierWithGroupSync();
        uint i = tid & 7u;
        o[tid] = words[2 * i + 32] + words[2 * i + 33] * 3u + words[2 * i + 48] * 5u + (words[2 * i + 49] ^ tid);
    """, wave, "groupshared uint words[256];")
    reads = [line for line in lines if line.startswith("ds_read")]
    assert len(reads) == 1 and reads[0].startswith("ds_read2_b64") and reads[0].endswith("offset0:16 offset1:24")


def test_a_pair_from_a_base_not_known_to_be_8_byte_aligned_stays_two_dwords():
    lines = listing_and_check("""
        for (uint k = 0; k < 8; k++) words[tid * 8 + k] = tid * 13u + k * 7u;
        GroupMemoryBarrierWithGroupSync();
        uint i = tid % 31u;
        o[tid] = words[i + 32] + words[i + 33] * 3u + words[i + 48] * 5u + (words[i + 49] ^ tid);
    """, 32, "groupshared uint words[256];")
    assert not any(line.startswith("ds_read2_b64") for line in lines)
    assert sum(line.startswith("ds_read2_b32") for line in lines) == 2


@pytest.mark.parametrize("wave", [32, 64])
def test_a_float_pair_converts_to_halves_without_a_pack(wave):
    # A_HALF SPD's float2 -> half2: the second conversion writes the first one's high half (SDWA)
    lines = listing_and_check("""
        float a = float(tid) * 0.37 - 3.0, b = 5.0 - float(tid) * 1.21;
        half2 h = half2(a, b);
        h = h * h + h;
        o[tid] = asuint(float(h.x) + float(h.y) * 3.0) ^ tid;
    """, wave)
    assert any(line.startswith("v_cvt_f16_f32_sdwa ") and "dst_sel:WORD_1 dst_unused:UNUSED_PRESERVE" in line
               for line in lines)
    assert not any(line.startswith("v_pack_b32_f16") for line in lines)


def test_a_descriptor_needed_late_is_loaded_where_it_is_needed():
    # SPD's atomic counter and last-mip image: loaded in the prologue, they held 12 SGPRs beside
    # the source image's from the first instruction on (34 SGPRs with VCC; ACO needs 28)
    from shc.compiler.pipeline import compile_file

    path = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "spd.hlsl")
    listing = render_listing(compile_file(path, Options(), Diagnostics()))
    body = listing.text.split("\nmain:\n", 1)[1].splitlines()
    first_store = next(number for number, line in enumerate(body) if "image_store" in line)  # mip 1
    late = [number for number, line in enumerate(body) if "spdGlobalAtomic" in line or "imgDst6" in line]
    assert len(late) == 2 and min(late) > first_store
    assert listing.sgprs <= 32


def test_a_descriptor_read_early_stays_in_the_prologue():
    text = render_listing(module_of("""
        uint v = src[tid];
        GroupMemoryBarrierWithGroupSync();
        if (v > 7u) o[tid] = v * 3u + src[tid ^ 1u];
    """, 32, "StructuredBuffer<uint> src : register(t0);")).text
    # o's only reader is in the if: loading it there would free no SGPRs at the kernel's peak
    # and would wait for it on its own
    body = text.split("\nmain:\n", 1)[1].splitlines()
    loads = [number for number, line in enumerate(body) if "s_load_dwordx4" in line]
    assert loads == [1, 2]  # the two descriptors, right after the entry block's label


CONSTANTS = "cbuffer C : register(b0) { uint a; uint b; uint c; uint n; };"
VALUES = {"C": np.array([3, 5, 7, 9], np.uint32).tobytes()}


@pytest.mark.parametrize("wave", [32, 64])
def test_neighbouring_cbuffer_fields_load_as_one_wide_load(wave):
    lines = listing_and_check("""
        uint k = (a * b + c) << 2;
        uint s = tid + (n >> 1);
        for (uint i = 0; i < 3; i++) s += i * k + tid;
        o[tid] = s + 1;
    """, wave, CONSTANTS, cbuffers=VALUES)
    loads = [line for line in lines if line.startswith("s_buffer_load")]
    assert len(loads) == 1 and loads[0].startswith("s_buffer_load_dwordx4 "), loads
    first = int(loads[0].split()[1].split("[")[1].split(":")[0].removeprefix("s"))
    assert first % 4 == 0  # a 4-SGPR tuple starts on a multiple of 4
    assert mnemonics(lines).count("s_waitcnt") <= 2  # the descriptors' wait and the fields' one


@pytest.mark.parametrize("wave", [32, 64])
def test_fields_with_a_gap_or_of_two_cbuffers_load_apart(wave):
    lines = listing_and_check("""
        o[tid] = (tid + a) * c + d + 1;
    """, wave, "cbuffer C : register(b0) { uint a; uint b; uint c; };\n"
               "cbuffer D : register(b1) { uint d; };",
        cbuffers={"C": np.array([3, 5, 7], np.uint32).tobytes(), "D": np.array([11], np.uint32).tobytes()})
    loads = [line for line in lines if line.startswith("s_buffer_load")]
    assert mnemonics(loads) == ["s_buffer_load_dword"] * 3, loads  # a at 0x0 and c at 0x8; d through D


def _loads_around_a_store(read_only: bool) -> list[str]:
    """Two loads of neighbouring dwords with a buffer store between, through the pass alone."""
    descriptor, other = VReg("s", 4, "r"), VReg("s", 4, "o")
    first, second, total, address = VReg("s"), VReg("s"), VReg("s"), VReg("v")
    block = MBlock(".LBB0_0")
    block.emit("s_buffer_load_dword", [first], [descriptor, Text("0x0")])
    block.emit("buffer_store_dword", [], [address, address, other, Imm(0)], "idxen")
    block.emit("s_buffer_load_dword", [second], [descriptor, Text("0x4")])
    block.emit("s_add_u32", [total], [first, second])
    block.emit("buffer_store_dword", [], [total, address, other, Imm(0)], "idxen")
    merge_scalar_loads(MFunction("main", [block]), frozenset({id(descriptor)} if read_only else ()))
    return [inst.mnemonic for inst in block.insts]


def test_a_load_of_a_writable_buffer_does_not_move_above_a_store():
    assert _loads_around_a_store(False).count("s_buffer_load_dword") == 2
    merged = _loads_around_a_store(True)  # a cbuffer's: nothing writes it
    assert merged[0] == "s_buffer_load_dwordx2" and "s_buffer_load_dword" not in merged


@pytest.mark.parametrize("wave", [32, 64])
def test_spd_merges_its_constants_only_where_that_keeps_its_sgprs(wave):
    # merged at wave64 its constants' 4-aligned tuple pushed a later descriptor up: 38 SGPRs
    from shc.compiler.pipeline import compile_file

    path = os.path.join(os.path.dirname(__file__), "..", "..", "samples", "spd.hlsl")
    listing = render_listing(compile_file(path, Options(wave_size=wave), Diagnostics()))
    loads = [line.split()[0] for line in listing.text.splitlines() if line.strip().startswith("s_buffer_load")]
    assert listing.sgprs <= 32
    if wave == 32:
        assert loads == ["s_buffer_load_dwordx4"]
    else:  # kept apart: mips, numWorkGroups, workGroupOffset
        assert loads == ["s_buffer_load_dword", "s_buffer_load_dword", "s_buffer_load_dwordx2"]
