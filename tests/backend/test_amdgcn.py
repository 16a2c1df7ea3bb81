"""The amdgcn back end and the LLVM cross-check: shc's IR as LLVM IR, compiled by LLVM's
AMDGPU backend (gfx1030) in a child process.

Every LLVM compile here goes through ``amdgcn.check`` (a subprocess): the LLVM that
llvmlite ships aborts on bad input, and these tests must survive it.
"""

from __future__ import annotations

import glob
import os
import re
import subprocess
import sys
from textwrap import dedent

import pytest

from shc.compiler.backend.amdgcn.module import DATA_LAYOUT, AmdgcnError, to_llvm_ir
from shc.compiler.backend.amdgcn.wave import dpp_control
from shc.compiler.backend.amdgcn.check import LlvmFailure, compile_llvm_ir, cross_check, parse_figures
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.reader import read_module
from shc.compiler.passes.liveness import Liveness
from shc.compiler.passes.uniformity import Uniformity
from shc.compiler.pipeline import Options, compile_file, compile_source
from shc.compiler.machine.rdna2 import occupancy

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLES = sorted(glob.glob(os.path.join(ROOT, "samples", "*.hlsl")))


def compile_hlsl(text: str, wave_size: int):
    return compile_source(dedent(text), "test.hlsl", Options(wave_size=wave_size, verify=True), Diagnostics())


def read_ir(text: str):
    module = read_module(dedent(text))
    Uniformity().run(module)
    Liveness().run(module)
    return module


def instructions(isa: str) -> list[str]:
    """The instruction lines of LLVM's assembly (no directives, labels or comments)."""
    return [line.strip() for line in isa.splitlines()
            if line.startswith("\t") and not line.strip().startswith((".", ";"))]


# -- the samples: valid LLVM IR that LLVM compiles, with sensible figures ------------------


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("path", SAMPLES, ids=lambda path: os.path.basename(path))
def test_every_sample_compiles_with_llvm(path, wave_size):
    module = compile_file(path, Options(wave_size=wave_size), Diagnostics())
    result = cross_check(module)
    assert result.ok, f"{result.message}\n{result.stderr}"
    threads = module.function.numthreads[0] * module.function.numthreads[1] * module.function.numthreads[2]
    assert 1 <= result.vgprs <= 256 and result.vgpr_spills == 0
    assert 1 <= result.sgprs <= 108
    exchange = 0
    if "@shc.exchange" in result.llvm_ir:  # lds_exchange's area, beyond the kernel's groupshared
        exchange = int(re.search(r"@shc.exchange = .*\[(\d+) x i8\]", result.llvm_ir).group(1))
    assert result.lds == module.lds_bytes + exchange
    if not module.scratch_bytes:
        assert result.scratch == 0
    # LLVM's occupancy is the RDNA2 formula applied to LLVM's own figures
    waves = occupancy(result.vgprs, result.sgprs, result.lds, threads, module.function.wave_size)
    assert waves.waves_per_simd == result.occupancy
    assert f"+wavefrontsize{module.function.wave_size}" in result.llvm_ir
    assert f'"amdgpu-flat-work-group-size"="{threads},{threads}"' in result.llvm_ir


def test_data_layout_is_the_target_machines():
    probe = subprocess.run([sys.executable, "-c", dedent("""
        import llvmlite.binding as llvm
        llvm.initialize_all_targets()
        target = llvm.Target.from_triple("amdgcn-amd-amdhsa")
        print(target.create_target_machine(cpu="gfx1030").target_data)
    """)], capture_output=True, text=True, timeout=120)
    assert probe.returncode == 0, probe.stderr
    assert probe.stdout.strip() == DATA_LAYOUT


# -- DPP: LLVM's own combine folds shc's moves into the VALU op -----------------------------

QUAD_SUM = """
RWStructuredBuffer<float> data : register(u0);

[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float v = data[i];
    data[i] = v + QuadReadAcrossX(v);
}
"""


