"""AMD's own FidelityFX SPD integration samples, unmodified, run from Python and checked bit
for bit against a NumPy model that adds in upstream's order.

The shaders are read from ``../shared/upstream/fidelityfx`` (they are not part of the
project); the tests are skipped only when that directory is absent. Every variant runs: the
DX12 and the Vulkan sample (``spd/``, ``spd-vk/``), ``SPDIntegration.hlsl`` and
``SPDIntegrationLinearSampler.hlsl``, each plain (quad wave ops), with
``SPD_NO_WAVE_OPERATIONS`` (groupshared only), with ``A_HALF`` + ``SPD_PACKED_ONLY`` (fp16,
``SpdDownsampleH``) and with all three; wave32, and each define set once more at wave64.

``upstream_reference`` is what ffx_spd.h computes. Each 2x2 block is ``SpdReduce4``:
``(v0 + v1 + v2 + v3) * 0.25``, left to right, in float32 (``float16`` for ``A_HALF``, whose
source texels are rounded to half as they are loaded). The order of v0..v3 depends on where
the four values come from: the loads from a texture (``SpdReduceLoadSourceImage4`` for mip 1,
``SpdReduceLoad4`` for mip 7 from mip 6 as stored) take ``base + (0,0), (0,1), (1,0),
(1,1)``, top-left, bottom-left, top-right, bottom-right; the quad ops (lanes ``quad | 0..3``,
which ``ARmpRed8x8`` puts at x and x + 1 on a row, then the row below) and each groupshared
reduction of the ``SPD_NO_WAVE_OPERATIONS`` path (followed through its intermediate layouts)
take top-left, top-right, bottom-left, bottom-right: mips 2..6 and 8..12. The linear-sampler
samples take mip 1 from one bilinear ``SampleLevel`` at ``p * invInputSize + invInputSize``,
the corner the 2x2 block's four texels share; the DX12 one then applies ``AToSrgbF1`` to red,
green and blue (the Vulkan one does not).

The source is 4096 x 1024, so all 12 mips run: 64 x 16 groups build mips 1..6, and the last
group (through the global atomic counter) reads a 64 x 64 block of mip 6 for mips 7..12.
Upstream does not clamp that read: mip 6 has 16 rows, D3D reads 0 below them, so mips 7..10
are box means of the source and mips 11 and 12 average in those zeros, as the model does.
Three 256 x 256 slices dispatched next (8 mips) have a last group each.
"""

from pathlib import Path

import numpy as np
import pytest
import shc
from shc.spd import mip_shape, spd_setup

UPSTREAM = Path(__file__).resolve().parents[2].parent / "shared" / "upstream" / "fidelityfx"

PLAIN, LINEAR = "SPDIntegration.hlsl", "SPDIntegrationLinearSampler.hlsl"
DEFINES = {
    "quad_ops": {},
    "lds_only": {"SPD_NO_WAVE_OPERATIONS": "1"},
    "packed": {"A_HALF": "1", "SPD_PACKED_ONLY": "1"},
    "packed_lds_only": {"A_HALF": "1", "SPD_PACKED_ONLY": "1", "SPD_NO_WAVE_OPERATIONS": "1"},
}
# every variant at wave32; at wave64 each define set once (the wave size changes only the
# lanes of the quad ops and the waves between barriers, which the four define sets cover)
KERNELS = [(folder, sample, options, 32) for folder in ("spd", "spd-vk") for sample in (PLAIN, LINEAR)
           for options in DEFINES] + [("spd", PLAIN, "quad_ops", 64), ("spd", LINEAR, "lds_only", 64),
                                      ("spd-vk", PLAIN, "packed", 64), ("spd-vk", LINEAR, "packed_lds_only", 64)]

pytestmark = pytest.mark.skipif(not UPSTREAM.is_dir(), reason="the upstream FidelityFX shaders are not beside the project")



@pytest.fixture(scope="module")
def source() -> np.ndarray:
    """1 x 1024 x 4096 RGBA noise: mips 1..12 (64 MiB, made by the test processes that use it)."""
    return np.random.default_rng(3).random((1, 1024, 4096, 4), dtype=np.float32)


@pytest.fixture(scope="module")
def slices() -> np.ndarray:
    """3 x 256 x 256 RGBA noise: a texture array of three slices, mips 1..8."""
    return np.random.default_rng(5).random((3, 256, 256, 4), dtype=np.float32)


# (dx, dy) of v0..v3 in SpdReduce4
LOADS = ((0, 0), (0, 1), (1, 0), (1, 1))  # SpdReduceLoadSourceImage4, SpdReduceLoad4
LANES = ((0, 0), (1, 0), (0, 1), (1, 1))  # SpdReduceQuad, SpdReduceIntermediate


def upstream_order(mip: int) -> tuple:
    """The order ffx_spd.h adds the 2x2 block of mip ``mip``'s pixel in (mip 7: the last group's loads)."""
    return LOADS if mip in (1, 7) else LANES


