"""Building one function: blocks, instructions, constants and SSA form on the fly.

SSA construction follows Braun et al., "Simple and Efficient Construction of
Static Single Assignment Form" (CC 2013): every source variable keeps its
current definition per block; reading a variable in a block without one asks
the predecessors, placing a phi where several meet. A block is *sealed* once
all its predecessors are known; reads in an unsealed block (a loop header
before its back edge exists) create incomplete phis that get their operands at
sealing time. Phis whose operands are all the same value (or the phi itself, or
undefined) are trivial and replaced by that value; ``finish`` repeats this to a
fixed point and rewrites every use.

Constants live in the entry block (deduplicated per type and value), so any
block may use them; ``finish`` drops the unused ones.
"""

from __future__ import annotations

from ...diagnostics import UNKNOWN, Coord
from ...frontend import hlsl_types as T
from ..core import Block, Function, Inst
from ..dominance import DominatorTree, dominators as dominator_tree
from ..ops import Op

_SHAPING = frozenset({Op.CONSTRUCT, Op.EXTRACT, Op.INSERT, Op.SHUFFLE, Op.CONVERT})


class Var:
    """A source variable (or a compiler temporary) that lives in SSA values."""

    __slots__ = ("name", "type")

    def __init__(self, name: str, type: T.Type):
        self.name = name
        self.type = type

    def __repr__(self) -> str:
        return f"<var {self.name}: {self.type}>"


