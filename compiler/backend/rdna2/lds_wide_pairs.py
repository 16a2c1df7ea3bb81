"""Two LDS read pairs of neighbouring dwords become one ``ds_read2_b64`` (after ``lds_pairs.py``).

SPD's packed-half variant keeps its colour planes as half pairs, so one 2x2 reduction step
reads each plane's two neighbouring dwords twice, a row apart: ``ds_read2_b32 %a, base
offset0:0 offset1:1`` and ``... offset0:16 offset1:17``. One ``ds_read2_b64 %w, base
offset0:0 offset1:8`` (units of 8 bytes) reads all four dwords, as LLVM's
``SILoadStoreOptimizer`` reads them: one instruction and one wait fewer.

Each read pair's address is its base register plus its field's bytes, where a base that
``lds_pairs.py`` moved (``v_add_nc_u32 %moved, c, %base``) counts as ``%base`` plus ``c``.
Two pairs on one base, each starting on an 8-byte boundary, merge when:

* the base is a multiple of 8 by construction (``_aligned``: shifts left by 3 or more,
  sums of such values and multiples of 8), as a 64-bit LDS access needs;
* both offsets fit the 8-bit fields, in units of 8 bytes;
* nothing between them writes LDS, waits at a barrier, changes exec or redefines the
  base, and the later pair's register is not read before it (the merged read stands where
  the earlier one stood);
* with ``pressure``, holding the later pair's two registers from the earlier read on keeps
  the kernel in its VGPR granule.

The lower pair's register becomes ``%w.0-1``, the higher one's ``%w.2-3``.
"""

from __future__ import annotations

import re

from .machine import Imm, MFunction, MInst, SubReg, VReg
from .pressure import Pressure

PAIR, WIDE = "ds_read2_b32", "ds_read2_b64"
_FIELDS = re.compile(r"^offset0:(\d+) offset1:(\d+)$")
QWORD, MAX_FIELD = 8, 255


def widen_read_pairs(function: MFunction, pressure: Pressure | None = None) -> int:
    """Merge neighbouring-dword read pairs into ``ds_read2_b64``; the number of reads saved."""
    definitions: dict[VReg, list[MInst]] = {}
    for inst in function.instructions():
        for reg in inst.registers("defs"):
            definitions.setdefault(reg, []).append(inst)
    defined_once = {reg: insts[0] for reg, insts in definitions.items() if len(insts) == 1}
    renames: dict[VReg, tuple[VReg, int]] = {}
    saved = 0
    for block in function.blocks:
        waiting: dict[VReg, list[tuple[int, int]]] = {}  # base -> (index, byte offset) of pairs not yet merged
        for index, inst in enumerate(block.insts):
            spot = _spot(inst, defined_once)
            if spot is not None:
                base, offset = spot
                partner = next((entry for entry in waiting.get(base, [])
                                if _fits(entry[1], offset) and _movable(block.insts, entry[0], index, pressure)), None)
                if partner is not None:
                    waiting[base].remove(partner)
                    _merge(block.insts, partner, (index, offset), base, renames)
                    saved += 1
                elif _aligned(base, defined_once):
                    waiting.setdefault(base, []).append((index, offset))
                continue
            if _is_fence(inst):
                waiting = {}
            for reg in inst.registers("defs"):
                waiting.pop(reg, None)
        block.insts = [inst for inst in block.insts if inst is not None]
    if renames:
        for inst in function.instructions():
            inst.uses = [_renamed(op, renames) for op in inst.uses]
    return saved


def _spot(inst: MInst | None, defined_once: dict) -> tuple[VReg, int] | None:
    """(base, byte offset) of a read pair of neighbouring dwords starting on an 8-byte boundary."""
    if inst is None or inst.mnemonic != PAIR or inst.source_modifiers:
        return None
    match = _FIELDS.match(inst.modifiers)
    target, base = inst.defs[0], inst.uses[0]
    if match is None or int(match.group(2)) != int(match.group(1)) + 1 or not isinstance(base, VReg) \
            or not isinstance(target, VReg) or target not in defined_once:
        return None
    offset = 4 * int(match.group(1))
    moved = defined_once.get(base)
    if moved is not None and moved.mnemonic == "v_add_nc_u32" and isinstance(moved.uses[0], Imm) \
            and isinstance(moved.uses[1], VReg) and moved.uses[1] in defined_once:
        base, offset = moved.uses[1], offset + int(moved.uses[0].value)
    return (base, offset) if offset % QWORD == 0 else None


def _fits(low: int, high: int) -> bool:
    low, high = sorted((low, high))
    return 0 <= low < high and high // QWORD <= MAX_FIELD


def _aligned(reg, defined_once: dict, depth: int = 4) -> bool:
    """Whether ``reg`` is a multiple of 8 by construction."""
    if isinstance(reg, Imm):
        return isinstance(reg.value, int) and reg.value % QWORD == 0
    inst = defined_once.get(reg) if isinstance(reg, VReg) else None
    if inst is None or depth == 0:
        return False
    name, uses = inst.mnemonic, inst.uses
    if name == "v_lshlrev_b32" and isinstance(uses[0], Imm):
        return uses[0].value >= 3 or _aligned(uses[1], defined_once, depth - 1)
    if name == "v_lshl_add_u32" and isinstance(uses[1], Imm):
        return (uses[1].value >= 3 or _aligned(uses[0], defined_once, depth - 1)) \
            and _aligned(uses[2], defined_once, depth - 1)
    if name in ("v_add_nc_u32", "v_add3_u32"):
        return all(_aligned(use, defined_once, depth - 1) for use in uses)
    return False


def _is_fence(inst: MInst | None) -> bool:
    if inst is None:
        return False
    name = inst.mnemonic
    return (name.startswith(("s_barrier", "s_branch", "s_cbranch", "s_endpgm")) or "exec" in name
            or name.startswith("ds_") and not name.startswith("ds_read")
            or any(getattr(op, "name", "").startswith("exec") for op in inst.defs if not isinstance(op, VReg | SubReg)))


def _movable(insts: list, first: int, last: int, pressure: Pressure | None) -> bool:
    """The later pair's read moves up to the earlier one's place."""
    target = insts[last].defs[0]
    if any(inst is not None and target in inst.registers("uses") for inst in insts[first + 1:last]):
        return False
    return pressure is None or pressure.hold(pressure.where(insts[first]), pressure.where(insts[last]), 2)


def _merge(insts: list, early: tuple[int, int], late: tuple[int, int], base: VReg, renames: dict) -> None:
    (first, low), (last, high) = sorted((early, late), key=lambda spot: spot[1])
    wide = VReg("v", 4, insts[first].defs[0].name)
    renames[insts[first].defs[0]] = (wide, 0)
    renames[insts[last].defs[0]] = (wide, 2)
    where = min(first, last)
    coord = insts[where].coord
    insts[first] = insts[last] = None
    insts[where] = MInst(WIDE, [wide], [base], f"offset0:{low // QWORD} offset1:{high // QWORD}", coord)


def _renamed(operand, renames: dict):
    if isinstance(operand, VReg) and operand in renames:
        wide, start = renames[operand]
        return SubReg(wide, start, 2)
    if isinstance(operand, SubReg) and operand.base in renames:
        wide, start = renames[operand.base]
        return SubReg(wide, start + operand.index, operand.count)
    return operand
