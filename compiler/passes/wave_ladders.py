"""The RDNA2 instruction sequences that ``lower-wave-ops`` emits, one function per form.

Each function mirrors a reference lowering in ``compiler/machine/ladders.py`` (the
executable specification) and builds it as IR with the lane-exchange primitives
whose operands and attributes ``compiler/ir/ops.py`` documents. A ``Builder``
inserts the new instructions just before the wave op being replaced and gives
each one that op's source location.

Two habits, both ACO's:

* **Identity fill + whole-wave mode.** Reductions and scans copy the value with
  inactive lanes set to the operator's identity (``set_inactive``) and run their
  ladder with ``wwm=true`` (every lane on), so no DPP step reads an inactive lane.
  Everything a whole-wave step reads in every lane is itself computed whole-wave.
* **DPP moves stay separate.** A ladder step is ``dpp16`` + the VALU op, as the
  reference does; ``dpp-combine`` folds the move into the op afterwards.

Values are emitted on their own type, vectors included: every primitive works per
component, as a VGPR per component would.
"""

from __future__ import annotations

from ..frontend import hlsl_types as T
from ..ir.core import Inst
from ..ir.ops import Op

ROW_SIZE = 16
HALF_SIZE = 32
IDENTITY_SELECTS = list(range(ROW_SIZE))
LAST_ROW_LANE_SELECTS = [ROW_SIZE - 1] * ROW_SIZE

# WaveActive*/WavePrefix* operator -> the VALU op that combines two values.
REDUCE_OPS = {
    "sum": Op.ADD, "product": Op.MUL, "min": Op.MIN, "max": Op.MAX,
    "and": Op.AND, "or": Op.OR, "xor": Op.XOR,
}

# The in-row reduction steps: afterwards every lane of a row holds the row's total.
ROW_REDUCE_CTRLS = ("quad_perm:[1,0,3,2]", "quad_perm:[2,3,0,1]", "row_half_mirror", "row_mirror")
# The in-row inclusive scan (GPUOpen's DPP prefix sum): row_shr 1, 2, 3 of the
# original value, then row_shr 4 and 8 of the running scan.
ROW_SCAN_OF_SOURCE = (1, 2, 3)
ROW_SCAN_OF_SCAN = (4, 8)

_INFINITY_BITS = {16: 0x7C00, 32: 0x7F800000, 64: 0x7FF0000000000000}
_SIGN_BITS = {16: 0x8000, 32: 0x80000000, 64: 0x8000000000000000}


def quad_perm(selects) -> str:
    return "quad_perm:[" + ",".join(str(sel) for sel in selects) + "]"


def dpp16_attrs(ctrl: str, bound_ctrl: bool, row_mask: int = 0xF, bank_mask: int = 0xF) -> dict:
    return {"ctrl": ctrl, "row_mask": row_mask, "bank_mask": bank_mask, "bound_ctrl": bound_ctrl}


def permlanex16_attrs(selects: list[int], fetch_inactive: bool = False, bound_ctrl: bool = False) -> dict:
    return {"selects": list(selects), "fetch_inactive": fetch_inactive, "bound_ctrl": bound_ctrl}


class Builder:
    """Inserts instructions before ``anchor``, each with the anchor's source location.

    ``whole_wave`` marks what is emitted while it is set with ``wwm=true``.
    Constants are made once per builder and never carry ``wwm``.
    """

    def __init__(self, anchor: Inst, wave_size: int):
        self.block = anchor.block
        self.coord = anchor.coord
        self.wave_size = wave_size
        self.index = self.block.insts.index(anchor)
        self.whole_wave = False
        self._constants: dict[tuple, Inst] = {}
        self._lane_index: Inst | None = None

    @property
    def mask_type(self) -> T.ScalarType:
        """An SGPR lane mask: ``uint`` in wave32, ``uint64_t`` in wave64."""
        return T.UINT if self.wave_size == 32 else T.UINT64

    def emit(self, op: Op, operands: list[Inst], type_: T.Type, **attrs) -> Inst:
        if self.whole_wave:
            attrs["wwm"] = True
        inst = Inst(op, operands, type_, attrs, self.coord)
        self.block.insert(self.index, inst)
        self.index += 1
        return inst

    def const(self, type_: T.Type, value) -> Inst:
        """A constant; a scalar ``value`` fills every component of a vector type."""
        if isinstance(type_, T.VectorType) and not isinstance(value, list):
            value = [value] * type_.size
        key = (str(type_), repr(value))
        if key not in self._constants:
            inst = Inst(Op.CONST, [], type_, {"value": value}, self.coord)
            self.block.insert(self.index, inst)
            self.index += 1
            self._constants[key] = inst
        return self._constants[key]

    def uint(self, value: int) -> Inst:
        return self.const(T.UINT, value)

    def zero(self, type_: T.Type) -> Inst:
        element = T.element_of(type_)
        if element.kind == "bool":
            return self.const(type_, False)
        return self.const(type_, 0.0 if element.is_float else 0)

    def lane_index(self) -> Inst:
        """``v_mbcnt_lo/hi`` of all ones: each lane's index (whole-wave if made so)."""
        if self._lane_index is None or self._lane_index.attrs.get("wwm", False) != self.whole_wave:
            all_ones = self.const(self.mask_type, (1 << self.wave_size) - 1)
            self._lane_index = self.emit(Op.MBCNT, [all_ones, self.uint(0)], T.UINT)
        return self._lane_index

    def exec_mask(self) -> Inst:
        """The exec mask as an SGPR value: the ballot of ``true``."""
        return self.emit(Op.BALLOT_MASK, [self.const(T.BOOL, True)], self.mask_type)


