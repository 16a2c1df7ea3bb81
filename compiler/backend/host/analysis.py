"""What the host JIT decides about a function before it writes any LLVM IR.

* **Homes.** A value lives in an LLVM SSA register while its own IR block is being
  emitted. It gets a *home* (an ``alloca`` that mem2reg promotes) when it is read
  in another block (a phi operand is read at the end of the predecessor), is live
  across a barrier, or is a phi (a phi's home accumulates, per lane, the value each
  incoming edge delivered: the per-lane phi as selects on the incoming masks).
* **Persistent values.** A value defined inside a loop and read after the loop
  holds, in each lane, what it had when that lane last ran the definition (lanes
  leave a divergent loop at different iterations). Its home is written as
  ``select(exec, new, old)``.
* **Barriers.** Each ``barrier {sync=true}`` gets an id (1, 2, ...) and the list
  of values live across it (standard SSA liveness; a phi's operands are live at the
  end of the predecessor). Those are what the frame's spill area saves.
* **Statistics.** Each block's static instruction counts by class, the way
  ``interpret.stat_group`` classifies them, added once per execution of the block.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...frontend import hlsl_types as T
from ...ir.core import Block, Function, Inst
from ...ir.interpret.run import _scalar_instructions, stat_group
from ...ir.ops import ATOMICS, Op
from ...ir.structure import ConstructRegions

# counter indices (compiler/machine/abi.py STAT_NAMES)
VALU, SALU, LANE_EXCHANGE, LDS, VMEM, ATOMIC, ACTIVE_LANES, INSTRUCTIONS = range(8)
_GROUP_INDEX = {"valu": VALU, "salu": SALU, "lane_exchange": LANE_EXCHANGE, "lds": LDS, "vmem": VMEM}


@dataclass
class BlockStats:
    counts: list[int] = field(default_factory=lambda: [0] * 8)  # ACTIVE_LANES unused here
    exec_instructions: int = 0  # instructions whose active lanes are the exec mask
    whole_wave_instructions: int = 0  # wwm=true: every lane counts


@dataclass
class Plan:
    homes: set[Inst]
    persistent: set[Inst]
    barrier_ids: dict[Inst, int]
    barrier_live: dict[Inst, list[Inst]]
    block_stats: dict[Block, BlockStats]
    loop_bodies: dict[Block, set[Block]]


# Values the JIT recomputes where they are used instead of keeping them: constants, and thread
# inputs (made from the frame in the entry block, so they dominate every use, resumes included).
REMATERIALIZED = frozenset({Op.CONST, Op.THREAD_INPUT})


def is_value(inst: Inst) -> bool:
    return inst.type != T.VOID and inst.op not in REMATERIALIZED


def is_sync_barrier(inst: Inst) -> bool:
    return inst.op is Op.BARRIER and bool(inst.attrs.get("sync", True))


def use_sites(function: Function) -> dict[Inst, list[Block]]:
    """For each value, the blocks where it is read (a phi operand: the predecessor)."""
    sites: dict[Inst, list[Block]] = {}
    for inst in function.instructions():
        for index, operand in enumerate(inst.operands):
            if inst.op is Op.PHI:
                where = inst.targets[index] if index < len(inst.targets) else inst.block
            else:
                where = inst.block
            sites.setdefault(operand, []).append(where)
    return sites


def _phi_operands_from(block: Block) -> set[Inst]:
    """Values the phis of ``block``'s successors read on the edge from ``block``."""
    read: set[Inst] = set()
    for successor in block.successors:
        for phi in successor.phis:
            for operand, predecessor in zip(phi.operands, phi.targets):
                if predecessor is block and is_value(operand):
                    read.add(operand)
    return read


