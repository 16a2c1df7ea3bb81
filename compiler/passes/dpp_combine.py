"""DPP combine: fold a DPP16 move into the VALU op that consumes it (LLVM's GCNDPPCombine).

``%m = dpp16 T %src, %old {ctrl=C, ...}`` followed by ``%r = add T %m, %b`` becomes
``%r = add T %src, %b {dpp=C, row_mask, bank_mask, bound_ctrl}``: the VALU op reads
its operand 0 through the DPP control (``v_add_f32_dpp``), saving the move and a
VGPR. The move goes once nothing else uses it.

Folding is exact only when the combined op computes what move-then-op computed on
every lane its users can read, so the rules are GCNDPPCombine's:

* ``row_mask`` and ``bank_mask`` are full (0xF): a masked lane of the move keeps
  ``old``, which the combined op cannot reproduce;
* ``bound_ctrl`` is set, or ``old`` is a zero constant (then a lane whose source is
  invalid reads 0 either way, and the combined op sets ``bound_ctrl``); an ``old``
  that is the op's identity but not 0 (``mul``'s 1, ``min``'s +inf) would need the
  combined op to keep operand 1 on such lanes, which the IR's dpp convention does
  not say, so it stays a move;
* every user of the move is a combinable VALU op in the same block (same exec),
  with the same whole-wave flag, that uses the move exactly once, as operand 0 or
  as operand 1 of a commutative op (then the operands are swapped), and carries
  no DPP control already.

If any user fails, nothing is folded (the move would stay anyway).
"""

from __future__ import annotations

from . import Pass
from ..ir.core import Inst, Module
from ..ir.ops import COMMUTATIVE, Op

FULL_MASK = 0xF
# VALU ops that take a DPP source operand 0 (two-source VOP2/VOP3 forms).
COMBINABLE = frozenset({Op.ADD, Op.SUB, Op.MUL, Op.MIN, Op.MAX, Op.AND, Op.OR, Op.XOR, Op.FMA})
# FMA's first two operands commute (a * b + c).
_SWAPPABLE = COMMUTATIVE | {Op.FMA}
DPP_ATTRS = ("row_mask", "bank_mask", "bound_ctrl")


class DppCombine(Pass):
    name = "dpp-combine"
    description = "fold DPP16 moves into their VALU users (full masks, safe bound_ctrl)"

    def run(self, module: Module) -> None:
        function = module.function
        users = function.users()
        for move in [inst for inst in function.instructions() if inst.op is Op.DPP16]:
            move_users = users.get(move, [])
            bound_ctrl = combined_bound_ctrl(move)
            if not move_users or bound_ctrl is None:
                continue
            if not all(can_fold(move, user) for user in move_users):
                continue
            for user in move_users:
                fold(move, user, bound_ctrl)
            move.block.insts.remove(move)


def combined_bound_ctrl(move: Inst) -> bool | None:
    """The combined op's bound_ctrl if ``move`` may be folded at all, else None."""
    if move.attrs.get("row_mask", FULL_MASK) != FULL_MASK or move.attrs.get("bank_mask", FULL_MASK) != FULL_MASK:
        return None
    if move.attrs.get("fetch_inactive", False):
        return None
    if move.attrs.get("bound_ctrl", False) or is_zero_constant(move.operands[1]):
        return True
    return None


def is_zero_constant(inst: Inst) -> bool:
    if inst.op is not Op.CONST:
        return False
    value = inst.attrs.get("value")
    values = value if isinstance(value, list) else [value]
    return all(isinstance(item, (int, float)) and not isinstance(item, bool) and item == 0 for item in values)


def can_fold(move: Inst, user: Inst) -> bool:
    if user.op not in COMBINABLE or "dpp" in user.attrs:
        return False
    if user.block is not move.block or user.type != move.type:
        return False
    if user.attrs.get("wwm", False) != move.attrs.get("wwm", False):
        return False
    positions = [index for index, operand in enumerate(user.operands) if operand is move]
    if len(positions) != 1:
        return False
    return positions[0] == 0 or (positions[0] == 1 and user.op in _SWAPPABLE)


def fold(move: Inst, user: Inst, bound_ctrl: bool) -> None:
    operands = list(user.operands)
    if operands[1] is move:
        operands[0], operands[1] = operands[1], operands[0]
    operands[0] = move.operands[0]
    user.operands = operands
    user.attrs["dpp"] = move.attrs["ctrl"]
    user.attrs["row_mask"] = FULL_MASK
    user.attrs["bank_mask"] = FULL_MASK
    user.attrs["bound_ctrl"] = bound_ctrl
