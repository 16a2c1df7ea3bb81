"""``shc.spd``: SPD mip chains against the NumPy 2x2 box-average model of ``samples/spd.hlsl``.

The model (``reference_mips``) is the sample's documented border rule: source reads clamp
to the last column and row, so mips 1..6 average 2^k x 2^k blocks of the source padded
with its edge to a multiple of 64, mips 7..12 do the same from mip 6 as stored. In float32
and the shader's summation order it gives the shader's bits, so the 32-bit point-sampled
variants must match it exactly; the packed path matches the model run in float16; the
linear-sampler path is within the bilinear weights' float32 rounding.

Kernels come from the disk cache when it is warm: the first run in a fresh cache compiles
the eight (variant, wave size) kernels.
"""

from __future__ import annotations

import numpy as np
import pytest

from shc.spd import Downsampler, compiled_kernel, downsample, mip_shape, reference_mips, spd_setup

VARIANTS = {
    "wave_ops": {},
    "no_wave_ops": {"wave_ops": False},
    "linear_sampler": {"linear_sampler": True},
    "packed": {"packed": True},
}
WAVES = (32, 64)

# (shape, what it covers); every one has several tiles, and mips past 6 (the last group).
SHAPES = {
    "pow2": ((128, 128, 4), "power of two, square, RGBA"),
    "odd": ((75, 200, 3), "non-power-of-two, non-square, RGB"),
    "slices": ((3, 40, 130, 1), "three array slices, one channel"),
}


def image(shape, seed=0, dtype=np.float32):
    values = np.random.default_rng(seed).random(shape, dtype=np.float32)
    if dtype == np.uint8:
        return (values * 255.0).astype(np.uint8)
    return values.astype(dtype)


def assert_chain(out, expected, atol=0.0, what=""):
    assert len(out) == len(expected), what
    for mip, (got, want) in enumerate(zip(out, expected), start=1):
        assert got.shape == want.shape, f"{what} mip {mip}"
        if atol == 0.0:
            np.testing.assert_array_equal(got, want, err_msg=f"{what} mip {mip}")
        else:
            np.testing.assert_allclose(got, want, rtol=0, atol=atol, err_msg=f"{what} mip {mip}")


def check_variant(out, source, variant: str, what: str) -> None:
    """The variant's promise against the model: exact, fp16-exact, or within the sampler's rounding."""
    if variant in ("wave_ops", "no_wave_ops"):
        assert_chain(out, reference_mips(source), what=what)
    elif variant == "packed":
        assert_chain(out, reference_mips(source, dtype=np.float16), what=what + " (float16 model)")
        exact = reference_mips(source.astype(np.float64), dtype=np.float64)
        assert_chain(out, exact, atol=2e-3, what=what + " (half precision)")
    else:
        # uv = (p + 1) / size in float32: the weights are off by about size * 2^-24
        size = max(source.shape[-3:-1])
        exact = reference_mips(source.astype(np.float64), dtype=np.float64)
        assert_chain(out, exact, atol=4 * size * 2.0 ** -24 + 1e-7, what=what)


# ---------------------------------------------------------------------------------------
# the correctness matrix
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("wave_size", WAVES)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shape_name", SHAPES)
def test_chain_matches_the_box_average_model(variant, wave_size, shape_name):
    shape, what = SHAPES[shape_name]
    source = image(shape, seed=len(shape_name))
    spd = Downsampler(wave_size=wave_size, **VARIANTS[variant])
    result = spd.run(source)
    check_variant(result.mips, source, variant, f"{variant} wave{wave_size} {what}")
    assert not spd.counter.any(), "the last group resets the counter"
    groups = result.setup.dispatch[0] * result.setup.dispatch[1] * result.setup.dispatch[2]
    assert result.stats.atomics == groups  # one counter increment per group: mips past 6


@pytest.mark.parametrize("wave_size", WAVES)
def test_large_non_power_of_two(wave_size):
    source = image((1536, 2048, 4), seed=7)
    out = downsample(source, wave_size=wave_size)
    assert len(out) == 11
    assert out[-1].shape == (1, 1, 4)
    assert_chain(out, reference_mips(source), what=f"1536 x 2048 wave{wave_size}")


