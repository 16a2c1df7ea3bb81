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

A descriptor loaded from the descriptor table (``s_load_dwordx8`` of a resource array's
element, which selection loads where it is used) is merged the same way: the table is never
written and a scalar load does not depend on exec.
"""

from __future__ import annotations

from .isel_memory import TABLE_NAME, Text
from .machine import Imm, MFunction, MInst, Special, SubReg, VReg
from .pressure import Pressure

_IMPURE = ("v_readfirstlane", "v_readlane", "v_writelane", "v_permlane", "v_interp", "v_mov_b32_dpp")


def eliminate_common_subexpressions(function: MFunction, pressure: Pressure | None = None) -> int:
    """Drop repeated VALU instructions; the number dropped. With ``pressure``, a repeat whose
    value would have to be held where that takes the kernel into another VGPR granule is kept
    (and later repeats read it instead)."""
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
                seen = {key: reg for key, reg in seen.items() if key[0].startswith("s_")}
            key = _key(inst, defs)
            if key is not None and key in seen and (
                    pressure is None or pressure.extend(seen[key], pressure.where(inst), inst.defs[0], _slack(inst))):
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
    if name.startswith("s_load_dword"):
        return _table_load_key(inst, defs)
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


def _table_load_key(inst: MInst, defs: dict) -> tuple | None:
    """A load from the descriptor table at a constant offset: the same descriptor wherever it runs."""
    if len(inst.defs) != 1 or len(inst.uses) != 2 or not isinstance(inst.uses[1], Text):
        return None
    target, table = inst.defs[0], inst.uses[0]
    if not isinstance(target, VReg) or defs.get(target) != 1 or not isinstance(table, VReg) \
            or table.name != TABLE_NAME:
        return None
    return inst.mnemonic, inst.uses[1].name, target.size


def _slack(inst: MInst) -> int:
    """A copy of a constant or an SGPR saves one cheap instruction, where holding it across a long
    stretch costs the allocator freedom: it keeps one VGPR more in reserve than other values."""
    copy = inst.mnemonic == "v_mov_b32" and not any(isinstance(op, VReg | SubReg) and op.cls == "v" for op in inst.uses)
    return 1 if copy else 0
