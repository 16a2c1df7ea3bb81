"""Reference lowerings of the HLSL wave intrinsics, built only from RDNA2 primitives.

Each function here is the instruction sequence the compiler's wave-op lowering is
meant to emit (DESIGN.md section 2), run on the primitive model in
``shc.compiler.machine.wavemodel``. The tests prove each one equals the intrinsic model on
the lanes HLSL defines, which makes these the executable specification of the
lowering pass.

Every function takes ``(values, exec_lanes, ..., old=None)`` and returns the
destination register: active lanes hold the result, inactive lanes keep ``old``
(zeros when not given), just as the real sequence leaves them.

Two recurring moves, both as ACO does them:

* **Identity fill + whole-wave mode.** Reductions and scans first copy the value
  with inactive lanes replaced by the operator's identity, then run the ladder with
  every lane enabled (``full_exec``), so DPP never has to read an inactive lane.
* **Final masked write.** The result is written back under the original exec.
"""

from __future__ import annotations

import numpy as np

from shc.compiler.machine.wavemodel import (
    HALF_SIZE,
    IDENTITY_SELECTS,
    ROW_HALF_MIRROR,
    ROW_MIRROR,
    ROW_SIZE,
    ReduceOp,
    REDUCE_OPS,
    dpp8,
    dpp16,
    dpp16_valu,
    ds_bpermute_b32,
    full_exec,
    lane_ids,
    lds_round_trip,
    masked_write,
    quad_perm,
    row_shr,
    row_xmask,
    s_bcnt1,
    s_ff1,
    v_cmp_ballot,
    v_mbcnt_hi_u32_b32,
    v_mbcnt_lo_u32_b32,
    v_permlanex16_b32,
    v_readfirstlane_b32,
    v_readlane_b32,
    v_writelane_b32,
    valu,
    wave_size_of,
)

LAST_ROW_LANE = ROW_SIZE - 1


def _destination(values: np.ndarray, old: np.ndarray | None, dtype=None) -> np.ndarray:
    """The destination register's previous contents (zeros when the caller has none)."""
    if old is not None:
        return old
    return np.zeros(len(values), dtype=dtype or values.dtype)


def _op(op: ReduceOp | str) -> ReduceOp:
    return REDUCE_OPS[op] if isinstance(op, str) else op


def _scalar_op(op: ReduceOp, left, right, dtype):
    """An SALU-side combine of two SGPR values (1-element arrays: integers wrap silently)."""
    left_array = np.array([left], dtype=dtype)
    right_array = np.array([right], dtype=dtype)
    return op(left_array, right_array).astype(dtype)[0]


def identity_filled(op: ReduceOp, values: np.ndarray, exec_lanes: np.ndarray) -> np.ndarray:
    """``v_cndmask_b32 tmp, identity, v, exec`` computed in whole-wave mode."""
    identity = np.full(len(values), op.identity(values.dtype), dtype=values.dtype)
    return np.where(exec_lanes, values, identity)


def broadcast_scalar(scalar, exec_lanes: np.ndarray, old: np.ndarray) -> np.ndarray:
    """``v_mov_b32 dst, s`` under exec: an SGPR value copied to every active lane."""
    return masked_write(old, np.full(len(old), scalar, dtype=old.dtype), exec_lanes)


# --------------------------------------------------------------------------------------
# WaveActive* reductions
# --------------------------------------------------------------------------------------

# The in-row part of the reduction ladder: after these four steps every lane of a
# row holds the row's total.
ROW_REDUCE_STEPS = (quad_perm(1, 0, 3, 2), quad_perm(2, 3, 0, 1), ROW_HALF_MIRROR, ROW_MIRROR)


