"""IR passes: each file holds one pass, a small object with a ``name`` and ``run(module)``.

The order they run in is listed once, in ``compiler/pipeline.py``.
"""

from __future__ import annotations

from ..ir.core import Function, Inst, Module


class Pass:
    """A transformation or analysis over a module; it leaves the IR valid."""

    name = "pass"
    description = ""

    def run(self, module: Module) -> None:  # pragma: no cover - every pass overrides it
        raise NotImplementedError


def replace_all_uses(function: Function, old: Inst, new: Inst) -> None:
    replace_uses(function, {old: new})


def replace_uses(function: Function, mapping: dict[Inst, Inst]) -> None:
    """Rewrite every operand found in ``mapping`` in one walk over the function."""
    if not mapping:
        return
    for inst in function.instructions():
        if not mapping.keys().isdisjoint(inst.operands):
            inst.operands = [mapping.get(operand, operand) for operand in inst.operands]


def replace_and_remove(function: Function, mapping: dict[Inst, Inst]) -> None:
    """Replace each instruction in ``mapping`` by its value, following chains (a value that
    is itself replaced, as in ``x + 0 + 0``), and remove the replaced instructions."""
    for inst, value in mapping.items():
        while value in mapping:
            value = mapping[value]
        mapping[inst] = value
    replace_uses(function, mapping)
    for block in function.blocks:
        block.insts = [inst for inst in block.insts if inst not in mapping]


def make_constant(inst: Inst, value) -> None:
    """Turn ``inst`` into a constant in place, so its users need no rewriting."""
    from ..ir.ops import Op

    inst.op = Op.CONST
    inst.operands = []
    inst.targets = []
    inst.attrs = {"value": value}
