"""The RDNA2 device table and occupancy formula, by hand and against LLVM's AMDGPU backend."""

import json
import subprocess
import sys
import textwrap

import pytest

from shc.compiler.machine.rdna2 import RDNA2, next_step_vgprs, occupancy, vgprs_allocated


def test_allocation_granule_is_16_in_wave32_and_8_in_wave64():
    assert [vgprs_allocated(n, 32) for n in (0, 1, 16, 17, 41, 84, 256)] == [16, 16, 16, 32, 48, 96, 256]
    assert [vgprs_allocated(n, 64) for n in (0, 1, 8, 9, 41, 84, 256)] == [8, 8, 8, 16, 48, 88, 256]


@pytest.mark.parametrize("vgprs, wave, waves", [
    (24, 32, 16),   # 1024 // 32 = 32, capped at 16 wave slots
    (48, 32, 16),   # 1024 // 48 = 21 -> 16
    (64, 32, 16),
    (65, 32, 12),   # 80 allocated: 1024 // 80 = 12
    (84, 32, 10),   # 96 allocated: 1024 // 96 = 10
    (128, 32, 8),
    (256, 32, 4),
    (41, 64, 10),   # wave64, granule 8: 48 allocated, 512 // 48 = 10
    (32, 64, 16),
    (33, 64, 12),   # 40 allocated: 512 // 40 = 12
    (128, 64, 4),
    (256, 64, 2),
])
def test_vgpr_limited_occupancy(vgprs, wave, waves):
    result = occupancy(vgprs, 30, 0, 64, wave)
    assert result.by_limit["vgprs"] == waves
    assert result.waves_per_simd == waves
    assert result.limiter == ("waves" if waves == 16 else "vgprs")


def test_spd_is_not_lds_limited():
    # SPD: 256 threads, four 16x16 float planes plus the atomic counter = 4100 bytes.
    # 131072 // 4100 = 31 groups fit by LDS, but a WGP holds 64 // 8 = 8 groups of 8 waves.
    result = occupancy(44, 30, 4100, 256, 32)
    assert result.by_limit == {"vgprs": 16, "lds": 16, "waves": 16}
    assert (result.waves_per_simd, result.limiter) == (16, "waves")
    # With 20000 bytes only 6 groups fit: 6 * 8 waves over 4 SIMDs = 12.
    result = occupancy(44, 30, 20000, 256, 32)
    assert (result.waves_per_simd, result.limiter) == (12, "lds")
    # In wave64 the same group is 4 waves: 6 groups -> ceil(24 / 4) = 6.
    assert occupancy(44, 30, 20000, 256, 64).by_limit["lds"] == 6


def test_lds_limited_small_groups_and_full_lds():
    # two-wave groups with 16 KiB each: 8 groups -> 16 waves -> 4 per SIMD
    result = occupancy(20, 10, 16384, 64, 32)
    assert (result.waves_per_simd, result.limiter) == (4, "lds")
    # 64 KiB per group: 2 groups of one wave -> ceil(2 / 4) = 1
    assert occupancy(20, 10, 65536, 32, 32).waves_per_simd == 1


def test_group_slots_limit_odd_wave_counts():
    # 160 threads in wave32 are 5 waves; 64 // 5 = 12 groups -> 60 waves -> 15 per SIMD
    result = occupancy(10, 10, 0, 160, 32)
    assert (result.waves_per_simd, result.limiter) == (15, "waves")


def test_limiter_prefers_vgprs_on_a_tie():
    tie = occupancy(84, 10, 26214, 256, 32)  # 5 groups -> 10 per SIMD, as the VGPRs allow
    assert tie.by_limit["lds"] == 10 and tie.limiter == "vgprs"