@pytest.mark.parametrize("optimize", [False, True], ids=["codegen", "O2"])
@pytest.mark.parametrize("wave_size", [32, 64])
def test_quad_reduction_is_a_v_add_f32_dpp(wave_size, optimize):
    module = compile_hlsl(QUAD_SUM, wave_size)
    text = to_llvm_ir(module)
    assert "call i32 @llvm.amdgcn.update.dpp.i32(i32 poison, i32" in text  # quad_perm:[1,0,3,2] is 177
    assert "i32 177, i32 15, i32 15, i1 true)" in text
    result = cross_check(module, optimize=optimize)
    assert result.ok, result.message
    assert result.optimized == optimize
    dpp_adds = [line for line in instructions(result.isa) if line.startswith("v_add_f32_dpp")]
    assert len(dpp_adds) == 1, result.isa
    assert re.search(r"quad_perm:\[1,0,3,2\] row_mask:0xf bank_mask:0xf bound_ctrl:1", dpp_adds[0])
    assert not any(line.startswith("v_mov_b32_dpp") for line in instructions(result.isa))


@pytest.mark.parametrize("control, encoding", [
    ("quad_perm:[1,0,3,2]", 0xB1), ("quad_perm:[0,0,0,0]", 0x00), ("quad_perm:[3,3,3,3]", 0xFF),
    ("quad_perm:[2,3,0,1]", 0x4E), ("row_shl:1", 0x101), ("row_shr:1", 0x111), ("row_shr:15", 0x11F),
    ("row_ror:4", 0x124), ("row_mirror", 0x140), ("row_half_mirror", 0x141), ("row_share:3", 0x153),
    ("row_xmask:15", 0x16F), ("row_xmask:0", 0x160),
])
def test_dpp_control_words_are_llvms(control, encoding):
    """SIDefines.h DppCtrl: QUAD_PERM 0x00-0xFF, ROW_SHL0 0x100, ROW_SHR0 0x110, ROW_ROR0 0x120,
    ROW_MIRROR 0x140, ROW_HALF_MIRROR 0x141, ROW_SHARE0 0x150, ROW_XMASK0 0x160."""
    assert dpp_control(control) == encoding


@pytest.mark.parametrize("control", ["row_bcast:15", "row_bcast:31", "wave_shl:1", "row_shr:0", "row_shl:16",
                                     "quad_perm:[4,0,0,0]"])
def test_dpp_controls_rdna_lacks_are_errors(control):
    with pytest.raises(AmdgcnError):
        dpp_control(control)


# -- register counts by hand --------------------------------------------------------------

SCALE = """
resource @inp StructuredBuffer<float4> t0 space0
resource @out RWStructuredBuffer<float4> u0 space0
func @main numthreads(64, 1, 1) wave{wave} {{
^entry:
  %0 = thread_input uint {{which="group_index"}}
  %1 = buffer_load float4 %0 {{resource="inp"}}
  %2 = const float4 {{value=[2.0, 2.0, 2.0, 2.0]}}
  %3 = mul float4 %1, %2
  buffer_store %0, %3 {{resource="out"}}
  ret
}}
"""

