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

Control dependence comes from post-dominance (made transitive): a block depends
on every branch that decides whether it runs. A phi varies as much as the
branches that decide which predecessor a lane arrives from (those that control
a predecessor but not the phi's own block): the merge of a divergent ``if``, a
``switch`` case reached by fall-through, a loop's merge and continue blocks. A
loop that lanes leave at different iterations (a divergent exit condition, or a
``break`` under a divergent ``if``) makes its values used after it varying too. A barrier inside a region controlled by a lane-varying
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
# Operations whose result varies per lane whatever their operands are. A load is as
# uniform as its address only where every lane reads the same memory: scratch is each
# lane's own, so a scratch load at a uniform address still gives each lane its value.
_LANE_RESULTS = {
    Op.WAVE_LANE_INDEX, Op.WAVE_IS_FIRST_LANE, Op.WAVE_PREFIX, Op.WAVE_PREFIX_COUNT_BITS,
    Op.WAVE_SHUFFLE_XOR, Op.QUAD_READ, Op.QUAD_READ_LANE_AT, Op.LDS_ATOMIC, Op.BUFFER_ATOMIC,
    Op.DPP16, Op.DPP8, Op.PERMLANEX16, Op.DS_SWIZZLE, Op.DS_BPERMUTE, Op.MBCNT, Op.SET_INACTIVE,
    Op.WRITELANE, Op.LDS_EXCHANGE, Op.SCRATCH_LOAD,
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
    regions = Regions(function)
    preds = function.predecessors()
    deciders = {block: regions.merge_deciders(block, preds.get(block, [])) for block in function.blocks}
    changed = True
    while changed:
        changed = False
        for block in function.blocks:
            merge_level = regions.merge_level(levels, deciders[block])
            for inst in block.insts:
                new = _level_of(inst, levels, merge_level)
                if new > levels.get(inst, -1):
                    levels[inst] = new
                    changed = True
        changed = _temporal_divergence(function, levels, regions) or changed
    block_levels = {block: regions.control_level(levels, block) for block in function.blocks}
    return UniformityInfo(levels, block_levels)


class Regions:
    """Control dependence (transitive, from post-dominance) and each loop's exits.

    ``controls[B]`` is every branching block whose decision, directly or through
    other branches, says whether B runs. Computed once per analysis: the CFG does
    not change while levels are propagated.
    """

    def __init__(self, function: Function):
        direct = control_dependences(function)
        self.controls: dict[Block, set[Block]] = {}
        for block in direct:
            closure: set[Block] = set()
            work = list(direct[block])
            while work:
                header = work.pop()
                if header not in closure:
                    closure.add(header)
                    work.extend(direct.get(header, ()))
            self.controls[block] = closure
        self.loops: dict[Block, tuple[set[Block], list[Block]]] = {}
        for block in function.blocks:
            if block.kind == "loop":
                members = region(block, block.merge) | {block}
                exits = sorted((m for m in members if block.merge in m.successors), key=function.blocks.index)
                self.loops[block] = (members, exits)

    def control_level(self, levels: dict[Inst, int], block: Block) -> int:
        """The most varying condition among the branches that decide whether ``block`` runs."""
        return max((_condition_level(levels, header) for header in self.controls.get(block, ())),
                   default=GROUP)

    def merge_deciders(self, block: Block, preds: list[Block]) -> frozenset[Block]:
        """The branches that decide which incoming edge ``block``'s phis take.

        A branch decides it when it is itself a predecessor, or when it controls some
        predecessors but not all of them, or controls a predecessor but not the
        block; a branch around the whole construct (controlling the block and every
        predecessor alike) does not. A loop header's phis take the entry value on
        the first iteration and the back edge's on every later one, for every lane
        still in the loop at once, so no branch decides them.
        """
        if block.kind == "loop":
            return frozenset()
        own = self.controls.get(block, set())
        pred_controls = [self.controls.get(pred, set()) for pred in preds]
        candidates = set().union(*pred_controls) if pred_controls else set()
        deciding = {pred for pred in preds if len(pred.successors) > 1}
        for header in candidates:
            controls_all = all(header in controls for controls in pred_controls)
            if header not in own or not controls_all:
                deciding.add(header)
        return frozenset(deciding)

    def merge_level(self, levels: dict[Inst, int], deciders: frozenset[Block]) -> int:
        """How varying the choice of incoming edge is, given the branches that decide it
        (``merge_deciders``, fixed while levels are propagated)."""
        return max((_condition_level(levels, header) for header in deciders), default=GROUP)

    def exit_level(self, levels: dict[Inst, int], header: Block) -> int:
        """How varying the iteration is at which lanes leave the loop at ``header``."""
        members, exits = self.loops[header]
        level = GROUP
        for block in exits:
            deciding = {b for b in self.controls.get(block, ()) if b in members}
            if len(block.successors) > 1:
                deciding.add(block)
            level = max([level] + [_condition_level(levels, b) for b in deciding])
        return level


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


def _temporal_divergence(function: Function, levels: dict[Inst, int], regions: Regions) -> bool:
    """Values defined in a loop that lanes leave at different iterations vary after it."""
    changed = False
    for header, (members, _) in regions.loops.items():
        exit_level = regions.exit_level(levels, header)
        if exit_level == GROUP:
            continue
        used_outside = {operand for block in function.blocks if block not in members
                        for user in block.insts for operand in user.operands}
        for member in members:
            for inst in member.insts:
                if levels.get(inst, GROUP) < exit_level and inst in used_outside:
                    levels[inst] = exit_level
                    changed = True
    return changed