@pytest.mark.parametrize("vgprs, wave, free", [
    (84, 32, 4),      # 10 waves at 96; 11 waves need <= 93 -> 80 (which gives 12)
    (128, 32, 16),    # 8 waves; 9 need <= 113 -> 112
    (256, 32, 64),    # 4 waves; 5 need <= 204 -> 192
    (65, 32, 1),      # 12 waves at 80; 13 need <= 78 -> 64 (16 waves)
    (48, 32, None),   # already 16
    (41, 64, 1),      # 10 waves at 48; 11 need <= 46 -> 40 (12 waves)
    (256, 64, 88),    # 2 waves; 3 need <= 170 -> 168
])
def test_next_step_vgprs(vgprs, wave, free):
    assert next_step_vgprs(vgprs, wave) == free
    if free is not None:
        assert RDNA2.waves_for_vgprs(vgprs - free, wave) > RDNA2.waves_for_vgprs(vgprs, wave)
        assert RDNA2.waves_for_vgprs(vgprs - free + 1, wave) == RDNA2.waves_for_vgprs(vgprs, wave)


def test_rejects_other_wave_sizes():
    with pytest.raises(ValueError):
        vgprs_allocated(10, 16)


# -- the cross-check against LLVM ------------------------------------------------------------

_LLVM_PROBE = textwrap.dedent("""
    import json, re, sys
    import llvmlite.binding as llvm
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()
    machines = {}
    results = []
    for threads, lds, wave, vgprs in json.loads(sys.argv[1]):
        body = ""
        decl = ""
        if lds:
            decl = f"@lds = internal addrspace(3) global [{lds // 4} x i32] undef, align 4"
            body = (f"  %p = getelementptr [{lds // 4} x i32], ptr addrspace(3) @lds, i32 0, i32 %tid\\n"
                    "  store volatile i32 %tid, ptr addrspace(3) %p\\n")
        if vgprs:
            body += f'  call void asm sideeffect "; clobber", "~{{v{vgprs - 1}}}"()\\n'
        ir = f'''
    target triple = "amdgcn-amd-amdhsa"
    {decl}
    declare i32 @llvm.amdgcn.workitem.id.x()
    define amdgpu_kernel void @k() #0 {{
      %tid = call i32 @llvm.amdgcn.workitem.id.x()
    {body}  ret void
    }}
    attributes #0 = {{ "amdgpu-flat-work-group-size"="{threads},{threads}" }}
    '''
        if wave not in machines:
            target = llvm.Target.from_triple("amdgcn-amd-amdhsa")
            machines[wave] = target.create_target_machine(cpu="gfx1030", features=f"+wavefrontsize{wave}")
            machines[wave].set_asm_verbosity(True)
        asm = machines[wave].emit_assembly(llvm.parse_assembly(ir))
        results.append([int(re.search(pat, asm).group(1)) for pat in
                        (r"; Occupancy: (\\d+)", r"; NumVgprs: (\\d+)",
                         r"group_segment_fixed_size (\\d+)")])
    print(json.dumps(results))
""")

_CASES = [
    (threads, lds, wave, vgprs)
    for wave in (32, 64)
    for threads, lds in ((64, 0), (160, 0), (256, 4100), (256, 20000), (64, 16384), (1024, 32768),
                         (320, 8192), (32, 65536))
    for vgprs in (0, 41, 84)
] + [(64, 0, wave, vgprs) for wave in (32, 64) for vgprs in (16, 17, 33, 65, 100, 129, 171, 256)]


def test_occupancy_matches_llvm_amdgpu_for_gfx1030():
    """LLVM's own ``; Occupancy`` for kernels whose VGPR count and LDS size we force.

    The kernel pins its group size exactly (``amdgpu-flat-work-group-size`` = N,N): with a
    range 1,N LLVM reports the best occupancy over every group size up to N, which for
    odd wave counts per group (160 threads: 5 waves) is one wave higher than N allows.
    Runs in a subprocess: this LLVM is built with assertions and aborts on bad input.
    """
    probe = subprocess.run([sys.executable, "-c", _LLVM_PROBE, json.dumps(_CASES)],
                           capture_output=True, text=True, timeout=300)
    # llvmlite's wheels ship the AMDGPU target; a failure here is a real failure.
    assert probe.returncode == 0, probe.stderr.strip()[-2000:]
    for (threads, lds, wave, _), (llvm_waves, llvm_vgprs, llvm_lds) in zip(_CASES, json.loads(probe.stdout)):
        ours = occupancy(llvm_vgprs, 0, llvm_lds, threads, wave)
        assert ours.waves_per_simd == llvm_waves, (threads, lds, wave, llvm_vgprs, ours)
