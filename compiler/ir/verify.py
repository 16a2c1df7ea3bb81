"""The IR verifier: structural rules every pass must preserve.

Checked: each block ends in exactly one terminator and has no other; phis come
first, with one incoming value per predecessor; branch targets and structure
annotations name blocks of the function; every operand is defined in the
function and dominates its use (for phis: dominates the end of the incoming
block). ``verify`` raises ``VerifyError`` listing every problem found.
"""

from __future__ import annotations

from .core import Block, Function, Inst
from .dominance import DominatorTree, dominators
from .ops import Op


class VerifyError(Exception):
    def __init__(self, problems: list[str]):
        super().__init__("invalid IR:\n  " + "\n  ".join(problems))
        self.problems = problems


def verify(function: Function) -> None:
    problems: list[str] = []
    names = {block.name for block in function.blocks}
    if len(names) != len(function.blocks):
        problems.append("duplicate block names")
    members = set(function.blocks)
    defined: dict[Inst, tuple[Block, int]] = {}
    for block in function.blocks:
        for index, inst in enumerate(block.insts):
            defined[inst] = (block, index)
            if inst.block is not block:
                problems.append(f"^{block.name}: {inst.op.value} has a stale parent block")
    preds = function.predecessors()
    dom = dominators(function)
    for block in function.blocks:
        problems.extend(_check_block(block, members, preds.get(block, []), defined, dom))
    if problems:
        raise VerifyError(problems)


def _check_block(block: Block, members: set[Block], preds: list[Block],
                 defined: dict[Inst, tuple[Block, int]], dom: DominatorTree) -> list[str]:
    problems = []
    where = f"^{block.name}"
    if not block.insts or not block.insts[-1].is_terminator:
        problems.append(f"{where}: does not end in a terminator")
    seen_other = False
    for index, inst in enumerate(block.insts):
        if inst.is_terminator and index != len(block.insts) - 1:
            problems.append(f"{where}: terminator {inst.op.value} in the middle of the block")
        if inst.op is Op.PHI:
            if seen_other:
                problems.append(f"{where}: phi after a non-phi instruction")
            if sorted(id(b) for b in inst.targets) != sorted(id(b) for b in preds):
                problems.append(f"{where}: phi incoming blocks do not match the predecessors")
        else:
            seen_other = True
        for target in inst.targets:
            if target not in members:
                problems.append(f"{where}: {inst.op.value} refers to a block outside the function")
        for position, operand in enumerate(inst.operands):
            problem = _check_operand(inst, position, operand, block, index, defined, dom)
            if problem:
                problems.append(f"{where}: {problem}")
    for annotated in (block.merge, block.cont):
        if annotated is not None and annotated not in members:
            problems.append(f"{where}: structure annotation names a block outside the function")
    if block.kind == "loop" and (block.merge is None or block.cont is None):
        problems.append(f"{where}: loop header without merge and continue blocks")
    if block.kind in ("if", "switch") and block.merge is None:
        problems.append(f"{where}: selection header without a merge block")
    return problems


def _check_operand(inst: Inst, position: int, operand: Inst, block: Block, index: int,
                   defined: dict[Inst, tuple[Block, int]], dom: DominatorTree) -> str | None:
    if operand not in defined:
        return f"{inst.op.value} uses a value that is not defined in the function"
    def_block, def_index = defined[operand]
    if block not in dom:
        return None  # unreachable code is not checked for dominance
    if inst.op is Op.PHI:
        use_block = inst.targets[position] if position < len(inst.targets) else block
        if use_block in dom and not dom.dominates(def_block, use_block):
            return f"phi operand {position} does not dominate its incoming block"
        return None
    if def_block is block:
        if def_index >= index:
            return f"{inst.op.value} uses a value defined after it"
        return None
    if not dom.dominates(def_block, block):
        return f"{inst.op.value} uses a value that does not dominate it"
    return None
