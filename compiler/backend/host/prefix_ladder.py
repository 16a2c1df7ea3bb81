"""Integer prefix ladders as one log-step scan: the host's shortcut for lowered ``WavePrefix*``.

``lower-wave-ops`` turns ``WavePrefixSum``/``WavePrefixProduct`` into RDNA2's ladder
(``passes/wave_ladders.py`` ``prefix``): the value with its inactive lanes set to the identity
(``set_inactive``), moved one lane right (``row_shr:1`` with a permlanex16 fix-up), scanned
inside each row of 16 (``row_shr`` 1, 2, 3, 4, 8), then carried across rows (permlanex16, and
readlane across wave64's halves), all whole-wave. Replayed primitive by primitive on the host
it costs about 90 x86 instructions a ``<32 x i32>`` scan (a select per DPP step for the row
edges and bound_ctrl, a lane-index compare per fix-up).

The transform: an instruction whose value in every lane i is ``op`` over lanes 0 .. i-1 of one
``set_inactive`` result, each lane exactly once (lane 0: ``op``'s identity), is emitted as the
exclusive scan of that result over the whole wave in log2(W) steps (``wave.whole_wave_scan``).
The ladder's other steps stay in the LLVM IR and LLVM deletes them unless something else reads
them.

When it is sound, and how that is established:

* ``op`` is an integer add, mul, min, max, and, or or xor: these give the same bits in any
  grouping and order (sums and products wrap), so the log-step scan, which groups the lanes
  differently from the ladder, computes the ladder's bits. Floats keep the ladder: their sums
  round.
* The ladder's value is proved, not pattern-matched: ``_Evaluator`` runs the instructions
  backwards from the candidate symbolically, lane by lane, with the host's own rule for each
  primitive (``wave.py``: ``dpp16``, ``dpp_operand``, ``permlanex16``, ``readlane``,
  ``writelane``), each lane holding a constant or the sorted list of ``set_inactive`` lanes
  combined into it. Every step but the ``set_inactive``, constants and ``mbcnt`` (which do not
  read the exec mask) must be whole-wave (``wwm``: every lane is active, so a DPP or permlane
  source is valid exactly when it exists), in its operands' block, of the ladder's type; a
  DPP-combined op must write every lane; a constant combined into a lane must be ``op``'s
  identity; lane-index arithmetic (``mbcnt`` of all ones, ``and``, compares) only on small
  non-negative values, where signed and unsigned agree. Any instruction the evaluator does not
  know leaves the ladder as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...frontend import hlsl_types as T
from ...ir.core import Function, Inst
from ...ir.ops import Op
from .llvm_text import flat_scalars
from .values import Value
from .wave import dpp16_sources, reduce_ops, whole_wave_scan

ROW = 16
_COMBINE = {Op.ADD: "sum", Op.MUL: "product", Op.MIN: "min", Op.MAX: "max", Op.AND: "and", Op.OR: "or",
            Op.XOR: "xor"}
_COMPARE = {Op.EQ: lambda x, y: x == y, Op.NE: lambda x, y: x != y, Op.LT: lambda x, y: x < y,
            Op.LE: lambda x, y: x <= y, Op.GT: lambda x, y: x > y, Op.GE: lambda x, y: x >= y}
_SMALL = 1 << 31  # lane arithmetic on values below this reads the same signed or unsigned


@dataclass(frozen=True)
class PrefixLadder:
    """A ladder's last instruction computes the exclusive ``fn`` scan of ``filled``."""

    fn: str
    filled: Inst


@dataclass(frozen=True)
class _Lanes:
    """A value lane by lane: an int (a constant or lane arithmetic) or a sorted tuple of the
    ``root`` lanes combined by ``op`` (None until something has combined them)."""

    lanes: tuple
    root: Inst | None = None
    op: Op | None = None


