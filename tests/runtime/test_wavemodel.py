"""Tests of the RDNA2 lane-exchange model and of the reference wave-op lowerings.

Hand-checked cases pin each primitive's hardware rule; property tests show every
composition in ``machine.ladders`` equals the intrinsic model on defined lanes,
in wave32 and wave64, for integer and float data and all kinds of exec masks.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from shc.compiler.machine import wavemodel as wm
from shc.compiler.machine import ladders

OLD = -1  # a marker for "the destination kept its previous value"


def lanes32() -> np.ndarray:
    return np.arange(32, dtype=np.int32)


def lanes64() -> np.ndarray:
    return np.arange(64, dtype=np.int32)


def exec_without(wave_size: int, *inactive: int) -> np.ndarray:
    exec_lanes = np.ones(wave_size, dtype=bool)
    exec_lanes[list(inactive)] = False
    return exec_lanes


def old_register(wave_size: int) -> np.ndarray:
    return np.full(wave_size, OLD, dtype=np.int32)


def dpp(ctrl, exec_lanes=None, wave_size=32, **options) -> np.ndarray:
    """``v_mov_b32_dpp`` of the lane ids into a register of OLD markers."""
    src = np.arange(wave_size, dtype=np.int32)
    if exec_lanes is None:
        exec_lanes = wm.full_exec(wave_size)
    return wm.dpp16(src, old_register(wave_size), exec_lanes, ctrl, **options)


# --------------------------------------------------------------------------------------
# DPP16 controls: parsing and printing
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    ["quad_perm:[1,0,3,2]", "row_shl:1", "row_shr:15", "row_ror:7", "row_mirror",
     "row_half_mirror", "row_share:0", "row_xmask:15"],
)
def test_dpp16_control_round_trips_through_its_asm_text(text):
    assert str(wm.parse_dpp16(text)) == text


def test_dpp16_parser_accepts_spaces_and_hex():
    assert wm.parse_dpp16("quad_perm:[1, 0, 3, 2]") == wm.quad_perm(1, 0, 3, 2)
    assert wm.parse_dpp16("row_xmask:0xf") == wm.row_xmask(15)


@pytest.mark.parametrize(
    "text",
    ["row_bcast:15", "wave_shr:1", "row_shr:0", "row_shl:16", "row_share:16",
     "quad_perm:[0,1,2]", "quad_perm:[0,1,2,4]", "row_mirror:1"],
)
def test_dpp16_parser_rejects_what_gfx10_lacks(text):
    with pytest.raises(ValueError):
        wm.parse_dpp16(text)


def test_dpp8_parser():
    assert wm.parse_dpp8("dpp8:[7,6,5,4,3,2,1,0]") == (7, 6, 5, 4, 3, 2, 1, 0)
    with pytest.raises(ValueError):
        wm.parse_dpp8("dpp8:[0,1]")


# --------------------------------------------------------------------------------------
# DPP16 semantics
# --------------------------------------------------------------------------------------


def test_quad_perm_swaps_neighbours():
    result = dpp("quad_perm:[1,0,3,2]")
    assert list(result[:8]) == [1, 0, 3, 2, 5, 4, 7, 6]
    assert list(result[28:]) == [29, 28, 31, 30]


def test_row_shr_without_bound_ctrl_keeps_old_at_row_starts():
    result = dpp("row_shr:1")
    assert result[0] == OLD and result[16] == OLD
    assert list(result[1:4]) == [0, 1, 2]
    assert result[17] == 16


def test_row_shr_with_bound_ctrl_writes_zero_at_row_starts():
    result = dpp("row_shr:1", bound_ctrl=True)
    assert result[0] == 0 and result[16] == 0
    assert result[15] == 14


def test_row_shr_from_an_inactive_lane():
    exec_lanes = exec_without(32, 4)
    kept = dpp("row_shr:1", exec_lanes)
    zeroed = dpp("row_shr:1", exec_lanes, bound_ctrl=True)
    fetched = dpp("row_shr:1", exec_lanes, fetch_inactive=True)
    assert kept[5] == OLD and zeroed[5] == 0 and fetched[5] == 4
    # the inactive lane itself is never written
    assert kept[4] == OLD and zeroed[4] == OLD and fetched[4] == OLD


def test_row_shl_and_row_ror():
    shl = dpp("row_shl:2")
    assert list(shl[:3]) == [2, 3, 4] and shl[14] == OLD and shl[15] == OLD
    ror = dpp("row_ror:1")
    assert ror[0] == 15 and ror[1] == 0 and ror[16] == 31


def test_mirrors_share_and_xmask():
    assert list(dpp("row_mirror")[:16]) == list(range(15, -1, -1))
    assert list(dpp("row_half_mirror")[:16]) == [7, 6, 5, 4, 3, 2, 1, 0,
                                                 15, 14, 13, 12, 11, 10, 9, 8]
    assert set(dpp("row_share:5")[16:32]) == {21}
    assert list(dpp("row_xmask:5")[:8]) == [5, 4, 7, 6, 1, 0, 3, 2]


def test_row_mask_disables_rows():
    wave32 = dpp("row_mirror", row_mask=0x1)
    assert wave32[0] == 15 and set(wave32[16:]) == {OLD}
    wave64 = dpp("row_mirror", wave_size=64, row_mask=0b1010)
    assert set(wave64[0:16]) == {OLD} and set(wave64[32:48]) == {OLD}
    assert wave64[16] == 31 and wave64[48] == 63


def test_bank_mask_disables_groups_of_four_lanes():
    result = dpp("row_mirror", bank_mask=0b0010)
    written = np.flatnonzero(result != OLD)
    assert list(written) == [4, 5, 6, 7, 20, 21, 22, 23]
    assert list(result[4:8]) == [11, 10, 9, 8]


def test_bank_mask_does_not_restrict_reads():
    # lane 4 (bank 1) reads lane 11 (bank 2), which bank_mask 0b0010 disables
    assert dpp("row_mirror", bank_mask=0b0010)[4] == 11


def test_dpp_valu_keeps_old_where_a_mov_would_write_identity():
    src = np.arange(32, dtype=np.int32)
    old = np.full(32, 100, dtype=np.int32)
    fused = wm.dpp16_valu(np.add, src, src, old, wm.full_exec(32), "row_shr:1")
    assert fused[0] == 100 and fused[1] == 1 + 0 and fused[17] == 17 + 16
    zeroed = wm.dpp16_valu(np.add, src, src, old, wm.full_exec(32), "row_shr:1", bound_ctrl=True)
    assert zeroed[0] == 0 and zeroed[16] == 16


# --------------------------------------------------------------------------------------
# DPP8, permlanes
# --------------------------------------------------------------------------------------


def test_dpp8_reverses_groups_of_eight():
    src = lanes32()
    result = wm.dpp8(src, old_register(32), wm.full_exec(32), "dpp8:[7,6,5,4,3,2,1,0]")
    assert list(result[:10]) == [7, 6, 5, 4, 3, 2, 1, 0, 15, 14]


def test_dpp8_inactive_source_reads_zero_unless_fetch_inactive():
    src = lanes32() + 100
    exec_lanes = exec_without(32, 7)
    selects = (7, 6, 5, 4, 3, 2, 1, 0)
    assert wm.dpp8(src, old_register(32), exec_lanes, selects)[0] == 0
    assert wm.dpp8(src, old_register(32), exec_lanes, selects, fetch_inactive=True)[0] == 107
    assert wm.dpp8(src, old_register(32), exec_lanes, selects)[7] == OLD


def test_lane_select_words():
    assert wm.lane_select_words(wm.IDENTITY_SELECTS) == (0x76543210, 0xFEDCBA98)
    assert wm.lane_selects_from_words(0x76543210, 0xFEDCBA98) == wm.IDENTITY_SELECTS
    assert wm.lane_selects_from_words(0xFFFFFFFF, 0xFFFFFFFF) == (15,) * 16


def test_permlanex16_reads_the_other_row_of_the_half():
    src = lanes64()
    identity = wm.v_permlanex16_b32(src, old_register(64), wm.full_exec(64), wm.IDENTITY_SELECTS)
    assert list(identity) == [lane ^ 16 for lane in range(64)]
    reversed_selects = tuple(range(15, -1, -1))
    result = wm.v_permlanex16_b32(src, old_register(64), wm.full_exec(64), reversed_selects)
    assert result[0] == 31 and result[16] == 15 and result[32] == 63 and result[48] == 47


def test_permlane16_stays_in_the_row():
    src = lanes32()
    selects = (3,) * 16
    result = wm.v_permlane16_b32(src, old_register(32), wm.full_exec(32), selects)
    assert set(result[:16]) == {3} and set(result[16:]) == {19}


def test_permlane_inactive_source():
    src = lanes32()
    exec_lanes = exec_without(32, 16)
    selects = (0,) * 16
    kept = wm.v_permlanex16_b32(src, old_register(32), exec_lanes, selects)
    zeroed = wm.v_permlanex16_b32(src, old_register(32), exec_lanes, selects, bound_ctrl=True)
    fetched = wm.v_permlanex16_b32(src, old_register(32), exec_lanes, selects, fetch_inactive=True)
    assert kept[0] == OLD and zeroed[0] == 0 and fetched[0] == 16


# --------------------------------------------------------------------------------------
# ds_swizzle, ds_bpermute, ds_permute, LDS
# --------------------------------------------------------------------------------------


def test_swizzle_offset_encodings():
    assert wm.swizzle_quad_offset(3, 2, 1, 0) == 0x801B
    assert wm.swizzle_bitmask_offset(0x1F, 0, 0x10) == 0x401F


def test_ds_swizzle_bitmask_mode_swaps_sixteen_without_crossing_halves():
    result = wm.ds_swizzle_b32(lanes64(), old_register(64), wm.full_exec(64),
                               wm.swizzle_bitmask_offset(0x1F, 0, 0x10))
    assert result[0] == 16 and result[16] == 0 and result[32] == 48 and result[63] == 47


def test_ds_swizzle_bitmask_mode_broadcast():
    # and 0x1C, or 2: every lane reads lane 2 of its quad
    result = wm.ds_swizzle_b32(lanes32(), old_register(32), wm.full_exec(32),
                               wm.swizzle_bitmask_offset(0x1C, 2, 0))
    assert list(result[:8]) == [2, 2, 2, 2, 6, 6, 6, 6]


def test_ds_swizzle_quad_mode_and_inactive_lanes():
    exec_lanes = exec_without(32, 3, 5)
    result = wm.ds_swizzle_b32(lanes32() + 100, old_register(32), exec_lanes, 0x801B)
    assert result[0] == 0  # reads lane 3, inactive
    assert result[1] == 102 and result[2] == 101 and result[4] == 107
    assert result[3] == OLD and result[5] == OLD


def test_ds_swizzle_fft_mode_is_not_modelled():
    with pytest.raises(NotImplementedError):
        wm.ds_swizzle_b32(lanes32(), old_register(32), wm.full_exec(32), 0xE000)


def test_ds_bpermute_does_not_cross_halves_in_wave64():
    src = lanes64() + 100
    addresses = ((np.arange(64) + 32) % 64) * 4  # every lane names the other half
    result = wm.ds_bpermute_b32(src, old_register(64), wm.full_exec(64), addresses)
    assert list(result) == list(src)


def test_ds_bpermute_addressing_and_exec():
    src = lanes32() + 100
    exec_lanes = exec_without(32, 2, 9)
    addresses = np.full(32, 2)  # with offset 4: byte 6, low two bits ignored: lane 1
    addresses[1] = 4  # with offset 4: lane 2, which is inactive, so it reads 0
    result = wm.ds_bpermute_b32(src, old_register(32), exec_lanes, addresses, offset=4)
    assert result[0] == 101 and result[1] == 0 and result[31] == 101
    assert result[2] == OLD and result[9] == OLD
    wrapped = wm.ds_bpermute_b32(src, old_register(32), wm.full_exec(32), np.full(32, 33 * 4))
    assert set(wrapped) == {101}


def test_ds_permute_pushes_and_the_higher_lane_wins():
    src = lanes32() + 100
    addresses = np.arange(32) * 4
    addresses[0] = addresses[1] = 8  # lanes 0 and 1 both push to lane 2
    addresses[2] = 0  # and lane 2 pushes to lane 0
    result = wm.ds_permute_b32(src, old_register(32), wm.full_exec(32), addresses)
    assert result[2] == 101 and result[0] == 102
    assert result[1] == 0  # nobody pushed there
    assert result[5] == 105


def test_lds_round_trip_crosses_halves():
    src = lanes64()
    exec_lanes = exec_without(64, 40)
    result = wm.lds_round_trip(src, old_register(64), exec_lanes, np.arange(64) ^ 32, stale=7)
    assert result[0] == 32 and result[33] == 1 and result[8] == 7 and result[40] == OLD


# --------------------------------------------------------------------------------------
# Scalar-side primitives
# --------------------------------------------------------------------------------------


def test_readfirstlane():
    src = lanes32() + 100
    assert wm.v_readfirstlane_b32(src, np.zeros(32, dtype=bool)) == 100
    assert wm.v_readfirstlane_b32(src, exec_without(32, 0, 1, 2)) == 103


def test_readlane_and_writelane_ignore_exec():
    src = lanes32()
    assert wm.v_readlane_b32(src, 5) == 5
    written = wm.v_writelane_b32(old_register(32), 9, 3)
    assert written[3] == 9 and np.count_nonzero(written != OLD) == 1


def test_mbcnt_of_all_ones_is_the_lane_id():
    for wave_size in wm.WAVE_SIZES:
        low = wm.v_mbcnt_lo_u32_b32(0xFFFFFFFF, 0, wave_size)
        lane_id = wm.v_mbcnt_hi_u32_b32(0xFFFFFFFF, low, wave_size)
        assert list(lane_id) == list(range(wave_size))


def test_mbcnt_counts_mask_bits_below_the_lane():
    mask = 0b1011 | (0b101 << 32)
    low = wm.v_mbcnt_lo_u32_b32(mask & 0xFFFFFFFF, 10, 64)
    counts = wm.v_mbcnt_hi_u32_b32(mask >> 32, low, 64)
    assert list(counts[:5]) == [10, 11, 12, 12, 13]
    assert counts[32] == 13 and counts[33] == 14 and counts[35] == 15


def test_ballot_bcnt_ff1():
    condition = np.zeros(64, dtype=bool)
    condition[[3, 40, 41]] = True
    exec_lanes = exec_without(64, 41)
    mask = wm.v_cmp_ballot(condition, exec_lanes)
    assert mask == (1 << 3) | (1 << 40)
    assert wm.s_bcnt1(mask) == 2 and wm.s_ff1(mask) == 3 and wm.s_ff1(0) == -1
    assert wm.mask_to_exec(mask, 64).sum() == 2
    assert wm.exec_to_mask(wm.mask_to_exec(mask, 64)) == mask


# --------------------------------------------------------------------------------------
# Intrinsic model: hand-checked
# --------------------------------------------------------------------------------------


def test_wave_active_ballot_words():
    condition = np.zeros(64, dtype=bool)
    condition[[0, 33, 63]] = True
    exec_lanes = exec_without(64, 63)
    ballot = wm.wave_active_ballot(condition, exec_lanes)
    assert list(ballot.values[0]) == [1, 2, 0, 0]
    assert list(ballot.values[63]) == [0, 0, 0, 0] and not ballot.defined[63]


def test_prefix_sum_is_exclusive_over_active_lanes():
    values = np.arange(1, 33, dtype=np.int32)
    result = wm.wave_prefix("sum", values, exec_without(32, 1))
    assert list(result.values[:4]) == [0, 0, 1, 4]


def test_quad_read_of_an_inactive_lane_is_undefined():
    result = wm.quad_read_across_x(lanes32(), exec_without(32, 1))
    assert not result.defined[0] and not result.defined[1] and result.defined[2]
    assert result.values[2] == 3


def test_is_first_lane_and_read_first():
    exec_lanes = exec_without(32, 0, 1)
    assert np.flatnonzero(wm.wave_is_first_lane(exec_lanes).values).tolist() == [2]
    assert wm.wave_read_lane_first(lanes32() + 5, exec_lanes).values[10] == 7


def test_float_sum_is_a_pairwise_tree():
    values = np.array([1e8, 1.0, -1e8, 1.0], dtype=np.float32)
    # (1e8 + 1) + (-1e8 + 1) in float32 is 0, not the exact 2
    assert wm.tree_reduce("sum", values) == np.float32(0.0)


def test_mismatched_lanes_ignores_undefined_lanes():
    expected = wm.quad_read_across_x(lanes32(), exec_without(32, 1))
    actual = expected.values.copy()
    actual[0] = 99  # lane 0 reads inactive lane 1: undefined, so not a mismatch
    assert len(wm.mismatched_lanes(actual, expected)) == 0
    actual[2] = 99
    assert wm.mismatched_lanes(actual, expected).tolist() == [2]


def test_every_hlsl_intrinsic_is_in_the_table():
    assert len(wm.HLSL_INTRINSICS) == 32
    assert wm.HLSL_INTRINSICS["WaveActiveSum"](lanes32(), wm.full_exec(32)).values[0] == 496


# --------------------------------------------------------------------------------------
# Property tests: every lowering equals the intrinsic model on defined lanes
# --------------------------------------------------------------------------------------

FAST = settings(max_examples=60, deadline=None)


@st.composite
def exec_masks(draw, wave_size: int) -> np.ndarray:
    """Full, every third lane inactive, random, single lane, or empty."""
    kind = draw(st.sampled_from(["full", "every_third", "random", "random", "single", "empty"]))
    lanes = np.arange(wave_size)
    if kind == "full":
        return np.ones(wave_size, dtype=bool)
    if kind == "every_third":
        phase = draw(st.integers(0, 2))
        return lanes % 3 != phase
    if kind == "single":
        return lanes == draw(st.integers(0, wave_size - 1))
    if kind == "empty":
        return np.zeros(wave_size, dtype=bool)
    return draw(arrays(bool, wave_size))


INT_ELEMENTS = {
    np.int32: st.integers(-(2**31), 2**31 - 1),
    np.uint32: st.integers(0, 2**32 - 1),
}
FLOAT_ELEMENTS = st.floats(-1000, 1000, width=32)
PRODUCT_FLOATS = st.floats(0.5, 2.0, width=32).flatmap(
    lambda magnitude: st.sampled_from([magnitude, -magnitude]))


@st.composite
def wave_cases(draw, kinds=("int32", "uint32", "float32"), for_product=False):
    """``(values, exec)`` of a random wave size and dtype."""
    wave_size = draw(st.sampled_from(wm.WAVE_SIZES))
    kind = draw(st.sampled_from(kinds))
    dtype = np.dtype(kind).type
    if dtype is np.float32:
        elements = PRODUCT_FLOATS if for_product else FLOAT_ELEMENTS
    else:
        elements = INT_ELEMENTS[dtype]
    values = draw(arrays(dtype, wave_size, elements=elements))
    return values, draw(exec_masks(wave_size))


def assert_defined_equal(actual, expected: wm.WaveResult, tolerance: float = 0.0):
    bad = wm.mismatched_lanes(actual, expected, rtol=tolerance, atol=tolerance)
    assert len(bad) == 0, (
        f"lanes {bad.tolist()}: got {actual[bad].tolist()}, want {expected.values[bad].tolist()}"
    )


def assert_inactive_untouched(actual: np.ndarray, old: np.ndarray, exec_lanes: np.ndarray):
    np.testing.assert_array_equal(actual[~exec_lanes], old[~exec_lanes])


def float_tolerance(op_name: str, values: np.ndarray) -> float:
    """How far two summation orders may drift apart in float32 for these values."""
    if values.dtype.kind != "f" or op_name in ("min", "max"):
        return 0.0
    if op_name == "product":
        return 1e-4
    return 1e-5 * max(1.0, float(np.abs(values).sum()))


def ops_for(values: np.ndarray) -> list[str]:
    if values.dtype.kind == "f":
        return ["sum", "min", "max"]
    return list(wm.REDUCE_OPS)


@FAST
@given(wave_cases())
def test_reduce_via_dpp_matches_wave_active(case):
    values, exec_lanes = case
    old = np.full(len(values), 3, dtype=values.dtype)
    for op_name in ops_for(values):
        lowered = ladders.reduce_via_dpp(op_name, values, exec_lanes, old)
        expected = wm.wave_active(op_name, values, exec_lanes)
        assert_defined_equal(lowered, expected, float_tolerance(op_name, values))
        assert_inactive_untouched(lowered, old, exec_lanes)


@FAST
@given(wave_cases())
def test_prefix_via_dpp_matches_wave_prefix(case):
    values, exec_lanes = case
    old = np.full(len(values), 3, dtype=values.dtype)
    for op_name in ops_for(values):
        lowered = ladders.prefix_via_dpp(op_name, values, exec_lanes, old)
        expected = wm.wave_prefix(op_name, values, exec_lanes)
        assert_defined_equal(lowered, expected, float_tolerance(op_name, values))
        assert_inactive_untouched(lowered, old, exec_lanes)


@FAST
@given(wave_cases(kinds=("int32", "float32"), for_product=True))
def test_product_ladders_match(case):
    values, exec_lanes = case
    tolerance = float_tolerance("product", values)
    assert_defined_equal(ladders.reduce_via_dpp("product", values, exec_lanes),
                         wm.wave_active("product", values, exec_lanes), tolerance)
    assert_defined_equal(ladders.prefix_via_dpp("product", values, exec_lanes),
                         wm.wave_prefix("product", values, exec_lanes), tolerance)


@FAST
@given(wave_cases(kinds=("int32",)))
def test_ballot_family_matches(case):
    values, exec_lanes = case
    condition = values % 3 == 0
    pairs = [
        (ladders.ballot_via_vcmp, wm.wave_active_ballot),
        (ladders.count_bits_via_bcnt, wm.wave_active_count_bits),
        (ladders.any_true_via_ballot, wm.wave_active_any_true),
        (ladders.all_true_via_ballot, wm.wave_active_all_true),
        (ladders.prefix_count_bits_via_mbcnt, wm.wave_prefix_count_bits),
    ]
    for lowering, intrinsic in pairs:
        assert_defined_equal(lowering(condition, exec_lanes), intrinsic(condition, exec_lanes))
    assert_defined_equal(ladders.is_first_lane_via_ff1(exec_lanes),
                         wm.wave_is_first_lane(exec_lanes))


@FAST
@given(wave_cases(), st.booleans())
def test_read_first_and_all_equal_match(case, make_uniform):
    values, exec_lanes = case
    if make_uniform:
        values = np.full_like(values, values[0])
    assert_defined_equal(ladders.read_first_via_readfirstlane(values, exec_lanes),
                         wm.wave_read_lane_first(values, exec_lanes))
    assert_defined_equal(ladders.all_equal_via_readfirstlane(values, exec_lanes),
                         wm.wave_active_all_equal(values, exec_lanes))


QUAD_READS = [
    ((1, 0, 3, 2), wm.quad_read_across_x),
    ((2, 3, 0, 1), wm.quad_read_across_y),
    ((3, 2, 1, 0), wm.quad_read_across_diagonal),
]


@FAST
@given(wave_cases(), st.integers(0, 3))
def test_quad_reads_via_quad_perm_match(case, quad_lane):
    values, exec_lanes = case
    for selects, intrinsic in QUAD_READS:
        assert_defined_equal(ladders.quad_read_via_dpp(values, exec_lanes, selects),
                             intrinsic(values, exec_lanes))
    assert_defined_equal(ladders.quad_read_via_dpp(values, exec_lanes, (quad_lane,) * 4),
                         wm.quad_read_lane_at(values, exec_lanes, quad_lane))


@FAST
@given(wave_cases(), st.data())
def test_shuffle_xor_lowering_matches(case, data):
    values, exec_lanes = case
    wave_size = len(values)
    old = np.full(wave_size, 3, dtype=values.dtype)
    for mask in data.draw(st.lists(st.integers(0, wave_size - 1), min_size=4, max_size=8)):
        lowered = ladders.shuffle_xor_via_lowering(values, exec_lanes, mask, old)
        assert_defined_equal(lowered, wm.wave_shuffle_xor(values, exec_lanes, mask))
        assert_inactive_untouched(lowered, old, exec_lanes)


def test_shuffle_xor_plan_follows_the_design_table():
    masks = (1, 3, 4, 7, 8, 15, 16, 17, 31, 32, 63)
    plans = {mask: ladders.shuffle_xor_plan(mask, 64) for mask in masks}
    assert plans == {1: "quad_perm", 3: "quad_perm", 4: "dpp8", 7: "dpp8", 8: "row_xmask",
                     15: "row_xmask", 16: "permlanex16", 17: "ds_bpermute", 31: "ds_bpermute",
                     32: "lds", 63: "lds"}
    with pytest.raises(ValueError):
        ladders.shuffle_xor_plan(32, 32)


@FAST
@given(wave_cases(), st.data())
def test_read_lane_at_lowerings_match(case, data):
    values, exec_lanes = case
    wave_size = len(values)
    old = np.full(wave_size, 3, dtype=values.dtype)
    lanes_read = data.draw(arrays(np.int64, wave_size, elements=st.integers(0, wave_size - 1)))
    divergent = ladders.read_lane_at_via_bpermute(values, exec_lanes, lanes_read, old)
    assert_defined_equal(divergent, wm.wave_read_lane_at(values, exec_lanes, lanes_read))
    assert_inactive_untouched(divergent, old, exec_lanes)
    uniform_lane = int(lanes_read[0])
    uniform = ladders.read_lane_at_uniform_via_readlane(values, exec_lanes, uniform_lane)
    assert_defined_equal(uniform, wm.wave_read_lane_at(values, exec_lanes, uniform_lane))


def test_cross_half_read_in_wave64_needs_the_fix():
    """A plain bpermute in wave64 would read the wrong half; the lowering does not."""
    values = lanes64() + 100
    lanes_read = (np.arange(64) + 32) % 64
    exec_lanes = wm.full_exec(64)
    plain = wm.ds_bpermute_b32(values, old_register(64), exec_lanes, lanes_read * 4)
    fixed = ladders.read_lane_at_via_bpermute(values, exec_lanes, lanes_read)
    assert plain[0] == 100 and fixed[0] == 132 and fixed[40] == 108
