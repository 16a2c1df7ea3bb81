"""Instruction selection: tables, legalisation, expansions, and the allocated code's soundness."""

from __future__ import annotations

import glob
import random
import textwrap

import pytest

from shc.compiler.backend.rdna2 import isel_tables as tables
from shc.compiler.backend.rdna2.isel import select
from shc.compiler.backend.rdna2.isel_wave import swizzle_text
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.machine.isa_classes import isa_class
from shc.compiler.backend.rdna2.machine import SubReg, VReg
from shc.compiler.backend.rdna2.live_ranges import successors
from shc.compiler.backend.rdna2.regalloc import allocate
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.ops import Op
from shc.compiler.pipeline import Options, compile_file, compile_source


def module_of(text: str, wave: int = 32):
    return compile_source(textwrap.dedent(text), "test.hlsl", Options(wave_size=wave, verify=True), Diagnostics())


def mnemonics(text: str, wave: int = 32) -> list[str]:
    function = select(module_of(text, wave))
    allocate(function)
    return [inst.format() for inst in function.instructions() if inst.mnemonic != "implicit_def"]


def kernel(body: str, declarations: str = "") -> str:
    return f"""
        RWStructuredBuffer<float4> fout : register(u0);
        RWStructuredBuffer<uint4> uout : register(u1);
        StructuredBuffer<float4> fin : register(t0);
        StructuredBuffer<uint4> uin : register(t1);
        cbuffer C : register(b0) {{ float4 cf; uint4 cu; }};
        {declarations}
        [numthreads(64, 1, 1)]
        void main(uint tid : SV_GroupIndex) {{
            float4 f = fin[tid];
            uint4 u = uin[tid];
            {body}
        }}
    """


# -- the tables ---------------------------------------------------------------------------

def test_tables_follow_the_rdna2_spelling():
    for (op, tc), name in tables.VALU_BINARY.items():
        assert name.startswith("v_"), name
        if tc in ("u32", "i32") and op in (Op.ADD, Op.SUB):
            assert name.endswith("_nc_u32")  # gfx10 spells carry-less adds this way
    for name in tables.SALU_BINARY.values():
        assert name.startswith("s_")
    assert tables.VALU_BINARY[(Op.SHL, "u32")] in tables.REVERSED_OPERANDS
    assert tables.FLOAT_CONDITION[Op.NE] == "neq" and tables.SALU_CONDITION[Op.NE] == "lg"


def test_swizzle_offsets_print_as_llvm_prints_them():
    # Spellings read off llvmlite's LLVM for ds.swizzle with these offsets.
    assert swizzle_text(32799) == "swizzle(QUAD_PERM,3,3,1,0)"
    assert swizzle_text(1055) == "swizzle(SWAP,1)"
    assert swizzle_text(227) == 'swizzle(BITMASK_PERM,"00111")'
    assert swizzle_text(15391) == "swizzle(REVERSE,16)"


def test_instruction_classes():
    assert isa_class("v_add_f32_dpp") == "VALU"  # the header counts DPP within VALU
    assert isa_class("v_mov_b32") == "VALU"
    assert isa_class("s_buffer_load_dword") == "SMEM"
    assert isa_class("s_cbranch_execz") == "branch"
    assert isa_class("ds_bpermute_b32") == "LDS"
    assert isa_class("image_sample_lz") == "VMEM"
    assert isa_class("s_and_saveexec_b32") == "SALU"
    assert isa_class("s_waitcnt") == "waitcnt" and isa_class("s_endpgm") == "other"


# -- selection ----------------------------------------------------------------------------

def test_uniform_integers_use_the_scalar_unit_and_uniform_floats_the_vector_unit_with_sgprs():
    code = mnemonics(kernel("uout[tid] = uint4(cu.x * cu.y + 3, 0, 0, 0); fout[tid] = cf * cf.y;"))
    assert any(line.startswith("s_mul_i32 ") for line in code)
    assert any(line.startswith("s_add_u32 ") for line in code)
    assert any(line.startswith("v_mul_f32 ") and ", s" in line for line in code)


