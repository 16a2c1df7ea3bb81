"""Uniformity (divergence) analysis, for a wave and for a whole group.

Each value gets one of three levels, ordered so that a value is at least as
varying as its operands:

- ``GROUP``: the same for every thread of the group (constants, cbuffer values,
  ``SV_GroupID``, and what is computed only from those; loads at a group-uniform
  address);
- ``WAVE``: the same for every lane of a wave (wave reductions, broadcasts,
  ballots, ``readfirstlane``): an SGPR candidate;
- ``LANE``: may differ per lane (thread ids, lane index, prefix scans, quad and
  shuffle reads, atomics' returned values) and lives in VGPRs.

Control dependence follows the structured CFG: phis at the merge of a selection
whose condition varies are as varying as the condition; a loop whose exits
depend on varying conditions makes its merge phis, and the loop's values used
after it, varying too. A barrier inside a region controlled by a lane-varying
condition is an error (FXC's rule, which DXC no longer checks); under a
wave-uniform but not group-uniform condition it is a warning.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import Pass
from ..diagnostics import Diagnostics
from ..ir.core import Block, Function, Inst, Module
from ..ir.dominance import control_dependences
from ..ir.ops import BARRIERS, Op

GROUP, WAVE, LANE = 0, 1, 2
LEVEL_NAMES = {GROUP: "group-uniform", WAVE: "wave-uniform", LANE: "divergent"}

_THREAD_INPUTS = {"group_id": GROUP, "group_index": LANE, "group_thread_id": LANE, "dispatch_thread_id": LANE}
# Operations whose result is uniform across the wave whatever their operands are.
_WAVE_RESULTS = {
    Op.WAVE_ACTIVE, Op.WAVE_READ_FIRST, Op.WAVE_BALLOT, Op.WAVE_COUNT_BITS, Op.WAVE_ANY_TRUE,
    Op.WAVE_ALL_TRUE, Op.WAVE_ALL_EQUAL, Op.WAVE_LANE_COUNT, Op.READLANE, Op.READFIRSTLANE,
    Op.BALLOT_MASK, Op.BCNT,
}
# Operations whose result varies per lane whatever their operands are.
_LANE_RESULTS = {
    Op.WAVE_LANE_INDEX, Op.WAVE_IS_FIRST_LANE, Op.WAVE_PREFIX, Op.WAVE_PREFIX_COUNT_BITS,
    Op.WAVE_SHUFFLE_XOR, Op.QUAD_READ, Op.QUAD_READ_LANE_AT, Op.LDS_ATOMIC, Op.BUFFER_ATOMIC,
    Op.DPP16, Op.DPP8, Op.PERMLANEX16, Op.DS_SWIZZLE, Op.DS_BPERMUTE, Op.MBCNT, Op.SET_INACTIVE,
    Op.WRITELANE, Op.LDS_EXCHANGE,
}


@dataclass
class UniformityInfo:
    levels: dict[Inst, int]
    # For each block, the most varying condition that decides whether it runs.
    block_levels: dict[Block, int]

    def level(self, inst: Inst) -> int:
        return self.levels.get(inst, LANE)

    def is_uniform(self, inst: Inst) -> bool:
        return self.level(inst) <= WAVE


def region(header: Block, merge: Block | None) -> set[Block]:
    """Blocks reachable from ``header``'s successors without passing ``merge``."""
    seen: set[Block] = set()
    stack = list(header.successors)
    while stack:
        block = stack.pop()
        if block is merge or block in seen or block is header:
            continue
        seen.add(block)
        stack.extend(block.successors)
    return seen


def _condition_level(levels: dict[Inst, int], block: Block) -> int:
    term = block.terminator
    if term is None or term.op not in (Op.COND_BR, Op.SWITCH):
        return GROUP
    return levels.get(term.operands[0], GROUP)


class Uniformity(Pass):
    name = "uniformity"
    description = "which values are group-uniform, wave-uniform (SGPR) or divergent (VGPR)"

    def __init__(self, diagnostics: Diagnostics | None = None):
        self.diagnostics = diagnostics

    def run(self, module: Module) -> None:
        info = analyze(module.function)
        module.analyses["uniformity"] = info
        if self.diagnostics is not None:
            self.check_barriers(module.function, info)

    def check_barriers(self, function: Function, info: UniformityInfo) -> None:
        for inst in function.instructions():
            if inst.op not in BARRIERS or not inst.attrs.get("sync", True):
                continue
            level = info.block_levels.get(inst.block, GROUP)
            if level == LANE:
                self.diagnostics.error(
                    "barrier in divergent control flow: every thread of the group must reach it", inst.coord)
            elif level == WAVE:
                self.diagnostics.warning(
                    "barrier under a condition that is uniform per wave but may differ between the "
                    "group's waves", inst.coord)


