"""Live ranges of machine registers, in program order, for allocation and ``s_waitcnt``.

The machine CFG is the listing's: branch targets plus fall-through, so every block of a
divergent region runs in order, as the hardware runs it under exec masks. Block liveness
goes to a fixed point; the live range of a register is the span from its first to its
last touch in program order, stretched over every block it is live through and, around
a back edge, over the whole loop.

Every instruction has two positions, its reads and then its writes, so a result can take
the register of an operand that dies in the same instruction (``v_add_f32 v1, v1, v2``),
as it can on the hardware; multi-register VALU results (64-bit ops) do not, since a
partial overlap there is not allowed. Tuples also get per-component ranges, so a
component that is no longer needed can be given back before the rest of its tuple.
A block redefines a tuple when it writes every component before reading it, whether in
one instruction or part by part (``v_readlane_b32 s4, ...`` then ``v_readlane_b32 s5, ...``);
a read of a component not yet written there makes the tuple live into the block.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .machine import MBlock, MFunction, MInst, SubReg, VReg


def successors(function: MFunction) -> dict[MBlock, list[MBlock]]:
    by_label = {block.label: block for block in function.blocks}
    result: dict[MBlock, list[MBlock]] = {}
    for index, block in enumerate(function.blocks):
        targets = []
        last = block.insts[-1] if block.insts else None
        for inst in block.insts:
            if inst.mnemonic.startswith(("s_branch", "s_cbranch")):
                targets += [by_label[op.name] for op in inst.uses if hasattr(op, "name") and op.name in by_label]
        falls_through = last is None or last.mnemonic not in ("s_branch", "s_endpgm")
        if falls_through and index + 1 < len(function.blocks):
            targets.append(function.blocks[index + 1])
        result[block] = targets
    return result


def block_liveness(function: MFunction, succ: dict[MBlock, list[MBlock]] | None = None) -> dict[MBlock, set[VReg]]:
    """Live-out sets per block (backward data-flow to a fixed point); ``succ``: ``successors(function)``."""
    succ = successors(function) if succ is None else succ
    gen: dict[MBlock, set[VReg]] = {}
    kill: dict[MBlock, set[VReg]] = {}
    for block in function.blocks:
        used, defined = set(), set()
        written: dict[VReg, set[int]] = {}  # the components of each tuple written so far in the block
        for inst in block.insts:
            for operand in inst.uses:
                if isinstance(operand, VReg):
                    reg = operand
                elif isinstance(operand, SubReg):
                    reg = operand.base
                else:
                    continue
                if reg in defined or reg in used:
                    continue
                if not written.get(reg, _NOTHING).issuperset(_components(operand)):
                    used.add(reg)
            for operand in inst.defs:
                if isinstance(operand, VReg):
                    reg = operand
                elif isinstance(operand, SubReg):
                    reg = operand.base
                else:
                    continue
                if reg in defined:
                    continue
                # a tuple is redefined once every component is, in one write or part by part
                parts = written.setdefault(reg, set())
                parts.update(_components(operand))
                if len(parts) == reg.size:
                    defined.add(reg)
        gen[block], kill[block] = used, defined
    live_in = {block: set() for block in function.blocks}
    live_out = {block: set() for block in function.blocks}
    changed = True
    while changed:
        changed = False
        for block in reversed(function.blocks):
            out = set().union(*(live_in[s] for s in succ[block])) if succ[block] else set()
            new_in = gen[block] | (out - kill[block])
            if out != live_out[block] or new_in != live_in[block]:
                live_out[block], live_in[block] = out, new_in
                changed = True
    return live_out


@dataclass(eq=False)  # one of a kind: compared by identity
class LiveRanges:
    """Where each virtual register is live, and for tuples where each component is.

    ``spans[reg]`` is ``[start, end]``. For a tuple, ``component_ends[reg][k]`` is where
    component ``k`` is last needed (liveness across blocks keeps the whole tuple alive), and
    ``first_writes`` / ``last_reads`` give each component's first write and last read by an
    instruction (``implicit_def`` is not a write: it only marks where a tuple starts).
    """

    spans: dict[VReg, list[int]] = field(default_factory=dict)
    component_ends: dict[VReg, list[int]] = field(default_factory=dict)
    first_writes: dict[VReg, list[float]] = field(default_factory=dict)
    last_reads: dict[VReg, list[int]] = field(default_factory=dict)
    last_write: dict[VReg, int] = field(default_factory=dict)

    def touch(self, reg: VReg, where: int, components: range | None = None) -> None:
        span = self.spans.setdefault(reg, [where, where])
        span[0], span[1] = min(span[0], where), max(span[1], where)
        if reg.size > 1:
            ends = self.component_ends.setdefault(reg, [where] * reg.size)
            for k in components if components is not None else range(reg.size):
                ends[k] = max(ends[k], where)

    def read(self, reg: VReg, where: int, components: range) -> None:
        self.touch(reg, where, components)
        if reg.size > 1:
            reads = self.last_reads.setdefault(reg, [-1] * reg.size)
            for k in components:
                reads[k] = max(reads[k], where)

    def write(self, reg: VReg, where: int, components: range, real: bool) -> None:
        self.touch(reg, where, components)
        if reg.size > 1 and real:
            writes = self.first_writes.setdefault(reg, [float("inf")] * reg.size)
            for k in components:
                writes[k] = min(writes[k], where)
            self.last_write[reg] = max(self.last_write.get(reg, where), where)


def operand_components(operands: list) -> list[tuple[VReg, range]]:
    """The registers ``operands`` name, each with the components it covers."""
    found = []
    for operand in operands:
        if isinstance(operand, VReg):
            found.append((operand, range(operand.size)))
        elif isinstance(operand, SubReg):
            found.append((operand.base, range(operand.index, operand.index + operand.count)))
    return found


_NOTHING: frozenset[int] = frozenset()


def _components(operand: VReg | SubReg) -> range:
    if isinstance(operand, VReg):
        return range(operand.size)
    return range(operand.index, operand.index + operand.count)


def intervals(function: MFunction) -> LiveRanges:
    """Live ranges of every virtual register in program order.

    Instruction ``i`` reads its operands at position ``2 * i`` and writes its results at
    ``2 * i + 1`` (at ``2 * i`` when the results may not overlap the operands).
    """
    succ = successors(function)
    live_out = block_liveness(function, succ)
    ranges = LiveRanges()
    position = 0
    starts: dict[MBlock, int] = {}
    ends: dict[MBlock, int] = {}
    for block in function.blocks:
        starts[block] = 2 * position
        for inst in block.insts:
            _program_order_touches(ranges, inst, 2 * position)
            position += 1
        ends[block] = 2 * position
    live_in_any: dict[MBlock, set[VReg]] = {}
    for block in function.blocks:
        for target in succ[block]:
            live_in_any.setdefault(target, set()).update(live_out[block] & set(ranges.spans))
    for block in function.blocks:
        for reg in live_out[block]:
            ranges.touch(reg, ends[block])
        for reg in live_in_any.get(block, set()):
            ranges.touch(reg, starts[block])
    # A back edge keeps everything live at the loop header alive until the branch back.
    order = {block: i for i, block in enumerate(function.blocks)}
    for block in function.blocks:
        for target in succ[block]:
            if order[target] <= order[block]:
                for reg in live_out[block]:
                    ranges.touch(reg, starts[target])
                    ranges.touch(reg, ends[block])
    return ranges


def _program_order_touches(ranges: LiveRanges, inst: MInst, where: int) -> None:
    """``ranges.read`` of each register ``inst`` reads at ``where``, then ``ranges.write`` of each it
    writes, in operand order, for the walk in program order. No earlier touch is later than
    ``where``, so a span's start is its first touch and every end the latest: this is the hot
    loop of ``intervals`` (called for every clean-up and allocation), spelt out without ``min``
    and ``max``."""
    spans, component_ends = ranges.spans, ranges.component_ends
    for operand in inst.uses:
        if isinstance(operand, VReg):
            reg, first, count = operand, 0, operand.size
        elif isinstance(operand, SubReg):
            reg, first, count = operand.base, operand.index, operand.count
        else:
            continue
        span = spans.get(reg)
        if span is None:
            spans[reg] = [where, where]
        else:
            span[1] = where
        size = reg.size
        if size > 1:
            ends = component_ends.get(reg)
            if ends is None:
                component_ends[reg] = ends = [where] * size
            reads = ranges.last_reads.get(reg)
            if reads is None:
                ranges.last_reads[reg] = reads = [-1] * size
            for k in range(first, first + count):
                ends[k] = where
                reads[k] = where
    if not inst.defs:
        return
    where += 0 if _results_must_not_overlap(inst) else 1
    real = not inst.is_marker
    for operand in inst.defs:
        if isinstance(operand, VReg):
            reg, first, count = operand, 0, operand.size
        elif isinstance(operand, SubReg):
            reg, first, count = operand.base, operand.index, operand.count
        else:
            continue
        span = spans.get(reg)
        if span is None:
            spans[reg] = [where, where]
        else:
            span[1] = where
        size = reg.size
        if size > 1:
            ends = component_ends.get(reg)
            if ends is None:
                component_ends[reg] = ends = [where] * size
            for k in range(first, first + count):
                ends[k] = where
            if real:
                writes = ranges.first_writes.get(reg)
                if writes is None:
                    ranges.first_writes[reg] = writes = [float("inf")] * size
                for k in range(first, first + count):
                    if writes[k] > where:
                        writes[k] = where
                ranges.last_write[reg] = where


def _results_must_not_overlap(inst: MInst) -> bool:
    """A VALU op with a multi-register result (64-bit ops) must not partly overwrite its sources."""
    if not inst.mnemonic.startswith("v_"):
        return False
    return any(isinstance(op, VReg) and op.size > 1 or isinstance(op, SubReg) and op.count > 1 for op in inst.defs)