def test_constant_bus_allows_two_scalar_sources():
    code = mnemonics(kernel("fout[tid] = mad(cf.x, cf.y, cf.z);"))
    fma = [line for line in code if line.startswith("v_fma_f32")]
    assert fma and sum(part.strip().startswith("s") for part in fma[0].split(",")[1:]) <= 2


def test_multiplying_and_dividing_by_powers_of_two_are_shifts():
    code = mnemonics(kernel("uout[tid] = uint4(u.x * 8, u.y / 16, u.z % 4, u.w / 7);"))
    assert "v_lshlrev_b32" in " ".join(code) and "v_lshrrev_b32" in " ".join(code)
    assert any(line.startswith("v_and_b32") and ", 3," in line for line in code)
    assert any(line.startswith("v_mul_hi_u32") for line in code)  # divide by 7: magic multiply


@pytest.mark.parametrize("divisor", [3, 5, 6, 7, 10, 12, 25, 100, 641, 1000, 65537, 0x7FFFFFFF])
def test_magic_division_is_exact(divisor):
    """The constants divide_by_constant picks give the exact quotient for every 32-bit n."""
    import math

    s = math.ceil(math.log2(divisor))
    magic = (1 << (32 + s)) // divisor + 1
    numbers = [0, 1, divisor - 1, divisor, divisor + 1, 0xFFFFFFFF, 0xFFFFFFFE, 0x80000000]
    numbers += random.Random(divisor).sample(range(1 << 32), 2000)
    for n in numbers:
        if magic < (1 << 32):
            q = (n * magic >> 32) >> s
        else:
            high = n * (magic - (1 << 32)) >> 32
            q = (((n - high) >> 1) + high) >> (s - 1)
        assert q == n // divisor, (n, divisor)


def test_variable_division_uses_the_reciprocal_sequence():
    code = " ".join(mnemonics(kernel("uout[tid] = u / u.yzwx;")))
    assert "v_rcp_iflag_f32" in code and "v_mul_hi_u32" in code and "v_cvt_u32_f32" in code


def test_packed_half_math_uses_v_pk_forms():
    code = " ".join(mnemonics(kernel("half4 h = half4(f); h = h * h + h; fout[tid] = float4(h);")))
    assert "v_pk_mul_f16" in code and "v_pk_add_f16" in code
    # float -> half rounds to nearest even, as the other executors do (pkrtz rounds toward zero);
    # the second of a pair converts straight into the first one's high half (combine.py)
    assert "v_cvt_f16_f32" in code and "v_cvt_f16_f32_sdwa" in code and "v_cvt_f32_f16" in code
    assert "v_pack_b32_f16" not in code
    assert "v_cvt_pkrtz_f16_f32" not in code


def test_half_fma_is_v_pk_fma_f16():
    code = " ".join(mnemonics(kernel("half2 h = half2(f.xy); fout[tid] = float4(mad(h, h, h), 0, 0);")))
    assert "v_pk_fma_f16" in code


def test_math_functions_use_the_hardware_units():
    code = " ".join(mnemonics(kernel(
        "fout[tid] = float4(sqrt(f.x) + rsqrt(f.y), exp2(f.z) + log2(f.w), frac(f.x) + floor(f.y), "
        "sin(f.z) + saturate(f.w));")))
    for name in ("v_sqrt_f32", "v_rsq_f32", "v_exp_f32", "v_log_f32", "v_fract_f32", "v_floor_f32", "v_sin_f32"):
        assert name in code
    assert "clamp" in code


def test_bit_functions():
    code = " ".join(mnemonics(kernel(
        "uout[tid] = uint4(countbits(u.x), firstbitlow(u.y), firstbithigh(u.z), reversebits(u.w));")))
    for name in ("v_bcnt_u32_b32", "v_ffbl_b32", "v_ffbh_u32", "v_bfrev_b32"):
        assert name in code


