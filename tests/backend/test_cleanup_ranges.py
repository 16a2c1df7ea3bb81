"""The clean-ups hand allocation the live ranges their last ``Pressure`` counted when nothing
changed the function after it (``cleanup.py``): those must be the ranges of the function as
allocation gets it, for every kernel where the hand-over happens."""

from __future__ import annotations

import os

import pytest

from shc.compiler.backend.rdna2.isel import Selector
from shc.compiler.backend.rdna2.live_ranges import intervals
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.pipeline import Options, compile_file

SAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "samples")
KERNELS = [("spd.hlsl", {}), ("spd.hlsl", {"A_HALF": "1"}), ("downsample_lds.hlsl", {}), ("prefix_sum.hlsl", {})]


@pytest.mark.parametrize("wave", [32, 64])
@pytest.mark.parametrize("name, defines", KERNELS)
def test_the_ranges_handed_to_allocation_are_the_functions_own(name, defines, wave):
    module = compile_file(os.path.join(SAMPLES, name), Options(defines=defines, wave_size=wave), Diagnostics())
    selector = Selector(module)
    function = selector.run()
    handed = selector.clean_up.ranges
    assert handed is not None  # nothing changes these kernels after the last count
    fresh = intervals(function)
    assert handed.spans == fresh.spans and list(handed.spans) == list(fresh.spans)  # same order: allocation sorts stably
    assert handed.component_ends == fresh.component_ends
    assert handed.first_writes == fresh.first_writes
    assert handed.last_reads == fresh.last_reads
    assert handed.last_write == fresh.last_write
