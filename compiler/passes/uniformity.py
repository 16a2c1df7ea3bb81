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
from ..ir.structure import ConstructRegions

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
    Op.WAVE_SHUFFLE_XOR, Op.WAVE_MATCH, Op.WAVE_MULTI_PREFIX, Op.QUAD_READ, Op.QUAD_READ_LANE_AT, Op.LDS_ATOMIC, Op.BUFFER_ATOMIC,
    Op.DPP16, Op.DPP8, Op.PERMLANEX16, Op.DS_SWIZZLE, Op.DS_BPERMUTE, Op.MBCNT, Op.SET_INACTIVE,
    Op.WRITELANE, Op.LDS_EXCHANGE, Op.SCRATCH_LOAD,
}


@dataclass(eq=False)  # one of a kind: compared by identity
class UniformityInfo:
    """How uniform each value is (``levels``) and how uniformly each block runs (``block_levels``)."""

    levels: dict[Inst, int]
    # For each block, the most varying condition that decides whether it runs.
    block_levels: dict[Block, int]

    def level(self, inst: Inst) -> int:
        return self.levels.get(inst, LANE)

    def is_uniform(self, inst: Inst) -> bool:
        return self.level(inst) <= WAVE


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
                    "group's waves", inst.coord, "uniformity")


def analyze(function: Function) -> UniformityInfo:
    levels: dict[Inst, int] = {}
    regions = Regions(function)
    preds = function.predecessors()
    deciders = {block: regions.merge_deciders(block, preds.get(block, [])) for block in function.blocks}
    changed = True
    while changed:
        changed = False
        varying = regions.varying_branches(levels)  # fixed for one sweep; the sweeps repeat until stable
        for block in function.blocks:
            merge_level = regions.level_of_branches(varying, deciders[block])
            for inst in block.insts:
                new = _level_of(inst, levels, merge_level)
                if new > levels.get(inst, -1):
                    levels[inst] = new
                    changed = True
        changed = _temporal_divergence(function, levels, regions) or changed
    varying = regions.varying_branches(levels)
    block_levels = {block: regions.level_of_branches(varying, regions.controls[block]) for block in function.blocks}
    return UniformityInfo(levels, block_levels)


class Regions:
    """Control dependence (transitive, from post-dominance) and each loop's exits.

    Sets of blocks are bit masks over the function's block list (bit ``i`` for
    ``function.blocks[i]``), so unions, intersections and "does any of these branch on
    a divergent condition" are a few big-integer operations whatever the kernel's size:
    a long ``else if`` chain puts every earlier branch in each later block's set.

    ``controls[B]`` is the mask of every branching block whose decision, directly or
    through other branches, says whether B runs. Computed once per analysis: the CFG
    does not change while levels are propagated.
    """

    def __init__(self, function: Function):
        self.blocks = list(function.blocks)
        self.bit = {block: 1 << index for index, block in enumerate(self.blocks)}
        direct = control_dependences(function)
        direct_masks = {block: self.mask(direct.get(block, ())) for block in self.blocks}
        # closure[B] = OR over direct deciders H of (H | closure[H]); control dependence has
        # cycles only through loops, so a few sweeps reach the fixed point.
        self.controls: dict[Block, int] = dict(direct_masks)
        changed = True
        while changed:
            changed = False
            for block in self.blocks:
                closure = self.controls[block]
                for header in direct.get(block, ()):
                    closure |= self.controls[header]
                if closure != self.controls[block]:
                    self.controls[block] = closure
                    changed = True
        self.branches = [block for block in self.blocks if _branch_condition(block) is not None]
        self.loops: dict[Block, tuple[set[Block], int, list[Block]]] = {}
        regions = ConstructRegions(function)
        for block in self.blocks:
            if block.kind == "loop" and block.merge is not None:
                members = regions.members(block) | {block}
                exits = sorted((m for m in members if block.merge in m.successors), key=self.blocks.index)
                self.loops[block] = (members, self.mask(members), exits)

    def mask(self, blocks) -> int:
        bits = 0
        for block in blocks:
            bits |= self.bit[block]
        return bits

    def varying_branches(self, levels: dict[Inst, int]) -> tuple[int, int]:
        """(branches on a wave-uniform condition, branches on a divergent one) as masks."""
        wave = lane = 0
        for block in self.branches:
            level = levels.get(_branch_condition(block), GROUP)
            if level == LANE:
                lane |= self.bit[block]
            elif level == WAVE:
                wave |= self.bit[block]
        return wave, lane

    @staticmethod
    def level_of_branches(varying: tuple[int, int], branches: int) -> int:
        """The most varying condition among ``branches`` (a mask)."""
        wave, lane = varying
        if branches & lane:
            return LANE
        return WAVE if branches & wave else GROUP

    def merge_deciders(self, block: Block, preds: list[Block]) -> int:
        """The branches that decide which incoming edge ``block``'s phis take (a mask).

        A branch decides it when it is itself a predecessor, or when it controls some
        predecessors but not all of them, or controls a predecessor but not the
        block; a branch around the whole construct (controlling the block and every
        predecessor alike) does not. A loop header's phis take the entry value on
        the first iteration and the back edge's on every later one, for every lane
        still in the loop at once, so no branch decides them.
        """
        if block.kind == "loop" or not preds:
            return 0
        candidates, common = 0, -1
        for pred in preds:
            candidates |= self.controls[pred]
            common &= self.controls[pred]
        deciding = self.mask(pred for pred in preds if len(pred.successors) > 1)
        return deciding | (candidates & ~(self.controls[block] & common))

    def exit_level(self, levels: dict[Inst, int], header: Block, varying: tuple[int, int]) -> int:
        """How varying the iteration is at which lanes leave the loop at ``header``."""
        _, members, exits = self.loops[header]
        deciding = 0
        for block in exits:
            deciding |= self.controls[block] & members
            if len(block.successors) > 1:
                deciding |= self.bit[block]
        return self.level_of_branches(varying, deciding)


def _branch_condition(block: Block) -> Inst | None:
    term = block.terminator
    if term is None or term.op not in (Op.COND_BR, Op.SWITCH):
        return None
    return term.operands[0]


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
    varying = regions.varying_branches(levels)
    for header, (members, _, _) in regions.loops.items():
        exit_level = regions.exit_level(levels, header, varying)
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