def test_selects_and_comparisons():
    code = mnemonics(kernel("fout[tid] = f.x < f.y ? f : f.wzyx; uout[tid] = u.x != 3 ? u : 7;"))
    assert any(line.startswith("v_cmp_gt_f32 ") or line.startswith("v_cmp_lt_f32 ") for line in code)
    assert any(line.startswith("v_cmp_ne_u32 ") for line in code)
    assert sum(line.startswith("v_cndmask_b32 ") for line in code) == 8


def test_uniform_select_is_s_cselect_after_s_cmp():
    code = mnemonics(kernel("uout[tid] = uint4(cu.x > 4 ? cu.y : cu.z, 0, 0, 0);"))
    index = next(k for k, line in enumerate(code) if line.startswith("s_cselect_b32"))
    assert code[index - 1].startswith("s_cmp_gt_u32")


def test_conversions():
    code = " ".join(mnemonics(kernel("fout[tid] = float4(u) + float4(int4(f)); uout[tid] = uint4(f);")))
    for name in ("v_cvt_f32_u32", "v_cvt_i32_f32", "v_cvt_f32_i32", "v_cvt_u32_f32"):
        assert name in code


def test_dpp_on_an_op_without_a_dpp_encoding_moves_first():
    code = mnemonics("""
        RWStructuredBuffer<uint> buf : register(u0);
        [numthreads(64, 1, 1)]
        void main(uint tid : SV_GroupIndex) {
            uint v = buf[tid];
            buf[tid] = WaveActiveProduct(v);
        }
    """)
    assert any(line.startswith("v_mov_b32_dpp ") for line in code)
    assert not any(line.startswith("v_mul_lo_u32_dpp") for line in code)


def test_dpp8_and_row_xmask_shuffles():
    code = " ".join(mnemonics("""
        RWStructuredBuffer<float> buf : register(u0);
        [numthreads(64, 1, 1)]
        void main(uint tid : SV_GroupIndex) {
            float v = buf[tid];
            buf[tid] = WaveShuffleXor(v, 5) + WaveShuffleXor(v, 9) + WaveShuffleXor(v, 16);
        }
    """))
    assert "dpp8:[5,4,7,6,1,0,3,2]" in code and "row_xmask:9" in code and "v_permlanex16_b32" in code


def test_wave64_cross_half_shuffle_goes_through_lds():
    result = render_listing(module_of("""
        RWStructuredBuffer<float> buf : register(u0);
        [numthreads(64, 1, 1)]
        void main(uint tid : SV_GroupIndex) {
            float v = buf[tid];
            buf[tid] = WaveShuffleXor(v, 32);
        }
    """, wave=64))
    assert "ds_write_b32" in result.text and "ds_read_b32" in result.text
    assert result.lds_bytes == 256 and "for lane exchanges" in result.text


def test_lds_address_additions_fold_into_offsets_and_are_not_emitted():
    code = mnemonics("""
        groupshared float a[64];
        groupshared float b[64];
        RWStructuredBuffer<float> o : register(u0);
        [numthreads(64, 1, 1)]
        void main(uint tid : SV_GroupIndex) {
            a[tid] = 1.0; b[tid] = 2.0;
            GroupMemoryBarrierWithGroupSync();
            o[tid] = a[tid] + b[(tid + 3) & 63];
        }
    """)
    # both stores go out as one pair (lds_pairs.py), b's 256 bytes on as 64 dwords
    writes = [line for line in code if line.startswith("ds_write")]
    assert len(writes) == 1 and writes[0].startswith("ds_write2_b32 ") and writes[0].endswith("offset0:0 offset1:64")
    assert any(line.startswith("ds_read_b32") and line.endswith("offset:256") for line in code)
    assert not any(line.startswith("v_add_nc_u32") and ", 0x100," in line for line in code)


def test_cbuffer_loads_are_scalar_and_sized_to_the_member():
    code = mnemonics(kernel("fout[tid] = cf; uout[tid] = cu.xyzz;"))
    loads = [line for line in code if line.startswith("s_buffer_load")]
    # each float4/uint4 member is one dwordx4 load; the two neighbours then merge (smem_clauses.py)
    assert len(loads) == 1 and loads[0].startswith("s_buffer_load_dwordx8 ") and loads[0].endswith(", 0x0")


