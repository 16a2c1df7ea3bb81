"""Simplification: algebraic identities, and folding selects and branches on constants.

Identities (``x + 0`` for integers, ``x + -0.0`` and ``x - 0.0`` for floats, ``x * 1``, ``x & ~0``, ``x | 0``, ``x ^ 0``, shifts by 0,
a conversion to the same type, ``select(c, x, x)``) replace an instruction with
one of its operands. ``x * 0`` folds only for integers (for floats NaN * 0 is
NaN). The float identities hold for half and double only: fp32 arithmetic flushes a
denormal ``x`` to a zero (D3D), so ``x * 1.0`` is not ``x``. A conditional branch on a constant becomes a plain branch, and the phis of
the block no longer reached lose that incoming edge; the header keeps no
selection annotation once it stops selecting.
"""

from __future__ import annotations

import math

from . import Pass, replace_and_remove
from .constants import constant_of
from .scalars import integer_range
from ..frontend import hlsl_types as T
from ..ir.core import Function, Inst, Module
from ..ir.ops import Op

# op -> (operand positions that may be the identity, the identity's test)
_RIGHT_IDENTITY = {
    Op.ADD: 0, Op.SUB: 0, Op.MUL: 1, Op.DIV: 1, Op.OR: 0, Op.XOR: 0, Op.SHL: 0, Op.SHR: 0,
}
_LEFT_IDENTITY = {Op.ADD: 0, Op.MUL: 1, Op.OR: 0, Op.XOR: 0}


def _is_all(inst: Inst, value) -> bool:
    constant = constant_of(inst)
    return constant is not None and all(component == value for component in constant.values)


def _all_ones(inst: Inst) -> bool:
    """An integer constant with every bit set (-1 signed, the maximum unsigned)."""
    constant = constant_of(inst)
    if constant is None or not constant.is_integer:
        return False
    ones = -1 if constant.element.kind == "int" else integer_range(constant.element)[1]
    return all(component == ones for component in constant.values)


class Simplify(Pass):
    name = "simplify"
    description = "algebraic identities; selects and branches on constants"

    def run(self, module: Module) -> None:
        function = module.function
        mapping = {}
        for inst in function.instructions():
            replacement = self.identity(inst)
            if replacement is not None and replacement is not inst:
                mapping[inst] = replacement
        replace_and_remove(function, mapping)
        for block in function.blocks:
            term = block.terminator
            if term is not None and term.op is Op.COND_BR:
                self.fold_branch(function, block, term)

    def identity(self, inst: Inst) -> Inst | None:
        replacement = self._identity_operand(inst)
        if replacement is not None and replacement.type != inst.type:
            return None
        return replacement

    def _identity_operand(self, inst: Inst) -> Inst | None:
        op, operands = inst.op, inst.operands
        same_type = _same
        if op in (Op.ADD, Op.SUB, Op.MUL, Op.DIV) and T.element_of(inst.type) == T.FLOAT:
            return None  # fp32 arithmetic flushes denormals: x * 1.0 is not x
        if op in (Op.ADD, Op.SUB) and _is_float(inst):
            return _float_additive_identity(op, operands)
        if op in _RIGHT_IDENTITY and len(operands) == 2 and _is_all(operands[1], _RIGHT_IDENTITY[op]):
            return same_type(operands[0])
        if op in _LEFT_IDENTITY and len(operands) == 2 and _is_all(operands[0], _LEFT_IDENTITY[op]):
            return same_type(operands[1])
        if op is Op.AND and len(operands) == 2:
            if _all_ones(operands[1]):
                return same_type(operands[0])
            if _all_ones(operands[0]):
                return same_type(operands[1])
        if op is Op.MUL and len(operands) == 2 and not _is_float(inst):
            if _is_all(operands[1], 0) or _is_all(operands[0], 0):
                zero = operands[1] if _is_all(operands[1], 0) else operands[0]
                if zero.type == inst.type:
                    return zero
        if op is Op.CONVERT and operands[0].type == inst.type:
            return operands[0]
        if op is Op.SELECT:
            cond, when_true, when_false = operands
            if when_true is when_false:
                return when_true
            constant = constant_of(cond)
            if constant is not None and len(constant.values) == 1:
                return when_true if constant.values[0] else when_false
        return None

    def fold_branch(self, function: Function, block, term: Inst) -> None:
        constant = constant_of(term.operands[0])
        if constant is None:
            return
        taken, dropped = (term.targets[0], term.targets[1]) if constant.values[0] else (term.targets[1], term.targets[0])
        term.op, term.operands, term.targets = Op.BR, [], [taken]
        if dropped is not taken:
            for phi in dropped.phis:
                keep = [(v, b) for v, b in zip(phi.operands, phi.targets) if b is not block]
                phi.operands = [v for v, _ in keep]
                phi.targets = [b for _, b in keep]
        if block.kind == "if":
            block.kind, block.merge = None, None


def _float_additive_identity(op: Op, operands) -> Inst | None:
    """``x + -0.0``, ``-0.0 + x`` and ``x - 0.0`` are ``x``; ``x + 0.0`` is not (``-0.0 + 0.0``
    is ``+0.0``), nor is ``x - -0.0``."""
    if len(operands) != 2:
        return None
    identity = -1.0 if op is Op.ADD else 1.0  # the sign the zero must have
    if _all_signed_zeros(operands[1], identity):
        return _same(operands[0])
    if op is Op.ADD and _all_signed_zeros(operands[0], identity):
        return _same(operands[1])
    return None


def _all_signed_zeros(inst: Inst, sign: float) -> bool:
    constant = constant_of(inst)
    return constant is not None and all(
        component == 0 and math.copysign(1.0, component) == sign for component in constant.values)


def _is_float(inst: Inst) -> bool:
    element = getattr(inst.type, "element", None)
    return element is not None and element.is_float


def _same(value: Inst) -> Inst:
    return value