# ---------------------------------------------------------------------------------------
# formats, ranks, mip counts
# ---------------------------------------------------------------------------------------


def test_uint8_images_come_back_as_unorm8():
    source = image((130, 77, 3), seed=3, dtype=np.uint8)
    out = downsample(source)
    expected = [np.rint(level * 255.0).astype(np.uint8) for level in reference_mips(source)]
    assert all(level.dtype == np.uint8 for level in out)
    assert_chain([level.astype(np.int16) for level in out], [level.astype(np.int16) for level in expected],
                 atol=1, what="uint8")


def test_float16_images_come_back_as_float16():
    source = image((90, 70, 2), seed=4, dtype=np.float16)
    out = downsample(source, wave_size=64)
    assert all(level.dtype == np.float16 for level in out)
    expected = [level.astype(np.float16) for level in reference_mips(source.astype(np.float32))]
    assert_chain(out, expected, what="float16")


def test_packed_float16_image():
    source = image((2, 64, 96, 4), seed=5, dtype=np.float16)
    out = downsample(source, packed=True)
    assert_chain([level.astype(np.float32) for level in out], reference_mips(source, dtype=np.float16),
                 atol=2.0 ** -11, what="packed float16")


def test_two_dimensional_images_are_one_channel():
    source = image((65, 33), seed=6)
    out = downsample(source)
    assert [level.shape for level in out] == [mip_shape(65, 33, mip) for mip in range(1, 7)]
    assert_chain(out, reference_mips(source), what="(H, W)")


def test_float32_rgba_mips_are_the_storage():
    result = Downsampler().run(image((64, 64, 4)))
    assert all(np.shares_memory(level, stored) for level, stored in zip(result.mips, result.storage))


@pytest.mark.parametrize("shape", [(2, 65, 130, 4), (300, 97, 4), (128, 128, 4)])
def test_reused_storage_is_written_everywhere(shape):
    """A whole-image run takes storage from the pool unzeroed: poison it, run again."""
    source = image(shape, seed=21)
    first = Downsampler().run(source)
    for stored in first.storage:
        stored[...] = np.nan
    addresses = [stored.ctypes.data for stored in first.storage]
    del first, stored
    again = Downsampler().run(source)
    assert [level.ctypes.data for level in again.storage] == addresses  # the same memory came back
    assert_chain(again.mips, reference_mips(source), what="pooled storage")


@pytest.mark.parametrize("mips", [1, 2, 3, 6, 7, 8])
def test_fewer_mips(mips):
    source = image((256, 256, 4), seed=mips)
    spd = Downsampler()
    result = spd.run(source, mips)
    assert len(result.mips) == mips
    assert_chain(result.mips, reference_mips(source, mips), what=f"mips={mips}")
    assert not spd.counter.any()
    assert result.stats.atomics == (16 if mips > 6 else 0)  # the counter only when mips 7.. are asked for


def test_nothing_to_build():
    assert downsample(image((1, 1, 4))) == []
    assert downsample(image((32, 32, 4)), mips=0) == []


def test_too_many_mips():
    with pytest.raises(ValueError, match="mips must be 0..5"):
        downsample(image((32, 20, 4)), mips=6)


def test_past_4096_texels_stops_at_mip_6():
    source = image((2, 4160, 1), seed=9)  # 65 tiles wide: mip 6 is wider than the last group's tile
    out = downsample(source)
    assert len(out) == 6
    assert_chain(out, reference_mips(source), what="4160 wide")
    with pytest.raises(ValueError, match="at most 6 mips"):
        downsample(source, mips=7)


def test_bad_images():
    with pytest.raises(TypeError, match="float32, float16 or uint8"):
        downsample(np.zeros((8, 8, 4), np.float64))
    with pytest.raises(ValueError, match="C of 1 to 4"):
        downsample(np.zeros((8, 8, 5), np.float32))
    with pytest.raises(ValueError, match="wave_size"):
        downsample(np.zeros((8, 8, 4), np.float32), wave_size=16)