# --------------------------------------------------------------------------------------
# Identities
# --------------------------------------------------------------------------------------


def identity(builder: Builder, fn: str, type_: T.Type) -> Inst:
    """The operator's identity as a constant of ``type_`` (infinities via a bitcast)."""
    element = T.element_of(type_)
    bits = element.bits
    if element.is_float and fn in ("min", "max"):
        pattern = _INFINITY_BITS[bits] | (_SIGN_BITS[bits] if fn == "max" else 0)
        unsigned = T.with_element(type_, T.scalar_of("uint", bits))
        # The IR text has no literal for infinity. Whole-wave, so that every lane
        # (the inactive ones are what set_inactive fills) holds the identity.
        return builder.emit(Op.BITCAST, [builder.const(unsigned, pattern)], type_, wwm=True)
    if fn in ("sum", "or", "xor"):
        return builder.zero(type_)
    if fn == "product":
        return builder.const(type_, 1.0 if element.is_float else 1)
    signed = element.kind == "int"
    largest = (1 << (bits - 1)) - 1 if signed else (1 << bits) - 1
    smallest = -(1 << (bits - 1)) if signed else 0
    if fn == "min":
        return builder.const(type_, largest)
    if fn == "max":
        return builder.const(type_, smallest)
    if fn == "and":
        return builder.const(type_, -1 if signed else (1 << bits) - 1)
    raise ValueError(f"no identity for wave operator {fn!r}")


# --------------------------------------------------------------------------------------
# Reductions and scans
# --------------------------------------------------------------------------------------


def reduce(builder: Builder, fn: str, value: Inst) -> Inst:
    """``WaveActive<fn>(v)`` (``reduce_via_dpp``): fill, row ladder, permlanex16, readlane.

    Returns the wave-uniform total (an SGPR value; its users read it as the
    broadcast ``v_mov dst, s``).
    """
    op, type_ = REDUCE_OPS[fn], value.type
    tmp = builder.emit(Op.SET_INACTIVE, [value, identity(builder, fn, type_)], type_)
    builder.whole_wave = True
    for ctrl in ROW_REDUCE_CTRLS:
        # Every source lane is valid (whole wave, inside the row): bound_ctrl changes
        # nothing here, and it lets dpp-combine fold the move into the op.
        moved = builder.emit(Op.DPP16, [tmp, tmp], type_, **dpp16_attrs(ctrl, bound_ctrl=True))
        tmp = builder.emit(op, [tmp, moved], type_)
    across = builder.emit(Op.PERMLANEX16, [tmp, tmp], type_, **permlanex16_attrs(IDENTITY_SELECTS))
    tmp = builder.emit(op, [tmp, across], type_)
    builder.whole_wave = False
    total = builder.emit(Op.READLANE, [tmp, builder.uint(0)], type_)
    if builder.wave_size == 64:
        upper = builder.emit(Op.READLANE, [tmp, builder.uint(HALF_SIZE)], type_)
        total = builder.emit(op, [total, upper], type_)
    return total


def prefix(builder: Builder, fn: str, value: Inst) -> Inst:
    """``WavePrefix<fn>(v)``, exclusive (``prefix_via_dpp``): the inclusive scan of the
    identity-filled values shifted right by one lane."""
    op, type_ = REDUCE_OPS[fn], value.type
    ident = identity(builder, fn, type_)
    tmp = builder.emit(Op.SET_INACTIVE, [value, ident], type_)
    builder.whole_wave = True
    lane = builder.lane_index()
    shifted = _shift_right_one_lane(builder, tmp, ident, lane)
    scan = _inclusive_row_scan(builder, op, shifted, ident)
    scan = _carry_across_rows(builder, op, scan, lane)
    builder.whole_wave = False
    return scan