def find_prefix_ladders(function: Function) -> dict[Inst, PrefixLadder]:
    """The whole-wave instructions read by non-whole-wave code that compute an integer
    exclusive scan, as the module docstring says."""
    evaluator = _Evaluator(function.wave_size)
    users = function.users()
    found = {}
    for inst in function.instructions():
        if not inst.attrs.get("wwm") or not _integer(inst.type):
            continue
        if all(user.attrs.get("wwm") for user in users.get(inst, [])):
            continue
        value = evaluator.value(inst)
        if value is not None and _is_exclusive_scan(value, inst.type):
            found[inst] = PrefixLadder(_COMBINE[value.op], value.root)
    return found


def emit(em, inst: Inst, ladder: PrefixLadder) -> Value:
    """The ladder's result: the log-step scan of every lane of ``ladder.filled``."""
    b = em.b
    scalar = flat_scalars(inst.type)[0]
    combine, identity = reduce_ops(scalar)[ladder.fn]
    return Value([whole_wave_scan(b, em.wave_size, b.splat(part), combine, identity)
                  for part in em.get(ladder.filled).parts])


def _scalar(t: T.Type) -> T.ScalarType | None:
    """The element of a scalar or vector type (None for anything else)."""
    return T.element_of(t) if isinstance(t, (T.ScalarType, T.VectorType)) else None


def _integer(t: T.Type) -> bool:
    scalar = _scalar(t)
    return scalar is not None and scalar.is_integer


def _same_bits(value: int, wanted: int, t: T.Type) -> bool:
    return (value - wanted) % (1 << _scalar(t).bits) == 0


def _identity(op: Op, t: T.Type) -> int:
    return reduce_ops(_scalar(t))[_COMBINE[op]][1]


def _is_exclusive_scan(value: _Lanes, t: T.Type) -> bool:
    if value.root is None or value.op is None or value.root.type != t:
        return False
    first, rest = value.lanes[0], value.lanes[1:]
    return isinstance(first, int) and _same_bits(first, _identity(value.op, t), t) and \
        all(lane == tuple(range(index + 1)) for index, lane in enumerate(rest))


