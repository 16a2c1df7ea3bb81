"""Translation validation: the samples and the SPD variants run through the host JIT and through
their RDNA2 listing (``simulate_group.py``: every wave of every group, barriers, one LDS per group,
``s_waitcnt`` checked), at wave32 and wave64, and every output buffer must be equal bit for bit.
A difference names the listing instruction that last wrote the first differing element and its
HLSL line. (The conformance corpus gets the same check in ``tests/conformance/listing_check.py``.)

Dispatches are small (one or two groups): the simulator runs NumPy per instruction. The JIT runs
one host thread, so atomics see the groups in the order the simulator runs them.
"""

from __future__ import annotations

import numpy as np
import pytest
import shc
from shc.compiler.backend.rdna2.listing import render_listing
from shc.compiler.backend.rdna2.simulate_group import simulate_dispatch
from shc.compiler.diagnostics import SourceCache
from shc.runtime.layout import pack_cbuffer
from shc.runtime.spd import MIPS_PER_PASS, defines_for, mip_shape, spd_setup


pytestmark = pytest.mark.usefixtures("private_kernel_cache")


def _inputs(path: str, rng) -> tuple[tuple[int, int, int], dict, dict]:
    """(groups, resources, constants) for one sample: two groups where the kernel has a grid."""
    texture = {"src": rng.random((16, 32, 4), dtype=np.float32), "mip1": np.zeros((8, 16, 4), np.float32),
               "mip2": np.zeros((4, 8, 4), np.float32)}
    filters = ({"input": rng.random((128, 4), dtype=np.float32), "output": np.zeros((128, 4), np.float32)},
               {"count": 128, "sharpness": 0.5})
    return {
        "compaction": ((2, 1, 1), {"values": rng.random(512, dtype=np.float32), "survivors": np.zeros(512, np.uint32),
                                   "survivorCount": np.zeros(1, np.uint32)}, {"count": 500, "threshold": 0.5}),
        "downsample_lds": ((2, 1, 1), texture, {}),
        "downsample_quad": ((2, 1, 1), texture, {}),
        "downsample_shuffle": ((2, 1, 1), texture, {}),
        "occupancy_heavy": ((2, 1, 1), *filters),
        "occupancy_light": ((2, 1, 1), *filters),
        "prefix_sum": ((2, 1, 1), {"input": rng.integers(0, 2**32, 512, dtype=np.uint32),
                                   "output": np.zeros(512, np.uint32), "blockSums": np.zeros(2, np.uint32)},
                       {"count": 500}),
        "texture_array_nonuniform": ((2, 1, 1), {
            "materialIds": rng.integers(0, 3, 128).astype(np.uint32),
            "uvs": rng.uniform(-0.5, 1.5, (128, 2)).astype(np.float32),
            "textures": [rng.random((8, 8, 4), dtype=np.float32), rng.random((5, 7, 4), dtype=np.float32),
                         rng.random((4, 4, 4), dtype=np.float32)],
            "colors": np.zeros((128, 4), np.float32), "linearSampler": shc.Sampler("linear", "wrap")},
            {"count": 120, "detailIndex": 1}),
    }[path]


SAMPLES = ["compaction", "downsample_lds", "downsample_quad", "downsample_shuffle", "occupancy_heavy",
           "occupancy_light", "prefix_sum", "texture_array_nonuniform"]


def _both(kernel, groups, resources: dict, constants: dict) -> tuple[dict, object]:
    """The JIT's resources after the dispatch, and the listing simulator's state."""
    ran = {name: [None if item is None else item.copy() for item in value] if isinstance(value, list)
           else value.copy() if isinstance(value, np.ndarray) else value for name, value in resources.items()}
    kernel.dispatch(groups, {**ran, **constants}, threads=1)
    sources = SourceCache()  # the samples' lines, read from disk
    listing = render_listing(kernel.module, sources=sources)
    cbuffers = {layout.name: pack_cbuffer(layout, constants) for layout in kernel.info.cbuffers.values()}
    state = simulate_dispatch(listing.function, kernel.module, groups, resources, cbuffers, sources,
                              listing.lds_bytes)
    return ran, state


def _differences(ran: dict, state) -> list[str]:
    problems = []
    for name, value in ran.items():
        items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
        for index, array in items:
            if isinstance(array, np.ndarray):
                key = name if index is None else f"{name}[{index}]"
                kind = array.dtype if array.dtype.kind in "fiu" else np.uint32
                problem = state.difference(key, array.tobytes(), kind)
                if problem:
                    problems.append(problem)
    return problems


def _compile(path: str, wave: int, defines: dict | None = None):
    return shc.compile_file(f"samples/{path}.hlsl", defines=defines, wave_size=wave)


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("path", SAMPLES)
def test_sample_listing_computes_what_the_jit_computes(path, wave):
    kernel = _compile(path, wave)
    groups, resources, constants = _inputs(path, np.random.default_rng(7))
    ran, state = _both(kernel, groups, resources, constants)
    assert any(np.count_nonzero(value) for value in ran.values() if isinstance(value, np.ndarray))
    assert _differences(ran, state) == [], f"samples/{path}.hlsl at wave{wave} (wave{kernel.wave_size} listing)"


SPD_VARIANTS = {"default": {}, "no_wave_ops": {"wave_ops": False}, "packed": {"packed": True},
                "linear_sampler": {"linear_sampler": True},
                "packed_no_wave_ops": {"packed": True, "wave_ops": False}}  # ds_read2_b64 (lds_wide_pairs.py)


def _spd_dispatch(variant: dict):
    """A 128 x 64 source: two groups, mips 1..7, the second group to finish doing mips 7+."""
    setup = spd_setup(128, 64)
    source = np.random.default_rng(3).random((1, 64, 128, 4), dtype=np.float32)
    storage = [np.zeros((1,) + mip_shape(64, 128, mip) + (4,), np.float32) for mip in range(1, setup.mips + 1)]
    destinations = [storage[mip] if mip < setup.mips and mip != MIPS_PER_PASS - 1 else None for mip in range(12)]
    resources = {"imgSrc": source, "spdGlobalAtomic": np.zeros(1, np.uint32), "imgDst": destinations,
                 "imgDst6": storage[MIPS_PER_PASS - 1]}
    constants = {"mips": setup.mips, "numWorkGroups": setup.num_work_groups,
                 "workGroupOffset": np.array(setup.work_group_offset, np.uint32)}
    if variant.get("linear_sampler"):
        resources["srcSampler"] = shc.Sampler("linear", "clamp")
        constants["invInputSize"] = np.array([1 / 128, 1 / 64], np.float32)
    return setup.dispatch, resources, constants


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("variant", sorted(SPD_VARIANTS))
def test_spd_listing_computes_what_the_jit_computes(variant, wave):
    kernel = _compile("spd", wave, defines_for(**SPD_VARIANTS[variant]))
    groups, resources, constants = _spd_dispatch(SPD_VARIANTS[variant])
    ran, state = _both(kernel, groups, resources, constants)
    assert np.count_nonzero(ran["imgDst"][0]) and np.count_nonzero(ran["imgDst6"])
    assert _differences(ran, state) == [], f"SPD {variant} at wave{wave}"
