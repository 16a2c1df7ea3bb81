"""AMD's FidelityFX CAS and FSR 1 (EASU, RCAS) compute shaders, unmodified, run from Python
(read from ``../shared/upstream/fidelityfx``; skipped only when it is absent).

Each variant runs on a flat image and on noise, with the constants the headers' CPU setup
functions describe (tests/upstream/ffx_constants.py), wave32 and wave64:

- a flat colour stays flat: every pixel whose taps all lie inside the image is the same (the
  scaling paths up to rounding in their position-dependent weights) and equals the input colour
  (EASU exactly; CAS and RCAS divide by APrxMedRcp, the headers' medium-precision reciprocal, a
  bit trick and one Newton step that is low by at most 0.32% in float32, between -0.42% and
  +0.09% in float16, so those are within 2^-8 of it relatively in fp32 and 2^-7 in fp16, which
  adds the rounding of the few half operations after the loads). Pixels at the edge differ
  because ``Texture2D.Load`` outside the image reads 0 in D3D;
- noise spanning [0, 1] per channel stays finite and inside [0, 1]: ffx_cas.h promises CAS
  output in that range, and RCAS picks its lobe weight as the strongest that cannot leave it;
  EASU clamps each pixel to the min and max of the 2x2 input texels nearest it (its deringing),
  checked pixel by pixel;
- CAS without scaling and RCAS raise the contrast of the noise (the standard deviation of the
  pixels away from the edge: 0.288 in, 0.329 out of CAS, 0.300 out of RCAS);
- the wave32 and wave64 kernels write the same bits.
"""

import os
import sys
from pathlib import Path

import numpy as np
import pytest
import shc

sys.path.insert(0, os.path.dirname(__file__))
from ffx_constants import cas_setup, fsr_easu_con, fsr_rcas_con

UPSTREAM = Path(__file__).resolve().parents[2].parent / "shared" / "upstream" / "fidelityfx"
SIZE = {"WIDTH": "64", "HEIGHT": "1", "DEPTH": "1"}
IN = 32          # input images are IN x IN
SCALED = 48      # the output of the scaling variants (1.5x, 2.25x the area; CAS allows up to 4x)
FLAT = (0.25, 0.5, 0.75, 1.0)   # exact in float16 too


def fsr_cbuffer(constants: dict) -> dict:
    """FSR_Pass.hlsl's whole cbuffer: the pass's constants, zero words for those it leaves unused,
    and ``Sample.x = 0`` (1 would square the output, for its sRGB-ish display path)."""
    zero = np.zeros(4, np.uint32)
    return {"Const0": zero, "Const1": zero, "Const2": zero, "Const3": zero, "Sample": zero, **constants}


def cas(fp16: str, sharpen_only: str):
    return ("cas/CAS_Shader.hlsl", {**SIZE, "CAS_SAMPLE_FP16": fp16, "CAS_SAMPLE_SHARPEN_ONLY": sharpen_only})


def fsr(slow_fallback: str, pass_name: str):
    return ("fsr/FSR_Pass.hlsl", {**SIZE, "SAMPLE_SLOW_FALLBACK": slow_fallback, pass_name: "1"})


# name: (file, defines, output size, float16 texture data, HLSL version, constants)
VARIANTS = {
    "cas_fp32_sharpen": (*cas("0", "1"), IN, False, 2021, cas_setup(0.0, IN, IN, IN, IN)),
    "cas_fp32_scale": (*cas("0", "0"), SCALED, False, 2021, cas_setup(0.0, IN, IN, SCALED, SCALED)),
    "cas_fp16_sharpen": (*cas("1", "1"), IN, False, 2021, cas_setup(0.0, IN, IN, IN, IN)),
    "cas_fp16_scale": (*cas("1", "0"), SCALED, False, 2021, cas_setup(0.0, IN, IN, SCALED, SCALED)),
    # FSR 1's ffx_a.h needs HLSL 2018 (vector ?:), as with DXC (GPUOpen-Effects/FidelityFX-FSR#28)
    "easu_fp32": (*fsr("1", "SAMPLE_EASU"), SCALED, False, 2018, fsr_cbuffer(fsr_easu_con(IN, IN, SCALED, SCALED))),
    "easu_fp16": (*fsr("0", "SAMPLE_EASU"), SCALED, True, 2018, fsr_cbuffer(fsr_easu_con(IN, IN, SCALED, SCALED))),
    "rcas_fp32": (*fsr("1", "SAMPLE_RCAS"), IN, False, 2018, fsr_cbuffer(fsr_rcas_con(0.0))),
    "rcas_fp16": (*fsr("0", "SAMPLE_RCAS"), IN, True, 2018, fsr_cbuffer(fsr_rcas_con(0.0))),
}

SHARPEN_ONLY = sorted(name for name in VARIANTS if VARIANTS[name][2] == IN)   # CAS without scaling, RCAS

pytestmark = pytest.mark.skipif(not UPSTREAM.is_dir(), reason="the upstream FidelityFX shaders are not beside the project")


def noise() -> np.ndarray:
    """Random RGBA in [0, 1], each channel reaching 0 and 1, exact in float16."""
    image = np.random.default_rng(7).random((IN, IN, 4)).astype(np.float16).astype(np.float32)
    image[0, 0], image[IN - 1, IN - 1] = 0.0, 1.0
    image[5, 9], image[20, 3] = 1.0, 0.0
    return image