PRODUCT = """
resource @a StructuredBuffer<float4> t0 space0
resource @b StructuredBuffer<float4> t1 space0
resource @out RWStructuredBuffer<float4> u0 space0
func @main numthreads(64, 1, 1) wave{wave} {{
^entry:
  %0 = thread_input uint {{which="group_index"}}
  %1 = buffer_load float4 %0 {{resource="a"}}
  %2 = buffer_load float4 %0 {{resource="b"}}
  %3 = mul float4 %1, %2
  buffer_store %0, %3 {{resource="out"}}
  ret
}}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("kernel, vgprs", [(SCALE, 5), (PRODUCT, 9)], ids=["scale", "product"])
def test_hand_counted_vgprs(kernel, vgprs, wave_size):
    """scale: the element's byte offset (1) and the loaded float4 (4), scaled in place.
    product: the offset, two float4s live at the multiply: 1 + 4 + 4."""
    module = read_ir(kernel.format(wave=wave_size))
    result = cross_check(module)
    assert result.ok, result.message
    assert result.vgprs == vgprs
    assert module.analyses["liveness"].vgprs == vgprs
    assert result.scratch == 0 and result.occupancy == 16


def test_tight_search_finds_the_fewest_vgprs_without_spills():
    module = read_ir(PRODUCT.format(wave=32))
    result = cross_check(module, tight=True)
    assert result.ok and result.tight_vgprs == 9


# -- the lane-exchange primitives ----------------------------------------------------------

PRIMITIVES = """
resource @inp StructuredBuffer<uint> t0 space0
resource @out RWStructuredBuffer<uint> u0 space0
resource @halves RWStructuredBuffer<half4> u1 space0
func @main numthreads(64, 1, 1) wave{wave} {{
^entry:
  %0 = thread_input uint {{which="group_index"}}
  %1 = buffer_load uint %0 {{resource="inp"}}
  %2 = const uint {{value=0}}
  %3 = dpp16 uint %1, %2 {{bank_mask=15, bound_ctrl=true, ctrl="row_shr:1", row_mask=15}}
  %4 = dpp16 uint %3, %1 {{bank_mask=3, bound_ctrl=false, ctrl="row_xmask:5", row_mask=15}}
  %5 = dpp8 uint %4, %2 {{selects=[7, 6, 5, 4, 3, 2, 1, 0]}}
  %6 = permlanex16 uint %5, %5 {{bound_ctrl=false, fetch_inactive=false, selects={reversed16}}}
  %7 = ds_swizzle uint %6, %2 {{offset=31}}
  %8 = const uint {{value=4}}
  %9 = mul uint %0, %8
  %10 = ds_bpermute uint %7, %2, %9
  %11 = const uint {{value=3}}
  %12 = readlane uint %10, %11
  %13 = readfirstlane uint %10
  %14 = writelane uint %10, %13, %11
  %15 = add uint %14, %12
  %16 = set_inactive uint %15, %2
  %17 = add uint %16, %16 {{bank_mask=15, bound_ctrl=true, dpp="row_mirror", row_mask=15, wwm=true}}
  %18 = const {mask} {{value={ones}}}
  %19 = mbcnt uint %18, %2
  %20 = lt bool %19, %17
  %21 = ballot_mask {mask} %20
  %22 = bcnt uint %21
  %23 = mbcnt uint %21, %22
  %24 = lds_exchange uint %23, %2, %11
  %25 = add uint %24, %17
  buffer_store %0, %25 {{resource="out"}}
  %26 = buffer_load half4 %0 {{resource="halves"}}
  %27 = const half4 {{value=[0.0, 0.0, 0.0, 0.0]}}
  %28 = dpp16 half4 %26, %27 {{bank_mask=15, bound_ctrl=true, ctrl="quad_perm:[1,0,3,2]", row_mask=15}}
  buffer_store %0, %28 {{resource="halves"}}
  ret
}}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
def test_every_lane_exchange_primitive_reaches_the_isa(wave_size):
    mask, ones = ("uint", 0xFFFFFFFF) if wave_size == 32 else ("uint64_t", (1 << 64) - 1)
    module = read_ir(PRIMITIVES.format(wave=wave_size, mask=mask, ones=ones, reversed16=list(range(15, -1, -1))))
    text = to_llvm_ir(module)
    assert "@llvm.amdgcn.strict.wwm.i32" in text  # the whole-wave add, read by normal code
    result = cross_check(module)
    assert result.ok, f"{result.message}\n{result.stderr}"
    isa = "\n".join(instructions(result.isa))
    for expected in ("row_shr:1", "row_xmask:5", "dpp8:[7,6,5,4,3,2,1,0]", "v_permlanex16_b32", "ds_swizzle_b32",
                     "ds_bpermute_b32", "v_readlane_b32", "v_readfirstlane_b32", "v_writelane_b32",
                     "row_mirror", "v_mbcnt_lo_u32_b32", "s_bcnt1_i32", "quad_perm:[1,0,3,2]"):
        assert expected in isa, expected
    assert ("v_mbcnt_hi_u32_b32" in isa) == (wave_size == 64)
    assert ("s_or_saveexec_b64" in isa) == (wave_size == 64)  # whole-wave mode: exec = all ones


# -- a kernel using most of the language ---------------------------------------------------

