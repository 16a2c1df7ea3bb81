"""Host JIT emitters for ``wave_match`` and ``wave_multi_prefix`` as written (IR that skipped
lower-wave-ops; the pipeline lowers them to readlanes first).

They follow ``wavemodel.wave_match`` / ``wave_multi_prefix``, unrolled over the lanes at
compile time: lane j's value is extracted from the lane vector and compared (as bits) with
every lane's, or folded into the lanes whose member mask has bit j, left to right.
Masks are ``i64`` lane vectors here, whatever the wave size (bit j = lane j).
"""

from __future__ import annotations

from ...ir.ops import Op
from .llvm_text import V, bit_width, element, flat_scalars, is_vector
from .values import Value, cast_value
from .wave import reduce_ops


def _as_bits(b, part: V) -> V:
    """A lane vector as integers of its width, so ``icmp eq`` compares bits (i1 stays i1)."""
    ty = element(part.ty)
    if ty.startswith("i"):
        return part
    return b.cast("bitcast", part, b.vec(f"i{bit_width(ty)}"))


def _exec_bits(em) -> V:
    """exec as one ``i64`` in every lane."""
    b = em.b
    bits = b.mask_bits(em.exec)
    if em.wave_size == 32:
        bits = b.cast("zext", bits, "i64")
    return b.splat(bits)


def _words(b, mask64: V) -> list[V]:
    """An ``<W x i64>`` mask as HLSL's four ``<W x i32>`` words."""
    low = b.cast("trunc", mask64, b.vec("i32"))
    high = b.cast("trunc", b.binop("lshr", mask64, b.const(mask64.ty, 32)), b.vec("i32"))
    zero = b.zero(b.vec("i32"))
    return [low, high, zero, zero]


def match(em, inst, args):
    b = em.b
    lanes = [_as_bits(b, part) for part in args[0].parts if is_vector(part.ty)]  # uniform parts agree
    wide = b.vec("i64")
    found = b.zero(wide)
    for lane in range(em.wave_size):
        same = b.all_lanes()
        for bits in lanes:
            theirs = b.splat(b.extract(bits, lane))
            same = b.mask_and(same, b.icmp("eq", bits, theirs))
        found = b.binop("or", found, b.select(same, b.const(wide, 1 << lane), b.zero(wide)))
    found = b.binop("and", found, _exec_bits(em))
    return Value([b.select(em.exec, word, b.zero(word.ty)) for word in _words(b, found)])


def _members(em, mask: Value) -> V:
    """Each lane's mask words as one ``i64``, restricted to the active lanes below it."""
    b = em.b
    wide = b.vec("i64")
    low = b.cast("zext", b.splat(mask.parts[0]), wide)
    high = b.cast("zext", b.splat(mask.parts[1]), wide)
    words = b.binop("or", low, b.binop("shl", high, b.const(wide, 32)))
    below = b.const(wide, [(1 << lane) - 1 for lane in range(em.wave_size)])
    return b.binop("and", b.binop("and", words, _exec_bits(em)), below)


def multi_prefix(em, inst, args):
    b = em.b
    scalar = flat_scalars(inst.type)[0]
    combine, identity = reduce_ops(scalar)[inst.attrs["fn"]]
    members = _members(em, args[1])
    wide = members.ty
    parts = []
    for part in cast_value(b, args[0], inst.operands[0].type, scalar).parts:
        part = b.splat(part)
        running = b.const(part.ty, identity)
        for lane in range(em.wave_size - 1):  # the top lane is below no lane
            bit = b.binop("and", members, b.const(wide, 1 << lane))
            member = b.icmp("ne", bit, b.zero(wide))
            combined = combine(b, running, b.splat(b.extract(part, lane)))
            running = b.select(member, combined, running)
        parts.append(b.select(em.exec, running, b.zero(part.ty)))
    return Value(parts)


HANDLERS = {Op.WAVE_MATCH: match, Op.WAVE_MULTI_PREFIX: multi_prefix}