def reduce_2x2(level: np.ndarray, order: tuple) -> np.ndarray:
    """SpdReduce4 of each 2x2 block of an even-sized (S, H, W, C) level, in its own dtype."""
    v0, v1, v2, v3 = (level[:, dy::2, dx::2] for dx, dy in order)
    return (v0 + v1 + v2 + v3) * level.dtype.type(0.25)


def lerp(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    return a + t * (b - a)


def bilinear_block_corners(source: np.ndarray, x_first: bool = True) -> np.ndarray:
    """SampleLevel at ``(p + 1) / size`` (p = 0, 2, 4, ...) of a float32 (S, H, W, C) source with a
    linear clamping sampler, as shc filters: texel = u * size - 0.5, its floor and fraction t, then
    ``a + t * (b - a)`` across each row and down the column (``x_first``), in float32."""
    def taps(size: int):
        inverse = np.float32(1.0 / size)  # invInputSize as the constant buffer holds it
        p = np.arange(0, size, 2, dtype=np.float32)
        texel = (p * inverse + inverse) * np.float32(size) - np.float32(0.5)
        start = np.floor(texel)
        return (np.clip(start, 0, size - 1).astype(np.intp), np.clip(start + 1, 0, size - 1).astype(np.intp),
                texel - start)

    (x0, x1, tx), (y0, y1, ty) = taps(source.shape[2]), taps(source.shape[1])
    tx, ty = tx[None, None, :, None], ty[None, :, None, None]
    top, bottom = source[:, y0], source[:, y1]
    if x_first:
        return lerp(lerp(top[:, :, x0], top[:, :, x1], tx), lerp(bottom[:, :, x0], bottom[:, :, x1], tx), ty)
    left, right = source[:, :, x0], source[:, :, x1]
    return lerp(lerp(left[:, y0], left[:, y1], ty), lerp(right[:, y0], right[:, y1], ty), tx)


def to_srgb(c: np.ndarray) -> np.ndarray:
    """ffx_a.h's AToSrgbF1 in float32: ``max(min(c * 12.92, 0.0031308), 1.055 * pow(c, 0.41666) - 0.055)``,
    with ``pow`` as DXC lowers it: ``exp2(log2(c) * y)``, each base-2 function correctly rounded to
    float32 (README, "Transcendentals"), the product rounded to float32 between them."""
    f = np.float32
    log2 = np.log2(c.astype(np.float64)).astype(f)
    power = np.exp2((log2 * f(0.41666)).astype(np.float64)).astype(f)
    return np.maximum(np.minimum(c * f(12.92), f(0.0031308)), f(1.055) * power - f(0.055))


def upstream_reference(source: np.ndarray, mips: int, *, half: bool = False, linear_sampler: bool = False,
                       srgb: bool = False, order=upstream_order) -> list[np.ndarray]:
    """Mips 1..``mips`` of a float32 (S, H, W, 4) source (sides multiples of 64) as ffx_spd.h builds
    them: ``SpdDownsample``, or ``SpdDownsampleH`` with ``half``; float32 arrays, as the sample stores
    them. ``linear_sampler``: mip 1 is one bilinear sample per block (``srgb``: then AToSrgbF1 on
    red, green and blue, in float32, before the packed path's conversion to half)."""
    slices, height, width, _ = source.shape
    assert height % 64 == 0 and width % 64 == 0
    dtype = np.float16 if half else np.float32
    if linear_sampler:
        level = bilinear_block_corners(source)
        if srgb:
            level[..., :3] = to_srgb(level[..., :3])
        level = level.astype(dtype)
    else:
        level = reduce_2x2(source.astype(dtype), order(1))
    chain = [level]
    for mip in range(2, mips + 1):
        if mip == 7:  # the last group: a 64 x 64 block of mip 6 as stored, 0 outside it
            h, w = mip_shape(height, width, 6)
            level = np.zeros((slices, 64, 64, 4), dtype)
            level[:, :h, :w] = chain[5][:, :h, :w]
        level = reduce_2x2(level, order(mip))
        chain.append(level)
    return [level[:, :mip_shape(height, width, mip)[0], :mip_shape(height, width, mip)[1]].astype(np.float32)
            for mip, level in enumerate(chain, start=1)]


def run_upstream(kernel, folder: str, sample: str, source: np.ndarray, counter: np.ndarray) -> list[np.ndarray]:
    """Mips 1..12 of an (S, H, W, 4) source as the unmodified sample writes them (those past the
    chain of the source stay 0), bound as it declares them.

    ``SPDIntegration.hlsl`` reads the source as ``imgDst[0]`` and writes mip k to ``imgDst[k]``
    (``[6]`` unused: mip 6 is the globally coherent ``imgDst6``); the linear-sampler one reads
    ``imgSrc`` through ``srcSampler`` and writes mip k to ``imgDst[k - 1]`` (mip 6: ``imgDst5``)
    and takes ``invInputSize`` too. The DX12 samples' constants are a ``cbuffer`` (bound by member
    name), the Vulkan ones' a ``[[vk::push_constant]] ConstantBuffer<SpdConstants>`` (bound as a
    dict under its name); ``[[vk::binding]]`` numbers play no part, as binding is by name.
    """
    slices, height, width, _ = source.shape
    setup = spd_setup(width, height, slices=slices)
    mips = [np.zeros((slices,) + mip_shape(height, width, mip) + (4,), np.float32) for mip in range(1, 13)]
    constants = {"mips": setup.mips, "numWorkGroups": setup.num_work_groups,
                 "workGroupOffset": list(setup.work_group_offset)}
    if sample == LINEAR:
        constants["invInputSize"] = (1.0 / width, 1.0 / height)
        images = {"imgSrc": source, "srcSampler": shc.Sampler("linear", "clamp"),
                  "imgDst": mips[:5] + [None] + mips[6:], "imgDst5": mips[5]}
    else:
        images = {"imgDst": [source] + mips[:5] + [None] + mips[6:], "imgDst6": mips[5]}
    if folder == "spd-vk":
        constants = {"spdConstants": constants}
    kernel.dispatch(setup.dispatch, spdGlobalAtomic=counter, **images, **constants)
    assert not counter["counter"].any()  # each slice's last group reset its count: the kernel can run again
    return mips


@pytest.mark.parametrize(("folder", "sample", "options", "wave_size"), KERNELS,
                         ids=[f"{folder}-{sample.removesuffix('.hlsl')}-{options}-wave{wave}"
                              for folder, sample, options, wave in KERNELS])
def test_upstream_spd_is_its_summation_order_bit_for_bit(folder, sample, options, wave_size, source, slices):
    """The 4096 x 1024 source (all 12 mips), then the three slices with the same counter buffer
    (mips = 8: each slice's last group stops after mip 8, and mips 9..12 are not written)."""
    kernel = shc.compile_file(UPSTREAM / folder / sample, defines=DEFINES[options], wave_size=wave_size)
    counter = np.zeros(1, dtype=[("counter", "<u4", (6,))])  # SpdGlobalAtomicBuffer: a count per slice
    for image, chain in ((source, 12), (slices, 8)):
        mips = run_upstream(kernel, folder, sample, image, counter)
        expected = upstream_reference(image, chain, half="A_HALF" in DEFINES[options],
                                      linear_sampler=sample == LINEAR, srgb=sample == LINEAR and folder == "spd")
        for mip, (got, want) in enumerate(zip(mips, expected), start=1):
            np.testing.assert_array_equal(got, want, err_msg=f"{image.shape}: mip {mip}")
        assert not any(level.any() for level in mips[chain:])


@pytest.mark.parametrize("half", [False, True], ids=["fp32", "fp16"])
def test_each_mips_summation_order_shows_in_the_bits(half, source):
    """With this source, adding any of mips 1..10 in the other order changes some of its bits, so
    the comparisons above pin upstream's order at every mip that averages only source texels
    (mips 11 and 12 add zeros from below mip 6, where every order gives the same sum)."""
    expected = upstream_reference(source, 10, half=half)
    for mip in range(1, 11):
        def swapped(at, mip=mip):
            return (LANES if upstream_order(at) == LOADS else LOADS) if at == mip else upstream_order(at)

        other = upstream_reference(source, mip, half=half, order=swapped)
        assert not np.array_equal(other[mip - 1], expected[mip - 1]), f"mip {mip}"


def test_the_bilinear_model_shows_in_the_bits(source):
    """The linear-sampler mip 1: filtering across the rows first (shc's sampler), down the columns
    first, or adding the four texels as SpdReduce4 does all round differently on this source."""
    sampled = bilinear_block_corners(source)
    assert not np.array_equal(sampled, bilinear_block_corners(source, x_first=False))
    assert not np.array_equal(sampled, reduce_2x2(source, LOADS))
    np.testing.assert_allclose(sampled, reduce_2x2(source.astype(np.float64), LOADS), rtol=0, atol=2.0**-22)


@pytest.mark.parametrize("folder", ["spd", "spd-vk"])
def test_a_half_without_spd_packed_only_redefines_the_counter_hooks_as_dxc_says(folder):
    """Both hook sets define SpdIncreaseAtomicCounter unless SPD_PACKED_ONLY drops the float one:
    upstream's A_HALF needs it (a positioned error, as DXC gives, not a traceback)."""
    with pytest.raises(shc.KernelCompileError) as error:
        shc.compile_file(UPSTREAM / folder / PLAIN, defines={"A_HALF": "1"})
    assert f"{PLAIN}:133:6: error: redefinition of 'SpdIncreaseAtomicCounter'" in str(error.value)
    assert "note: previous definition is here" in str(error.value)