def _bound_ctrl_for(ident: Inst) -> bool:
    """A DPP move whose ``old`` is a zero constant may as well set bound_ctrl (same result)."""
    value = ident.attrs.get("value") if ident.op is Op.CONST else None
    values = value if isinstance(value, list) else [value]
    return value is not None and all(item == 0 and item is not False for item in values)


def _shift_right_one_lane(builder: Builder, tmp: Inst, ident: Inst, lane: Inst) -> Inst:
    """gfx10's stand-in for ``wave_shr:1``: row_shr:1, then the row starts' fix-ups.

    Lanes 16 (and 48) take lane 15 (47) through ``v_permlanex16`` (all selects 15);
    in wave64 lane 32 takes lane 31 through readlane + writelane; lane 0 keeps the
    identity. The reference restricts exec to the row starts; here a ``select`` on
    the lane index does it in whole-wave mode.
    """
    type_ = tmp.type
    shifted = builder.emit(Op.DPP16, [tmp, ident], type_,
                           **dpp16_attrs("row_shr:1", bound_ctrl=_bound_ctrl_for(ident)))
    from_row_below = builder.emit(Op.PERMLANEX16, [tmp, tmp], type_,
                                  **permlanex16_attrs(LAST_ROW_LANE_SELECTS, fetch_inactive=True))
    position = builder.emit(Op.AND, [lane, builder.uint(HALF_SIZE - 1)], T.UINT)
    odd_row_start = builder.emit(Op.EQ, [position, builder.uint(ROW_SIZE)], T.BOOL)
    shifted = builder.emit(Op.SELECT, [odd_row_start, from_row_below, shifted], type_)
    if builder.wave_size == 64:
        lane_31 = builder.emit(Op.READLANE, [tmp, builder.uint(HALF_SIZE - 1)], type_)
        shifted = builder.emit(Op.WRITELANE, [shifted, lane_31, builder.uint(HALF_SIZE)], type_)
    return shifted


def _inclusive_row_scan(builder: Builder, op: Op, src: Inst, ident: Inst) -> Inst:
    """Inclusive scan in each row. A lane whose source falls outside the row reads the
    identity (the move's ``old``), so ``op`` leaves its running value unchanged.

    The reference's bank masks on row_shr:4 (0xE) and row_shr:8 (0xC) only disable
    lanes whose source is outside the row anyway; full masks give the same result
    and let the moves combine.
    """
    type_ = src.type
    bound_ctrl = _bound_ctrl_for(ident)
    scan = src
    for amount in ROW_SCAN_OF_SOURCE:
        moved = builder.emit(Op.DPP16, [src, ident], type_, **dpp16_attrs(f"row_shr:{amount}", bound_ctrl))
        scan = builder.emit(op, [scan, moved], type_)
    for amount in ROW_SCAN_OF_SCAN:
        moved = builder.emit(Op.DPP16, [scan, ident], type_, **dpp16_attrs(f"row_shr:{amount}", bound_ctrl))
        scan = builder.emit(op, [scan, moved], type_)
    return scan


def _carry_across_rows(builder: Builder, op: Op, scan: Inst, lane: Inst) -> Inst:
    """Odd rows add lane 15 of the row below (permlanex16); in wave64 the upper half
    adds lane 31 (readlane). RDNA has no ``row_bcast``."""
    type_ = scan.type
    carry = builder.emit(Op.PERMLANEX16, [scan, scan], type_, **permlanex16_attrs(LAST_ROW_LANE_SELECTS))
    row_bit = builder.emit(Op.AND, [lane, builder.uint(ROW_SIZE)], T.UINT)
    odd_row = builder.emit(Op.NE, [row_bit, builder.uint(0)], T.BOOL)
    carried = builder.emit(op, [scan, carry], type_)
    scan = builder.emit(Op.SELECT, [odd_row, carried, scan], type_)
    if builder.wave_size == 64:
        lower_total = builder.emit(Op.READLANE, [scan, builder.uint(HALF_SIZE - 1)], type_)
        carried = builder.emit(op, [scan, lower_total], type_)
        upper_half = builder.emit(Op.GE, [lane, builder.uint(HALF_SIZE)], T.BOOL)
        scan = builder.emit(Op.SELECT, [upper_half, carried, scan], type_)
    return scan