# ---------------------------------------------------------------------------------------
# the atomic counter
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("wave_size", WAVES)
def test_counter_is_back_at_zero_after_every_dispatch(wave_size):
    spd = Downsampler(wave_size=wave_size)
    for seed, shape in enumerate([(2, 100, 300, 4), (3, 70, 70, 4), (1, 128, 128, 4), (2, 100, 300, 4)]):
        source = image(shape, seed=seed)
        result = spd.run(source)
        assert not spd.counter.any(), f"dispatch {seed}"
        # a counter left behind would keep the next dispatch's last group from finding itself
        assert_chain(result.mips, reference_mips(source), what=f"dispatch {seed}")


def test_a_stale_counter_is_caught():
    spd = Downsampler()
    spd.counter[:] = 5
    with pytest.raises(RuntimeError, match="not 0 before"):
        spd.run(image((128, 128, 4)))


def test_the_shader_needs_the_counter_at_zero():
    """What the reset is for: started at 5, no group of 4 sees 3, mip 7 is never built."""
    kernel = compiled_kernel()
    source = image((1, 128, 128, 4))
    setup = spd_setup(128, 128)
    storage = Downsampler().storage_for(source.shape, setup.mips)
    counter = np.full(1, 5, np.uint32)
    kernel.dispatch(setup.dispatch, imgSrc=source, spdGlobalAtomic=counter,
                    imgDst=[storage[m] if m < setup.mips and m != 5 else None for m in range(12)],
                    imgDst6=storage[5], mips=setup.mips, numWorkGroups=setup.num_work_groups,
                    workGroupOffset=setup.work_group_offset)
    assert counter[0] == 9
    expected = reference_mips(source)
    assert_chain(storage[:6], expected[:6], what="mips 1..6")
    assert not storage[6].any()


# ---------------------------------------------------------------------------------------
# sub-rectangles: workGroupOffset
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("wave_size", WAVES)
def test_rect_writes_only_its_tiles(wave_size):
    source = image((2, 192, 256, 4), seed=11)
    rect = (70, 10, 100, 60)  # tiles x 1..2, y 0..1
    spd = Downsampler(wave_size=wave_size)
    setup = spd_setup(256, 192, 4, rect, slices=2)
    assert setup.dispatch == (2, 2, 2) and setup.work_group_offset == (1, 0)
    storage = [np.full(level.shape, np.nan, np.float32) for level in spd.storage_for(source.shape, 4)]
    spd.run(source, 4, rect=rect, out=storage)
    expected = reference_mips(source, 4)
    for mip, (got, want) in enumerate(zip(storage, expected), start=1):
        footprint = (slice(None), slice(0, 128 >> mip), slice(64 >> mip, 192 >> mip))
        np.testing.assert_array_equal(got[footprint], want[footprint], err_msg=f"mip {mip}")
        outside = np.ones(got.shape[:3], bool)
        outside[footprint] = False
        assert np.isnan(got[outside]).all(), f"mip {mip} written outside the rectangle's tiles"


@pytest.mark.parametrize("wave_size", WAVES)
def test_rect_update_of_a_whole_chain(wave_size):
    """Change a rectangle of the source, redo only its tiles: the whole chain is right again."""
    before = image((2, 300, 520, 4), seed=12)
    spd = Downsampler(wave_size=wave_size)
    chain = spd.run(before).storage
    after = before.copy()
    after[:, 130:200, 200:330] = image((2, 70, 130, 4), seed=13)
    rect = (200, 130, 130, 70)
    result = spd.run(after, len(chain), rect=rect, out=chain)
    assert result.setup.dispatch == (3, 2, 2) and result.setup.work_group_offset == (3, 2)
    assert_chain(result.mips, reference_mips(after), what="rect update")
    assert not spd.counter.any()