def analyze(function: Function) -> UniformityInfo:
    levels: dict[Inst, int] = {}
    block_levels: dict[Block, int] = {block: GROUP for block in function.blocks}
    regions = Regions(function)
    changed = True
    while changed:
        changed = False
        control = _control_levels(function, levels, regions)
        merges = _merge_levels(function, levels, regions)
        for block in function.blocks:
            if control.get(block, GROUP) > block_levels[block]:
                block_levels[block] = control[block]
                changed = True
            merge_level = merges.get(block, GROUP)
            for inst in block.insts:
                new = _level_of(inst, levels, merge_level)
                if new > levels.get(inst, -1):
                    levels[inst] = new
                    changed = True
        changed = _temporal_divergence(function, levels, regions) or changed
    return UniformityInfo(levels, block_levels)


class Regions:
    """Each structured header's region and exiting blocks, computed once per analysis."""

    def __init__(self, function: Function):
        self.depends = control_dependences(function)
        self.body: dict[Block, set[Block]] = {}
        self.exits: dict[Block, list[Block]] = {}
        for block in function.blocks:
            if block.kind is None:
                continue
            body = region(block, block.merge)
            self.body[block] = body
            if block.kind == "loop":
                members = body | {block}
                self.exits[block] = [m for m in members if block.merge in m.successors]
                self.exits[block].sort(key=function.blocks.index)

    def loop_exit_level(self, levels: dict[Inst, int], header: Block) -> int:
        return max((_condition_level(levels, member) for member in self.exits[header]), default=GROUP)


def _level_of(inst: Inst, levels: dict[Inst, int], merge_level: int) -> int:
    op = inst.op
    if op is Op.THREAD_INPUT:
        return _THREAD_INPUTS.get(inst.attrs.get("which"), LANE)
    if op in _WAVE_RESULTS:
        return WAVE
    if op in _LANE_RESULTS or "dpp" in inst.attrs:
        return LANE  # a VALU op that reads its operand through DPP sees other lanes' values
    if op is Op.WAVE_READ_LANE_AT:
        return LANE if levels.get(inst.operands[1], GROUP) == LANE else WAVE
    operand_level = max((levels.get(operand, GROUP) for operand in inst.operands), default=GROUP)
    if op is Op.PHI:
        return max(operand_level, merge_level)
    return operand_level


def _control_levels(function: Function, levels: dict[Inst, int], regions: Regions) -> dict[Block, int]:
    """For each block, the most varying branch condition that decides whether it runs.

    Control dependence comes from post-dominance, so a ``break`` inside an ``if``
    makes the rest of the loop depend on the condition but not the code after the
    loop; dependence is transitive (a block inside a nested if inherits the outer
    condition through the inner header).
    """
    control: dict[Block, int] = {}
    changed = True
    while changed:
        changed = False
        for block, headers in regions.depends.items():
            level = max((max(_condition_level(levels, header), control.get(header, GROUP))
                         for header in headers), default=GROUP)
            if level > control.get(block, GROUP):
                control[block] = level
                changed = True
    return control


def _merge_levels(function: Function, levels: dict[Inst, int], regions: Regions) -> dict[Block, int]:
    """How varying the choice of incoming edge is for the phis of each merge block."""
    merges: dict[Block, int] = {}
    for header, body in regions.body.items():
        if header.kind == "loop":
            level = regions.loop_exit_level(levels, header)
            # Header phis vary when lanes leave the body at different iterations.
            back = max((_condition_level(levels, member) for member in body | {header}
                        if header in member.successors), default=GROUP)
            merges[header] = max(merges.get(header, GROUP), level, back)
        else:
            level = _condition_level(levels, header)
        merges[header.merge] = max(merges.get(header.merge, GROUP), level)
    return merges


def _temporal_divergence(function: Function, levels: dict[Inst, int], regions: Regions) -> bool:
    """Values defined in a loop with varying exits are varying where used after the loop."""
    changed = False
    outside_uses: dict[Block, set[Inst]] = {}
    for header, body in regions.body.items():
        if header.kind != "loop":
            continue
        exit_level = regions.loop_exit_level(levels, header)
        if exit_level == GROUP:
            continue
        members = body | {header}
        if header not in outside_uses:
            outside_uses[header] = {operand for block in function.blocks if block not in members
                                    for user in block.insts for operand in user.operands}
        for member in members:
            for inst in member.insts:
                if levels.get(inst, GROUP) < exit_level and inst in outside_uses[header]:
                    levels[inst] = exit_level
                    changed = True
    return changed