class _Evaluator:
    """Symbolic values of instructions (None: not known), each computed once."""

    def __init__(self, wave_size: int):
        self.width = wave_size
        self.memo: dict[Inst, _Lanes | None] = {}

    def value(self, inst: Inst) -> _Lanes | None:
        if inst not in self.memo:
            self.memo[inst] = None  # a cycle (a phi) is not known
            self.memo[inst] = self._evaluate(inst)
        return self.memo[inst]

    def _operands(self, inst: Inst) -> list[_Lanes] | None:
        values = []
        for operand in inst.operands:
            if operand.op is not Op.CONST and operand.block is not inst.block:
                return None
            value = self.value(operand)
            if value is None:
                return None
            values.append(value)
        return values

    def _evaluate(self, inst: Inst) -> _Lanes | None:
        op, width = inst.op, self.width
        if op is Op.CONST:
            return self._constant(inst)
        if op is Op.SET_INACTIVE:
            return _Lanes(tuple((lane,) for lane in range(width)), inst) if _integer(inst.type) else None
        args = self._operands(inst)
        if args is None:
            return None
        if op is Op.MBCNT:
            every = (1 << width) - 1
            if all(lane == every for lane in args[0].lanes) and all(lane == 0 for lane in args[1].lanes):
                return _Lanes(tuple(range(width)))
            return None
        if not inst.attrs.get("wwm"):
            return None
        if op in _COMPARE:
            return self._compare(op, args)
        if op is Op.AND and all(arg.root is None for arg in args):
            return self._small(args, lambda x, y: x & y)
        if op in _COMBINE and "dpp" in inst.attrs:
            moved = self._dpp(inst, args[0], None, "dpp")
            return None if moved is None else self._combine(inst, [moved, args[1]])
        if op in _COMBINE:
            return self._combine(inst, args)
        if op is Op.SELECT and args[0].root is None:
            lanes = tuple(yes if condition else no for condition, yes, no in zip(*(arg.lanes for arg in args)))
            return self._typed(inst, lanes, args[1:])
        if op is Op.DPP16:
            return self._dpp(inst, args[0], args[1], "ctrl")
        if op is Op.PERMLANEX16:
            selects = list(inst.attrs.get("selects", range(ROW)))
            sources = [((lane // ROW) ^ 1) * ROW + selects[lane % ROW] for lane in range(width)]
            return self._typed(inst, tuple(args[0].lanes[source] for source in sources), args[:1])
        if op is Op.READLANE and _uniform(args[1]):
            lane = args[1].lanes[0] & (width - 1)
            return self._typed(inst, (args[0].lanes[lane],) * width, args[:1])
        if op is Op.WRITELANE and _uniform(args[2]):
            lanes = list(args[0].lanes)
            lanes[args[2].lanes[0] & (width - 1)] = args[1].lanes[0]  # whole-wave: lane 0 is the first active
            return self._typed(inst, tuple(lanes), args[:2])
        return None

    def _constant(self, inst: Inst) -> _Lanes | None:
        element = _scalar(inst.type)
        if element is None or not (element.is_integer or element.kind == "bool"):
            return None
        value = inst.attrs.get("value")
        values = value if isinstance(value, list) else [value]
        if not values or any(not isinstance(item, (int, bool)) or item != values[0] for item in values):
            return None
        return _Lanes((int(values[0]),) * self.width)

    def _small(self, args: list[_Lanes], combine) -> _Lanes | None:
        if any(not isinstance(lane, int) or not 0 <= lane < _SMALL for arg in args for lane in arg.lanes):
            return None
        return _Lanes(tuple(combine(x, y) for x, y in zip(args[0].lanes, args[1].lanes)))

    def _compare(self, op: Op, args: list[_Lanes]) -> _Lanes | None:
        return self._small(args, lambda x, y: int(_COMPARE[op](x, y)))

    def _typed(self, inst: Inst, lanes: tuple, sources: list[_Lanes]) -> _Lanes | None:
        """A value moved or chosen from ``sources``: their root and op, if they agree."""
        roots = {arg.root for arg in sources if arg.root is not None}
        ops = {arg.op for arg in sources if arg.op is not None}
        if len(roots) > 1 or len(ops) > 1:
            return None
        root = next(iter(roots), None)
        if root is not None and inst.type != root.type:
            return None
        return _Lanes(lanes, root, next(iter(ops), None))

    def _combine(self, inst: Inst, args: list[_Lanes]) -> _Lanes | None:
        typed = self._typed(inst, args[0].lanes, args)
        if typed is None or typed.root is None or (typed.op not in (None, inst.op)):
            return None
        identity = _identity(inst.op, inst.type)
        lanes = []
        for x, y in zip(args[0].lanes, args[1].lanes):
            if isinstance(x, int) and _same_bits(x, identity, inst.type):
                lanes.append(y)
            elif isinstance(y, int) and _same_bits(y, identity, inst.type):
                lanes.append(x)
            elif isinstance(x, tuple) and isinstance(y, tuple):
                lanes.append(tuple(sorted(x + y)))
            else:
                return None
        return _Lanes(tuple(lanes), typed.root, inst.op)

    def _dpp(self, inst: Inst, src: _Lanes, old: _Lanes | None, ctrl_key: str) -> _Lanes | None:
        """``dpp16`` (``old``) or a DPP-combined op's operand 0 (every lane must be written)."""
        width = self.width
        sources = dpp16_sources(inst.attrs[ctrl_key], width)
        row_mask, bank_mask = int(inst.attrs.get("row_mask", 0xF)), int(inst.attrs.get("bank_mask", 0xF))
        bound = bool(inst.attrs.get("bound_ctrl", False))
        lanes = []
        for lane, source in enumerate(sources):
            enabled = (row_mask >> (lane // ROW)) & 1 and (bank_mask >> ((lane % ROW) // 4)) & 1
            if enabled and source is not None:
                lanes.append(src.lanes[source])
            elif enabled and bound:
                lanes.append(0)
            elif old is not None:
                lanes.append(old.lanes[lane])
            else:
                return None
        return self._typed(inst, tuple(lanes), [src] if old is None else [src, old])


def _uniform(value: _Lanes) -> bool:
    return value.root is None and all(lane == value.lanes[0] for lane in value.lanes) and \
        isinstance(value.lanes[0], int)