KITCHEN_SINK = """
cbuffer params : register(b0) { float scale; uint count; float4 tint; int offsets[4]; };
StructuredBuffer<float4> inputs : register(t0);
ByteAddressBuffer raw : register(t1);
Texture3D<float4> volume : register(t2);
Texture1D<float> line1 : register(t3);
Texture2D<half4> halves : register(t4);
SamplerState linearClamp : register(s0);
RWStructuredBuffer<float4> outputs : register(u0);
RWByteAddressBuffer counters : register(u1);
RWTexture2D<uint> ids : register(u2);
RWBuffer<float2> typed : register(u3);
groupshared float4 tile[64];
groupshared uint hits;

[numthreads(8, 8, 1)]
void main(uint3 tid : SV_DispatchThreadID, uint3 gtid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4 v = inputs[tid.x % count];
    uint bits = raw.Load(gi * 4);
    float x = v.x * scale;
    float r = sqrt(abs(x)) + rsqrt(abs(x) + 1.0) + exp(x) + log(abs(x) + 1.0) + pow(abs(x), 2.2)
            + sin(x) + cos(x) + tan(x) + atan2(v.y, v.z) + asin(saturate(v.w)) + acos(saturate(v.w))
            + atan(x) + sinh(x) + cosh(x) + tanh(x) + frac(x) + floor(x) + ceil(x) + round(x) + trunc(x)
            + smoothstep(0.0, 1.0, x) + lerp(v.x, v.y, 0.25) + step(0.5, x) + fmod(x, 3.0) + ldexp(x, 2.0)
            + degrees(x) + radians(x) + length(v.xyz) + distance(v.xy, v.zw) + dot(v, tint);
    float3 n = normalize(v.xyz) + cross(v.xyz, tint.xyz);
    int s = sign(x) + asint(r) / (int(gi) + 1) % 7;
    uint b = countbits(bits) + firstbitlow(bits) + firstbithigh(bits) + reversebits(bits) + (bits >> 3)
           + (bits << gtid.y);
    uint h = f32tof16(x) | (f32tof16(r) << 16);
    float back = f16tof32(h) + f16tof32(h >> 16);
    bool ok = isnan(x) || isinf(r) || !isfinite(back) || all(v > 0) || any(v < 0);
    float4 vol = volume.Load(int4(tid.xyz, 0)) + volume.SampleLevel(linearClamp, n, 1.5);
    float l = line1.Load(int2(gi, 1));
    half4 hv = halves.Load(int3(gtid.xy, 0));
    uint w, hgt;
    halves.GetDimensions(w, hgt);
    tile[gi] = vol * l + float4(hv) + float(w + hgt);
    if (gi == 0)
        hits = 0;
    GroupMemoryBarrierWithGroupSync();
    uint before;
    InterlockedAdd(hits, b & 1, before);
    InterlockedMax(hits, b);
    uint prior;
    counters.InterlockedAdd(0, 1, prior);
    counters.InterlockedCompareExchange(4, prior, gi, prior);
    float4 sum = 0;
    for (uint k = 0; k < count; ++k)
        sum += tile[(gi + k) % 64];
    switch (gi % 3)
    {
    case 0: sum.x += 1; break;
    case 1: sum.y += 2;
    default: sum.z += 3; break;
    }
    ids[tid.xy] = b + h + s + before + offsets[gi & 3];
    typed[gi] = float2(back, ok ? 1.0 : 0.0);
    outputs[tid.x] = sum + float4(r, n) + (ok ? 1.0 : 0.0) + min(v, tint) + max(v, 0) + clamp(v, 0, 1)
                   + float4(min(s, 3), max(int(b), -2), clamp(int(gi), 1, 5), abs(s));
}
"""


