"""Interpreter handlers for wave intrinsics and RDNA2 lane-exchange primitives.

Nothing here defines semantics: every handler calls ``shc.compiler.machine.wavemodel``, the
NumPy model of the HLSL intrinsics (``wave_active``, ``quad_read_lane_at``...)
and of the primitives (``dpp16``, ``ds_bpermute_b32``...), under the current exec
mask and once per component for vectors.

* HLSL intrinsics return the model's values on the active lanes (where HLSL leaves a
  lane undefined, e.g. reading an inactive lane, the model gives 0).
* Primitives return the whole destination register as the model computes it from
  ``%old`` (lanes a primitive does not write keep ``%old``).
* SGPR results (``readlane``, ``readfirstlane``, ``ballot_mask``, ``bcnt``) are the
  same in every lane. An SGPR operand (a lane number, a mask, a ``writelane``
  value) is read from the lowest active lane, as ``v_readfirstlane_b32`` would.
* ``set_inactive %src, %identity`` selects by the real exec mask even under
  ``wwm=true`` (that is the point of it).
* A VALU op with ``dpp`` attributes reads operand 0 through ``dpp16_fetch`` and
  writes the lanes ``dpp16_write_enable`` allows (exactly ``dpp16_valu``'s rule for
  any operation); the other lanes keep the value's previous contents.
"""

from __future__ import annotations

import numpy as np

from ...machine import wavemodel as wm
from ..ops import Op
from .values import InterpretError, Whole, dtype_of, width_of


def _per_component(function, values: np.ndarray, *rest) -> np.ndarray:
    """``function(column, *rest)`` for each column of a ``(W, n)`` value, stacked back."""
    return np.stack([np.asarray(function(values[:, c], *rest)) for c in range(values.shape[1])], axis=1)


def _sgpr(values: np.ndarray, exec_lanes: np.ndarray) -> int:
    """An SGPR operand's value: the lowest active lane's first component."""
    return int(wm.v_readfirstlane_b32(values[:, 0], exec_lanes))


def _lanes_from(values: np.ndarray) -> np.ndarray:
    return values[:, 0].astype(np.int64)


def _uniform(values: np.ndarray, exec_lanes: np.ndarray) -> bool:
    active = values[exec_lanes, 0]
    return len(active) == 0 or bool(np.all(active == active[0]))


def _condition(values: np.ndarray) -> np.ndarray:
    return values[:, 0].astype(bool)


# ---------------------------------------------------------------------------------------
# HLSL wave intrinsics
# ---------------------------------------------------------------------------------------


def lane_index(m, inst, args, exec_lanes):
    return wm.wave_get_lane_index(exec_lanes).values[:, None]


def lane_count(m, inst, args, exec_lanes):
    return wm.wave_get_lane_count(exec_lanes).values[:, None]


def is_first_lane(m, inst, args, exec_lanes):
    return wm.wave_is_first_lane(exec_lanes).values[:, None]


def read_first(m, inst, args, exec_lanes):
    return _per_component(lambda v: wm.wave_read_lane_first(v, exec_lanes).values, args[0])


def read_lane_at(m, inst, args, exec_lanes):
    lanes = _lanes_from(args[1])
    return _per_component(lambda v: wm.wave_read_lane_at(v, exec_lanes, lanes).values, args[0])


def shuffle_xor(m, inst, args, exec_lanes):
    if "mask" in inst.attrs or _uniform(args[1], exec_lanes):
        mask = int(inst.attrs["mask"]) if "mask" in inst.attrs else _sgpr(args[1], exec_lanes)
        return _per_component(lambda v: wm.wave_shuffle_xor(v, exec_lanes, mask).values, args[0])
    partners = wm.lane_ids(m.wave_size) ^ _lanes_from(args[1])
    return _per_component(lambda v: wm.wave_read_lane_at(v, exec_lanes, partners).values, args[0])


_QUAD_PATTERNS = {
    (1, 0, 3, 2): wm.quad_read_across_x,
    (2, 3, 0, 1): wm.quad_read_across_y,
    (3, 2, 1, 0): wm.quad_read_across_diagonal,
}


def quad_read(m, inst, args, exec_lanes):
    pattern = tuple(inst.attrs.get("lanes", ()))
    if len(pattern) != 4 or not all(0 <= lane < 4 for lane in pattern):
        raise InterpretError(f"quad_read needs lanes=[4 quad lanes], got {pattern!r}")
    if pattern in _QUAD_PATTERNS:
        return _per_component(lambda v: _QUAD_PATTERNS[pattern](v, exec_lanes).values, args[0])
    lanes = wm.lane_ids(m.wave_size)
    sources = (lanes & ~3) | np.array(pattern)[lanes & 3]
    return _per_component(lambda v: wm.wave_read_lane_at(v, exec_lanes, sources).values, args[0])


