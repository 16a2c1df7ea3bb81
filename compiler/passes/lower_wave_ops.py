"""Wave-op lowering: every HLSL wave intrinsic becomes RDNA2 lane-exchange primitives.

DESIGN.md section 2 is the table; ``compiler/machine/ladders.py`` is the executable
specification of each sequence, and ``wave_ladders.py`` builds them as IR. What
this file decides is *which* sequence an op gets:

=============================================  =======================================
``quad_read {lanes}``                          DPP16 ``quad_perm:lanes`` (bound_ctrl)
``quad_read_lane_at v, k`` (k constant),       DPP16 ``quad_perm:[k,k,k,k]``
``wave_read_lane_at v, (lane & ~3) | k``
``wave_shuffle_xor v, m`` (m constant),        m < 4 quad_perm, < 8 DPP8, < 16 row_xmask,
``wave_read_lane_at v, lane ^ m``              16 permlanex16, < 32 ds_bpermute, else LDS
``wave_read_lane_at v, i``                     i uniform: readlane; divergent: ds_bpermute
                                               (wave64: + a half-swapped copy through LDS)
``wave_shuffle_xor v, m`` (m not constant)     ds_bpermute of lane ^ m, as above
``wave_read_first``                            readfirstlane
``wave_active {fn}`` / ``wave_prefix {fn}``    identity fill + whole-wave DPP ladder
ballot, count bits, prefix count bits,         ballot_mask + construct / bcnt / mbcnt /
any/all true, all equal, is first lane         compares against the exec mask
``wave_match`` / ``wave_multi_prefix {fn}``    a readlane per lane, compares / selects
                                               (``wave_partitions.py``)
``wave_lane_index`` / ``wave_lane_count``      mbcnt of all ones / the wave size
=============================================  =======================================

The quad and xor patterns are recognised structurally in the index operand (the
SPD header reads quads as ``WaveReadLaneAt(v, (lane & ~3) | k)``), looking
through integer conversions. Uniformity decides readlane versus ds_bpermute.
All decisions are made on the IR as it was before this pass changed anything,
so lowering one wave op never hides a pattern from another.
"""

from __future__ import annotations

from typing import Callable

from . import Pass, replace_and_remove
from . import wave_ladders as ladders
from . import wave_partitions as partitions
from .constants import Constant, constant_of, evaluate
from .uniformity import Uniformity
from ..frontend import hlsl_types as T
from ..ir.core import Inst, Module
from ..ir.ops import PURE, WAVE_OPS, Op

Lowering = Callable[[ladders.Builder], Inst]


