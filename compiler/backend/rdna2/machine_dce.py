"""Dead VALU instructions on the machine IR: a result nobody reads is not computed.

Selection expands a packed value into its halves (``v_lshrrev_b32 %h, 16, %p``) and a vector
into its components whether or not every part is read afterwards. A VALU instruction whose
every target is a whole virtual register, written only there and read nowhere, is removed,
and so on until nothing more goes (its operands may have lost their last reader). A register
written twice is kept: a lane exchange such as ``v_permlanex16_b32`` reads its own target's
old value without naming it as a source.
"""

from __future__ import annotations

from .machine import MFunction, MInst, SubReg, VReg


def remove_dead_values(function: MFunction) -> int:
    """Remove unread VALU results; the number of instructions removed."""
    removed = 0
    while True:
        defs: dict[VReg, int] = {}
        read: set[VReg] = set()
        for inst in function.instructions():
            for operand in inst.defs:
                reg = operand.base if isinstance(operand, SubReg) else operand
                defs[reg] = defs.get(reg, 0) + (1 if isinstance(operand, VReg) else 2)
            read.update(inst.registers("uses"))
        dead = 0
        for block in function.blocks:
            kept = [inst for inst in block.insts if not _dead(inst, defs, read)]
            dead += len(block.insts) - len(kept)
            block.insts = kept
        if not dead:
            return removed
        removed += dead


def _dead(inst: MInst, defs: dict, read: set) -> bool:
    if not inst.mnemonic.startswith("v_") or inst.mnemonic.startswith("v_cmpx") or not inst.defs:
        return False
    return all(isinstance(op, VReg) and defs.get(op) == 1 and op not in read for op in inst.defs)
