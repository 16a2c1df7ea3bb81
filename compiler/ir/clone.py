"""A copy of a module that passes can change without touching the original.

``shc regs`` compiles one kernel for wave32 and wave64. Lowering and the passes before
the first one that reads the wave size give the same IR for both, so they run once and
each wave size continues on its own copy (``pipeline.compile_program_waves``).

The copy has new blocks and new instructions, wired to each other as the originals are
(operands, branch and phi targets, merge and continue blocks, each instruction's block),
with their own ``attrs`` dicts (lists and dicts inside copied too: passes edit them in
place). What is immutable or never edited by a pass is shared: types, source positions,
bindings and groupshared variables. The names and expressions the report gives values
follow the copies. Analyses are not copied: they describe the original's instructions.
"""

from __future__ import annotations

from dataclasses import replace

from .core import Inst, Module


def clone_module(module: Module) -> Module:
    function = module.function
    blocks = {block: replace(block, insts=[]) for block in function.blocks}
    insts = {inst: Inst(inst.op, [], inst.type, _copied_attrs(inst.attrs), inst.coord)
             for inst in function.instructions()}
    for old, new in blocks.items():
        new.merge = blocks.get(old.merge, old.merge)
        new.cont = blocks.get(old.cont, old.cont)
        for inst in old.insts:
            copy = insts[inst]
            copy.operands = [insts.get(operand, operand) for operand in inst.operands]
            copy.targets = [blocks.get(target, target) for target in inst.targets]
            new.append(copy)
    return replace(
        module,
        function=replace(function, blocks=list(blocks.values())),
        bindings=list(module.bindings),
        groupshared=list(module.groupshared),
        analyses={},
        value_names={insts.get(value, value): name for value, name in module.value_names.items()},
        value_exprs={insts.get(value, value): text for value, text in module.value_exprs.items()},
    )


def _copied_attrs(attrs: dict) -> dict:
    return {key: list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
            for key, value in attrs.items()}