# --------------------------------------------------------------------------------------
# The ballot family
# --------------------------------------------------------------------------------------


def ballot(builder: Builder, condition: Inst) -> Inst:
    """``WaveActiveBallot(b)``: the SGPR mask's 32-bit words as a uint4."""
    mask = builder.emit(Op.BALLOT_MASK, [condition], builder.mask_type)
    zero = builder.uint(0)
    if builder.wave_size == 32:
        return builder.emit(Op.CONSTRUCT, [mask, zero, zero, zero], T.vector(T.UINT, 4))
    low = builder.emit(Op.CONVERT, [mask], T.UINT)
    high_bits = builder.emit(Op.SHR, [mask, builder.const(T.UINT64, 32)], T.UINT64)
    high = builder.emit(Op.CONVERT, [high_bits], T.UINT)
    return builder.emit(Op.CONSTRUCT, [low, high, zero, zero], T.vector(T.UINT, 4))


def count_bits(builder: Builder, condition: Inst) -> Inst:
    """``WaveActiveCountBits(b)``: ``s_bcnt1`` of the ballot."""
    mask = builder.emit(Op.BALLOT_MASK, [condition], builder.mask_type)
    return builder.emit(Op.BCNT, [mask], T.UINT)


def prefix_count_bits(builder: Builder, condition: Inst) -> Inst:
    """``WavePrefixCountBits(b)``: ``v_mbcnt_lo/hi`` of the ballot."""
    mask = builder.emit(Op.BALLOT_MASK, [condition], builder.mask_type)
    return builder.emit(Op.MBCNT, [mask, builder.uint(0)], T.UINT)


def any_true(builder: Builder, condition: Inst) -> Inst:
    """``WaveActiveAnyTrue(b)``: the ballot is not zero (``s_cmp_lg``)."""
    mask = builder.emit(Op.BALLOT_MASK, [condition], builder.mask_type)
    return builder.emit(Op.NE, [mask, builder.zero(builder.mask_type)], T.BOOL)


def all_true(builder: Builder, condition: Inst) -> Inst:
    """``WaveActiveAllTrue(b)``: the ballot equals exec."""
    mask = builder.emit(Op.BALLOT_MASK, [condition], builder.mask_type)
    return builder.emit(Op.EQ, [mask, builder.exec_mask()], T.BOOL)


def all_equal(builder: Builder, value: Inst, result_type: T.Type) -> Inst:
    """``WaveActiveAllEqual(v)``: readfirstlane, compare, ballot == exec; per component."""
    if not isinstance(value.type, T.VectorType):
        return _all_equal_scalar(builder, value)
    results = []
    for index in range(value.type.size):
        component = builder.emit(Op.EXTRACT, [value], value.type.element, index=index)
        results.append(_all_equal_scalar(builder, component))
    if not isinstance(result_type, T.VectorType):
        combined = results[0]
        for result in results[1:]:
            combined = builder.emit(Op.AND, [combined, result], T.BOOL)
        return combined
    return builder.emit(Op.CONSTRUCT, results, result_type)


def _all_equal_scalar(builder: Builder, value: Inst) -> Inst:
    first = builder.emit(Op.READFIRSTLANE, [value], value.type)
    same = builder.emit(Op.EQ, [value, first], T.BOOL)
    mask = builder.emit(Op.BALLOT_MASK, [same], builder.mask_type)
    return builder.emit(Op.EQ, [mask, builder.exec_mask()], T.BOOL)


def is_first_lane(builder: Builder) -> Inst:
    """``WaveIsFirstLane()``: no active lane below this one (``v_mbcnt`` of exec is 0).

    The reference compares the lane id with ``s_ff1(exec)``; counting the active lanes
    below is the same test on active lanes and needs no ``s_ff1`` op in the IR.
    """
    below = builder.emit(Op.MBCNT, [builder.exec_mask(), builder.uint(0)], T.UINT)
    return builder.emit(Op.EQ, [below, builder.uint(0)], T.BOOL)


def lane_index(builder: Builder) -> Inst:
    """``WaveGetLaneIndex()``: ``v_mbcnt_lo/hi`` of all ones."""
    return builder.lane_index()


# --------------------------------------------------------------------------------------
# Quad reads, shuffles, WaveReadLaneAt
# --------------------------------------------------------------------------------------