@pytest.mark.parametrize("wave_size", [32, 64])
def test_kitchen_sink_kernel_compiles(wave_size):
    module = compile_hlsl(KITCHEN_SINK, wave_size)
    result = cross_check(module, optimize=False)
    assert result.ok, f"{result.message}\n{result.stderr}"
    isa = "\n".join(instructions(result.isa))
    for expected in ("image_sample_l", "SQ_RSRC_IMG_3D", "SQ_RSRC_IMG_1D", " d16", "image_get_resinfo",
                     "buffer_atomic_add", "buffer_atomic_cmpswap", "ds_add_rtn_u32", "ds_max_u32",
                     "v_bfrev_b32", "v_ffbh_u32", "v_ffbl_b32", "v_bcnt_u32_b32",
                     "v_cvt_f16_f32", "v_cvt_f32_f16", "v_sqrt_f32", "v_exp_f32", "v_log_f32", "v_sin_f32"):
        assert expected in isa, expected
    # 64 threads are one wave64: LLVM drops the barrier there, as it should
    assert ("s_barrier" in isa) == (wave_size == 32)
    assert result.lds == module.lds_bytes
    # an 8x8 group reads the thread id's y (v1 on gfx1030), never z
    assert '"amdgpu-no-workitem-id-y"' not in result.llvm_ir
    assert '"amdgpu-no-workitem-id-z"' in result.llvm_ir


# -- the kernel's shape --------------------------------------------------------------------


def test_kernel_attributes_and_resources():
    module = compile_file(os.path.join(ROOT, "samples", "spd.hlsl"), Options(wave_size=64), Diagnostics())
    text = to_llvm_ir(module)
    assert "define amdgpu_kernel void @main(" in text
    assert '"amdgpu-flat-work-group-size"="256,256"' in text
    assert "!0 = !{i32 256, i32 1, i32 1}" in text
    assert '"target-features"="+wavefrontsize64"' in text
    assert '"amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z"' in text  # a 1-D group
    assert f"@shc.lds = internal addrspace(3) global [{module.lds_bytes} x i8] poison, align 16" in text
    # a cbuffer is a constant pointer, a texture an image descriptor, a resource array a table
    assert re.search(r"ptr addrspace\(4\) noalias readonly align 16 %r\d+\.spdConstants", text)
    assert re.search(r"<8 x i32> %r\d+\.imgSrc", text)
    assert re.search(r"ptr addrspace\(4\) noalias readonly align 32 %r\d+\.imgDst\b", text)
    assert re.search(r"<4 x i32> %r\d+\.spdGlobalAtomic", text)
    assert "@llvm.amdgcn.raw.buffer.atomic.add.i32" in text
    assert 'fence syncscope("workgroup") release' in text and "@llvm.amdgcn.s.barrier()" in text
    # every IR instruction is shown above its lowering
    assert "  ; %0 = thread_input uint3 {which=\"group_id\"}" in text


def test_wave_ops_must_be_lowered_first():
    module = read_module(dedent("""
        resource @out RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const float {value=1.0}
          %2 = wave_active float %1 {fn="sum"}
          buffer_store %0, %2 {resource="out"}
          ret
        }
    """))
    with pytest.raises(AmdgcnError, match="lower-wave-ops"):
        to_llvm_ir(module)
    result = cross_check(module)  # the cross-check reports it instead of raising
    assert not result.ok and "wave_active has no amdgcn lowering" in result.message


# -- failures become messages, never a crash -----------------------------------------------

ABORTS = """
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %p, <8 x i32> %image) {
  %v = call <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i32(i32 15, i32 0, i32 0, <8 x i32> %image, i32 0, i32 99)
  store <4 x float> %v, ptr addrspace(1) %p
  ret void
}
declare <4 x float> @llvm.amdgcn.image.load.2d.v4f32.i32(i32, i32, i32, <8 x i32>, i32, i32)
"""

FATAL = """
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  %x = load i32, ptr addrspace(1) %p
  %d = call i32 @llvm.amdgcn.update.dpp.i32(i32 0, i32 %x, i32 322, i32 15, i32 15, i1 true)
  store i32 %d, ptr addrspace(1) %p
  ret void
}
declare i32 @llvm.amdgcn.update.dpp.i32(i32, i32, i32, i32, i32, i1)
"""


def test_invalid_ir_is_a_failure_message():
    result = compile_llvm_ir("define amdgpu_kernel void @k( {", 32)
    assert isinstance(result, LlvmFailure) and not result.ok
    assert result.message.startswith("LLVM rejected the kernel")
    assert "error" in result.stderr


