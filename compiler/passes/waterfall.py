"""Waterfall loops for ``NonUniformResourceIndex``.

A descriptor lives in SGPRs, so an access through a resource array (or with a
sampler from a sampler array) needs one index for the whole wave. When the index varies per lane, the access runs in a
loop, as the RDNA2 talk's listing shows: take the first active lane's index
(``v_readfirstlane_b32``), enable the lanes that share it (``v_cmp_eq`` +
``s_and_saveexec``), do the access with the now-uniform index, retire those lanes
and repeat while any lane is left. In the IR:

    ^wf.head   (loop, merge ^wf.end, continue ^wf.cont)
      %u  = readfirstlane uint %i
      %eq = eq bool %i, %u
      br ^wf.test
    ^wf.test   (selection, merge ^wf.join)
      cond_br %eq, ^wf.body, ^wf.join
    ^wf.body
      %r = <the access, with %u as the array index>
      br ^wf.join
    ^wf.join
      %j = phi [%r, ^wf.body], [%zero, ^wf.test]
      cond_br %eq, ^wf.end, ^wf.cont       ; lanes that did their access leave
    ^wf.cont
      br ^wf.head
    ^wf.end
      %res = phi [%j, ^wf.join]

An index that uniformity analysis proves wave-uniform needs no loop. The
``non_uniform`` markers are removed either way.
"""

from __future__ import annotations

from . import Pass, replace_all_uses
from .uniformity import LANE, Uniformity
from ..frontend import hlsl_types as T
from ..ir.core import Block, Function, Inst, Module
from ..ir.ops import LOADS, STORES, ATOMICS, Op

_RESOURCE_ACCESS = (LOADS | STORES | ATOMICS) - {Op.LDS_LOAD, Op.LDS_STORE, Op.LDS_ATOMIC,
                                                  Op.SCRATCH_LOAD, Op.SCRATCH_STORE, Op.CBUFFER_LOAD}


class Waterfall(Pass):
    name = "waterfall"
    description = "loop over the distinct values of a divergent NonUniformResourceIndex"

    def run(self, module: Module) -> None:
        if "uniformity" not in module.analyses:
            Uniformity().run(module)
        info = module.analyses["uniformity"]
        arrays = {binding.name for binding in module.bindings if binding.count != 1}
        function = module.function
        accesses = [(inst, position) for inst in function.instructions() if inst.op in _RESOURCE_ACCESS
                    for position in _array_index_positions(inst, arrays)
                    if _is_non_uniform(inst.operands[position]) and info.level(inst.operands[position]) == LANE]
        for inst, position in accesses:  # a texture and a sampler index: one loop inside the other
            self.insert_loop(function, inst, position)
        for marker in [inst for inst in function.instructions() if inst.op is Op.NON_UNIFORM]:
            replace_all_uses(function, marker, marker.operands[0])
            marker.block.insts.remove(marker)
        module.analyses.pop("uniformity", None)  # the CFG changed

    def insert_loop(self, function: Function, access: Inst, operand: int = 0) -> None:
        block = access.block
        position = block.insts.index(access)
        tag = f"wf{sum(1 for b in function.blocks if b.name.startswith('wf') and b.name.endswith('.head'))}"
        head, test, body, join, cont, end = (Block(f"{tag}.{part}") for part in
                                             ("head", "test", "body", "join", "cont", "end"))
        # Everything after the access moves to the end block, with the old terminator.
        end.insts = block.insts[position + 1:]
        for moved in end.insts:
            moved.block = end
        block.insts = block.insts[:position]
        _retarget_phis(function, block, end)
        if block.kind != "loop":
            # A selection's branch moved to the end block, so its annotation moves too; a
            # loop header keeps its own (its phis and back edge stay with it).
            end.kind, end.merge, end.cont = block.kind, block.merge, block.cont
            block.kind = block.merge = block.cont = None
        coord = access.coord
        index = access.operands[operand]
        block.append(Inst(Op.BR, [], T.VOID, coord=coord, targets=[head]))

        head.kind, head.merge, head.cont = "loop", end, cont
        uniform = head.append(Inst(Op.READFIRSTLANE, [index], index.type, coord=coord))
        same = head.append(Inst(Op.EQ, [index, uniform], T.BOOL, coord=coord))
        head.append(Inst(Op.BR, [], T.VOID, coord=coord, targets=[test]))

        test.kind, test.merge = "if", join
        test.append(Inst(Op.COND_BR, [same], T.VOID, coord=coord, targets=[body, join]))

        access.operands[operand] = uniform
        body.append(access)
        body.append(Inst(Op.BR, [], T.VOID, coord=coord, targets=[join]))

        result = None
        if access.type != T.VOID:
            zero = test.insert(0, Inst(Op.CONST, [], access.type, {"value": _zero(access.type)}, coord))
            joined = join.append(Inst(Op.PHI, [access, zero], access.type, coord=coord, targets=[body, test]))
            result = Inst(Op.PHI, [joined], access.type, coord=coord, targets=[join])
        join.append(Inst(Op.COND_BR, [same], T.VOID, coord=coord, targets=[end, cont]))
        cont.append(Inst(Op.BR, [], T.VOID, coord=coord, targets=[head]))
        where = function.blocks.index(block) + 1
        function.blocks[where:where] = [head, test, body, join, cont, end]
        if result is not None:
            replace_all_uses(function, access, result)
            joined.operands[0] = access  # replace_all_uses rewrote the phi's own operand too
            end.insert(0, result)


def _array_index_positions(inst: Inst, arrays: set[str]) -> list[int]:
    """The operands that index a resource array: the resource's index first, then, for a
    sampling op, the sampler's (each present only when its binding is an array)."""
    positions, next_operand = [], 0
    for key in ("resource", "sampler"):
        if key in inst.attrs and inst.attrs[key] in arrays and next_operand < len(inst.operands):
            positions.append(next_operand)
            next_operand += 1
    return positions


def _is_non_uniform(value: Inst) -> bool:
    """Whether an index came through NonUniformResourceIndex (directly or by arithmetic)."""
    seen = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        if current.op is Op.NON_UNIFORM:
            return True
        if current.op not in (Op.PHI,) and current.op not in LOADS:
            stack.extend(current.operands)
    return False


def _retarget_phis(function: Function, old: Block, new: Block) -> None:
    """Successors of ``old`` now come from ``new`` (the block that took over its terminator)."""
    for block in function.blocks:
        for phi in block.phis:
            phi.targets = [new if target is old else target for target in phi.targets]


def _zero(t: T.Type):
    components = getattr(t, "components", 1)
    element = T.element_of(t)
    zero = 0.0 if element is not None and element.is_float else 0
    return zero if components == 1 else [zero] * components