def quad_read(builder: Builder, value: Inst, selects) -> Inst:
    """``QuadReadAcross*`` / ``QuadReadLaneAt`` with a constant lane: one DPP quad_perm.

    ``bound_ctrl`` as in the seed listing: a lane reading an inactive lane gets 0.
    """
    return builder.emit(Op.DPP16, [value, builder.zero(value.type)], value.type,
                        **dpp16_attrs(quad_perm(selects), bound_ctrl=True))


def shuffle_xor(builder: Builder, value: Inst, mask: int) -> Inst:
    """``WaveShuffleXor(v, m)`` / ``WaveReadLaneAt(v, lane ^ m)`` with constant ``m``
    (``shuffle_xor_via_lowering``): quad_perm, DPP8, row_xmask, permlanex16,
    ds_bpermute, or (across wave64 halves) an LDS exchange."""
    type_ = value.type
    zero = builder.zero(type_)
    if mask == 0:
        return value
    if mask < 4:
        return quad_read(builder, value, [lane ^ mask for lane in range(4)])
    if mask < 8:
        return builder.emit(Op.DPP8, [value, zero], type_, selects=[lane ^ mask for lane in range(8)])
    if mask < ROW_SIZE:
        return builder.emit(Op.DPP16, [value, zero], type_, **dpp16_attrs(f"row_xmask:{mask}", bound_ctrl=True))
    if mask == ROW_SIZE:
        # an inactive partner reads as 0 either way; bound_ctrl says so without a zeroed old value
        return builder.emit(Op.PERMLANEX16, [value, zero], type_, **permlanex16_attrs(IDENTITY_SELECTS, bound_ctrl=True))
    partner = builder.emit(Op.XOR, [builder.lane_index(), builder.uint(mask)], T.UINT)
    if mask < HALF_SIZE:
        address = builder.emit(Op.SHL, [partner, builder.uint(2)], T.UINT)
        return builder.emit(Op.DS_BPERMUTE, [value, zero, address], type_)
    return builder.emit(Op.LDS_EXCHANGE, [value, zero, partner], type_)


def read_lane_uniform(builder: Builder, value: Inst, lane: Inst) -> Inst:
    """``WaveReadLaneAt(v, i)`` with a wave-uniform ``i``: ``v_readlane_b32``."""
    return builder.emit(Op.READLANE, [value, lane], value.type)


def read_lane_divergent(builder: Builder, value: Inst, lane: Inst) -> Inst:
    """``WaveReadLaneAt(v, i)`` with a divergent ``i`` (``read_lane_at_via_bpermute``).

    wave32: ``ds_bpermute`` at ``i * 4``. wave64: bpermute stays inside its 32-lane
    half, so (whole-wave) an LDS exchange makes a half-swapped copy, both copies are
    bpermuted, and each lane keeps the one from ``i``'s half.
    """
    type_ = value.type
    address = builder.emit(Op.SHL, [lane, builder.uint(2)], T.UINT)
    if builder.wave_size == 32:
        return builder.emit(Op.DS_BPERMUTE, [value, builder.zero(type_), address], type_)
    builder.whole_wave = True
    own_lane = builder.lane_index()
    mirror = builder.emit(Op.XOR, [own_lane, builder.uint(HALF_SIZE)], T.UINT)
    swapped = builder.emit(Op.LDS_EXCHANGE, [value, value, mirror], type_)
    same_half = builder.emit(Op.DS_BPERMUTE, [value, value, address], type_)
    other_half = builder.emit(Op.DS_BPERMUTE, [swapped, value, address], type_)
    own_half = builder.emit(Op.SHR, [own_lane, builder.uint(5)], T.UINT)
    builder.whole_wave = False
    wanted_half = builder.emit(Op.SHR, [lane, builder.uint(5)], T.UINT)
    wants_same = builder.emit(Op.EQ, [wanted_half, own_half], T.BOOL)
    return builder.emit(Op.SELECT, [wants_same, same_half, other_half], type_)


def quad_read_lane_divergent(builder: Builder, value: Inst, quad_lane: Inst) -> Inst:
    """``QuadReadLaneAt(v, k)`` with a non-constant ``k``: ``ds_bpermute`` at
    ``((lane & ~3) | (k & 3)) * 4``; a quad never leaves its 32-lane half."""
    base = builder.emit(Op.AND, [builder.lane_index(), builder.uint(0xFFFFFFFC)], T.UINT)
    offset = builder.emit(Op.AND, [quad_lane, builder.uint(3)], T.UINT)
    source = builder.emit(Op.OR, [base, offset], T.UINT)
    address = builder.emit(Op.SHL, [source, builder.uint(2)], T.UINT)
    return builder.emit(Op.DS_BPERMUTE, [value, builder.zero(value.type), address], value.type)
