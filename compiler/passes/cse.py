"""Common-subexpression elimination over the dominator tree.

Two pure instructions with the same operation, operands, type and attributes
compute the same value; the later one is replaced by the earlier when the
earlier one's block dominates it. Loads, wave operations and lane exchanges are
left alone: their results depend on memory or on which lanes are active.
"""

from __future__ import annotations

from . import Pass, replace_uses
from ..ir.core import Module
from ..ir.ops import COMMUTATIVE, PURE
from ..ir.verify import dominators, reachable
from ..ir.printer import format_attr


class CommonSubexpressions(Pass):
    name = "cse"
    description = "reuse an identical pure value computed in a dominating block"

    def run(self, module: Module) -> None:
        function = module.function
        dom = dominators(function)
        available: dict[tuple, list] = {}
        replaced = []
        for block in reachable(function):
            for inst in block.insts:
                if inst.op not in PURE:
                    continue
                key = _key(inst)
                earlier = next((other for other in available.get(key, []) if other.block in dom[block]), None)
                if earlier is None:
                    available.setdefault(key, []).append(inst)
                else:
                    replaced.append((inst, earlier))
        mapping = dict(replaced)
        replace_uses(function, mapping)
        for block in function.blocks:
            block.insts = [inst for inst in block.insts if inst not in mapping]


def _key(inst) -> tuple:
    operands = [id(operand) for operand in inst.operands]
    if inst.op in COMMUTATIVE:
        operands.sort()
    attrs = tuple(sorted((name, format_attr(value)) for name, value in inst.attrs.items()))
    return (inst.op, str(inst.type), tuple(operands), attrs)