def live_out_sets(function: Function) -> dict[Block, set[Inst]]:
    """Values live at the end of each block (before the phi copies to its successors)."""
    upward: dict[Block, set[Inst]] = {}
    defined: dict[Block, set[Inst]] = {}
    for block in function.blocks:
        seen: set[Inst] = set()
        used: set[Inst] = set()
        for inst in block.insts:
            if inst.op is not Op.PHI:
                used.update(op for op in inst.operands if is_value(op) and op not in seen)
            seen.add(inst)
        used.update(op for op in _phi_operands_from(block) if op not in seen)
        upward[block], defined[block] = used, seen
    live_in: dict[Block, set[Inst]] = {block: set() for block in function.blocks}
    live_out: dict[Block, set[Inst]] = {block: set() for block in function.blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(function.blocks):
            out: set[Inst] = set()
            for successor in block.successors:
                out |= live_in.get(successor, set())
            new_in = upward[block] | (out - defined[block])
            if out != live_out[block] or new_in != live_in[block]:
                live_out[block], live_in[block] = out, new_in
                changed = True
    return live_out


def _live_after(block: Block, index: int, live_out: set[Inst]) -> set[Inst]:
    """Values live right after instruction ``index`` of ``block``."""
    live = set(live_out) | _phi_operands_from(block)
    for inst in reversed(block.insts[index + 1:]):
        live.discard(inst)
        if inst.op is not Op.PHI:
            live.update(op for op in inst.operands if is_value(op))
    return live


def plan_function(function: Function, order: dict[Inst, int]) -> Plan:
    """Homes, persistent values, barriers and per-block statistics for ``function``."""
    reachable = _reachable(function)
    sites = use_sites(function)
    homes: set[Inst] = set()
    # A phi reads its operand on the edge; an edge out of a branching block is written after
    # the other side's blocks have been emitted, where the operand is no longer at hand.
    read_on_branch_edges = {operand for inst in function.instructions() if inst.op is Op.PHI
                            for operand, pred in zip(inst.operands, inst.targets) if len(pred.successors) > 1}
    for inst in function.instructions():
        if not is_value(inst):
            continue
        if inst.op is Op.PHI or inst in read_on_branch_edges or \
                any(where is not inst.block for where in sites.get(inst, [])):
            homes.add(inst)
        if "dpp" in inst.attrs and not _dpp_writes_every_active_lane(inst):
            homes.add(inst)  # lanes the DPP op does not write keep the value's previous contents
    regions = ConstructRegions(function)
    loop_bodies = {block: regions.members(block) | {block}
                   for block in function.blocks if block.kind == "loop" and block in reachable}
    persistent: set[Inst] = set()
    for body in loop_bodies.values():
        for block in body:
            for inst in block.insts:
                if is_value(inst) and any(where not in body for where in sites.get(inst, [])):
                    persistent.add(inst)
    homes |= persistent
    live_out = live_out_sets(function)
    barrier_ids: dict[Inst, int] = {}
    barrier_live: dict[Inst, list[Inst]] = {}
    for block in function.blocks:
        if block not in reachable:
            continue
        for index, inst in enumerate(block.insts):
            if is_sync_barrier(inst):
                barrier_ids[inst] = len(barrier_ids) + 1
                live = sorted(_live_after(block, index, live_out[block]), key=order.__getitem__)
                barrier_live[inst] = live
                homes.update(live)
    return Plan(homes, persistent, barrier_ids, barrier_live, block_statistics(function), loop_bodies)


def _dpp_writes_every_active_lane(inst: Inst) -> bool:
    full = int(inst.attrs.get("row_mask", 0xF)) == 0xF and int(inst.attrs.get("bank_mask", 0xF)) == 0xF
    return full and bool(inst.attrs.get("bound_ctrl", False))


def _reachable(function: Function) -> set[Block]:
    seen: set[Block] = set()
    stack = [function.entry]
    while stack:
        block = stack.pop()
        if block in seen:
            continue
        seen.add(block)
        stack.extend(block.successors)
        if block.merge is not None:
            stack.append(block.merge)
        if block.cont is not None:
            stack.append(block.cont)
    return seen


def block_statistics(function: Function) -> dict[Block, BlockStats]:
    scalar = _scalar_instructions(function)
    result: dict[Block, BlockStats] = {}
    for block in function.blocks:
        stats = BlockStats()
        for inst in block.insts:
            if inst.op is Op.PHI or inst.is_terminator:
                continue
            group = stat_group(inst, scalar)
            if group in _GROUP_INDEX:
                stats.counts[_GROUP_INDEX[group]] += 1
            if inst.op in ATOMICS:
                stats.counts[ATOMIC] += 1
            stats.counts[INSTRUCTIONS] += 1
            if inst.attrs.get("wwm"):
                stats.whole_wave_instructions += 1
            else:
                stats.exec_instructions += 1
        result[block] = stats
    return result