class LowerWaveOps(Pass):
    name = "lower-wave-ops"
    description = "HLSL wave intrinsics -> RDNA2 DPP, permlane, ds_bpermute, readlane, ballot forms"

    def __init__(self, wave_size: int = 32):
        if wave_size not in (32, 64):
            raise ValueError(f"RDNA2 waves have 32 or 64 lanes, not {wave_size}")
        self.wave_size = wave_size

    def run(self, module: Module) -> None:
        function = module.function
        if function.wave_size != self.wave_size:
            raise ValueError(f"@{function.name} is declared wave{function.wave_size}; "
                             f"lower-wave-ops was asked for wave{self.wave_size}")
        Uniformity().run(module)
        self.uniformity = module.analyses["uniformity"]
        wave_ops = [inst for inst in function.instructions() if inst.op in WAVE_OPS]
        plans = [(inst, self.plan(inst)) for inst in wave_ops]
        mapping = {}
        for inst, lowering in plans:
            mapping[inst] = lowering(ladders.Builder(inst, self.wave_size))
        # One walk rewrites every use, including uses by the sequences just built (a wave op
        # of a wave op); a result that is itself a lowered op (a shuffle by 0) is followed.
        replace_and_remove(function, mapping)
        # The analysis described the IR before lowering; later passes recompute it.
        module.analyses.pop("uniformity", None)

    # ----------------------------------------------------------------------------------

    def plan(self, inst: Inst) -> Lowering:
        """The sequence ``inst`` becomes, as a function of a builder placed before it.

        Constants, patterns and uniformity are read now; the operands themselves are
        read when the sequence is built, since lowering an earlier wave op may have
        replaced one of them.
        """
        op, attrs = inst.op, inst.attrs

        def value() -> Inst:
            return inst.operands[0]

        if op is Op.WAVE_LANE_INDEX:
            return ladders.lane_index
        if op is Op.WAVE_LANE_COUNT:
            return lambda b: b.uint(self.wave_size)
        if op is Op.WAVE_IS_FIRST_LANE:
            return ladders.is_first_lane
        if op is Op.WAVE_READ_FIRST:
            return lambda b: b.emit(Op.READFIRSTLANE, [value()], inst.type)
        if op is Op.WAVE_ACTIVE:
            return lambda b: ladders.reduce(b, attrs["fn"], value())
        if op is Op.WAVE_PREFIX:
            return lambda b: ladders.prefix(b, attrs["fn"], value())
        if op in _BALLOT_FAMILY:
            return lambda b: _BALLOT_FAMILY[op](b, value())
        if op is Op.WAVE_ALL_EQUAL:
            return lambda b: ladders.all_equal(b, value(), inst.type)
        if op is Op.WAVE_MATCH:
            return lambda b: partitions.match(b, value())
        if op is Op.WAVE_MULTI_PREFIX:
            return lambda b: partitions.multi_prefix(b, attrs["fn"], value(), inst.operands[1])
        if op is Op.QUAD_READ:
            return lambda b: ladders.quad_read(b, value(), list(attrs["lanes"]))
        if op is Op.QUAD_READ_LANE_AT:
            return self.plan_quad_read_lane_at(inst)
        if op is Op.WAVE_SHUFFLE_XOR:
            return self.plan_shuffle_xor(inst)
        if op is Op.WAVE_READ_LANE_AT:
            return self.plan_read_lane_at(inst)
        raise NotImplementedError(f"no RDNA2 lowering for {op.value}")

    def plan_quad_read_lane_at(self, inst: Inst) -> Lowering:
        k = constant_operand(inst, "lane")
        if k is not None and k < 4:
            return lambda b: ladders.quad_read(b, inst.operands[0], [k] * 4)
        return lambda b: ladders.quad_read_lane_divergent(b, inst.operands[0], as_uint(b, inst.operands[1]))

    def plan_shuffle_xor(self, inst: Inst) -> Lowering:
        m = constant_operand(inst, "mask")
        if m is not None:
            return lambda b: ladders.shuffle_xor(b, inst.operands[0], m)

        def dynamic(b: ladders.Builder) -> Inst:
            partner = b.emit(Op.XOR, [b.lane_index(), as_uint(b, inst.operands[1])], T.UINT)
            return ladders.read_lane_divergent(b, inst.operands[0], partner)
        return dynamic

    def plan_read_lane_at(self, inst: Inst) -> Lowering:
        lane = inst.operands[1]
        k = quad_lane_pattern(lane, self.wave_size)
        if k is not None:
            return lambda b: ladders.quad_read(b, inst.operands[0], [k] * 4)
        m = xor_lane_pattern(lane)
        if m is not None:
            return lambda b: ladders.shuffle_xor(b, inst.operands[0], m)
        if self.uniformity.is_uniform(lane):
            return lambda b: ladders.read_lane_uniform(b, inst.operands[0], inst.operands[1])
        return lambda b: ladders.read_lane_divergent(b, inst.operands[0], as_uint(b, inst.operands[1]))


_BALLOT_FAMILY: dict[Op, Callable[[ladders.Builder, Inst], Inst]] = {
    Op.WAVE_BALLOT: ladders.ballot,
    Op.WAVE_COUNT_BITS: ladders.count_bits,
    Op.WAVE_PREFIX_COUNT_BITS: ladders.prefix_count_bits,
    Op.WAVE_ANY_TRUE: ladders.any_true,
    Op.WAVE_ALL_TRUE: ladders.all_true,
}


