"""The structural check of listing text: every register in a field of its class, as an assembler
requires (``compiler/backend/rdna2/operand_classes.py``), on known bad lines and on real listings."""

from __future__ import annotations

import glob

import pytest
from shc.compiler.backend.rdna2.listing import render_listing
from hypothesis import given, settings
from hypothesis import strategies as st
from shc.compiler.backend.rdna2.operand_classes import (
    OperandClassError,
    _operands,
    check_operand_classes,
    operand_class_problems,
)
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_file, compile_source

# lines shc once printed (issue #16): SGPR values the allocator had put in VGPRs
WRONG = {
    "s_load_dwordx8 v[107:114], s[0:1], 0x180": "the scalar instruction names the VGPR v[107:114]",
    "scratch_store_dwordx8 off, v[107:114], off offset:192": "no vector memory instruction moves 8 dwords",
    "image_load v31, [v0, v1], v[107:114] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm":
        "operand 3 (v[107:114]) must be scalar, not a VGPR",
    "s_and_saveexec_b64 v[252:253], s[4:5]": "the scalar instruction names the VGPR v[252:253]",
    "s_add_u32 s4, 0, v254": "the scalar instruction names the VGPR v254",
    "v_readlane_b32 v252, v6, 0": "operand 1 (v252) must be scalar, not a VGPR",
    "v_cndmask_b32 v8, 0, v252, v[4:5]": "operand 4 (v[4:5]) must be scalar, not a VGPR",
    "buffer_store_dword v1, v0, v[4:7], 0 idxen": "operand 3 (v[4:7]) must be scalar, not a VGPR",
    "image_sample_lz v[4:7], v[2:3], s[28:35], v[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D":
        "operand 4 (v[16:19]) must be scalar, not a VGPR",
    "buffer_store_dwordx2 s[4:5], v0, s[0:3], 0 idxen": "operand 1 (s[4:5]) must be a VGPR",
    "ds_write_b32 v0, s3 offset:4": "operand 2 (s3) must be a VGPR",
    "image_store v[0:3], s[4:5], s[8:15] dmask:0xf dim:SQ_RSRC_IMG_2D": "operand 2 (s[4:5]) must be a VGPR",
}

RIGHT = """
main:
  s_load_dwordx8 s[28:35], s[0:1], 0x180                     ; u3 rw_new_locks (reloaded)
  s_waitcnt lgkmcnt(0)
  image_load v31, [v0, v1], s[28:35] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm
  image_sample_lz v[4:7], v[2:3], s[28:35], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D
  v_writelane_b32 v9, s4, 3                                  ; x (spill SGPR)
  v_readlane_b32 s4, v9, 3
  v_cmp_le_u32 s[8:9], 32, v2
  v_cndmask_b32 v2, v3, -1, s[8:9]
  v_add_co_u32 v6, s[4:5], v2, 5
  v_add_co_ci_u32 v7, s[4:5], v3, 0, s[4:5]
  scratch_load_dwordx4 v[12:15], off, off offset:16
  buffer_atomic_add v5, v4, s[12:15], 0 idxen glc
  buffer_store_dwordx2 v[6:7], v0, s[12:15], 0 idxen
  scratch_store_dword off, v3, off offset:4
  ds_write_b32 v0, v1 offset:4
  ds_add_rtn_u64 v[2:3], v0, v[4:5]
  s_and_saveexec_b64 s[4:5], vcc
  s_cbranch_execz .LBB0_2
.LBB0_2:
  s_endpgm
"""


@pytest.mark.parametrize("line", sorted(WRONG))
def test_a_register_in_a_field_of_the_other_class_is_named_with_its_line(line):
    text = f"main:\n  {line}                ; a comment\n"
    assert operand_class_problems(text) == [f"line 2: {line}: {WRONG[line]}"]
    with pytest.raises(OperandClassError):
        check_operand_classes(text)


def test_scalar_fields_holding_sgprs_and_constants_pass():
    assert operand_class_problems(RIGHT) == []


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("path", sorted(glob.glob("samples/*.hlsl")))
def test_every_sample_listing_keeps_registers_in_their_classes(path, wave):
    listing = render_listing(compile_file(path, Options(wave_size=wave), Diagnostics()))
    assert "s_endpgm" in listing.text and operand_class_problems(listing.text) == []


# uniform values (in SGPRs) stored by every kind of vector memory: the data moves to VGPRs first
UNIFORM_STORES = """
    cbuffer C : register(b0) { uint64_t big; uint4 quad; };
    RWStructuredBuffer<uint64_t> o : register(u0);
    RWByteAddressBuffer raw : register(u1);
    RWTexture2D<uint2> image : register(u2);
    groupshared uint64_t shared64[64];
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex) {
        o[i] = big + 1;
        raw.Store<uint64_t>(8 * i, big);
        raw.Store4(16 * i + 1024, quad);
        image[uint2(i, 0)] = uint2(quad.x, quad.y);
        shared64[i] = big;
        GroupMemoryBarrierWithGroupSync();
        o[i + 64] = shared64[63 - i];
        InterlockedAdd(shared64[0], big);
    }
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_uniform_data_reaches_vector_memory_through_vgprs(wave):
    diagnostics = Diagnostics()
    module = compile_source(UNIFORM_STORES, "uniform.hlsl", Options(wave_size=wave), diagnostics)
    text = render_listing(module, sources=diagnostics.sources).text
    stores = [line.split()[0] for line in text.splitlines()
              if line.strip().startswith(("buffer_store", "image_store", "ds_write", "ds_add"))]
    assert {"buffer_store_dwordx2", "buffer_store_dwordx4", "image_store", "ds_write_b64", "ds_add_u64"} <= set(stores)
    assert operand_class_problems(text) == []


def _fields_read_by_brackets(rest: str) -> list[str]:
    """The obvious reading, a character at a time: a comma separates fields unless it is inside
    brackets; the last field's modifiers dropped. ``_operands`` must read every line as this does."""
    fields, depth, current = [], 0, ""
    for char in rest:
        if char == "," and depth == 0:
            fields.append(current.strip())
            current = ""
            continue
        depth += {"[": 1, "]": -1}.get(char, 0)
        current += char
    if current.strip():
        fields.append(current.strip())
    if fields:
        fields[-1] = fields[-1] if fields[-1].startswith("[") else fields[-1].split()[0]
    return fields


def _outcome(read, rest: str):
    try:
        return read(rest)
    except IndexError:  # a last field of blanks: both readers fail alike
        return "IndexError"


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="vs0123 ,:[]x_", max_size=24))
def test_fields_split_at_commas_outside_brackets(rest):
    assert _outcome(_operands, rest) == _outcome(_fields_read_by_brackets, rest)
