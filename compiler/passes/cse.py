"""Common-subexpression elimination over the dominator tree.

Two pure instructions with the same operation, operands, type and attributes
compute the same value; the later one is replaced by the earlier when the
earlier one's block dominates it. Constant-buffer reads and resource sizes
(``GetDimensions``) cannot change during a dispatch and are merged too; other
loads, wave operations and lane exchanges are left alone: their results depend on
memory or on which lanes are active.
"""

from __future__ import annotations

from . import Pass, replace_and_remove
from ..ir.core import Module
from ..ir.ops import COMMUTATIVE, PURE, Op

# Reads of what cannot change during a dispatch: constant buffers and resource sizes.
INVARIANT_LOADS = frozenset({Op.CBUFFER_LOAD, Op.RESOURCE_INFO})
from ..ir.dominance import dominators, reachable
from ..ir.printer import format_attr


class CommonSubexpressions(Pass):
    name = "cse"
    description = "reuse an identical pure value computed in a dominating block"

    def run(self, module: Module) -> None:
        function = module.function
        dom = dominators(function)
        available: dict[tuple, list] = {}
        mapping = {}
        for block in reachable(function):
            for inst in block.insts:
                if inst.op not in PURE and inst.op not in INVARIANT_LOADS:
                    continue
                # operands already replaced count as their replacement, so chains collapse in one walk
                key = _key(inst, mapping)
                earlier = next((other for other in available.get(key, []) if dom.dominates(other.block, block)), None)
                if earlier is None:
                    available.setdefault(key, []).append(inst)
                else:
                    mapping[inst] = earlier
        replace_and_remove(function, mapping)


def _key(inst, mapping: dict) -> tuple:
    operands = [id(mapping.get(operand, operand)) for operand in inst.operands]
    if inst.op in COMMUTATIVE:
        operands.sort()
    attrs = tuple(sorted((name, format_attr(value)) for name, value in inst.attrs.items()))
    return (inst.op, str(inst.type), tuple(operands), attrs)
