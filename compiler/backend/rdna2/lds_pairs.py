"""LDS accesses in pairs: two ``ds_read_b32``/``ds_write_b32`` from one address become one
``ds_read2_b32``/``ds_write2_b32`` (LLVM's ``SILoadStoreOptimizer`` does the same).

Runs after selection, over virtual registers. ``ds_read2_b32 %p, base offset0:A offset1:B``
reads the dwords at ``base + 4A`` and ``base + 4B`` (A, B <= 255) into the pair ``%p``;
the ``st64`` forms count in units of 64 dwords (256 bytes), so two accesses 1 KiB apart, as
SPD's four colour planes are, pair as ``ds_write2st64_b32 ... offset0:0 offset1:4``. When
accesses share a base but their byte offsets fit neither form, a ``v_add_nc_u32`` moves the
base to the offset that serves the most pairs, and that is done only where it saves
instructions (two pairs or more for one add), as often as it does.

A group is a run of accesses of one kind on one base register, in one block:

* reads pair with any other read of the group; nothing between them may write LDS, wait at
  a barrier or change exec, and the merged read stands where the first one stood, so the
  second read's register must be written only there (and not read before it);
* writes pair within a run of writes to one base at distinct offsets (distinct addresses,
  so their order does not matter), with no other LDS access, barrier or exec change in the
  run; the merged write stands where the later one stood, so the earlier one's data and
  the base must not be redefined in between.

Each half of a read pair replaces its register everywhere it is read (``%p.0``, ``%p.1``).
"""

from __future__ import annotations

import re

from .machine import Imm, MBlock, MFunction, MInst, Special, SubReg, VReg
from .pressure import Pressure

READ, WRITE = "ds_read_b32", "ds_write_b32"
_OFFSET = re.compile(r"^(?:offset:(\d+))?$")
DWORD_UNITS, ST64_UNITS, MAX_FIELD = 4, 256, 255


def pair_lds_accesses(function: MFunction, pressure: Pressure | None = None) -> int:
    """Pair every group's accesses; the number of instructions saved. With ``pressure``, a pair
    whose moved access would hold a VGPR where that takes the kernel into another granule
    stays two accesses."""
    defs = _def_counts(function)
    renames: dict[VReg, SubReg] = {}
    saved = 0
    for block in function.blocks:
        before: dict[int, list[MInst]] = {}  # index -> instructions to insert before it
        for group in _read_groups(block, defs) + _write_groups(block):
            saved += _pair_group(block, group, renames, before, pressure)
        block.insts = [inst for index, original in enumerate(block.insts)
                       for inst in [*before.get(index, []), original] if inst is not None]
    if renames:
        for inst in function.instructions():
            inst.uses = [_renamed(op, renames) for op in inst.uses]
    return saved


def _renamed(operand, renames: dict):
    """A read of a paired load's register, now one half of the pair."""
    if isinstance(operand, VReg):
        return renames.get(operand, operand)
    if isinstance(operand, SubReg) and operand.base in renames:  # the whole of a one-register value
        return renames[operand.base]
    return operand


def _def_counts(function: MFunction) -> dict:
    defs: dict[VReg, int] = {}
    for inst in function.instructions():
        for reg in inst.registers("defs"):
            defs[reg] = defs.get(reg, 0) + 1
    return defs


def _offset(inst: MInst) -> int | None:
    match = _OFFSET.match(inst.modifiers)
    if match is None or inst.source_modifiers:
        return None
    value = int(match.group(1) or 0)
    return value if value % DWORD_UNITS == 0 else None


def _is_fence(inst: MInst) -> bool:
    """Ends every group: barriers, exec changes, control flow."""
    return (inst.mnemonic.startswith(("s_barrier", "s_branch", "s_cbranch", "s_endpgm")) or "exec" in inst.mnemonic
            or any(isinstance(op, Special) and op.name.startswith("exec") for op in inst.defs))


def _read_groups(block: MBlock, defs: dict) -> list[list[int]]:
    """Indices of ``ds_read_b32`` with one base between LDS writes, barriers and exec changes."""
    groups: list[list[int]] = []
    open_groups: dict[VReg, list[int]] = {}
    for index, inst in enumerate(block.insts):
        if inst.mnemonic == READ and _offset(inst) is not None and _pairable_read(inst, defs):
            base = inst.uses[0]
            open_groups.setdefault(base, []).append(index)
            continue
        if _is_fence(inst) or (inst.mnemonic.startswith("ds_") and inst.mnemonic != READ):
            groups.extend(open_groups.values())
            open_groups = {}
            continue
        for reg in inst.registers("defs"):  # a redefined base starts a new group
            if reg in open_groups:
                groups.append(open_groups.pop(reg))
    groups.extend(open_groups.values())
    return [group for group in groups if len(group) > 1]


def _pairable_read(inst: MInst, defs: dict) -> bool:
    target, base = inst.defs[0], inst.uses[0]
    return (isinstance(target, VReg) and target.size == 1 and defs.get(target) == 1
            and isinstance(base, VReg) and base.size == 1)


def _write_groups(block: MBlock) -> list[list[int]]:
    """Runs of ``ds_write_b32`` on one base at distinct offsets, nothing else touching LDS between."""
    groups: list[list[int]] = []
    run: list[int] = []
    offsets: set[int] = set()
    for index, inst in enumerate(block.insts):
        if inst.mnemonic == WRITE and _offset(inst) is not None and isinstance(inst.uses[0], VReg) \
                and isinstance(inst.uses[1], VReg | SubReg):
            base = inst.uses[0]
            if run and (base is not block.insts[run[0]].uses[0] or _offset(inst) in offsets):
                groups.append(run)
                run, offsets = [], set()
            run.append(index)
            offsets.add(_offset(inst))
            continue
        if _is_fence(inst) or inst.mnemonic.startswith("ds_"):
            groups.append(run)
            run, offsets = [], set()
            continue
        if run and set(inst.registers("defs")) & {block.insts[i].uses[0] for i in run}:
            groups.append(run)
            run, offsets = [], set()
    groups.append(run)
    return [group for group in groups if len(group) > 1]


