"""The NumPy model of the HLSL wave intrinsics (the RDNA2 primitives are in
``machine/lanes.py`` and re-exported here, so ``wavemodel`` is the one name to import).

Each intrinsic takes ``(values, exec)`` (plus its own operands) and returns a
``WaveResult(values, defined)``. ``defined`` marks the lanes whose value HLSL pins
down: the active lanes, minus lanes that read an inactive (or nonexistent) lane
through ``QuadRead*``, ``WaveReadLaneAt`` or ``WaveShuffleXor``. Lanes that are not
defined hold 0 in ``values``; compare results only where ``defined`` is true.
Reductions combine the active lanes as a pairwise tree in lane order; prefixes
accumulate left to right in lane order (see ``tree_reduce`` and ``wave_prefix``).
Integer arithmetic wraps, as it does in 32-bit registers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, NamedTuple

import numpy as np

from .exchange import *  # noqa: F401,F403  (the primitives are part of this model)
from .lanes import *  # noqa: F401,F403
from .exchange import v_cmp_ballot
from .lanes import lane_ids, masked_write

# --------------------------------------------------------------------------------------
# Reduction operators
# --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReduceOp:
    """A commutative, associative wave operator: its NumPy function and identity."""

    name: str
    function: Callable
    identity_for: Callable[[np.dtype], object]

    def identity(self, dtype) -> np.ndarray:
        """The identity as a 0-d array of ``dtype``."""
        return np.asarray(self.identity_for(np.dtype(dtype)), dtype=dtype)

    def __call__(self, left, right):
        return self.function(left, right)


def _largest(dtype: np.dtype):
    return np.inf if dtype.kind == "f" else np.iinfo(dtype).max


def _smallest(dtype: np.dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _all_ones(dtype: np.dtype):
    return ~np.zeros((), dtype=dtype)


REDUCE_OPS: dict[str, ReduceOp] = {
    op.name: op
    for op in (
        ReduceOp("sum", np.add, lambda dtype: 0),
        ReduceOp("product", np.multiply, lambda dtype: 1),
        ReduceOp("min", np.minimum, _largest),
        ReduceOp("max", np.maximum, _smallest),
        ReduceOp("and", np.bitwise_and, _all_ones),
        ReduceOp("or", np.bitwise_or, lambda dtype: 0),
        ReduceOp("xor", np.bitwise_xor, lambda dtype: 0),
    )
}


def _reduce_op(op: ReduceOp | str) -> ReduceOp:
    return REDUCE_OPS[op] if isinstance(op, str) else op


def tree_reduce(op: ReduceOp | str, values: np.ndarray):
    """Combine ``values`` as a pairwise tree in order: ((v0 v1)(v2 v3))((v4 v5)...).

    An odd element at the end of a level is carried to the next level unchanged.
    Empty input gives the identity. Works on 1-element arrays so integers wrap silently.
    """
    op = _reduce_op(op)
    level = np.asarray(values)
    if len(level) == 0:
        return op.identity(level.dtype)[()]
    while len(level) > 1:
        paired = op(level[0 : len(level) - 1 : 2], level[1::2]).astype(level.dtype)
        level = np.concatenate([paired, level[len(paired) * 2 :]])
    return level[0]


# --------------------------------------------------------------------------------------
# HLSL wave intrinsics
# --------------------------------------------------------------------------------------


class WaveResult(NamedTuple):
    """An intrinsic's per-lane result and the lanes where HLSL defines it."""

    values: np.ndarray
    defined: np.ndarray


def mismatched_lanes(
    actual: np.ndarray, expected: WaveResult, rtol: float = 0.0, atol: float = 0.0
) -> np.ndarray:
    """The defined lanes where ``actual`` differs from the model (empty when they agree).

    With a tolerance (for float orderings) a lane agrees when
    ``|actual - expected| <= atol + rtol * |expected|``; otherwise values must be equal.
    """
    got = actual[expected.defined]
    want = expected.values[expected.defined]
    if rtol or atol:
        agree = np.isclose(got, want, rtol=rtol, atol=atol)
    else:
        agree = got == want
    if agree.ndim > 1:  # WaveActiveBallot: a lane agrees when all four words do
        agree = agree.all(axis=tuple(range(1, agree.ndim)))
    return np.flatnonzero(expected.defined)[~agree]


def _broadcast(value, exec_lanes: np.ndarray, dtype) -> WaveResult:
    """A wave-uniform result: ``value`` on active lanes, 0 elsewhere."""
    zeros = np.zeros(len(exec_lanes), dtype=dtype)
    uniform = np.full(len(exec_lanes), value, dtype=dtype)
    return WaveResult(masked_write(zeros, uniform, exec_lanes), exec_lanes.copy())


