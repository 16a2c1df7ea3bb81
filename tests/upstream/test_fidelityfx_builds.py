"""AMD's FidelityFX CAS, FSR 1 and FSR 2 shaders, unmodified, build host kernels and RDNA2
listings (read from ``../shared/upstream/fidelityfx``; skipped only when it is absent).

Each variant here once failed: packed-half subtraction in the RDNA2 back end (CAS and FSR 1
in fp16), and host LLVM IR reading a value where it was not available (FSR 1 RCAS/EASU, FSR 2
rcas and depth_clip). The project's own tests cover each construct with code of its own
(tests/backend/test_executors_agree.py); these check the real files still build.
"""

import os
import sys
from pathlib import Path

import pytest
import shc
from shc.compiler.backend.rdna2.operand_classes import operand_class_problems

sys.path.insert(0, os.path.dirname(os.path.dirname(__file__)))
import cli_runner  # noqa: E402

UPSTREAM = Path(__file__).resolve().parents[2].parent / "shared" / "upstream" / "fidelityfx"
SIZE = {"WIDTH": "64", "HEIGHT": "1", "DEPTH": "1"}
FSR2 = {"FFX_GPU": "1", "FFX_HLSL": "1", "FFX_FSR2_OPTION_HDR_COLOR_INPUT": "0",
        "FFX_FSR2_OPTION_LOW_RESOLUTION_MOTION_VECTORS": "1", "FFX_FSR2_OPTION_JITTERED_MOTION_VECTORS": "0",
        "FFX_FSR2_OPTION_INVERTED_DEPTH": "0", "FFX_FSR2_OPTION_APPLY_SHARPENING": "1"}

VARIANTS = {
    "cas_fp16": ("cas/CAS_Shader.hlsl", "mainCS", {**SIZE, "CAS_SAMPLE_FP16": "1", "CAS_SAMPLE_SHARPEN_ONLY": "0"}),
    "easu_fp32": ("fsr/FSR_Pass.hlsl", "mainCS", {**SIZE, "SAMPLE_SLOW_FALLBACK": "1", "SAMPLE_EASU": "1"}),
    "easu_fp16": ("fsr/FSR_Pass.hlsl", "mainCS", {**SIZE, "SAMPLE_SLOW_FALLBACK": "0", "SAMPLE_EASU": "1"}),
    "rcas_fp32": ("fsr/FSR_Pass.hlsl", "mainCS", {**SIZE, "SAMPLE_SLOW_FALLBACK": "1", "SAMPLE_RCAS": "1"}),
    "rcas_fp16": ("fsr/FSR_Pass.hlsl", "mainCS", {**SIZE, "SAMPLE_SLOW_FALLBACK": "0", "SAMPLE_RCAS": "1"}),
    "fsr2_rcas_fp16": ("fsr2/ffx_fsr2_rcas_pass.hlsl", "CS", {**FSR2, "FFX_HALF": "1"}),
    "fsr2_depth_clip_fp32": ("fsr2/ffx_fsr2_depth_clip_pass.hlsl", "CS", {**FSR2, "FFX_HALF": "0"}),
    # reads the luma mip chain through tex.mips[level][pos] (r_imgMips)
    "fsr2_accumulate_fp32": ("fsr2/ffx_fsr2_accumulate_pass.hlsl", "CS", {**FSR2, "FFX_HALF": "0"}),
    "fsr2_accumulate_fp16": ("fsr2/ffx_fsr2_accumulate_pass.hlsl", "CS", {**FSR2, "FFX_HALF": "1"}),
}

# FSR 1's ffx_a.h picks per component with a vector condition in ?: (HLSL 2018); like DXC, shc
# needs -HV 2018 for it (HLSL 2021 asks for select()).
HLSL_2018 = {"easu_fp32", "easu_fp16", "rcas_fp32", "rcas_fp16"}

pytestmark = pytest.mark.skipif(not UPSTREAM.is_dir(), reason="the upstream FidelityFX shaders are not beside the project")


def rdna2_listing(name: str, wave: int, cache) -> str:
    """``shc compile --target rdna2`` of a variant, as a user types it (in-process, a fresh cache)."""
    path, entry, defines = VARIANTS[name]
    version = 2018 if name in HLSL_2018 else 2021
    flags = [arg for key, value in defines.items() for arg in ("-D", f"{key}={value}")]
    listing = cli_runner.shc("compile", UPSTREAM / path, "-E", entry, *flags, "-HV", version, "--target", "rdna2",
                             "--wave-size", wave, env={"SHC_CACHE_DIR": str(cache)})
    assert listing.returncode == 0, listing.stderr[-1500:]
    assert "s_endpgm" in listing.stdout
    assert operand_class_problems(listing.stdout) == []
    return listing.stdout


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_builds_a_host_kernel_and_an_rdna2_listing(name, tmp_path):
    path, entry, defines = VARIANTS[name]
    version = 2018 if name in HLSL_2018 else 2021
    kernel = shc.compile_file(UPSTREAM / path, entry=entry, defines=defines, hlsl_version=version)
    assert kernel.numthreads[0] * kernel.numthreads[1] * kernel.numthreads[2] >= 64
    rdna2_listing(name, 32, tmp_path)


@pytest.mark.parametrize("name", ["fsr2_accumulate_fp32", "fsr2_accumulate_fp16", "fsr2_depth_clip_fp32"])
def test_fsr2_wave64_listings_keep_descriptors_in_sgprs(name, tmp_path):
    """Issue #16: short of SGPRs at wave64, these once printed ``s_load_dwordx8 v[107:114]`` and
    ``scratch_store_dwordx8``; a descriptor is now loaded again where it is needed."""
    text = rdna2_listing(name, 64, tmp_path)
    assert "scratch_store_dwordx8" not in text and "scratch_load_dwordx8" not in text