# --------------------------------------------------------------------------------------
# Recognising lane patterns in an index operand
# --------------------------------------------------------------------------------------


def _is_32_bit_integer(t: T.Type) -> bool:
    return isinstance(t, T.ScalarType) and t.is_integer and t.bits == 32


def strip_conversions(inst: Inst) -> Inst:
    """Look through int <-> uint conversions and bitcasts of 32-bit values."""
    while (inst.op in (Op.CONVERT, Op.BITCAST) and _is_32_bit_integer(inst.type)
           and _is_32_bit_integer(inst.operands[0].type)):
        inst = inst.operands[0]
    return inst


def constant_int(inst: Inst) -> int | None:
    """A scalar 32-bit integer computed from constants alone (``~3``, ``(uint)-4``), as
    32 unsigned bits; None otherwise. Constant folding usually got there first."""
    if not _is_32_bit_integer(inst.type):
        return None
    constant = _fold(inst, depth=4)
    return None if constant is None else int(constant.values[0]) & 0xFFFFFFFF


def _fold(inst: Inst, depth: int) -> Constant | None:
    if inst.op is Op.CONST:
        return constant_of(inst)
    if depth == 0 or inst.op not in PURE or not inst.operands:
        return None
    args = [_fold(operand, depth - 1) for operand in inst.operands]
    if any(arg is None for arg in args):
        return None
    return evaluate(inst, args)


def constant_operand(inst: Inst, attr: str) -> int | None:
    """Operand 1 as a constant, or the attribute that may stand for it (``{mask=5}``)."""
    if attr in inst.attrs:
        return int(inst.attrs[attr]) & 0xFFFFFFFF
    return constant_int(inst.operands[1])


def is_lane_index(inst: Inst) -> bool:
    return strip_conversions(inst).op is Op.WAVE_LANE_INDEX


def _split_lane_and_constant(inst: Inst) -> int | None:
    """For ``lane <op> c`` or ``c <op> lane``: the constant ``c``, else None."""
    left, right = inst.operands
    if is_lane_index(left):
        return constant_int(right)
    if is_lane_index(right):
        return constant_int(left)
    return None


def _is_quad_base(inst: Inst, wave_size: int) -> bool:
    """``lane & c`` where ``c`` clears bits 0-1 and keeps every other lane bit (``~3``)."""
    inst = strip_conversions(inst)
    if inst.op is not Op.AND:
        return False
    mask = _split_lane_and_constant(inst)
    lane_bits = wave_size - 1
    return mask is not None and mask & lane_bits == lane_bits & ~3


def quad_lane_pattern(index: Inst, wave_size: int) -> int | None:
    """k when ``index`` is ``(lane & ~3) | k`` or ``(lane & ~3) + k`` (k in 0..3)."""
    index = strip_conversions(index)
    if _is_quad_base(index, wave_size):
        return 0
    if index.op not in (Op.OR, Op.ADD):
        return None
    left, right = index.operands
    for base, offset in ((left, right), (right, left)):
        k = constant_int(offset)
        if k is not None and k < 4 and _is_quad_base(base, wave_size):
            return k
    return None


def xor_lane_pattern(index: Inst) -> int | None:
    """m when ``index`` is ``lane ^ m`` with a constant m (``lane`` alone is m = 0)."""
    index = strip_conversions(index)
    if index.op is Op.WAVE_LANE_INDEX:
        return 0
    if index.op is not Op.XOR:
        return None
    return _split_lane_and_constant(index)


def as_uint(builder: ladders.Builder, value: Inst) -> Inst:
    """A lane number as ``uint`` (what address arithmetic and compares use)."""
    if value.type == T.UINT:
        return value
    if _is_32_bit_integer(value.type):
        return builder.emit(Op.BITCAST, [value], T.UINT)
    return builder.emit(Op.CONVERT, [value], T.UINT)