def wave_get_lane_index(exec_lanes: np.ndarray) -> WaveResult:
    """``WaveGetLaneIndex()``: the lane number."""
    lanes = lane_ids(len(exec_lanes)).astype(np.uint32)
    return WaveResult(np.where(exec_lanes, lanes, 0).astype(np.uint32), exec_lanes.copy())


def wave_get_lane_count(exec_lanes: np.ndarray) -> WaveResult:
    """``WaveGetLaneCount()``: the wave size (not the number of active lanes)."""
    return _broadcast(len(exec_lanes), exec_lanes, np.uint32)


def _first_active(exec_lanes: np.ndarray) -> int | None:
    active = np.flatnonzero(exec_lanes)
    return int(active[0]) if len(active) else None


def wave_is_first_lane(exec_lanes: np.ndarray) -> WaveResult:
    """``WaveIsFirstLane()``: true on the lowest active lane only."""
    is_first = lane_ids(len(exec_lanes)) == _first_active(exec_lanes)
    return WaveResult(is_first & exec_lanes, exec_lanes.copy())


def wave_read_lane_first(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveReadLaneFirst(v)``: the lowest active lane's value, on every active lane."""
    first = _first_active(exec_lanes)
    if first is None:
        return WaveResult(np.zeros_like(values), exec_lanes.copy())
    return _broadcast(values[first], exec_lanes, values.dtype)


def _read_lanes(values: np.ndarray, exec_lanes: np.ndarray, sources: np.ndarray) -> WaveResult:
    """Each active lane reads ``sources[i]``; defined only if that lane exists and is active."""
    wave_size = len(values)
    sources = np.broadcast_to(np.asarray(sources, dtype=np.int64), (wave_size,))
    in_wave = (sources >= 0) & (sources < wave_size)
    clipped = np.where(in_wave, sources, 0)
    defined = exec_lanes & in_wave & exec_lanes[clipped]
    return WaveResult(np.where(defined, values[clipped], np.zeros_like(values)), defined)


def wave_read_lane_at(values: np.ndarray, exec_lanes: np.ndarray, lane) -> WaveResult:
    """``WaveReadLaneAt(v, lane)``: ``lane`` may be uniform (int) or per lane (array).

    Reading an inactive lane, or a lane number outside the wave, is undefined.
    """
    return _read_lanes(values, exec_lanes, lane)


def wave_shuffle_xor(values: np.ndarray, exec_lanes: np.ndarray, mask: int) -> WaveResult:
    """``WaveShuffleXor(v, m)`` (project extension): lane i reads lane ``i ^ m``."""
    return _read_lanes(values, exec_lanes, lane_ids(len(values)) ^ mask)


def quad_read_lane_at(values: np.ndarray, exec_lanes: np.ndarray, quad_lane: int) -> WaveResult:
    """``QuadReadLaneAt(v, k)``: lane i reads lane ``(i & ~3) | k`` of its quad."""
    if not 0 <= quad_lane < 4:
        raise ValueError(f"QuadReadLaneAt lane must be 0..3, got {quad_lane}")
    return _read_lanes(values, exec_lanes, (lane_ids(len(values)) & ~3) | quad_lane)


def quad_read_across_x(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``QuadReadAcrossX(v)``: the horizontal neighbour, lane ``i ^ 1``."""
    return wave_shuffle_xor(values, exec_lanes, 1)


def quad_read_across_y(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``QuadReadAcrossY(v)``: the vertical neighbour, lane ``i ^ 2``."""
    return wave_shuffle_xor(values, exec_lanes, 2)


def quad_read_across_diagonal(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``QuadReadAcrossDiagonal(v)``: the diagonal neighbour, lane ``i ^ 3``."""
    return wave_shuffle_xor(values, exec_lanes, 3)


def wave_active_ballot(condition: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveActiveBallot(b)``: a uint4 per lane, word k holding lanes 32k..32k+31.

    Inactive lanes contribute 0 bits; words beyond the wave are 0. The result has
    shape (W, 4), uint32.
    """
    mask = v_cmp_ballot(condition, exec_lanes)
    words = np.array([(mask >> (32 * word)) & 0xFFFFFFFF for word in range(4)], dtype=np.uint32)
    ballot = np.zeros((len(exec_lanes), 4), dtype=np.uint32)
    ballot[exec_lanes] = words
    return WaveResult(ballot, exec_lanes.copy())


def wave_active_count_bits(condition: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveActiveCountBits(b)``: how many active lanes have b true."""
    count = int(np.count_nonzero(np.asarray(condition, dtype=bool) & exec_lanes))
    return _broadcast(count, exec_lanes, np.uint32)


def wave_active_any_true(condition: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveActiveAnyTrue(b)``: b is true on some active lane."""
    any_true = bool(np.any(np.asarray(condition, dtype=bool) & exec_lanes))
    return _broadcast(any_true, exec_lanes, bool)


def wave_active_all_true(condition: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveActiveAllTrue(b)``: b is true on every active lane (vacuously true)."""
    all_true = bool(np.all(np.asarray(condition, dtype=bool)[exec_lanes]))
    return _broadcast(all_true, exec_lanes, bool)


def wave_active_all_equal(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveActiveAllEqual(v)``: all active lanes hold one value (by ``==``: NaN differs)."""
    active = values[exec_lanes]
    all_equal = bool(np.all(active == active[0])) if len(active) else True
    return _broadcast(all_equal, exec_lanes, bool)


def wave_active(op: ReduceOp | str, values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveActiveSum/Product/Min/Max/BitAnd/BitOr/BitXor(v)``.

    The active lanes' values combined by ``tree_reduce`` (pairwise, lane order),
    broadcast to the active lanes.
    """
    total = tree_reduce(op, values[exec_lanes])
    return _broadcast(total, exec_lanes, values.dtype)


def wave_prefix(op: ReduceOp | str, values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WavePrefixSum/Product(v)``: exclusive, over the active lanes below each lane.

    Accumulates left to right in lane order, starting from the identity; the lowest
    active lane gets the identity.
    """
    op = _reduce_op(op)
    running = np.array([op.identity(values.dtype)])
    result = np.zeros_like(values)
    for lane in np.flatnonzero(exec_lanes):
        result[lane] = running[0]
        running = op(running, values[lane : lane + 1]).astype(values.dtype)
    return WaveResult(result, exec_lanes.copy())


def wave_prefix_count_bits(condition: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WavePrefixCountBits(b)``: how many active lanes below this one have b true."""
    counted = (np.asarray(condition, dtype=bool) & exec_lanes).astype(np.uint32)
    below = np.concatenate([[0], np.cumsum(counted)[:-1]]).astype(np.uint32)
    return WaveResult(np.where(exec_lanes, below, 0).astype(np.uint32), exec_lanes.copy())


def _same_bits(values: np.ndarray) -> np.ndarray:
    """``values`` (W,) or (W, n) as (W, n) unsigned integers of their width, to compare bit for bit."""
    columns = values.reshape(len(values), -1)
    if columns.dtype == bool:
        return columns.astype(np.uint8)
    return columns.view(np.dtype(f"u{columns.dtype.itemsize}"))


def mask_words(lanes: np.ndarray) -> np.ndarray:
    """A set of lanes (a bool per lane) as HLSL's uint4 mask: word k holds lanes 32k..32k+31."""
    words = np.zeros(4, dtype=np.uint32)
    for lane in np.flatnonzero(lanes):
        words[lane // 32] |= np.uint32(1 << (lane % 32))
    return words


def mask_lanes(words: np.ndarray, wave_size: int) -> np.ndarray:
    """The lanes of a uint4 mask (bits beyond the wave are ignored)."""
    lanes = np.arange(wave_size)
    return ((np.asarray(words, dtype=np.uint64)[lanes // 32] >> (lanes % 32).astype(np.uint64)) & 1).astype(bool)


def wave_match(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveMatch(v)``: on each active lane, the uint4 mask of the active lanes whose value
    has the same bits as its own (every component, for a vector: +0.0 and -0.0 differ, a NaN
    matches the same NaN). Shape (W, 4), uint32; 0 on inactive lanes."""
    bits = _same_bits(values)
    result = np.zeros((len(exec_lanes), 4), dtype=np.uint32)
    for lane in np.flatnonzero(exec_lanes):
        same = np.all(bits == bits[lane], axis=1) & exec_lanes
        result[lane] = mask_words(same)
    return WaveResult(result, exec_lanes.copy())


def wave_multi_prefix(
    op: ReduceOp | str, values: np.ndarray, masks: np.ndarray, exec_lanes: np.ndarray
) -> WaveResult:
    """``WaveMultiPrefixSum/Product/BitAnd/BitOr/BitXor(v, mask)``: exclusive, over the active
    lanes below each lane that its own ``mask`` (a (W, 4) uint32 array) holds.

    Accumulates left to right in lane order from the identity, as ``wave_prefix`` does;
    lanes outside the mask are skipped, whatever their own mask says.
    """
    op = _reduce_op(op)
    wave_size = len(exec_lanes)
    result = np.zeros_like(values)
    for lane in np.flatnonzero(exec_lanes):
        members = mask_lanes(masks[lane], wave_size) & exec_lanes & (lane_ids(wave_size) < lane)
        running = np.array([op.identity(values.dtype)])
        for member in np.flatnonzero(members):
            running = op(running, values[member : member + 1]).astype(values.dtype)
        result[lane] = running[0]
    return WaveResult(result, exec_lanes.copy())


def wave_multi_prefix_count_bits(condition: np.ndarray, masks: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
    """``WaveMultiPrefixCountBits(b, mask)``: how many active lanes of ``mask`` below this one have b."""
    counted = np.asarray(condition, dtype=bool).astype(np.uint32)
    return wave_multi_prefix("sum", counted, masks, exec_lanes)


def _active_intrinsic(op_name: str) -> Callable[[np.ndarray, np.ndarray], WaveResult]:
    def intrinsic(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
        return wave_active(op_name, values, exec_lanes)

    intrinsic.__doc__ = f"WaveActive reduction with the {op_name!r} operator."
    return intrinsic


def _prefix_intrinsic(op_name: str) -> Callable[[np.ndarray, np.ndarray], WaveResult]:
    def intrinsic(values: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
        return wave_prefix(op_name, values, exec_lanes)

    intrinsic.__doc__ = f"WavePrefix (exclusive) scan with the {op_name!r} operator."
    return intrinsic


def _multi_prefix_intrinsic(op_name: str) -> Callable[[np.ndarray, np.ndarray, np.ndarray], WaveResult]:
    def intrinsic(values: np.ndarray, masks: np.ndarray, exec_lanes: np.ndarray) -> WaveResult:
        return wave_multi_prefix(op_name, values, masks, exec_lanes)

    intrinsic.__doc__ = f"WaveMultiPrefix (exclusive, per mask) scan with the {op_name!r} operator."
    return intrinsic


# The HLSL spelling of each intrinsic, for the compiler's lowering tests to look up.
HLSL_INTRINSICS: dict[str, Callable[..., WaveResult]] = {
    "WaveGetLaneIndex": wave_get_lane_index,
    "WaveGetLaneCount": wave_get_lane_count,
    "WaveIsFirstLane": wave_is_first_lane,
    "WaveReadLaneAt": wave_read_lane_at,
    "WaveReadLaneFirst": wave_read_lane_first,
    "WaveActiveAnyTrue": wave_active_any_true,
    "WaveActiveAllTrue": wave_active_all_true,
    "WaveActiveAllEqual": wave_active_all_equal,
    "WaveActiveBallot": wave_active_ballot,
    "WaveActiveCountBits": wave_active_count_bits,
    "WaveActiveSum": _active_intrinsic("sum"),
    "WaveActiveProduct": _active_intrinsic("product"),
    "WaveActiveMin": _active_intrinsic("min"),
    "WaveActiveMax": _active_intrinsic("max"),
    "WaveActiveBitAnd": _active_intrinsic("and"),
    "WaveActiveBitOr": _active_intrinsic("or"),
    "WaveActiveBitXor": _active_intrinsic("xor"),
    "WavePrefixSum": _prefix_intrinsic("sum"),
    "WavePrefixProduct": _prefix_intrinsic("product"),
    "WavePrefixCountBits": wave_prefix_count_bits,
    "WaveMatch": wave_match,
    "WaveMultiPrefixSum": _multi_prefix_intrinsic("sum"),
    "WaveMultiPrefixProduct": _multi_prefix_intrinsic("product"),
    "WaveMultiPrefixBitAnd": _multi_prefix_intrinsic("and"),
    "WaveMultiPrefixBitOr": _multi_prefix_intrinsic("or"),
    "WaveMultiPrefixBitXor": _multi_prefix_intrinsic("xor"),
    "WaveMultiPrefixCountBits": wave_multi_prefix_count_bits,
    "QuadReadAcrossX": quad_read_across_x,
    "QuadReadAcrossY": quad_read_across_y,
    "QuadReadAcrossDiagonal": quad_read_across_diagonal,
    "QuadReadLaneAt": quad_read_lane_at,
    "WaveShuffleXor": wave_shuffle_xor,
}