def run(name: str, kernel: shc.Kernel, image: np.ndarray) -> np.ndarray:
    """The output image of one dispatch (16x16 output pixels per group); NaN where nothing wrote."""
    _, _, out_size, half, _, constants = VARIANTS[name]
    dtype = np.float16 if half else np.float32
    out = np.full((out_size, out_size, 4), np.nan, dtype)
    groups = -(-out_size // 16)
    bindings = {"InputTexture": image.astype(dtype), "OutputTexture": out}
    if not name.startswith("cas"):       # EASU gathers through it; RCAS only declares it
        bindings["samLinearClamp"] = shc.Sampler(filter="linear", address="clamp")
    kernel.dispatch((groups, groups, 1), constants, **bindings)
    return out.astype(np.float32)


@pytest.fixture(scope="module")
def outputs():
    """Each variant's outputs, made on first use: the noise through its wave32 and its wave64
    kernel, and the flat image through the wave32 one. (The tests' ``name`` is parametrised at
    module scope, so pytest runs each variant's tests one after another: a test process that
    takes them compiles the variant once, not once per process that takes one of its tests.)"""
    made: dict[str, dict] = {}

    def of(name: str) -> dict:
        if name not in made:
            path, defines, _, _, version, _ = VARIANTS[name]
            made[name] = {}
            for wave in (32, 64):
                kernel = shc.compile_file(UPSTREAM / path, entry="mainCS", defines=defines,
                                          hlsl_version=version, wave_size=wave)
                made[name][wave] = run(name, kernel, noise())
                if wave == 32:
                    made[name]["flat"] = run(name, kernel, np.broadcast_to(np.float32(FLAT), (IN, IN, 4)))
        return made[name]

    return of


def inside(name: str) -> slice:
    """The output pixels (per axis) whose taps all lie inside the input image."""
    out_size = VARIANTS[name][2]
    if name.startswith("easu"):
        return slice(0, out_size)        # gathers through a clamping sampler: no edge
    if out_size == IN:
        return slice(1, IN - 1)          # a 3x3 window around the pixel
    # the scaling path reads input texels floor(p) - 1 .. floor(p) + 2, p = (x + 0.5) * IN / out - 0.5
    first = next(x for x in range(out_size) if np.floor((x + 0.5) * IN / out_size - 0.5) >= 1)
    last = max(x for x in range(out_size) if np.floor((x + 0.5) * IN / out_size - 0.5) <= IN - 3)
    return slice(first, last + 1)


@pytest.mark.parametrize("name", sorted(VARIANTS), scope="module")
def test_a_flat_image_stays_flat(name, outputs):
    rows = inside(name)
    flat = outputs(name)["flat"]
    rgb = flat[rows, rows, :3]
    assert rgb.size and np.isfinite(rgb).all()
    if VARIANTS[name][2] == IN:
        # the same arithmetic at every pixel; the scaling paths weigh four results by the pixel's
        # position, so rounding moves their last bits (covered by the tolerance below)
        assert (rgb == rgb[0, 0]).all(), f"{name}: {np.unique(rgb.reshape(-1, 3), axis=0)}"
    colour = np.float32(FLAT[:3])
    if name.startswith("easu"):
        assert (rgb == colour).all(), np.unique(rgb.reshape(-1, 3), axis=0)
    else:
        relative = 2.0 ** -7 if "fp16" in name else 2.0 ** -8
        assert (np.abs(rgb - colour) <= relative * colour).all(), np.unique(rgb.reshape(-1, 3), axis=0)
    assert (flat[..., 3] == (0.0 if name.startswith("cas_fp16") else 1.0)).all()


@pytest.mark.parametrize("name", sorted(VARIANTS), scope="module")
def test_noise_stays_in_range(name, outputs):
    out = outputs(name)[32][..., :3]
    assert np.isfinite(out).all(), f"{name}: {np.count_nonzero(~np.isfinite(out))} pixels not written or not finite"
    assert out.min() >= 0.0 and out.max() <= 1.0, (out.min(), out.max())
    assert out.std() > 0.05          # not a constant: the filter passed the noise through
    if name.startswith("easu"):
        image = noise()[..., :3]
        size = VARIANTS[name][2]
        centre = np.floor((np.arange(size) + 0.5) * IN / size - 0.5).astype(int)
        near = [np.clip(centre + step, 0, IN - 1) for step in (0, 1)]
        window = np.stack([image[near[dy]][:, near[dx]] for dy in (0, 1) for dx in (0, 1)])
        assert (out >= window.min(axis=0)).all() and (out <= window.max(axis=0)).all()


@pytest.mark.parametrize("name", SHARPEN_ONLY, scope="module")
def test_the_sharpeners_raise_the_contrast_of_noise(name, outputs):
    """CAS without scaling and RCAS spread noise apart (a wrong sign or size of the sharpness
    constant blurs it instead); EASU and CAS's scaling path interpolate, so they are left out."""
    image, out = noise()[1:-1, 1:-1, :3], outputs(name)[32][1:-1, 1:-1, :3]
    assert out.std() > 1.02 * image.std(), (out.std(), image.std())


@pytest.mark.parametrize("name", sorted(VARIANTS), scope="module")
def test_wave32_and_wave64_write_the_same_bits(name, outputs):
    assert outputs(name)[32].tobytes() == outputs(name)[64].tobytes()
