"""Register-pressure scheduling: reorder the blocks that set the VGPR peak, when that buys occupancy.

Source order is usually a good schedule: loads come early, so their latency hides
behind the arithmetic that follows. It can also keep many values alive at once (all
sixteen taps of a filter loaded before the first is used). Like LLVM's
``GCNMaxOccupancySchedStrategy``, this pass leaves a kernel alone unless its VGPRs
limit its occupancy. Then it aims at the next occupancy step (one more wave per SIMD,
from the device table with the kernel's LDS and group size): it reschedules each block
that holds the VGPR peak to fit that step's VGPR budget, less a slack for what the
allocator adds, and keeps the new order only if the kernel fits. Latency is only
traded for a wave, one step at a time: a kernel that is heavy by design stays heavy
enough to show it.

Within a block the scheduler is a bottom-up list scheduler over a dependence graph:
data dependences; memory order (a load stays between the side effects around it:
stores, atomics, barriers, waterfall markers, LDS exchanges; side effects keep their
order); phis at the top and the terminator at the end. Among the ready instructions
it picks the one that adds the fewest live VGPRs (its operands that become live,
minus its own result, which stops being live), looking one step ahead (placing an
instruction may let in the definition of one of its operands, which can consume values
already live: that saving counts too), the latest in source order on a tie, so an
order that costs nothing stays as written. Blocks with whole-wave-mode
instructions keep their order (their exec switches belong together).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import Pass
from .liveness import RegisterDemand, analyze, fresh_uniformity, reanalyze
from ..ir.core import Block, Inst, Module
from ..ir.ops import LOADS, SIDE_EFFECTS, Op
from ..machine import rdna2 as device

# The allocator lands a few VGPRs above the IR-level peak (tuples, copies); a schedule
# must fit the next occupancy step by this much to be worth its latency.
ALLOCATION_SLACK = 6

# Operations that read or write memory in ways loads must not be moved across.
ORDERED = SIDE_EFFECTS | frozenset({Op.LDS_EXCHANGE})


@dataclass(frozen=True)
class Schedule(Pass):
    name = "schedule"
    description = "reorder the blocks holding the VGPR peak for fewer live VGPRs when that raises occupancy"

    def run(self, module: Module) -> None:
        info = fresh_uniformity(module)
        demand = analyze(module, info)
        module.analyses["liveness"] = demand  # the liveness pass reuses it if nothing changes
        before = _waves(module, demand.vgprs)
        if _waves(module, 1) <= before:
            return  # VGPRs do not limit occupancy
        original = {block: list(block.insts) for block in module.function.blocks}
        budget = _budget(module, before + 1) - ALLOCATION_SLACK
        rescheduled = _reschedule(module, demand, budget)
        if rescheduled.vgprs <= budget:
            module.analyses["liveness"] = rescheduled
            return
        for block, insts in original.items():  # the step is out of reach: keep the source order
            block.insts = insts


def _reschedule(module: Module, demand: RegisterDemand, budget: int) -> RegisterDemand:
    """Reschedule the peak blocks (again, while the peak moves to new blocks) to fit ``budget``;
    the demand reached. Reordering a block changes no block's live-in or live-out set, so only
    the blocks reordered are analysed again (``reanalyze``)."""
    done: set[Block] = set()
    while True:
        blocks = [block for block in _peak_blocks(demand) if block not in done]
        if not blocks or demand.vgprs <= budget:
            return demand
        for block in blocks:
            done.add(block)
            order = schedule_block(block, demand, budget)
            if order is not None:
                block.insts = order
        demand = reanalyze(module, demand, blocks)


def _budget(module: Module, waves: int) -> int:
    """The most VGPRs a wave may use for ``waves`` waves per SIMD."""
    rdna2 = device.RDNA2
    wave = module.function.wave_size
    per_wave = rdna2.vgprs_per_simd[wave] // waves
    return min(per_wave // rdna2.granule(wave) * rdna2.granule(wave), rdna2.max_vgprs_per_wave)


def _waves(module: Module, vgprs: int) -> int:
    function = module.function
    x, y, z = function.numthreads
    return device.occupancy(vgprs, 0, module.lds_bytes, x * y * z, function.wave_size).waves_per_simd


def _peak_blocks(demand: RegisterDemand) -> list[Block]:
    blocks = []
    for inst in demand.peak_vgpr_insts:
        if inst.block not in blocks:
            blocks.append(inst.block)
    return blocks


def schedule_block(block: Block, demand: RegisterDemand, budget: int) -> list[Inst] | None:
    """``block``'s instructions in an order that keeps at most ``budget`` VGPRs live where it
    can (source order wherever that fits), or None to keep the order as it is."""
    phis = [inst for inst in block.insts if inst.op is Op.PHI]
    terminator = block.terminator
    body = [inst for inst in block.insts if inst.op is not Op.PHI and inst is not terminator]
    if len(body) < 2 or any(inst.attrs.get("wwm") for inst in body):
        return None
    before = _predecessors(body)
    waiting = {inst: 0 for inst in body}  # dependents not scheduled yet
    for inst in body:
        for earlier in before[inst]:
            waiting[earlier] += 1
    position = {inst: index for index, inst in enumerate(body)}

    def vgprs(value) -> int:
        regs = demand.value_regs.get(value)
        return regs.vgprs if regs is not None else 0

    live = {value for value in demand.live_out[block] if vgprs(value)}
    if terminator is not None:
        live.update(operand for operand in terminator.operands if vgprs(operand))

    def added(inst: Inst, live: set) -> int:
        grows = sum(vgprs(operand) for operand in set(inst.operands) if operand not in live)
        return grows - (vgprs(inst) if inst in live else 0)

    def score(inst: Inst) -> tuple[int, int, int]:
        """Live VGPRs added, looking one step ahead: an instruction whose scheduling lets a
        definition in that consumes live values counts that definition's saving too."""
        now = added(inst, live)
        after = (live - {inst}) | {operand for operand in inst.operands if vgprs(operand)}
        enabled = [earlier for earlier in before[inst] if waiting[earlier] == 1]
        ahead = min((added(earlier, after) for earlier in enabled), default=0)
        return now + min(ahead, 0), now, -position[inst]

    ready = [inst for inst in body if waiting[inst] == 0]
    reversed_order: list[Inst] = []
    pressure = sum(vgprs(value) for value in live)
    while ready:
        chosen = max(ready, key=position.get)  # source order, while it fits the budget
        if pressure + added(chosen, live) + vgprs(chosen) > budget:
            chosen = min(ready, key=score)
        pressure += added(chosen, live)
        ready.remove(chosen)
        reversed_order.append(chosen)
        live.discard(chosen)
        live.update(operand for operand in chosen.operands if vgprs(operand))
        for earlier in before[chosen]:
            waiting[earlier] -= 1
            if waiting[earlier] == 0:
                ready.append(earlier)
    order = reversed_order[::-1]
    if order == body:
        return None
    return phis + order + ([terminator] if terminator is not None else [])


def _predecessors(body: list[Inst]) -> dict[Inst, set[Inst]]:
    """What must run before each instruction: its operands, and memory order."""
    inside = set(body)
    before: dict[Inst, set[Inst]] = {inst: set() for inst in body}
    last_effect: Inst | None = None
    loads_since: list[Inst] = []
    for inst in body:
        before[inst].update(operand for operand in inst.operands if operand in inside)
        if inst.op in ORDERED:
            if last_effect is not None:
                before[inst].add(last_effect)
            before[inst].update(loads_since)
            last_effect, loads_since = inst, []
        elif inst.op in LOADS:
            if last_effect is not None:
                before[inst].add(last_effect)
            loads_since.append(inst)
    return before