# ---------------------------------------------------------------------------------------
# the setup arithmetic
# ---------------------------------------------------------------------------------------


def test_setup_whole_texture():
    assert spd_setup(1920, 1080) == spd_setup(1920, 1080, rect=(0, 0, 1920, 1080))
    setup = spd_setup(1920, 1080, slices=6)
    assert setup.dispatch == (30, 17, 6)
    assert setup.num_work_groups == 30 * 17
    assert setup.work_group_offset == (0, 0)
    assert setup.mips == 10  # floor(log2(1920))
    assert spd_setup(4096, 4096).mips == 12
    assert spd_setup(4096, 4096).dispatch == (64, 64, 1)
    assert spd_setup(1, 1).mips == 0
    assert spd_setup(3, 1).mips == 1


def test_setup_rectangle():
    setup = spd_setup(1000, 1000, rect=(100, 70, 300, 65))
    # tiles 1..6 across ((100 + 300 + 63) // 64 = 7), 1..2 down ((70 + 65 + 63) // 64 = 3)
    assert setup.dispatch == (7 - 1, 3 - 1, 1)
    assert setup.work_group_offset == (1, 1)
    assert setup.num_work_groups == 12
    assert setup.mips == 8  # floor(log2(max(300, 65)))


def test_setup_limits():
    assert spd_setup(8192, 8192).mips == 6  # the last group reduces only 64 x 64 pixels of mip 6
    assert spd_setup(8192, 8192, rect=(0, 0, 4096, 4096)).mips == 12
    assert spd_setup(8192, 8192, rect=(64, 0, 4096, 4096)).mips == 6  # its tiles reach 4160
    assert spd_setup(8192, 64).mips == 6
    with pytest.raises(ValueError, match="at most 6 mips"):
        spd_setup(8192, 8192, mips=7)
    with pytest.raises(ValueError, match="mips must be 0..12"):
        spd_setup(4096, 4096, mips=13)
    with pytest.raises(ValueError, match="not a non-empty part"):
        spd_setup(100, 100, rect=(50, 50, 60, 10))
    with pytest.raises(ValueError, match="at least 1 x 1"):
        spd_setup(0, 4)


def test_model_is_the_documented_block_mean():
    """reference_mips (2x2 slice-adds) against the closed form: block means of the padded source."""
    source = image((1, 75, 200, 2), seed=14).astype(np.float64)
    chain = reference_mips(source, dtype=np.float64)
    padded = np.pad(source, ((0, 0), (0, 128 - 75), (0, 256 - 200), (0, 0)), mode="edge")
    for mip in range(1, 7):
        block = 1 << mip
        means = padded.reshape(1, 128 // block, block, 256 // block, block, 2).mean(axis=(2, 4))
        h, w = mip_shape(75, 200, mip)
        np.testing.assert_allclose(chain[mip - 1], means[:, :h, :w], rtol=1e-12, err_msg=f"mip {mip}")
    mip6 = np.pad(chain[5], ((0, 0), (0, 63), (0, 61), (0, 0)), mode="edge")  # 1 x 3 -> 64 x 64
    means = mip6.reshape(1, 32, 2, 32, 2, 2).mean(axis=(2, 4))
    np.testing.assert_allclose(chain[6], means[:, :1, :1], rtol=1e-12)


# ---------------------------------------------------------------------------------------
# the API surface
# ---------------------------------------------------------------------------------------


def test_kernel_is_compiled_once_per_option_set():
    assert Downsampler().kernel is Downsampler().kernel
    assert Downsampler(wave_size=64).kernel is compiled_kernel(wave_size=64)
    assert Downsampler().kernel is not Downsampler(wave_ops=False).kernel


def test_import_paths():
    import shc.runtime.spd
    import shc.spd

    assert shc.spd.downsample is shc.runtime.spd.downsample
    assert shc.spd.spd_setup is shc.runtime.spd.spd_setup


def test_shc_spd_attribute_without_importing_it():
    import subprocess
    import sys

    code = "import shc; print(shc.spd.downsample.__name__)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "downsample"