class FunctionBuilder:
    def __init__(self, function: Function):
        self.function = function
        self.block: Block | None = None  # None: the code being lowered is unreachable
        self.preds: dict[Block, list[Block]] = {}
        self.sealed: set[Block] = set()
        self.defs: dict[Var, dict[Block, Inst]] = {}
        self.incomplete: dict[Block, list[tuple[Var, Inst]]] = {}
        self.replaced: dict[Inst, Inst] = {}
        self.undefs: set[Inst] = set()
        self.prelude: list[Inst] = []  # the entry block's constants and entry inputs
        self.constants: dict[tuple, Inst] = {}
        self.block_coords: dict[Block, Coord] = {}
        self.counter = 0
        self.value_names: dict[Inst, str] = {}  # value -> the source variable first assigned it
        self.value_exprs: dict[Inst, str] = {}  # value -> the source expression that computed it
        self.inline_chain: tuple = ()  # the calls being inlined, innermost first (InlineSite)

    # ------------------------------------------------------------ blocks
    def next_id(self) -> int:
        self.counter += 1
        return self.counter

    def new_block(self, name: str, coord: Coord = UNKNOWN) -> Block:
        block = Block(name)
        self.preds[block] = []
        self.block_coords[block] = coord
        return block

    def start(self, block: Block) -> None:
        """Make ``block`` the one instructions go to; blocks are laid out in start order."""
        self.function.blocks.append(block)
        self.block = block

    def add_edge(self, source: Block, target: Block) -> None:
        assert target not in self.sealed, f"edge into sealed block ^{target.name}"
        self.preds[target].append(source)

    def seal(self, block: Block) -> None:
        for var, phi in self.incomplete.pop(block, []):
            self._add_phi_operands(var, phi)
        self.sealed.add(block)

    def has_preds(self, block: Block) -> bool:
        return bool(self.preds[block])

    # ------------------------------------------------------- instructions
    def emit(self, op: Op, operands: list[Inst], type: T.Type, attrs: dict | None = None,
             coord: Coord = UNKNOWN) -> Inst:
        assert self.block is not None, "emitting into unreachable code"
        return self.block.append(Inst(op, operands, type, attrs, self.placed(coord)))

    def placed(self, coord: Coord) -> Coord:
        """``coord`` with the calls being inlined (``inline_chain``), for code lowered from a callee."""
        if not self.inline_chain or coord.line <= 0:
            return coord
        return Coord(coord.file, coord.line, coord.col, self.inline_chain)

    def _terminate(self, op: Op, operands: list[Inst], targets: list[Block], attrs: dict | None,
                   coord: Coord) -> None:
        block = self.block
        assert block is not None and block.terminator is None
        block.append(Inst(op, operands, T.VOID, attrs, self.placed(coord), targets))
        for target in targets:
            self.add_edge(block, target)
        self.block = None

    def branch(self, target: Block, coord: Coord = UNKNOWN) -> None:
        self._terminate(Op.BR, [], [target], None, coord)

    def cond_branch(self, cond: Inst, if_true: Block, if_false: Block, coord: Coord = UNKNOWN) -> None:
        self._terminate(Op.COND_BR, [cond], [if_true, if_false], None, coord)

    def switch(self, selector: Inst, default: Block, cases: list[tuple[int, Block]], coord: Coord) -> None:
        targets = [default] + [block for _, block in cases]
        self._terminate(Op.SWITCH, [selector], targets, {"cases": [value for value, _ in cases]}, coord)

    def ret(self, coord: Coord = UNKNOWN) -> None:
        self._terminate(Op.RETURN, [], [], None, coord)

    # ---------------------------------------------------------- constants
    def const(self, type: T.Type, value, coord: Coord = UNKNOWN) -> Inst:
        key = (type, repr(value))
        inst = self.constants.get(key)
        if inst is None:
            inst = Inst(Op.CONST, [], type, {"value": value}, coord)
            self.constants[key] = inst
            self.prelude.append(inst)
        return inst

    def prelude_inst(self, op: Op, operands: list[Inst], type: T.Type, attrs: dict | None = None,
                     coord: Coord = UNKNOWN) -> Inst:
        """An instruction for the top of the entry block (entry inputs, constant aggregates)."""
        inst = Inst(op, operands, type, attrs, coord)
        self.prelude.append(inst)
        return inst

    def undef(self, type: T.Type, coord: Coord = UNKNOWN) -> Inst:
        """An undefined value: reads of a variable on a path that never wrote it.

        Not shared with real constants: trivial-phi removal ignores these operands.
        Any that survive read as zero.
        """
        if isinstance(type, (T.ScalarType, T.VectorType)):
            inst = self.prelude_inst(Op.CONST, [], type, {"value": zero_value(type)}, coord)
        else:
            inst = self.zero(type, coord)
        self.undefs.add(inst)
        return inst

    def zero(self, type: T.Type, coord: Coord = UNKNOWN) -> Inst:
        """The all-zero value of ``type``: a constant, or a construct of constants for aggregates."""
        if isinstance(type, (T.ScalarType, T.VectorType)):
            return self.const(type, zero_value(type), coord)
        if isinstance(type, T.ArrayType):
            parts = [self.zero(type.element, coord) for _ in range(type.size or 0)]
        elif isinstance(type, T.StructType):
            parts = [self.zero(field_type, coord) for _, field_type in type.fields]
        else:
            raise TypeError(f"no zero value for {type}")
        return self.prelude_inst(Op.CONSTRUCT, parts, type, None, coord)

    # ---------------------------------------------------------- variables
    def find(self, value: Inst) -> Inst:
        while value in self.replaced:
            value = self.replaced[value]
        return value

    def write(self, var: Var, value: Inst, block: Block | None = None) -> None:
        block = block or self.block
        assert block is not None
        self.defs.setdefault(var, {})[block] = value
        if var.name.isidentifier():  # compiler temporaries are named "f.result", "?:.value", ...
            self.value_names.setdefault(value, var.name)

    def read(self, var: Var, block: Block | None = None) -> Inst:
        block = block or self.block
        assert block is not None
        value = self.defs.get(var, {}).get(block)
        if value is not None:
            return self.find(value)
        return self._read_recursive(var, block)

    def _read_recursive(self, var: Var, block: Block) -> Inst:
        preds = self.preds[block]
        if block not in self.sealed:
            value = self._new_phi(var, block)
            self.incomplete.setdefault(block, []).append((var, value))
        elif len(preds) == 1:
            value = self.read(var, preds[0])
        elif not preds:
            value = self.undef(var.type, self.block_coords.get(block, UNKNOWN))
        else:
            phi = self._new_phi(var, block)
            self.write(var, phi, block)
            value = self._add_phi_operands(var, phi)
        self.write(var, value, block)
        return value

    def _new_phi(self, var: Var, block: Block) -> Inst:
        phi = Inst(Op.PHI, [], var.type, None, self.block_coords.get(block, UNKNOWN))
        block.insert(len(block.phis), phi)
        return phi

    def _add_phi_operands(self, var: Var, phi: Inst) -> Inst:
        for pred in self.preds[phi.block]:
            phi.operands.append(self.read(var, pred))
            phi.targets.append(pred)
        return self._try_remove_trivial(phi)

    def _trivial_value(self, phi: Inst, dominators: DominatorTree | None = None) -> Inst | None:
        """The one value a phi merges (ignoring the phi itself), or None.

        With ``dominators`` (once the CFG is complete) undefined operands are ignored
        too, provided the remaining value's definition dominates the phi: then it is
        a valid choice for the paths that never defined the variable.
        """
        same = None
        undefined = []
        for operand in phi.operands:
            operand = self.find(operand)
            if operand is phi or operand is same:
                continue
            if dominators is not None and operand in self.undefs:
                undefined.append(operand)
                continue
            if same is not None:
                return None
            same = operand
        if same is None:
            return undefined[0] if undefined else self.undef(phi.type, phi.coord)
        if undefined and not _dominates(same, phi.block, dominators):
            return None
        return same

    def _try_remove_trivial(self, phi: Inst, dominators: DominatorTree | None = None) -> Inst:
        same = self._trivial_value(phi, dominators)
        if same is None:
            return phi
        self.replaced[phi] = same
        if phi in phi.block.insts:
            phi.block.insts.remove(phi)
        return same

    # ------------------------------------------------------------- finish
    def finish(self) -> None:
        """Remove trivial phis to a fixed point, rewrite uses, put constants in the entry."""
        blocks = self.function.blocks
        dominators = dominator_tree(self.function)
        changed = True
        while changed:
            changed = False
            for block in blocks:
                if block not in dominators:
                    continue  # unreachable: left as built
                for phi in block.phis:
                    phi.operands = [self.find(op) for op in phi.operands]
                    if self._trivial_value(phi, dominators) is not None:
                        self._try_remove_trivial(phi, dominators)
                        changed = True
        for block in blocks:
            for inst in block.insts:
                inst.operands = [self.find(op) for op in inst.operands]
        for inst in self.prelude:
            inst.operands = [self.find(op) for op in inst.operands]
        self._drop_unused_shaping()
        used = {op for block in blocks for inst in block.insts for op in inst.operands}
        kept = []
        for inst in reversed(self.prelude):  # users come after their operands
            if inst in used or inst.op is Op.THREAD_INPUT:
                kept.append(inst)
                used.update(inst.operands)
        kept.reverse()
        kept.sort(key=lambda inst: inst.op is not Op.THREAD_INPUT)  # stable: entry inputs first
        entry = self.function.entry
        for index, inst in enumerate(kept):
            entry.insert(index, inst)

    def _drop_unused_shaping(self) -> None:
        """Remove unused vector/aggregate shaping the lowering left behind (whole
        aggregates built for an initializer and then stored element by element)."""
        changed = True
        while changed:
            counts: dict[Inst, int] = {}
            for block in self.function.blocks:
                for inst in block.insts:
                    for operand in inst.operands:
                        counts[operand] = counts.get(operand, 0) + 1
            changed = False
            for block in self.function.blocks:
                for inst in list(block.insts):
                    if inst.op in _SHAPING and not counts.get(inst):
                        block.insts.remove(inst)
                        changed = True


def zero_scalar(element: T.ScalarType):
    """Zero as a constant attribute of ``element``: False, 0 or 0.0."""
    if element.kind == "bool":
        return False
    return 0.0 if element.is_float else 0


def zero_value(type: T.Type):
    """The ``value`` attribute of a zero constant of a scalar or vector type."""
    zero = zero_scalar(type.element)
    return [zero] * type.size if isinstance(type, T.VectorType) else zero


def _dominates(value: Inst, block: Block, dominators: DominatorTree) -> bool:
    """Whether ``value`` is defined before ``block`` is entered: in a block strictly
    dominating it (constants, still waiting for the entry block, always are)."""
    home = value.block
    if home is None:
        return True
    return dominators.strictly_dominates(home, block)
