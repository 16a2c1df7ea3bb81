"""Constant folding: pure operations whose operands are all constants become constants."""

from __future__ import annotations

from . import Pass, make_constant
from .constants import constant_of, evaluate, to_attr
from ..ir.core import Module
from ..ir.ops import PURE, Op


class ConstantFold(Pass):
    name = "constant-fold"
    description = "evaluate pure operations on constants (HLSL wrap-around and float32 rounding)"

    def run(self, module: Module) -> None:
        for inst in module.function.instructions():
            if inst.op not in PURE or inst.op is Op.CONST or not inst.operands:
                continue
            if any(operand.op is not Op.CONST for operand in inst.operands):
                continue
            args = [constant_of(operand) for operand in inst.operands]
            if any(arg is None for arg in args):
                continue
            folded = evaluate(inst, args)
            if folded is not None:
                make_constant(inst, to_attr(folded, inst.type))
