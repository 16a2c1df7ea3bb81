"""The SM 6.5 partition intrinsics in the lane model: ``WaveMatch`` and ``WaveMultiPrefix*``.

Hand-checked cases pin the model (``wavemodel.wave_match`` / ``wave_multi_prefix``);
property tests show the readlane sequences in ``machine.ladders`` (what lower-wave-ops
emits) equal it on every active lane, in wave32 and wave64, under any exec mask.
"""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from shc.compiler.machine import ladders
from shc.compiler.machine import wavemodel as wm

FAST = settings(max_examples=40, deadline=None)


def words(*lanes: int) -> list[int]:
    return wm.mask_words(np.isin(np.arange(64), lanes)).tolist()


def test_match_groups_equal_values_and_skips_inactive_lanes():
    values = np.array([5, 7, 5, 5, 7, 9] + [1] * 26, dtype=np.uint32)
    exec_lanes = np.ones(32, bool)
    exec_lanes[3] = False
    result = wm.wave_match(values, exec_lanes)
    assert result.values[0].tolist() == words(0, 2)
    assert result.values[1].tolist() == words(1, 4)
    assert result.values[5].tolist() == words(5)
    assert result.values[3].tolist() == [0, 0, 0, 0] and not result.defined[3]


def test_match_in_wave64_fills_the_second_word():
    values = np.arange(64, dtype=np.int32) % 2
    result = wm.wave_match(values, np.ones(64, bool))
    assert result.values[0].tolist() == [0x55555555, 0x55555555, 0, 0]
    assert result.values[63].tolist() == [0xAAAAAAAA, 0xAAAAAAAA, 0, 0]


def test_match_compares_float_bits():
    """+0.0 and -0.0 differ; a NaN matches the same NaN bits (``==`` would say otherwise)."""
    values = np.array([0.0, -0.0, np.nan, np.nan] + [1.0] * 28, dtype=np.float32)
    result = wm.wave_match(values, np.ones(32, bool))
    assert result.values[0].tolist() == words(0)
    assert result.values[1].tolist() == words(1)
    assert result.values[2].tolist() == words(2, 3)


def test_match_of_a_vector_needs_every_component():
    values = np.array([[1, 2], [1, 3], [1, 2]] + [[0, 0]] * 29, dtype=np.uint32)
    result = wm.wave_match(values, np.ones(32, bool))
    assert result.values[0].tolist() == words(0, 2)
    assert result.values[1].tolist() == words(1)


def test_multi_prefix_sums_lower_active_lanes_of_the_mask():
    values = np.arange(1, 33, dtype=np.uint32)
    exec_lanes = np.ones(32, bool)
    exec_lanes[2] = False
    masks = np.tile(np.array(words(0, 2, 4, 6), np.uint32), (32, 1))
    result = wm.wave_multi_prefix("sum", values, masks, exec_lanes)
    # lane 6 adds lanes 0 and 4 (lane 2 is inactive): 1 + 5; lane 5 is not in the mask but
    # still gets the lanes of its (the given) mask below it
    assert result.values[[0, 4, 5, 6]].tolist() == [0, 1, 6, 6]


def test_multi_prefix_identities():
    values = np.full(32, 3, dtype=np.int32)
    masks = np.zeros((32, 4), np.uint32)  # an empty partition: every lane gets the identity
    exec_lanes = np.ones(32, bool)
    expected = {"sum": 0, "product": 1, "and": -1, "or": 0, "xor": 0}
    for fn, identity in expected.items():
        assert set(wm.wave_multi_prefix(fn, values, masks, exec_lanes).values.tolist()) == {identity}


def test_multi_prefix_count_bits():
    condition = np.array([True, False, True, True] * 8)
    masks = np.tile(np.array(words(*range(0, 32, 2)), np.uint32), (32, 1))
    result = wm.wave_multi_prefix_count_bits(condition, masks, np.ones(32, bool))
    assert result.values[[0, 2, 4, 6, 7]].tolist() == [0, 1, 2, 3, 4]


@st.composite
def partition_cases(draw):
    """Values drawn from a few classes (so lanes share them), a random exec mask, a dtype."""
    wave_size = draw(st.sampled_from(wm.WAVE_SIZES))
    dtype = draw(st.sampled_from([np.int32, np.uint32, np.float32]))
    classes = draw(arrays(np.int64, wave_size, elements=st.integers(0, 3)))
    values = (classes * 3 - 4).astype(dtype)
    exec_lanes = draw(arrays(bool, wave_size))
    return values, exec_lanes


@FAST
@given(partition_cases())
def test_match_via_readlane_equals_the_model(case):
    values, exec_lanes = case
    expected = wm.wave_match(values, exec_lanes)
    lowered = ladders.match_via_readlane(values, exec_lanes)
    assert len(wm.mismatched_lanes(lowered, expected)) == 0


@FAST
@given(partition_cases(), st.sampled_from(["sum", "product", "and", "or", "xor"]))
def test_multi_prefix_via_readlane_equals_the_model(case, fn):
    values, exec_lanes = case
    if values.dtype.kind == "f" and fn in ("and", "or", "xor"):
        values = values.view(np.int32)
    masks = wm.wave_match(values % 2 if values.dtype.kind != "f" else values < 0, exec_lanes).values
    expected = wm.wave_multi_prefix(fn, values, masks, exec_lanes)
    lowered = ladders.multi_prefix_via_readlane(fn, values, masks, exec_lanes)
    assert len(wm.mismatched_lanes(lowered, expected)) == 0