def reduce_via_dpp(
    op: ReduceOp | str, values: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveActive<op>(v)`` lowered: identity fill, DPP row ladder, permlanex16, readlane.

    1. ``tmp = exec ? v : identity`` (whole-wave mode from here on).
    2. ``tmp = op(tmp, dpp(tmp))`` for quad_perm [1,0,3,2], [2,3,0,1], row_half_mirror,
       row_mirror: each row's total in all its lanes.
    3. ``tmp = op(tmp, permlanex16(tmp))`` with identity selects: each 32-lane half's
       total in all its lanes.
    4. ``s = readlane(tmp, 0)``; wave64 adds ``readlane(tmp, 32)`` on the SALU side.
    5. ``v_mov dst, s`` under the original exec.
    """
    op = _op(op)
    whole_wave = full_exec(wave_size_of(values))
    tmp = identity_filled(op, values, exec_lanes)
    for ctrl in ROW_REDUCE_STEPS:
        moved = dpp16(tmp, tmp, whole_wave, ctrl)
        tmp = valu(op, tmp, moved, tmp, whole_wave)
    across_rows = v_permlanex16_b32(tmp, tmp, whole_wave, IDENTITY_SELECTS)
    tmp = valu(op, tmp, across_rows, tmp, whole_wave)
    total = v_readlane_b32(tmp, 0)
    if len(values) == 64:
        total = _scalar_op(op, total, v_readlane_b32(tmp, HALF_SIZE), values.dtype)
    return broadcast_scalar(total, exec_lanes, _destination(values, old))


# --------------------------------------------------------------------------------------
# WavePrefix* scans
# --------------------------------------------------------------------------------------


def _row_starts(wave_size: int) -> np.ndarray:
    return lane_ids(wave_size) % ROW_SIZE == 0


def shift_right_one_lane(op: ReduceOp, tmp: np.ndarray) -> np.ndarray:
    """The gfx10 stand-in for ``wave_shr:1`` (removed on RDNA), in whole-wave mode.

    ``row_shr:1`` into a register of identities moves every lane but the row starts;
    lanes 16 (and 48) fetch lane 15 (47) with ``v_permlanex16`` restricted to those
    lanes (so the source lane is inactive and needs ``fi``); in wave64 lane 32 gets
    lane 31 through ``v_readlane`` + ``v_writelane``. Lane 0 keeps the identity.
    """
    wave_size = wave_size_of(tmp)
    identity = np.full(wave_size, op.identity(tmp.dtype), dtype=tmp.dtype)
    shifted = dpp16(tmp, identity, full_exec(wave_size), row_shr(1))
    odd_row_starts = _row_starts(wave_size) & ((lane_ids(wave_size) // ROW_SIZE) % 2 == 1)
    last_lane_selects = (LAST_ROW_LANE,) * ROW_SIZE
    shifted = v_permlanex16_b32(
        tmp, shifted, odd_row_starts, last_lane_selects, fetch_inactive=True
    )
    if wave_size == 64:
        shifted = v_writelane_b32(shifted, v_readlane_b32(tmp, HALF_SIZE - 1), HALF_SIZE)
    return shifted


def inclusive_row_scan(op: ReduceOp, src: np.ndarray) -> np.ndarray:
    """Inclusive scan inside each row, as the GPUOpen DPP prefix-sum listing does it.

    ``row_shr:1,2,3`` with DPP on the original value sums each lane's four-lane
    window; ``row_shr:4`` (bank_mask 0xE) and ``row_shr:8`` (bank_mask 0xC) then
    double the window. Lanes whose source falls outside the row keep their value
    (no bound_ctrl), so any operator with any identity works.
    """
    whole_wave = full_exec(wave_size_of(src))
    scan = src.copy()
    for amount in (1, 2, 3):
        scan = dpp16_valu(op, src, scan, scan, whole_wave, row_shr(amount))
    scan = dpp16_valu(op, scan, scan, scan, whole_wave, row_shr(4), bank_mask=0xE)
    scan = dpp16_valu(op, scan, scan, scan, whole_wave, row_shr(8), bank_mask=0xC)
    return scan


def carry_across_rows(op: ReduceOp, scan: np.ndarray) -> np.ndarray:
    """Turn per-row inclusive scans into a wave scan (RDNA has no ``row_bcast``).

    Rows 1 and 3 add lane 15 of the row below via ``v_permlanex16`` (all selects 15)
    under an exec of rows 1 and 3; in wave64 the upper half then adds lane 31, read
    with ``v_readlane`` and applied under an exec of lanes 32-63.
    """
    wave_size = wave_size_of(scan)
    lanes = lane_ids(wave_size)
    last_lane_selects = (LAST_ROW_LANE,) * ROW_SIZE
    carry = v_permlanex16_b32(scan, scan, full_exec(wave_size), last_lane_selects)
    odd_rows = (lanes // ROW_SIZE) % 2 == 1
    scan = valu(op, scan, carry, scan, odd_rows)
    if wave_size == 64:
        lower_half_total = v_readlane_b32(scan, HALF_SIZE - 1)
        scan = valu(op, scan, lower_half_total, scan, lanes >= HALF_SIZE)
    return scan


def prefix_via_dpp(
    op: ReduceOp | str, values: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WavePrefix<op>(v)`` (exclusive) lowered: fill, shift by one, row scan, carries.

    The exclusive scan is the inclusive scan of the values shifted right by one
    lane (identity into lane 0), with inactive lanes holding the identity.
    """
    op = _op(op)
    tmp = identity_filled(op, values, exec_lanes)
    shifted = shift_right_one_lane(op, tmp)
    scan = carry_across_rows(op, inclusive_row_scan(op, shifted))
    return masked_write(_destination(values, old), scan, exec_lanes)


# --------------------------------------------------------------------------------------
# Ballot family: WaveActiveBallot/CountBits/AnyTrue/AllTrue/AllEqual, WavePrefixCountBits,
# WaveIsFirstLane, WaveReadLaneFirst
# --------------------------------------------------------------------------------------


def ballot_via_vcmp(
    condition: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveActiveBallot(b)``: ``v_cmp_ne_u32 s[..], 0, b``, then the SGPR words broadcast."""
    mask = v_cmp_ballot(condition, exec_lanes)
    wave_size = len(exec_lanes)
    if old is None:
        old = np.zeros((wave_size, 4), dtype=np.uint32)
    result = old.copy()
    for word in range(4):
        word_value = (mask >> (32 * word)) & 0xFFFFFFFF
        result[:, word] = broadcast_scalar(word_value, exec_lanes, old[:, word])
    return result


def count_bits_via_bcnt(
    condition: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveActiveCountBits(b)``: ``s_bcnt1`` of the ballot."""
    count = s_bcnt1(v_cmp_ballot(condition, exec_lanes))
    return broadcast_scalar(count, exec_lanes, _destination(condition, old, np.uint32))


def any_true_via_ballot(
    condition: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveActiveAnyTrue(b)``: the ballot is not zero (``s_cmp_lg``)."""
    any_true = v_cmp_ballot(condition, exec_lanes) != 0
    return broadcast_scalar(any_true, exec_lanes, _destination(condition, old, bool))


def all_true_via_ballot(
    condition: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveActiveAllTrue(b)``: the ballot equals exec."""
    all_true = v_cmp_ballot(condition, exec_lanes) == v_cmp_ballot(exec_lanes, exec_lanes)
    return broadcast_scalar(all_true, exec_lanes, _destination(condition, old, bool))


def all_equal_via_readfirstlane(
    values: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveActiveAllEqual(v)``: ``v_readfirstlane``, ``v_cmp_eq`` against it, ballot == exec."""
    first = v_readfirstlane_b32(values, exec_lanes)
    equal_mask = v_cmp_ballot(values == first, exec_lanes)
    all_equal = equal_mask == v_cmp_ballot(exec_lanes, exec_lanes)
    return broadcast_scalar(all_equal, exec_lanes, _destination(values, old, bool))


def prefix_count_bits_via_mbcnt(
    condition: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WavePrefixCountBits(b)``: ballot, then ``v_mbcnt_lo`` + ``v_mbcnt_hi`` of it."""
    wave_size = len(exec_lanes)
    mask = v_cmp_ballot(condition, exec_lanes)
    low_count = v_mbcnt_lo_u32_b32(mask & 0xFFFFFFFF, 0, wave_size)
    count = v_mbcnt_hi_u32_b32(mask >> 32, low_count, wave_size)
    return masked_write(_destination(condition, old, np.uint32), count, exec_lanes)


def is_first_lane_via_ff1(
    exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveIsFirstLane()``: ``s_ff1`` of exec compared with the lane id (from mbcnt)."""
    wave_size = len(exec_lanes)
    low_count = v_mbcnt_lo_u32_b32(0xFFFFFFFF, 0, wave_size)
    lane_index = v_mbcnt_hi_u32_b32(0xFFFFFFFF, low_count, wave_size)
    is_first = lane_index == s_ff1(v_cmp_ballot(exec_lanes, exec_lanes))
    return masked_write(_destination(exec_lanes, old, bool), is_first, exec_lanes)


def read_first_via_readfirstlane(
    values: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveReadLaneFirst(v)``: ``v_readfirstlane_b32`` then a broadcast."""
    first = v_readfirstlane_b32(values, exec_lanes)
    return broadcast_scalar(first, exec_lanes, _destination(values, old))


# --------------------------------------------------------------------------------------
# Quad reads, shuffles, WaveReadLaneAt
# --------------------------------------------------------------------------------------


def quad_read_via_dpp(
    values: np.ndarray, exec_lanes: np.ndarray, quad_selects: tuple[int, ...],
    old: np.ndarray | None = None,
) -> np.ndarray:
    """``QuadReadAcross*`` / ``QuadReadLaneAt``: one ``v_mov_b32_dpp quad_perm:[...]``.

    X is [1,0,3,2], Y is [2,3,0,1], Diagonal is [3,2,1,0], QuadReadLaneAt(v, k) is
    [k,k,k,k]. The seed listing uses ``bound_ctrl:0`` (read 0 from an inactive
    lane), which only changes undefined lanes; so do we.
    """
    ctrl = quad_perm(*quad_selects)
    return dpp16(values, _destination(values, old), exec_lanes, ctrl, bound_ctrl=True)


def shuffle_xor_plan(mask: int, wave_size: int) -> str:
    """The primitive the lowering picks for ``WaveShuffleXor(v, mask)`` (DESIGN.md 2)."""
    if not 0 <= mask < wave_size:
        raise ValueError(f"shuffle mask {mask} is outside a wave{wave_size}")
    if mask < 4:
        return "quad_perm"
    if mask < 8:
        return "dpp8"
    if mask < ROW_SIZE:
        return "row_xmask"
    if mask == ROW_SIZE:
        return "permlanex16"
    if mask < HALF_SIZE:
        return "ds_bpermute"
    return "lds"


def shuffle_xor_via_lowering(
    values: np.ndarray, exec_lanes: np.ndarray, mask: int, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveShuffleXor(v, m)`` with the primitive ``shuffle_xor_plan`` names.

    quad_perm (m < 4), DPP8 (m < 8), ``row_xmask:m`` (m < 16), ``v_permlanex16``
    with identity selects (m = 16), ``ds_bpermute`` with address ``(i ^ m) * 4``
    (other m < 32), an LDS round trip (m >= 32, wave64 only).
    """
    old = _destination(values, old)
    plan = shuffle_xor_plan(mask, len(values))
    partner = lane_ids(len(values)) ^ mask
    if plan == "quad_perm":
        return dpp16(values, old, exec_lanes, quad_perm(*(lane ^ mask for lane in range(4))))
    if plan == "dpp8":
        return dpp8(values, old, exec_lanes, tuple(lane ^ mask for lane in range(8)))
    if plan == "row_xmask":
        return dpp16(values, old, exec_lanes, row_xmask(mask))
    if plan == "permlanex16":
        return v_permlanex16_b32(values, old, exec_lanes, IDENTITY_SELECTS)
    if plan == "ds_bpermute":
        return ds_bpermute_b32(values, old, exec_lanes, partner * 4)
    return lds_round_trip(values, old, exec_lanes, partner)


def read_lane_at_uniform_via_readlane(
    values: np.ndarray, exec_lanes: np.ndarray, lane: int, old: np.ndarray | None = None
) -> np.ndarray:
    """``WaveReadLaneAt(v, i)`` with a uniform ``i``: ``v_readlane_b32`` then a broadcast."""
    return broadcast_scalar(v_readlane_b32(values, lane), exec_lanes, _destination(values, old))


def read_lane_at_via_bpermute(
    values: np.ndarray, exec_lanes: np.ndarray, lanes_read: np.ndarray,
    old: np.ndarray | None = None,
) -> np.ndarray:
    """``WaveReadLaneAt(v, i)`` with a divergent ``i``: ``ds_bpermute_b32`` at ``i * 4``.

    wave32: one bpermute under exec. wave64: bpermute only reaches its own half, so
    (in whole-wave mode) a half-swapped copy is made with an LDS round trip (lane j
    reads lane ``j ^ 32``), both copies are bpermuted, and each lane keeps the one
    whose half matches ``i``'s half (``v_cndmask``), written under the original exec.
    """
    old = _destination(values, old)
    addresses = np.asarray(lanes_read, dtype=np.int64) * 4
    wave_size = wave_size_of(values)
    if wave_size == 32:
        return ds_bpermute_b32(values, old, exec_lanes, addresses)
    whole_wave = full_exec(wave_size)
    lanes = lane_ids(wave_size)
    swapped = lds_round_trip(values, values, whole_wave, lanes ^ HALF_SIZE)
    same_half = ds_bpermute_b32(values, values, whole_wave, addresses)
    other_half = ds_bpermute_b32(swapped, values, whole_wave, addresses)
    wants_same_half = (np.asarray(lanes_read) // HALF_SIZE) == (lanes // HALF_SIZE)
    return masked_write(old, np.where(wants_same_half, same_half, other_half), exec_lanes)


# --------------------------------------------------------------------------------------
# SM 6.5 partitions: WaveMatch, WaveMultiPrefix* (a readlane per lane, no loop)
# --------------------------------------------------------------------------------------


def match_via_readlane(values: np.ndarray, exec_lanes: np.ndarray, old: np.ndarray | None = None) -> np.ndarray:
    """``WaveMatch(v)``: for each lane j, ``s = v_readlane(v, j)``, ``v_cmp_eq`` of every
    component's bits with s, ``v_cndmask`` bit j into the word, ``v_or``; last, each word
    ANDed with exec's (``values`` is (W,) or (W, n); the result (W, 4) uint32)."""
    wave_size = len(exec_lanes)
    columns = values.reshape(wave_size, -1)
    bits = columns.astype(np.uint8) if columns.dtype == bool else columns.view(f"u{columns.dtype.itemsize}")
    exec_mask = v_cmp_ballot(exec_lanes, exec_lanes)
    result = np.zeros((wave_size, 4), dtype=np.uint32) if old is None else old.copy()
    for word in range(wave_size // HALF_SIZE):
        accumulated = np.zeros(wave_size, dtype=np.uint32)
        for lane in range(HALF_SIZE * word, HALF_SIZE * (word + 1)):
            same = np.all([column == v_readlane_b32(column, lane) for column in bits.T], axis=0)
            accumulated |= np.where(same, np.uint32(1 << (lane % HALF_SIZE)), np.uint32(0))
        exec_word = np.uint32((exec_mask >> (HALF_SIZE * word)) & 0xFFFFFFFF)
        result[:, word] = masked_write(result[:, word], accumulated & exec_word, exec_lanes)
    for word in range(wave_size // HALF_SIZE, 4):
        result[:, word] = masked_write(result[:, word], np.zeros(wave_size, np.uint32), exec_lanes)
    return result


def multi_prefix_via_readlane(
    op: ReduceOp | str, values: np.ndarray, masks: np.ndarray, exec_lanes: np.ndarray,
    old: np.ndarray | None = None,
) -> np.ndarray:
    """``WaveMultiPrefix<op>(v, mask)``: ``members = mask & exec & (bits below the lane)``
    per 32-bit word; then for j = 0 .. W-2, ``s = v_readlane(v, j)`` and, where bit j of
    members is set, ``running = op(running, s)`` (``v_cndmask``), from the identity."""
    op = _op(op)
    wave_size = len(exec_lanes)
    lanes = lane_ids(wave_size)
    exec_mask = v_cmp_ballot(exec_lanes, exec_lanes)
    below = (np.uint64(1) << lanes.astype(np.uint64)) - np.uint64(1)  # lanes 0..63: no overflow in 64 bits
    members = (masks[:, 0].astype(np.uint64) | (masks[:, 1].astype(np.uint64) << np.uint64(32)))
    members &= np.uint64(exec_mask) & below
    running = np.full(wave_size, op.identity(values.dtype), dtype=values.dtype)
    for lane in range(wave_size - 1):
        member = ((members >> np.uint64(lane)) & np.uint64(1)).astype(bool)
        combined = op(running, np.full(wave_size, v_readlane_b32(values, lane), values.dtype)).astype(values.dtype)
        running = np.where(member, combined, running)
    return masked_write(_destination(values, old), running, exec_lanes)
