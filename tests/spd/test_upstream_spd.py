"""AMD's own FidelityFX SPD integration shaders, unmodified, run from Python and checked
against the box-average chain, mip for mip.

The shaders are read from ``../shared/upstream/fidelityfx`` (they are not part of the
project); the test is skipped only when that directory is absent. A 256 x 256 source has
no partial tiles, so the upstream sample's unclamped border reads do not matter (mips 1..6
by each group, 7..8 by the last group through the global atomic counter). Upstream sums
each 2x2 block in its own order (top-left, bottom-left, top-right, bottom-right at mip 1,
quad-lane order after), not the model's, so float32 rounding differs by an ulp here and
there: each mip is checked against the exact (float64) chain within a few float32 ulps, and
wave32 must equal wave64 bit for bit.
"""

from pathlib import Path

import numpy as np
import pytest

import shc
from shc.spd import reference_mips, spd_setup

UPSTREAM = Path(__file__).resolve().parents[2].parent / "shared" / "upstream" / "fidelityfx" / "spd"
SIZE = 256
SOURCE = np.random.default_rng(3).random((1, SIZE, SIZE, 4), dtype=np.float32)

pytestmark = pytest.mark.skipif(not UPSTREAM.is_dir(), reason="the upstream FidelityFX shaders are not beside the project")


def run_upstream(defines: dict, wave_size: int) -> list[np.ndarray]:
    """Mips 1..12 as the unmodified DX12 sample writes them for a 256 x 256 RGBA source."""
    setup = spd_setup(SIZE, SIZE)
    mips = [np.zeros((1, max(1, SIZE >> m), max(1, SIZE >> m), 4), np.float32) for m in range(1, 13)]
    images = [SOURCE] + mips[:5] + [np.zeros((1, 1, 1, 4), np.float32)] + mips[6:]  # imgDst[6] unused
    counter = np.zeros(1, dtype=[("counter", "<u4", (6,))])

    kernel = shc.compile_file(UPSTREAM / "SPDIntegration.hlsl", defines=defines, wave_size=wave_size)
    kernel.dispatch(setup.dispatch, imgDst=images, imgDst6=mips[5], spdGlobalAtomic=counter,
                    mips=setup.mips, numWorkGroups=setup.num_work_groups,
                    workGroupOffset=list(setup.work_group_offset))
    assert counter["counter"].sum() == 0  # the last group reset it, so the kernel can run again
    return mips


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("defines", [{}, {"SPD_NO_WAVE_OPERATIONS": "1"}], ids=["quad_ops", "lds_only"])
def test_upstream_spd_builds_the_box_chain(defines, wave_size):
    mips = run_upstream(defines, wave_size)
    exact = reference_mips(SOURCE.astype(np.float64), dtype=np.float64)
    assert len(exact) == 8
    for level, want in enumerate(exact, start=1):
        np.testing.assert_allclose(mips[level - 1], want, rtol=0, atol=4 * 2.0**-24, err_msg=f"mip {level}")
    assert not mips[8].any()  # nothing past the chain


def test_upstream_spd_wave32_equals_wave64():
    chains = [run_upstream({}, wave) for wave in (32, 64)]
    for level, (a, b) in enumerate(zip(*chains), start=1):
        np.testing.assert_array_equal(a, b, err_msg=f"mip {level}")