def test_scalar_loads_from_read_only_buffers_at_uniform_indices():
    code = mnemonics(kernel("fout[tid] = fin[cu.x];"))
    assert any(line.startswith("s_buffer_load_dwordx4 ") for line in code)


# -- allocation soundness -----------------------------------------------------------------

def components(operand) -> set:
    """(register, component) pairs an operand names: every component of a whole tuple."""
    if isinstance(operand, VReg):
        return {(operand, k) for k in range(operand.size)}
    if isinstance(operand, SubReg):
        return {(operand.base, operand.index + k) for k in range(operand.count)}
    return set()


def physical(component) -> tuple:
    reg, k = component
    return (reg.cls, reg.phys + k)


def check_no_live_value_is_overwritten(function) -> None:
    """Liveness of each register component over the machine CFG (which executes every block
    of a divergent region in order): no instruction may write a register that holds a
    component of another value, already defined on some path here, that is still to be read."""
    succ = successors(function)
    preds = {block: [] for block in function.blocks}
    for block, targets in succ.items():
        for target in targets:
            preds[target].append(block)
    gen, kill, defs = {}, {}, {}
    for block in function.blocks:
        used, defined, written = set(), set(), set()
        for inst in block.insts:
            if inst.mnemonic == "implicit_def":  # marks a tuple's start; writes nothing
                continue
            for op in inst.uses:
                used |= components(op) - defined
            for op in inst.defs:
                defined |= components(op)
                written.add(op.base if isinstance(op, SubReg) else op)
        gen[block], kill[block], defs[block] = used, defined, written
    live_in = {block: set() for block in function.blocks}
    defined_in = {block: set() for block in function.blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(function.blocks):
            out = set().union(*(live_in[s] for s in succ[block]))
            new = gen[block] | (out - kill[block])
            if new != live_in[block]:
                live_in[block], changed = new, True
        for block in function.blocks:
            new = set().union(*(defined_in[p] | defs[p] for p in preds[block]))
            if new != defined_in[block]:
                defined_in[block], changed = new, True
    for block in function.blocks:
        defined_before = [set(defined_in[block])]
        for inst in block.insts:
            defined_before.append(defined_before[-1] | {op.base if isinstance(op, SubReg) else op
                                                         for op in inst.defs if isinstance(op, (VReg, SubReg))})
        live = set().union(*(live_in[s] for s in succ[block]))
        for position in range(len(block.insts) - 1, -1, -1):
            inst = block.insts[position]
            if inst.mnemonic == "implicit_def":
                continue
            for op in inst.defs:
                target = op.base if isinstance(op, SubReg) else op
                written = {physical(c) for c in components(op) if target.phys is not None}
                for other in live:
                    if other[0] is not target and other[0] in defined_before[position] \
                            and physical(other) in written:
                        raise AssertionError(f"{inst.format()} overwrites live {other[0].name or other[0].format()}")
                live -= components(op)
            for op in inst.uses:
                live |= components(op)


KERNELS = sorted(glob.glob("samples/*.hlsl"))


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("path", KERNELS)
def test_allocated_samples_never_overwrite_a_live_register(path, wave):
    module = compile_file(path, Options(wave_size=wave), Diagnostics())
    function = select(module)
    allocate(function)
    check_no_live_value_is_overwritten(function)


def test_test_kernels_never_overwrite_a_live_register():
    import sys

    sys.path.insert(0, "tests/backend")
    import test_listing

    for name in ("QUAD", "IF_ELSE", "LOOPS", "BREAK_CONTINUE", "SWITCH", "LDS", "HAND_COUNTED"):
        for wave in (32, 64):
            function = select(module_of(getattr(test_listing, name), wave))
            allocate(function)
            check_no_live_value_is_overwritten(function)


# -- the listing computes what the IR computes ----------------------------------------------

def run_both(source: str, wave: int, buffers: dict, cbuffers: dict | None = None):
    """(interpreter's buffers, listing simulator's buffers) for one wave of group 0."""
    import numpy as np

    from shc.compiler.backend.rdna2.simulate import simulate
    from shc.compiler.ir.interpret.run import run_wave

    module = module_of(source, wave)
    reference = run_wave(module, buffers=buffers, cbuffers={k: bytes(v) for k, v in (cbuffers or {}).items()})
    function = select(module)
    allocate(function)
    listing = simulate(function, module, buffers=buffers, cbuffers=cbuffers or {})
    for name in buffers:
        expected = np.asarray(reference.buffers[name]).view(np.uint32)
        got = np.asarray(listing.buffers[name]).view(np.uint32)
        assert np.array_equal(expected, got), (name, np.flatnonzero(expected != got)[:8])
    return listing


MIXED = """
    RWStructuredBuffer<uint> buf : register(u0);
    [numthreads(64, 1, 1)]
    void main(uint tid : SV_GroupIndex) {
        uint v = buf[tid];
        bool keep = false;
        if (v > 2) { keep = (v & 1) == 0; }
        uint r = 0;
        for (uint i = 0; i < v; i++) { if (keep && i == 3) break; r += i * v; }
        buf[tid] = keep ? r : r + 1;
        buf[tid + 64] = v / 3 + v % 5 + (int(v) - 5) / 2;
        if (v > 3) buf[tid + 128] = WaveActiveSum(v) * 1000 + WavePrefixSum(v);
        buf[tid + 192] = WaveActiveCountBits(v > 7) * 100 + WavePrefixCountBits(v > 7)
            + WaveReadLaneAt(v, (tid * 7) & 31) + WaveReadLaneFirst(v) * 10 + WaveReadLaneAt(v, 5) * 100;
    }
"""


@pytest.mark.parametrize("wave", [32, 64])
def test_listing_computes_what_the_interpreter_computes(wave):
    import sys

    import numpy as np

    sys.path.insert(0, "tests/backend")
    import test_listing as kernels

    rng = np.random.default_rng(wave)
    count = np.array([5], np.uint32).tobytes() + np.array([1.5], np.float32).tobytes()
    run_both(kernels.QUAD, wave, {"input": rng.random(64, dtype=np.float32), "output": np.zeros(64, np.float32)})
    run_both(kernels.IF_ELSE, wave, {"data": rng.random(64, dtype=np.float32)})
    run_both(kernels.LOOPS, wave, {"buf": rng.random(256, dtype=np.float32)}, {"C": count})
    run_both(kernels.BREAK_CONTINUE, wave, {"buf": rng.integers(0, 6, 256).astype(np.uint32)})
    run_both(kernels.SWITCH, wave, {"buf": rng.integers(0, 100, 256).astype(np.uint32)},
             {"C": np.array([3], np.uint32).tobytes()})
    run_both(kernels.LDS, wave, {"output": np.zeros((64, 4), np.float32)})
    state = run_both(MIXED, wave, {"buf": rng.integers(0, 10, 256).astype(np.uint32)})
    assert state.executed.get("s_or_saveexec_b32" if wave == 32 else "s_or_saveexec_b64")


@pytest.mark.parametrize("wave", [32, 64])
def test_prefix_sum_sample_listing_matches_the_interpreter(wave):
    import numpy as np

    constants = np.zeros(4, np.uint32)
    constants[0] = 200
    rng = np.random.default_rng(7)
    with open("samples/prefix_sum.hlsl") as handle:
        source = handle.read()
    run_both(source, wave, {"input": rng.integers(0, 9, 256).astype(np.uint32), "output": np.zeros(256, np.uint32),
                            "blockSums": np.zeros(4, np.uint32)}, {"scanConstants": constants.tobytes()})


@pytest.mark.parametrize("mips", [7, 12])
@pytest.mark.parametrize("wave", [32, 64])
def test_spd_listing_matches_the_interpreter_for_one_wave(wave, mips):
    """One wave of SPD's only group: the quad DPP reductions, LDS mips and, with 12 mips, the
    last-group path behind the global atomic, as the listing runs them."""
    import numpy as np

    from shc.compiler.backend.rdna2.simulate import simulate
    from shc.compiler.ir.interpret.run import run_wave

    module = compile_file("samples/spd.hlsl", Options(wave_size=wave), Diagnostics())
    rng = np.random.default_rng(mips)
    resources = {
        "imgSrc": [rng.random((1, 64 >> k, 64 >> k, 4), dtype=np.float32) for k in range(7)],
        "imgDst": [np.zeros((1, max(1, 32 >> k), max(1, 32 >> k), 4), np.float32) for k in range(12)],
        "imgDst6": np.zeros((1, 1, 1, 4), np.float32),
        "spdGlobalAtomic": np.zeros(4, np.uint32),
    }
    constants = np.array([mips, 1, 0, 0], np.uint32).tobytes()
    reference = run_wave(module, buffers=resources, cbuffers={"spdConstants": constants})
    function = select(module)
    allocate(function)
    state = simulate(function, module, buffers=resources, cbuffers={"spdConstants": constants})
    for name, expected in reference.buffers.items():
        levels = expected if isinstance(expected, list) else [expected]
        got = state.buffers[name] if isinstance(expected, list) else [state.buffers[name]]
        for want, have in zip(levels, got):
            assert np.array_equal(np.asarray(want).view(np.uint32), np.asarray(have).view(np.uint32)), name
    assert np.count_nonzero(state.buffers["imgDst"][0]) > 0
    assert state.executed.get("v_add_f32_dpp") and state.executed.get("s_barrier")


def _sample_resources(rng):
    import numpy as np

    texture = {"src": rng.random((64, 64, 4), dtype=np.float32), "mip1": np.zeros((32, 32, 4), np.float32),
               "mip2": np.zeros((16, 16, 4), np.float32)}
    return {
        "samples/downsample_quad.hlsl": (texture, {}),
        "samples/downsample_lds.hlsl": (texture, {}),
        "samples/downsample_shuffle.hlsl": (texture, {}),
        "samples/compaction.hlsl": (
            {"values": rng.random(256, dtype=np.float32), "survivors": np.zeros(256, np.uint32),
             "survivorCount": np.zeros(4, np.uint32)},
            {"compactConstants": np.array([200], np.uint32).tobytes() + np.array([0.5], np.float32).tobytes()}),
    }


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("path", ["samples/downsample_quad.hlsl", "samples/downsample_lds.hlsl",
                                  "samples/downsample_shuffle.hlsl", "samples/compaction.hlsl"])
def test_sample_listings_match_the_interpreter(path, wave):
    import numpy as np

    from shc.compiler.backend.rdna2.simulate import simulate
    from shc.compiler.ir.interpret.run import run_wave

    module = compile_file(path, Options(wave_size=wave), Diagnostics())
    buffers, cbuffers = _sample_resources(np.random.default_rng(5))[path]
    reference = run_wave(module, buffers=buffers, cbuffers=cbuffers)
    function = select(module)
    allocate(function)
    state = simulate(function, module, buffers=buffers, cbuffers=cbuffers)
    for name in buffers:
        assert np.array_equal(np.asarray(reference.buffers[name]).view(np.uint32),
                              np.asarray(state.buffers[name]).view(np.uint32)), name


def test_packed_half_subtraction_adds_the_negated_right_operand():
    """RDNA2 has no v_pk_sub_f16: LLVM's form is v_pk_add_f16 with both halves of src1 negated
    (FidelityFX CAS and FSR 1 in fp16 stopped here)."""
    lines = mnemonics("""
        RWStructuredBuffer<half4> o : register(u0);
        [numthreads(64, 1, 1)]
        void main(uint3 id : SV_DispatchThreadID) { o[id.x] = o[id.x] - o[id.x + 64]; }
    """)
    subtractions = [line for line in lines if line.startswith("v_pk_add_f16")]
    assert len(subtractions) == 2  # four halves, two per VGPR
    assert all(line.endswith("neg_lo:[0,1] neg_hi:[0,1]") for line in subtractions)
