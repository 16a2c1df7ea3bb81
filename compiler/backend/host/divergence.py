"""Which values the host JIT may keep as one scalar per wave: a conservative divergence analysis.

The JIT's representation must be right, not just good: a value kept as a scalar
is one number for the whole wave. The per-op rules are those of
``passes/uniformity.py`` (thread ids and lane exchanges vary, wave reductions and
SGPR results do not, everything else varies when an operand does); phis and
values that leave loops are decided here, from when lanes arrive:

* a phi is uniform when its operands are and no incoming edge from inside its
  construct is *split*: reached only by some of the lanes, because a divergent
  condition inside the construct (or the edge's own branch) sent the others
  elsewhere. Lanes that ``break`` or ``continue`` under a divergent ``if``, or
  fall through from one switch case into the next after a divergent selector,
  arrive at the merge, continue block or case at other times than the rest. The
  entry edge of a loop is not split: every lane takes it together.
* a value defined in a loop whose exits are split, and used after the loop, holds
  a different iteration's value per lane (temporal divergence): it varies.
"""

from __future__ import annotations

from ...ir.core import Block, Function, Inst
from ...ir.ops import Op
from ...ir.structure import ConstructRegions
from ...passes.uniformity import _LANE_RESULTS, _THREAD_INPUTS, _WAVE_RESULTS, LANE


class Divergence:
    """``varying(inst)``: the value may differ between the active lanes of a wave."""

    def __init__(self, function: Function):
        self.function = function
        self.constructs = [block for block in function.blocks if block.kind is not None and block.merge is not None]
        self.regions = ConstructRegions(function)  # bit masks: a long else-if chain stays cheap
        # the constructs a block can be the merge, loop header or continue block of
        self.ends: dict[Block, list[Block]] = {}
        for header in self.constructs:
            ends = [header.merge] + ([header, header.cont] if header.kind == "loop" else [])
            for end in ends:
                if end is not None:
                    self.ends.setdefault(end, []).append(header)
        self.preds = function.predecessors()
        self.varying_set: set[Inst] = set()
        self._solve()

    def varying(self, inst: Inst) -> bool:
        return inst in self.varying_set

    # -- structure -------------------------------------------------------------------------

    def owner(self, block: Block) -> Block | None:
        """The construct whose merge, loop header, continue block or case ``block`` is (the
        outermost one when it is several: its region holds every edge that can reach it)."""
        candidates = list(self.ends.get(block, ()))
        candidates += [pred for pred in self.preds.get(block, []) if pred.kind == "switch"
                       and pred.merge is not None and self.regions.contains(pred, block)]
        candidates = sorted(set(candidates), key=lambda header: self.regions.bit[header])  # layout order
        return max(candidates, key=lambda header: self.regions.mask(header).bit_count(), default=None)

    def _condition_varies(self, block: Block) -> bool:
        term = block.terminator
        if term is None or term.op not in (Op.COND_BR, Op.SWITCH):
            return False
        if term.op is Op.COND_BR and term.targets[0] is term.targets[1]:
            return False
        return term.operands[0] in self.varying_set

    def split(self, source: Block, owner: Block) -> bool:
        """Whether only some lanes may take ``source``'s edge out, by a divergent decision
        made inside ``owner``'s construct (or by ``source``'s own branch)."""
        if self._condition_varies(source):
            return True
        inside = self.regions.mask(owner) | self.regions.bit[owner]
        source_bit = self.regions.bit[source]
        for header in self.constructs:
            if inside & self.regions.bit[header] and self.regions.mask(header) & source_bit:
                if header.kind == "loop":
                    if header is not owner and self.exits_split(header):
                        return True
                elif self._condition_varies(header):
                    return True
        return False

    def exits_split(self, loop: Block) -> bool:
        """Lanes may leave ``loop`` (to its merge) at different iterations."""
        return any(self.split(block, loop) for block in self.regions.members(loop) | {loop}
                   if loop.merge in block.successors)

    # -- the fixed point -------------------------------------------------------------------

    def _varies(self, inst: Inst) -> bool:
        op = inst.op
        if op is Op.THREAD_INPUT:
            return _THREAD_INPUTS.get(inst.attrs.get("which"), LANE) == LANE
        if op in _WAVE_RESULTS:
            return False
        if op in _LANE_RESULTS or "dpp" in inst.attrs or op in (Op.LDS_ATOMIC, Op.BUFFER_ATOMIC):
            return True
        if op is Op.WAVE_READ_LANE_AT:
            return inst.operands[1] in self.varying_set
        if any(operand in self.varying_set for operand in inst.operands):
            return True
        if op is Op.PHI:
            owner = self.owner(inst.block)
            if owner is None:  # not a place where lanes wait: one edge means every lane at once
                return len(set(inst.targets)) > 1
            if owner.kind == "loop" and inst.block is owner.merge:
                return self.exits_split(owner)  # lanes leave at different iterations
            inside = self.regions.mask(owner) | self.regions.bit[owner]
            return any(self.split(pred, owner) for pred in set(inst.targets) if inside & self.regions.bit[pred])
        return False

    def _solve(self) -> None:
        changed = True
        while changed:
            changed = False
            for inst in self.function.instructions():
                if inst not in self.varying_set and self._varies(inst):
                    self.varying_set.add(inst)
                    changed = True
            for loop in self.constructs:
                if loop.kind != "loop" or not self.exits_split(loop):
                    continue
                body = self.regions.members(loop) | {loop}
                for block in body:
                    for inst in block.insts:
                        if inst not in self.varying_set and self._used_outside(inst, body):
                            self.varying_set.add(inst)
                            changed = True

    def _used_outside(self, inst: Inst, body: set[Block]) -> bool:
        for block in self.function.blocks:
            for user in block.insts:
                if inst in user.operands:
                    where = [pred for op, pred in zip(user.operands, user.targets) if op is inst] \
                        if user.op is Op.PHI else [block]
                    if any(site not in body for site in where):
                        return True
        return False
