"""Common subexpressions on the machine IR, within a block (LLVM's ``MachineCSE``, block-local).

Selection expands some IR operations into several instructions (an image load's coordinate
clamp, a lane exchange's address), and two IR operations can expand into the same ones. A VALU
instruction that repeats an earlier one of the same block (same mnemonic, modifiers and
operands) is dropped, and its register is read from the earlier one's instead. Exact when:

* both write one whole virtual register, written nowhere else (so the earlier value is still
  there wherever the later one was read), and no special register (``vcc``, ``scc``);
* nothing between them changes exec (a VALU result depends on which lanes run) or redefines
  one of the operands;
* the instruction reads nothing but its operands: no DPP or lane reads and writes
  (``readfirstlane``, ``writelane``, ``permlane``) and no ``mac`` (which reads its target),
  which see other lanes or the old value.
"""

from __future__ import annotations

from .machine import Imm, MFunction, MInst, Special, SubReg, VReg

_IMPURE = ("v_readfirstlane", "v_readlane", "v_writelane", "v_permlane", "v_interp", "v_mov_b32_dpp")


def eliminate_common_subexpressions(function: MFunction) -> int:
    """Drop repeated VALU instructions; the number dropped."""
    defs: dict[VReg, int] = {}
    for inst in function.instructions():
        for operand in inst.defs:
            reg = operand.base if isinstance(operand, SubReg) else operand
            defs[reg] = defs.get(reg, 0) + (1 if isinstance(operand, VReg) else 2)
    renames: dict[VReg, VReg] = {}
    for block in function.blocks:
        seen: dict[tuple, VReg] = {}
        readers: dict[VReg, list[tuple]] = {}  # register -> keys that read or write it
        kept = []
        for inst in block.insts:
            inst.uses = [_renamed(op, renames) for op in inst.uses]
            if _changes_exec(inst):
                seen, readers = {}, {}
            key = _key(inst, defs)
            if key is not None and key in seen:
                renames[inst.defs[0]] = seen[key]
                continue
            for reg in inst.registers("defs"):
                for stale in readers.pop(reg, []):
                    seen.pop(stale, None)
            if key is not None:
                seen[key] = inst.defs[0]
                for reg in [*inst.registers("uses"), inst.defs[0]]:
                    readers.setdefault(reg, []).append(key)
            kept.append(inst)
        block.insts = kept
    if renames:
        for inst in function.instructions():
            inst.uses = [_renamed(op, renames) for op in inst.uses]
    return len(renames)


def _renamed(operand, renames: dict):
    """``operand`` read from the register that replaced its own (a tuple's part from the new tuple)."""
    if isinstance(operand, VReg):
        return renames.get(operand, operand)
    if isinstance(operand, SubReg) and operand.base in renames:
        return SubReg(renames[operand.base], operand.index, operand.count)
    return operand


def _changes_exec(inst: MInst) -> bool:
    return "exec" in inst.mnemonic or inst.mnemonic.startswith("v_cmpx") or any(isinstance(op, Special) and op.name.startswith("exec") for op in inst.defs)


def _key(inst: MInst, defs: dict) -> tuple | None:
    """What makes two instructions compute the same value, or None if this one may not be merged."""
    name = inst.mnemonic
    if not name.startswith("v_") or name.startswith(_IMPURE) or "dpp" in name or "mac" in name:
        return None
    if "dpp" in inst.modifiers or len(inst.defs) != 1:
        return None
    target = inst.defs[0]
    if not isinstance(target, VReg) or defs.get(target) != 1:
        return None
    operands = []
    for operand in inst.uses:
        if isinstance(operand, VReg):
            operands.append(("r", id(operand)))
        elif isinstance(operand, SubReg):
            operands.append(("p", id(operand.base), operand.index, operand.count))
        elif isinstance(operand, Imm):
            operands.append(("i", type(operand.value).__name__, repr(operand.value)))  # -0.0 is not 0.0
        elif isinstance(operand, Special):
            if operand.name.startswith(("exec", "vcc", "scc", "m0")):
                return None  # written behind the instruction's back: not worth tracking
            operands.append(("x", operand.name))
        else:
            return None
    modifiers = tuple(sorted((k, tuple(sorted(v))) for k, v in inst.source_modifiers.items()))
    return inst.mnemonic, inst.modifiers, target.cls, target.size, tuple(operands), modifiers