def quad_read_lane_at(m, inst, args, exec_lanes):
    if "lane" in inst.attrs or _uniform(args[1], exec_lanes):
        quad_lane = int(inst.attrs["lane"]) if "lane" in inst.attrs else _sgpr(args[1], exec_lanes)
        if 0 <= quad_lane < 4:
            return _per_component(lambda v: wm.quad_read_lane_at(v, exec_lanes, quad_lane).values, args[0])
    lanes = wm.lane_ids(m.wave_size)
    sources = (lanes & ~3) | (_lanes_from(args[1]) & 3)
    return _per_component(lambda v: wm.wave_read_lane_at(v, exec_lanes, sources).values, args[0])


def _reduce_name(inst) -> str:
    name = inst.attrs.get("fn")
    if name not in wm.REDUCE_OPS:
        raise InterpretError(f"{inst.op.value} fn {name!r} is not one of {', '.join(wm.REDUCE_OPS)}")
    return name


def active_reduce(m, inst, args, exec_lanes):
    name = _reduce_name(inst)
    values = args[0].astype(dtype_of(inst.type))
    return _per_component(lambda v: wm.wave_active(name, v, exec_lanes).values, values)


def prefix_scan(m, inst, args, exec_lanes):
    name = _reduce_name(inst)
    values = args[0].astype(dtype_of(inst.type))
    return _per_component(lambda v: wm.wave_prefix(name, v, exec_lanes).values, values)


def ballot(m, inst, args, exec_lanes):
    return wm.wave_active_ballot(_condition(args[0]), exec_lanes).values


def count_bits(m, inst, args, exec_lanes):
    return wm.wave_active_count_bits(_condition(args[0]), exec_lanes).values[:, None]


def prefix_count_bits(m, inst, args, exec_lanes):
    return wm.wave_prefix_count_bits(_condition(args[0]), exec_lanes).values[:, None]


def any_true(m, inst, args, exec_lanes):
    return wm.wave_active_any_true(_condition(args[0]), exec_lanes).values[:, None]


def all_true(m, inst, args, exec_lanes):
    return wm.wave_active_all_true(_condition(args[0]), exec_lanes).values[:, None]


def all_equal(m, inst, args, exec_lanes):
    """Per component (``bool<X>``); a scalar result of a vector asks whether all components agree."""
    per_component = _per_component(lambda v: wm.wave_active_all_equal(v, exec_lanes).values, args[0])
    if width_of(inst.type) == 1 and per_component.shape[1] > 1:
        return np.all(per_component, axis=1, keepdims=True)
    return per_component


def match(m, inst, args, exec_lanes):
    """Every component must have the same bits (the model compares a (W, n) value whole)."""
    values = args[0].astype(dtype_of(inst.operands[0].type))
    return wm.wave_match(values, exec_lanes).values


def multi_prefix(m, inst, args, exec_lanes):
    name = _reduce_name(inst)
    values = args[0].astype(dtype_of(inst.type))
    masks = args[1].astype(np.uint32)
    return _per_component(lambda v: wm.wave_multi_prefix(name, v, masks, exec_lanes).values, values)


# ---------------------------------------------------------------------------------------
# RDNA2 primitives
# ---------------------------------------------------------------------------------------


def _flag(inst, name: str) -> bool:
    return bool(inst.attrs.get(name, False))


def dpp16(m, inst, args, exec_lanes):
    src, old = args
    ctrl = inst.attrs["ctrl"]
    row_mask = int(inst.attrs.get("row_mask", 0xF))
    bank_mask = int(inst.attrs.get("bank_mask", 0xF))
    return Whole(np.stack([
        wm.dpp16(src[:, c], old[:, c], exec_lanes, ctrl, row_mask, bank_mask,
                 _flag(inst, "bound_ctrl"), _flag(inst, "fetch_inactive"))
        for c in range(src.shape[1])], axis=1))


def dpp8(m, inst, args, exec_lanes):
    src, old = args
    selects = tuple(inst.attrs["selects"])
    return Whole(np.stack([wm.dpp8(src[:, c], old[:, c], exec_lanes, selects, _flag(inst, "fetch_inactive"))
                           for c in range(src.shape[1])], axis=1))


def permlanex16(m, inst, args, exec_lanes):
    src, old = args
    selects = tuple(inst.attrs.get("selects", wm.IDENTITY_SELECTS))
    return Whole(np.stack([
        wm.v_permlanex16_b32(src[:, c], old[:, c], exec_lanes, selects,
                             _flag(inst, "fetch_inactive"), _flag(inst, "bound_ctrl"))
        for c in range(src.shape[1])], axis=1))


def ds_swizzle(m, inst, args, exec_lanes):
    src, old = args
    offset = int(inst.attrs["offset"])
    return Whole(np.stack([wm.ds_swizzle_b32(src[:, c], old[:, c], exec_lanes, offset)
                           for c in range(src.shape[1])], axis=1))


def ds_bpermute(m, inst, args, exec_lanes):
    src, old, addresses = args
    addresses = _lanes_from(addresses)
    offset = int(inst.attrs.get("offset", 0))
    return Whole(np.stack([wm.ds_bpermute_b32(src[:, c], old[:, c], exec_lanes, addresses, offset)
                           for c in range(src.shape[1])], axis=1))