def test_an_llvm_abort_is_a_failure_message():
    """A cache policy of 99 leaves LLVM unable to select the image load: it aborts
    ("LLVM ERROR: Cannot select"); the child dies, we do not."""
    result = compile_llvm_ir(ABORTS, 32)
    assert isinstance(result, LlvmFailure)
    assert result.message.startswith("LLVM aborted (signal")
    assert result.llvm_ir == ABORTS


def test_an_llvm_fatal_error_is_a_failure_message():
    result = compile_llvm_ir(FATAL, 32)  # dpp_ctrl 0x142 is row_bcast:15, gone on GFX10
    assert isinstance(result, LlvmFailure)
    assert "broadcasts are not supported on GFX10+" in result.message


def test_a_timeout_is_a_failure_message():
    result = compile_llvm_ir(ABORTS, 32, timeout=0.001)
    assert isinstance(result, LlvmFailure) and "did not finish" in result.message


def test_asking_for_the_other_wave_size_is_a_failure():
    module = read_ir(SCALE.format(wave=32))
    result = cross_check(module, wave_size=64)
    assert not result.ok and "compiled for wave32" in result.message


def test_figures_come_from_the_verbose_assembly():
    isa = dedent("""
        \t\t.amdhsa_group_segment_fixed_size 4100
        \t\t.amdhsa_next_free_vgpr 40
        ; TotalNumSgprs: 34
        ; NumVgprs: 39
        ; ScratchSize: 0
        ; Occupancy: 12
            .vgpr_spill_count: 2
    """)
    assert parse_figures(isa) == {"vgprs": 39, "sgprs": 34, "occupancy": 12, "lds": 4100, "scratch": 0,
                                  "vgpr_spills": 2, "sgpr_spills": 0}
    with pytest.raises(ValueError, match="occupancy"):
        parse_figures(isa.replace("; Occupancy: 12", ""))


WIDE_AND_ODD_VALUES = """
resource @w StructuredBuffer<double4> t0 space0
resource @h StructuredBuffer<half3> t1 space0
resource @v StructuredBuffer<float4> t2 space0
resource @out RWStructuredBuffer<double4> u0 space0
resource @hout RWStructuredBuffer<half3> u1 space0
resource @b RWStructuredBuffer<bool2> u2 space0
resource @rows RWStructuredBuffer<float4> u3 space0
func @main numthreads(64, 1, 1) wave32 {
^entry:
  %0 = thread_input uint {which="group_index"}
  %1 = const uint {value=3}
  %2 = buffer_load double4 %1 {resource="w"}
  %3 = buffer_load double4 %0 {resource="w"}
  %4 = add double4 %2, %3
  buffer_store %0, %4 {resource="out"}
  %5 = buffer_load half3 %0 {resource="h"}
  buffer_store %0, %5 {resource="hout"}
  %6 = buffer_load bool2 %0 {resource="b"}
  %7 = not bool2 %6
  buffer_store %0, %7 {resource="b"}
  %8 = buffer_load float4 %0 {resource="v"}
  %9 = construct float4x4 %8, %8, %8, %8
  %10 = extract float4 %9 {index=2}
  %11 = mul float4 %10, %10
  %12 = insert float4x4 %9, %11, %0
  %13 = extract float4 %12, %1
  buffer_store %0, %13 {resource="rows"}
  ret
}
"""


def test_wide_odd_and_boolean_values_through_buffers():
    """A double4 is two dword-x4 accesses (scalar ones at a uniform index of a read-only
    buffer), a half3 a dword and a short, a bool2 two words; matrix rows by dynamic index."""
    module = read_ir(WIDE_AND_ODD_VALUES)
    text = to_llvm_ir(module)
    assert text.count("@llvm.amdgcn.s.buffer.load.v4i32(") == 2 + 1  # two calls and the declaration
    assert "@llvm.amdgcn.raw.buffer.load.i16(" in text and "@llvm.amdgcn.raw.buffer.store.i16(" in text
    result = cross_check(module, optimize=False)
    assert result.ok, f"{result.message}\n{result.stderr}"
    isa = "\n".join(instructions(result.isa))
    for expected in ("s_buffer_load_dwordx", "buffer_load_ushort", "buffer_store_short", "v_add_f64",
                     "buffer_store_dwordx4"):
        assert expected in isa, expected
