"""Descriptor loads moved from the kernel's prologue down to where they are first needed.

Selection loads every resource's descriptor in the prologue (``isel_memory.py``), so each
holds its 4 or 8 SGPRs from the first instruction on. A descriptor the kernel needs only
late (SPD's global atomic counter, its last mip's image) then shares the prologue's SGPRs
with ones that die early (the source image's), and the kernel needs more SGPRs than at any
later point. A prologue ``s_load`` from the descriptor table is moved to the start of the
nearest block that dominates every reader of its registers, when that block is in no loop
(where it would load once per iteration). The table is never written and a scalar load does
not depend on exec, so the value is the same wherever it is loaded; ``waitcnt.py`` waits
for it before its first reader there as everywhere else. A load moves only where that lowers
the kernel's peak of live SGPRs (``pressure.py``) and the kernel already waits on LDS or scalar
loads between its new place and its first reader (else it would add a wait of its own).
"""

from __future__ import annotations

from .isel_memory import TABLE_NAME
from .live_ranges import successors
from .machine import MBlock, MFunction, MInst
from .pressure import Pressure


def sink_descriptor_loads(function: MFunction) -> int:
    """Move prologue descriptor loads down to the readers' common dominator; how many moved."""
    entry = function.blocks[0]
    loads = [inst for inst in entry.insts if _is_table_load(inst)]
    if not loads or len(function.blocks) < 2:
        return 0
    succ = successors(function)
    dominators = _dominators(function, succ)
    looped = _blocks_in_loops(function, succ)
    readers: dict[int, list[MBlock]] = {}
    for block in function.blocks:
        for inst in block.insts:
            for reg in inst.registers("uses"):
                readers.setdefault(id(reg), []).append(block)
    sgprs = Pressure(function, "s")
    moved = 0
    for load in loads:
        blocks = readers.get(id(load.defs[0]), [])
        if not blocks or entry in blocks:
            continue
        common = set.intersection(*(dominators[block] for block in blocks))
        target = max(common, key=lambda block: len(dominators[block]))  # the nearest: the deepest
        if target is entry or target in looped or not target.insts:
            continue
        start, stop = sgprs.where(load), sgprs.where(target.insts[0])
        if stop - start < MIN_DISTANCE or not _lowers_peak(sgprs.live, start, stop, load.defs[0].size) \
                or not _waits_anyway(function.blocks[function.blocks.index(target):], load.defs[0]):
            continue
        for index in range(start, stop):
            sgprs.live[index] -= load.defs[0].size
        entry.insts.remove(load)
        target.insts.insert(0, load)
        moved += 1
    return moved


def _lowers_peak(live: list[int], start: int, stop: int, size: int) -> bool:
    """Whether ``size`` fewer live from ``start`` to ``stop`` lowers the kernel's SGPR peak."""
    rest = max([*live[:start], *live[stop:]], default=0)
    return max(rest, max(live[start:stop], default=0) - size) < max(live, default=0)


# A load moved past fewer instructions frees its SGPRs too briefly to matter, and where it lands
# tuple alignment can cost more than it freed (a 4-aligned tuple next to a saved exec mask).
MIN_DISTANCE = 16

# Instructions that make the kernel wait on lgkmcnt (LDS, scalar loads) or are memory fences.
_WAITING = ("ds_", "s_barrier", "s_load", "s_buffer_load", "buffer_gl", "s_waitcnt")


def _waits_anyway(blocks: list[MBlock], reg) -> bool:
    """Whether, from the load's new place to its first reader, the kernel already waits on
    lgkmcnt: the load then shares that wait instead of adding one before its reader."""
    for block in blocks:
        for inst in block.insts:
            if reg in inst.registers("uses"):
                return False
            if inst.mnemonic.startswith(_WAITING):
                return True
    return False


def _is_table_load(inst: MInst) -> bool:
    return (inst.mnemonic.startswith("s_load_dword") and len(inst.defs) == 1 and bool(inst.uses)
            and getattr(inst.uses[0], "name", None) == TABLE_NAME)


def _dominators(function: MFunction, succ: dict) -> dict[MBlock, set[MBlock]]:
    """Each block's dominators (itself included), by the iterative data-flow definition."""
    blocks = function.blocks
    preds: dict[MBlock, list[MBlock]] = {block: [] for block in blocks}
    for block in blocks:
        for target in succ[block]:
            preds[target].append(block)
    everything = set(blocks)
    dom = {block: set(everything) for block in blocks}
    dom[blocks[0]] = {blocks[0]}
    changed = True
    while changed:
        changed = False
        for block in blocks[1:]:
            incoming = [dom[pred] for pred in preds[block]]
            new = (set.intersection(*incoming) if incoming else set()) | {block}
            if new != dom[block]:
                dom[block], changed = new, True
    return dom


def _blocks_in_loops(function: MFunction, succ: dict) -> set[MBlock]:
    """The blocks between a back edge's target and its source, in layout order."""
    order = {block: index for index, block in enumerate(function.blocks)}
    inside: set[MBlock] = set()
    for block in function.blocks:
        for target in succ[block]:
            if order[target] <= order[block]:
                inside.update(function.blocks[order[target]:order[block] + 1])
    return inside