def lds_exchange(m, inst, args, exec_lanes):
    src, old, source_lanes = args
    sources = _lanes_from(source_lanes)
    return Whole(np.stack([wm.lds_round_trip(src[:, c], old[:, c], exec_lanes, sources)
                           for c in range(src.shape[1])], axis=1))


def _broadcast(scalars, m, inst) -> Whole:
    row = np.asarray(scalars).astype(dtype_of(inst.type)).reshape(1, -1)
    return Whole(np.repeat(row, m.wave_size, axis=0))


def readlane(m, inst, args, exec_lanes):
    src, lane = args
    lane_number = _sgpr(lane, exec_lanes)
    return _broadcast([wm.v_readlane_b32(src[:, c], lane_number) for c in range(src.shape[1])], m, inst)


def readfirstlane(m, inst, args, exec_lanes):
    src = args[0]
    return _broadcast([wm.v_readfirstlane_b32(src[:, c], exec_lanes) for c in range(src.shape[1])], m, inst)


def writelane(m, inst, args, exec_lanes):
    old, value, lane = args
    lane_number = _sgpr(lane, exec_lanes)
    scalars = wm.v_readfirstlane_b32(value, exec_lanes)
    return Whole(np.stack([wm.v_writelane_b32(old[:, c], scalars[c], lane_number)
                           for c in range(old.shape[1])], axis=1))


def set_inactive(m, inst, args, exec_lanes):
    src, identity = args
    real_exec = m.exec_mask  # not the whole-wave mask wwm=true gives the other operations
    return Whole(np.stack([wm.masked_write(identity[:, c].astype(src.dtype), src[:, c], real_exec)
                           for c in range(src.shape[1])], axis=1))


def ballot_mask(m, inst, args, exec_lanes):
    return _broadcast([wm.v_cmp_ballot(_condition(args[0]), exec_lanes)], m, inst)


def mbcnt(m, inst, args, exec_lanes):
    mask, addend = args
    mask_bits = _sgpr(mask, exec_lanes)
    low = wm.v_mbcnt_lo_u32_b32(mask_bits & 0xFFFFFFFF, addend[:, 0].astype(np.int64), m.wave_size)
    return wm.v_mbcnt_hi_u32_b32(mask_bits >> 32, low, m.wave_size)[:, None]


def bcnt(m, inst, args, exec_lanes):
    return _broadcast([wm.s_bcnt1(_sgpr(args[0], exec_lanes))], m, inst)


# ---------------------------------------------------------------------------------------
# DPP-combined VALU ops
# ---------------------------------------------------------------------------------------


def dpp_operand(inst, src0: np.ndarray, exec_lanes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Operand 0 read through the instruction's ``dpp`` control, and the lanes it may write."""
    ctrl = inst.attrs["dpp"]
    fetch_inactive = _flag(inst, "fetch_inactive")
    columns, valid = [], None
    for c in range(src0.shape[1]):
        values, valid = wm.dpp16_fetch(src0[:, c], exec_lanes, ctrl, fetch_inactive)
        columns.append(values)
    enabled = wm.dpp16_write_enable(exec_lanes, int(inst.attrs.get("row_mask", 0xF)),
                                    int(inst.attrs.get("bank_mask", 0xF)))
    written = enabled & (valid | _flag(inst, "bound_ctrl"))
    return np.stack(columns, axis=1), written


HANDLERS = {
    Op.WAVE_LANE_INDEX: lane_index, Op.WAVE_LANE_COUNT: lane_count, Op.WAVE_IS_FIRST_LANE: is_first_lane,
    Op.WAVE_READ_LANE_AT: read_lane_at, Op.WAVE_READ_FIRST: read_first, Op.WAVE_SHUFFLE_XOR: shuffle_xor,
    Op.WAVE_ACTIVE: active_reduce, Op.WAVE_PREFIX: prefix_scan, Op.WAVE_BALLOT: ballot,
    Op.WAVE_COUNT_BITS: count_bits, Op.WAVE_PREFIX_COUNT_BITS: prefix_count_bits,
    Op.WAVE_ANY_TRUE: any_true, Op.WAVE_ALL_TRUE: all_true, Op.WAVE_ALL_EQUAL: all_equal,
    Op.WAVE_MATCH: match, Op.WAVE_MULTI_PREFIX: multi_prefix,
    Op.QUAD_READ: quad_read, Op.QUAD_READ_LANE_AT: quad_read_lane_at,
    Op.DPP16: dpp16, Op.DPP8: dpp8, Op.PERMLANEX16: permlanex16, Op.DS_SWIZZLE: ds_swizzle,
    Op.DS_BPERMUTE: ds_bpermute, Op.READLANE: readlane, Op.READFIRSTLANE: readfirstlane,
    Op.WRITELANE: writelane, Op.SET_INACTIVE: set_inactive, Op.BALLOT_MASK: ballot_mask,
    Op.MBCNT: mbcnt, Op.BCNT: bcnt, Op.LDS_EXCHANGE: lds_exchange,
}
