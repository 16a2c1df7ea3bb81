"""The SM 6.5 partition intrinsics as RDNA2 sequences: ``WaveMatch`` and ``WaveMultiPrefix*``.

``compiler/machine/wavemodel.py`` defines them (``wave_match``, ``wave_multi_prefix``);
``lower-wave-ops`` calls these builders, which emit straight-line IR from the ordinary
primitives, one step per lane of the wave:

* ``WaveMatch(v)``: for each lane j, ``v_readlane`` of v at j and a compare of every
  component's bits with this lane's; where they all agree, this lane's mask word takes
  bit j. Last, each word is ANDed with exec's (an inactive lane's readlane is garbage).
  Floats compare as their bits, as the integer ``v_cmp`` of a readfirstlane waterfall does.
* ``WaveMultiPrefix<fn>(v, mask)``: this lane's mask, restricted to the active lanes below
  it, says which of the readlane values it folds in; the running value takes lane j's
  value through ``<fn>`` where bit j is set, left to right, starting from the identity.

Real compilers select ``WaveMatch`` as a loop over the distinct values (readfirstlane,
compare, remove the matched lanes from exec); the IR this pass builds has no loops of
its own, so it pays one step per lane instead: about 4 instructions a lane and component
for ``WaveMatch``, 5 for a prefix (wave64: ~256 and ~320). The result is exact on any
input; a waterfall would be shorter when there are few distinct values.
"""

from __future__ import annotations

from ..frontend import hlsl_types as T
from ..ir.core import Inst
from ..ir.ops import Op
from .wave_ladders import HALF_SIZE, REDUCE_OPS, Builder, ballot, identity

UINT4 = T.vector(T.UINT, 4)
ALL_ONES = 0xFFFFFFFF


def _components(builder: Builder, value: Inst) -> list[Inst]:
    if not isinstance(value.type, T.VectorType):
        return [value]
    return [builder.emit(Op.EXTRACT, [value], value.type.element, index=index) for index in range(value.type.size)]


def _as_bits(builder: Builder, component: Inst) -> Inst:
    """A scalar as the unsigned integer of its width (bool as 0/1), to compare bit for bit."""
    scalar = T.element_of(component.type)
    if scalar.kind == "bool":
        return builder.emit(Op.CONVERT, [component], T.UINT)
    if scalar.kind == "uint":
        return component
    return builder.emit(Op.BITCAST, [component], T.scalar_of("uint", scalar.bits))


def _exec_words(builder: Builder) -> list[Inst]:
    """The exec mask as 32-bit words: one in wave32, two in wave64."""
    words = ballot(builder, builder.const(T.BOOL, True))
    return [builder.emit(Op.EXTRACT, [words], T.UINT, index=k) for k in range(builder.wave_size // HALF_SIZE)]


def match(builder: Builder, value: Inst) -> Inst:
    """``WaveMatch(v)``: one readlane and compare per lane and component, a bit per lane."""
    bits = [_as_bits(builder, component) for component in _components(builder, value)]
    zero = builder.uint(0)
    words = []
    for k, exec_word in enumerate(_exec_words(builder)):
        word = zero
        for lane in range(HALF_SIZE * k, HALF_SIZE * (k + 1)):
            same = None
            for component in bits:
                theirs = builder.emit(Op.READLANE, [component, builder.uint(lane)], component.type)
                equal = builder.emit(Op.EQ, [component, theirs], T.BOOL)
                same = equal if same is None else builder.emit(Op.AND, [same, equal], T.BOOL)
            bit = builder.uint(1 << (lane % HALF_SIZE))
            word = builder.emit(Op.OR, [word, builder.emit(Op.SELECT, [same, bit, zero], T.UINT)], T.UINT)
        words.append(builder.emit(Op.AND, [word, exec_word], T.UINT))
    words += [zero] * (4 - len(words))
    return builder.emit(Op.CONSTRUCT, words, UINT4)


def _lanes_below(builder: Builder) -> list[Inst]:
    """Per 32-bit word, the mask of the lanes below this one: (1 << (lane & 31)) - 1 in
    this lane's half, all ones in a lower half, 0 in a higher one."""
    lane = builder.lane_index()
    position = builder.emit(Op.AND, [lane, builder.uint(HALF_SIZE - 1)], T.UINT)
    shifted = builder.emit(Op.SHL, [builder.uint(1), position], T.UINT)
    within = builder.emit(Op.SUB, [shifted, builder.uint(1)], T.UINT)
    if builder.wave_size == 32:
        return [within]
    upper_half = builder.emit(Op.GE, [lane, builder.uint(HALF_SIZE)], T.BOOL)
    low = builder.emit(Op.SELECT, [upper_half, builder.uint(ALL_ONES), within], T.UINT)
    high = builder.emit(Op.SELECT, [upper_half, within, builder.uint(0)], T.UINT)
    return [low, high]


def multi_prefix(builder: Builder, fn: str, value: Inst, mask: Inst) -> Inst:
    """``WaveMultiPrefix<fn>(v, mask)``, exclusive: fold lane j's value in where bit j of
    ``mask & exec & lanes below`` is set, for j from 0 up."""
    op, type_ = REDUCE_OPS[fn], value.type
    members = []
    for k, (exec_word, below) in enumerate(zip(_exec_words(builder), _lanes_below(builder))):
        word = builder.emit(Op.EXTRACT, [mask], T.UINT, index=k)
        active = builder.emit(Op.AND, [word, exec_word], T.UINT)
        members.append(builder.emit(Op.AND, [active, below], T.UINT))
    running = identity(builder, fn, type_)
    zero = builder.uint(0)
    for lane in range(builder.wave_size - 1):  # the top lane is below no lane
        bit = builder.emit(Op.AND, [members[lane // HALF_SIZE], builder.uint(1 << (lane % HALF_SIZE))], T.UINT)
        member = builder.emit(Op.NE, [bit, zero], T.BOOL)
        theirs = builder.emit(Op.READLANE, [value, builder.uint(lane)], type_)
        combined = builder.emit(op, [running, theirs], type_)
        running = builder.emit(Op.SELECT, [member, combined, running], type_)
    return running