def _pairs(offsets: list[int]) -> list[tuple[int, int, str]]:
    """Pairs (i, j, form) of positions in ``offsets`` (byte offsets from one base), nearest
    first: neighbours, which a kernel usually combines, share an instruction."""
    candidates = sorted((offsets[j] - offsets[i], offsets[i], i, j) for i in range(len(offsets))
                        for j in range(len(offsets)) if offsets[i] < offsets[j])
    taken: set[int] = set()
    pairs = []
    for _, _, first, second in candidates:
        if first in taken or second in taken:
            continue
        form = _form(offsets[first], offsets[second])
        if form is not None:
            pairs.append((first, second, form))
            taken.update((first, second))
    return pairs


def _form(low: int, high: int) -> str | None:
    if low < 0 or low == high:
        return None
    if high <= MAX_FIELD * DWORD_UNITS:
        return ""
    if low % ST64_UNITS == 0 and high % ST64_UNITS == 0 and high <= MAX_FIELD * ST64_UNITS:
        return "st64"
    return None


def _pair_group(block: MBlock, group: list[int], renames: dict, before: dict, pressure: Pressure | None) -> int:
    insts = [block.insts[index] for index in group]
    offsets = [_offset(inst) for inst in insts]
    batches = [(0, _pairs(offsets))]
    rest = [k for k in range(len(insts)) if not any(k in pair[:2] for pair in batches[0][1])]
    while len(rest) >= 4:  # then move the base where it serves the most pairs, two at least
        best = max(((shift, _pairs([offsets[k] - shift for k in rest])) for shift in sorted({offsets[k] for k in rest})),
                   key=lambda candidate: len(candidate[1]))
        if len(best[1]) < 2:
            break
        batches.append((best[0], [(rest[i], rest[j], form) for i, j, form in best[1]]))
        rest = [k for position, k in enumerate(rest) if not any(position in pair[:2] for pair in best[1])]
    base = insts[0].uses[0]
    saved = 0
    for shift, batch in batches:
        batch = [pair for pair in batch if _movable(block, group, insts, *pair[:2])]
        if pressure is not None and shift and len(batch) >= 2:  # the moved base, live over the batch
            where = [pressure.where(insts[k]) for pair in batch for k in pair[:2]]
            if not pressure.hold(min(where), max(where), 1):
                continue
        if pressure is not None:
            batch = [pair for pair in batch if _affordable(pressure, insts, *pair[:2])]
        if not batch or shift and len(batch) < 2:
            continue
        pair_base = base
        if shift:
            pair_base = VReg("v", 1, base.name)
            first = min(group[k] for pair in batch for k in pair[:2])
            add = MInst("v_add_nc_u32", [pair_base], [Imm(shift), base], coord=block.insts[first].coord)
            before.setdefault(first, []).append(add)
            saved -= 1
        for i, j, form in batch:
            _merge(block, group, insts, offsets, (i, j, form), shift, pair_base, renames)
            saved += 1
    return saved


def _movable(block: MBlock, group: list[int], insts: list[MInst], i: int, j: int) -> bool:
    """A read moves up to the earlier one's place: its register is not read before; a write
    moves down to the later one's: its data is not redefined in between."""
    (first, early), (last, late) = sorted(((group[i], insts[i]), (group[j], insts[j])), key=lambda t: t[0])
    between = [inst for inst in block.insts[first + 1:last] if inst is not None]
    if late.mnemonic == READ:
        return not any(late.defs[0] in inst.registers("uses") for inst in between)
    data = set(early.registers("uses"))
    return not any(data.intersection(inst.registers("defs")) for inst in between)


def _affordable(pressure: Pressure, insts: list[MInst], i: int, j: int) -> bool:
    """Hold what the pair moves: a read's result from the earlier read on, a write's data up to
    the later write."""
    early, late = sorted((insts[i], insts[j]), key=pressure.where)
    first, last = pressure.where(early), pressure.where(late)
    if late.mnemonic == READ:
        return pressure.hold(first, last, 1)
    data = early.uses[1]
    reg = data.base if isinstance(data, SubReg) else data
    end = pressure.ends.get(reg, last)
    return pressure.hold(end + 1, last + 1, data.count if isinstance(data, SubReg) else data.size)


def _merge(block: MBlock, group: list[int], insts: list[MInst], offsets: list[int], pair, shift: int, base: VReg,
           renames: dict) -> None:
    i, j, form = pair
    low, high = (i, j) if offsets[i] < offsets[j] else (j, i)
    unit = ST64_UNITS if form else DWORD_UNITS
    fields = f"offset0:{(offsets[low] - shift) // unit} offset1:{(offsets[high] - shift) // unit}"
    first, last = sorted((group[i], group[j]))
    if insts[i].mnemonic == READ:
        pair_reg = VReg("v", 2, insts[low].defs[0].name)
        renames[insts[low].defs[0]] = pair_reg.part(0)
        renames[insts[high].defs[0]] = pair_reg.part(1)
        block.insts[first] = MInst(f"ds_read2{form}_b32", [pair_reg], [base], fields, block.insts[first].coord)
        block.insts[last] = None
    else:
        block.insts[last] = MInst(f"ds_write2{form}_b32", [], [base, insts[low].uses[1], insts[high].uses[1]],
                                  fields, block.insts[last].coord)
        block.insts[first] = None
