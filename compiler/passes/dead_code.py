"""Dead-code elimination: remove values nobody needs that have no effect of their own.

Mark and sweep: instructions with side effects (stores, atomics, barriers,
terminators) are live, and so is everything they use, transitively. What stays
unmarked goes, including cycles of phis that only feed each other.
"""

from __future__ import annotations

from . import Pass
from ..ir.core import Module
from ..ir.ops import SIDE_EFFECTS


class DeadCode(Pass):
    name = "dce"
    description = "delete values that no side effect needs (stores, atomics, barriers, branches stay)"

    def run(self, module: Module) -> None:
        function = module.function
        live = set()
        work = [inst for inst in function.instructions() if inst.op in SIDE_EFFECTS]
        while work:
            inst = work.pop()
            if inst in live:
                continue
            live.add(inst)
            work.extend(operand for operand in inst.operands if operand not in live)
        for block in function.blocks:
            block.insts = [inst for inst in block.insts if inst in live]
