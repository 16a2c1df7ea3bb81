"""Host JIT emitters for RDNA2 lane exchange and for the HLSL wave intrinsics.

``compiler/machine/wavemodel.py`` defines every primitive; the lane maps of the fixed
patterns (DPP16 controls, DPP8 and permlane selects, ds_swizzle offsets) are
computed here in Python from that model and emitted as constant
``shufflevector``s plus selects on masks:

* a source lane outside the pattern's reach, or inactive (unless
  ``fetch_inactive``), is *invalid*; DPP16 and permlanes write an enabled lane with
  an invalid source only with ``bound_ctrl`` (as 0), otherwise it keeps ``%old``;
  DPP8, ds_swizzle and ds_bpermute read an inactive source as 0;
* data-dependent exchanges (``ds_bpermute``, ``lds_exchange``, divergent
  ``WaveReadLaneAt``) gather from a stack copy of the register;
* SGPR results (``readlane``, ``readfirstlane``, ``ballot_mask``, ``bcnt``) are
  scalars; an SGPR operand that is a lane vector is read from the lowest active lane.

A VALU op with ``dpp`` attributes reads operand 0 through ``dpp_operand``.
The HLSL intrinsics (``wave_*``, ``quad_*``) are there for IR that skipped
wave-op lowering; they follow ``wavemodel``'s intrinsics (reductions as a pairwise
tree over the active lanes in lane order, prefixes left to right).
"""

from __future__ import annotations

from ...machine import wavemodel as wm
from ...frontend import hlsl_types as T
from ...ir.ops import Op
from .llvm_text import V, element, flat_scalars, is_vector, ll_scalar
from .values import Value, cast, cast_value, first_active_lane, unify, wave_scalar

ROW, HALF = wm.ROW_SIZE, wm.HALF_SIZE


# ---------------------------------------------------------------------------------------
# fixed lane patterns
# ---------------------------------------------------------------------------------------


def _shuffled(b, vector: V, sources: list[int | None]) -> V:
    """``vector`` read through a constant lane map (None reads 0)."""
    width = b.wave_size
    if all(source == lane for lane, source in enumerate(sources)):
        return vector
    mask = [width if source is None else source for source in sources]
    return b.shuffle(vector, V(vector.ty, "zeroinitializer"), mask)


def _readable(em, sources: list[int | None], fetch_inactive: bool) -> V:
    """Lanes whose source exists and is active (or read anyway with ``fetch_inactive``)."""
    b = em.b
    if fetch_inactive:
        return b.lane_mask([source is not None for source in sources])
    return _shuffled(b, em.exec, sources)


def dpp16_sources(ctrl: str, wave_size: int) -> list[int | None]:
    control = wm.parse_dpp16(ctrl)
    sources = []
    for lane in range(wave_size):
        position = control.source_position(lane % ROW)
        sources.append(None if position is None else lane - lane % ROW + position)
    return sources


def _enable(em, inst, row_key: str = "row_mask", bank_key: str = "bank_mask") -> V:
    b = em.b
    lanes = range(em.wave_size)
    row_mask, bank_mask = int(inst.attrs.get(row_key, 0xF)), int(inst.attrs.get(bank_key, 0xF))
    static = [(row_mask >> (lane // ROW)) & 1 and (bank_mask >> ((lane % ROW) // 4)) & 1 for lane in lanes]
    return b.mask_and(em.exec, b.lane_mask(static)) if not all(static) else em.exec


def _flag(inst, name: str) -> bool:
    return bool(inst.attrs.get(name, False))


def _fetch(em, value: Value, sources, readable: V, zero_invalid: bool) -> list[V]:
    b = em.b
    parts = []
    for part in value.parts:
        moved = _shuffled(b, b.splat(part), sources)
        parts.append(b.select(readable, moved, b.zero(moved.ty)) if zero_invalid else moved)
    return parts


def _write(em, written: V, fetched: list[V], old: Value, t: T.Type) -> Value:
    b = em.b
    old_parts = cast_value(b, old, t, flat_scalars(t)[0]).parts if not isinstance(t, (T.ArrayType, T.StructType)) \
        else old.parts
    return Value([b.select(written, new, b.splat(previous)) for new, previous in zip(fetched, old_parts)])


def dpp16(em, inst, args):
    src, old = args
    sources = dpp16_sources(inst.attrs["ctrl"], em.wave_size)
    readable = _readable(em, sources, _flag(inst, "fetch_inactive"))
    bound = _flag(inst, "bound_ctrl")
    written = _enable(em, inst) if bound else em.b.mask_and(_enable(em, inst), readable)
    return _write(em, written, _fetch(em, src, sources, readable, bound), old, inst.operands[1].type)


def dpp_operand(em, inst, src0: Value) -> tuple[Value, V | None]:
    """Operand 0 of a DPP-combined VALU op, and the lanes it writes (None: every active lane)."""
    sources = dpp16_sources(inst.attrs["dpp"], em.wave_size)
    readable = _readable(em, sources, _flag(inst, "fetch_inactive"))
    bound = _flag(inst, "bound_ctrl")
    fetched = Value(_fetch(em, src0, sources, readable, bound))
    enable = _enable(em, inst)
    written = enable if bound else em.b.mask_and(enable, readable)
    if written.ref == em.exec.ref:
        return fetched, None
    return fetched, written


def _fetch_or_zero(em, inst, args, sources) -> Value:
    """DPP8 / ds_swizzle: active lanes read their source, 0 if it is inactive."""
    src, old = args
    readable = _readable(em, sources, _flag(inst, "fetch_inactive"))
    return _write(em, em.exec, _fetch(em, src, sources, readable, True), old, inst.operands[1].type)


def dpp8(em, inst, args):
    selects = inst.attrs["selects"]
    sources = [lane - lane % 8 + selects[lane % 8] for lane in range(em.wave_size)]
    return _fetch_or_zero(em, inst, args, sources)


def permlanex16(em, inst, args):
    src, old = args
    selects = list(inst.attrs.get("selects", wm.IDENTITY_SELECTS))
    sources = [((lane // ROW) ^ 1) * ROW + selects[lane % ROW] for lane in range(em.wave_size)]
    readable = _readable(em, sources, _flag(inst, "fetch_inactive"))
    written = em.exec if _flag(inst, "bound_ctrl") else em.b.mask_and(em.exec, readable)
    return _write(em, written, _fetch(em, src, sources, readable, True), old, inst.operands[1].type)


def ds_swizzle(em, inst, args):
    offset = int(inst.attrs["offset"])
    sources = [lane - lane % HALF + wm.swizzle_source(lane % HALF, offset) for lane in range(em.wave_size)]
    return _fetch_or_zero(em, inst, args, sources)


# ---------------------------------------------------------------------------------------
# data-dependent exchanges: a stack copy of the register, gathered by lane
# ---------------------------------------------------------------------------------------


def permute(em, part: V, lanes: V) -> V:
    """``part[lanes[i]]`` for every lane (``lanes``: an in-range i32 lane vector)."""
    b = em.b
    part = b.splat(part)
    ty = element(part.ty)
    copy = b.alloca(part.ty, zero=False)
    b.store(part, copy, align=64)
    pointers = b.inst(b.vec("ptr"), f"getelementptr {ty}, ptr {copy.ref}, {lanes}")
    return b.call(part.ty, "llvm.masked.gather", [pointers, V("i32", "1"), b.all_lanes(), b.zero(part.ty)],
                  mangle_with=[part.ty, pointers.ty])


def _lanes_i32(em, value: V) -> V:
    b = em.b
    value = b.splat(value)
    bits = int(element(value.ty)[1:])
    if bits > 32:
        return b.cast("trunc", value, b.vec("i32"))
    if bits < 32:
        return b.cast("zext", value, b.vec("i32"))
    return value


def _exec_at(em, lanes: V) -> V:
    """Whether each lane's source lane is active."""
    b = em.b
    active = b.cast("zext", em.exec, b.vec("i8"))
    return b.icmp("ne", permute(em, active, lanes), b.zero(b.vec("i8")))


def _gather_lanes(em, src: Value, lanes: V) -> tuple[list[V], V]:
    return [permute(em, part, lanes) for part in src.parts], _exec_at(em, lanes)


def ds_bpermute(em, inst, args):
    b = em.b
    src, old, addresses = args
    address = _lanes_i32(em, addresses.parts[0])
    offset = int(inst.attrs.get("offset", 0))
    if offset:
        address = b.binop("add", address, b.const(address.ty, offset))
    slot = b.binop("and", b.binop("lshr", address, b.const(address.ty, 2)), b.const(address.ty, HALF - 1))
    half_base = b.const(b.vec("i32"), [lane - lane % HALF for lane in range(em.wave_size)])
    sources = b.binop("or", slot, half_base)
    fetched, readable = _gather_lanes(em, src, sources)
    fetched = [b.select(readable, part, b.zero(part.ty)) for part in fetched]
    return _write(em, em.exec, fetched, old, inst.operands[1].type)


def lds_exchange(em, inst, args):
    b = em.b
    src, old, source_lanes = args
    sources = b.binop("and", _lanes_i32(em, source_lanes.parts[0]), b.const(b.vec("i32"), em.wave_size - 1))
    stored = [b.select(em.exec, b.splat(part), b.zero(b.vec(element(part.ty)))) for part in src.parts]
    fetched = [permute(em, part, sources) for part in stored]
    return _write(em, em.exec, fetched, old, inst.operands[1].type)


# ---------------------------------------------------------------------------------------
# scalar-side primitives
# ---------------------------------------------------------------------------------------


def _lane_number(em, value: Value) -> V:
    b = em.b
    lane = em.sgpr(value)
    lane = b.cast("zext", lane, "i64") if lane.ty != "i64" else lane
    return b.binop("and", lane, b.const("i64", em.wave_size - 1))


def readlane(em, inst, args):
    src, lane = args
    number = _lane_number(em, lane)
    return Value([em.b.extract(part, number) if is_vector(part.ty) else part for part in src.parts])


def readfirstlane(em, inst, args):
    return Value([wave_scalar(em.b, part, em.exec) for part in args[0].parts])


def writelane(em, inst, args):
    b = em.b
    old, value, lane = args
    number = _lane_number(em, lane)
    scalar = flat_scalars(inst.type)[0]
    values = cast_value(b, value, inst.operands[1].type, scalar).parts
    olds = cast_value(b, old, inst.operands[0].type, scalar).parts
    return Value([b.insert(b.splat(previous), wave_scalar(b, new, em.exec), number)
                  for previous, new in zip(olds, values)])


def set_inactive(em, inst, args):
    b = em.b
    src, identity = args
    scalar = flat_scalars(inst.type)[0]
    identities = cast_value(b, identity, inst.operands[1].type, scalar).parts
    if len(identities) == 1:
        identities = identities * len(src.parts)
    return Value([b.select(em.real_exec, b.splat(part), b.splat(ident))
                  for part, ident in zip(src.parts, identities)])


def _ballot_bits(em, condition: Value, source_type: T.Type) -> V:
    b = em.b
    flag = cast(b, condition.parts[0], flat_scalars(source_type)[0], T.BOOL)
    if is_vector(flag.ty):
        return b.mask_bits(b.mask_and(em.exec, flag))
    return b.select(flag, b.mask_bits(em.exec), b.zero(b.bits_ty))


def _to_width(b, value: V, scalar: T.ScalarType) -> V:
    target = ll_scalar(scalar) if not is_vector(value.ty) else b.vec(ll_scalar(scalar))
    have, want = int(element(value.ty)[1:]), scalar.bits
    if have == want:
        return value
    return b.cast("trunc" if want < have else "zext", value, target)


def ballot_mask(em, inst, args):
    bits = _ballot_bits(em, args[0], inst.operands[0].type)
    return Value([_to_width(em.b, bits, flat_scalars(inst.type)[0])])


def mbcnt(em, inst, args):
    b = em.b
    mask, addend = args
    mask_bits = b.cast("zext", em.sgpr(mask), "i64") if em.sgpr(mask).ty != "i64" else em.sgpr(mask)
    below = b.const(b.vec("i64"), [(1 << lane) - 1 for lane in range(em.wave_size)])
    counts = b.call(b.vec("i64"), "llvm.ctpop", [b.binop("and", b.splat(mask_bits), below)])
    counts = b.cast("trunc", counts, b.vec("i32"))
    plus = cast(b, addend.parts[0], flat_scalars(inst.operands[1].type)[0], T.UINT)
    total = b.binop("add", counts, b.splat(plus))
    return Value([cast(b, total, T.UINT, flat_scalars(inst.type)[0])])


def bcnt(em, inst, args):
    b = em.b
    mask = em.sgpr(args[0])
    count = b.call(mask.ty, "llvm.ctpop", [mask])
    return Value([cast(b, count, flat_scalars(inst.operands[0].type)[0], flat_scalars(inst.type)[0])])


# ---------------------------------------------------------------------------------------
# HLSL wave intrinsics (IR that skipped lower-wave-ops)
# ---------------------------------------------------------------------------------------


def _lane_vector(em) -> V:
    return em.lane_ids()


def _masked(em, parts: list[V], defined: V) -> Value:
    b = em.b
    return Value([b.select(defined, b.splat(part), b.zero(b.vec(element(part.ty)))) for part in parts])


def _read_lanes(em, value: Value, sources: V) -> Value:
    """Each active lane reads lane ``sources[i]``; undefined (0) if it is outside or inactive."""
    b = em.b
    sources = b.splat(sources)
    in_wave = b.icmp("ult", sources, b.const(sources.ty, em.wave_size))
    clipped = b.select(in_wave, sources, b.zero(sources.ty))
    fetched, active = _gather_lanes(em, value, clipped)
    defined = b.mask_and(b.mask_and(em.exec, in_wave), active)
    return _masked(em, fetched, defined)


def lane_index(em, inst, args):
    return Value([_lane_vector(em)])


def lane_count(em, inst, args):
    return Value([em.b.const("i32", em.wave_size)])


def is_first_lane(em, inst, args):
    b = em.b
    first = b.splat(first_active_lane(b, em.exec))
    return Value([b.mask_and(em.exec, b.icmp("eq", _lane_vector(em), first))])


def read_first(em, inst, args):
    return readfirstlane(em, inst, args)


def read_lane_at(em, inst, args):
    return _read_lanes(em, args[0], _lanes_i32(em, args[1].parts[0]))


def shuffle_xor(em, inst, args):
    b = em.b
    mask = b.const("i32", int(inst.attrs["mask"])) if "mask" in inst.attrs else args[1].parts[0]
    return _read_lanes(em, args[0], b.binop("xor", _lane_vector(em), _lanes_i32(em, mask)))


def quad_read(em, inst, args):
    b = em.b
    pattern = list(inst.attrs["lanes"])
    sources = b.const(b.vec("i32"), [lane - lane % 4 + pattern[lane % 4] for lane in range(em.wave_size)])
    return _read_lanes(em, args[0], sources)


def quad_read_lane_at(em, inst, args):
    b = em.b
    lane = b.const("i32", int(inst.attrs["lane"])) if "lane" in inst.attrs else args[1].parts[0]
    quad = b.binop("and", _lane_vector(em), b.const(b.vec("i32"), ~3))
    within = b.binop("and", _lanes_i32(em, lane), b.const(b.vec("i32"), 3))
    return _read_lanes(em, args[0], b.binop("or", quad, within))


def reduce_ops(scalar: T.ScalarType):
    """fn -> (combine(b, x, y), identity)."""
    is_float = scalar.kind == "float"
    signed = scalar.kind == "int"
    bits = scalar.bits
    big = float("inf") if is_float else ((1 << (bits - 1)) - 1 if signed else (1 << bits) - 1)
    small = float("-inf") if is_float else (-(1 << (bits - 1)) if signed else 0)

    def call(name):
        return lambda b, x, y: b.call(x.ty, name, [x, y])

    return {
        "sum": ((lambda b, x, y: b.binop("fadd" if is_float else "add", x, y)), 0),
        "product": ((lambda b, x, y: b.binop("fmul" if is_float else "mul", x, y)), 1),
        "min": (call("llvm.minimum" if is_float else ("llvm.smin" if signed else "llvm.umin")), big),
        "max": (call("llvm.maximum" if is_float else ("llvm.smax" if signed else "llvm.umax")), small),
        "and": ((lambda b, x, y: b.binop("and", x, y)), -1),
        "or": ((lambda b, x, y: b.binop("or", x, y)), 0),
        "xor": ((lambda b, x, y: b.binop("xor", x, y)), 0),
    }


def active_reduce(em, inst, args):
    """Compress the active lanes (identity behind them), then a pairwise tree in lane order
    (integers skip the compression: ``_exact_regrouped``)."""
    b = em.b
    scalar = flat_scalars(inst.type)[0]
    combine, identity = reduce_ops(scalar)[inst.attrs["fn"]]
    parts = []
    for part in cast_value(b, args[0], inst.operands[0].type, scalar).parts:
        part = b.splat(part)
        if _exact_regrouped(scalar):  # the identity in the inactive lanes: no need to compress
            level = b.select(em.exec, part, b.const(part.ty, identity))
        else:
            packed = b.alloca(part.ty, zero=False)
            b.store(b.const(part.ty, identity), packed, align=64)
            b.call("void", "llvm.masked.compressstore", [part, packed, em.exec], mangle_with=[part.ty])
            level = b.load(part.ty, packed, align=64)
        size = em.wave_size
        while size > 1:
            size //= 2
            evens = b.shuffle(level, None, list(range(0, 2 * size, 2)))
            odds = b.shuffle(level, None, list(range(1, 2 * size, 2)))
            level = combine(b, evens, odds)
        parts.append(b.extract(level, 0))
    return Value(parts)


def _exact_regrouped(scalar: T.ScalarType) -> bool:
    """Whether every reduction of ``scalar`` values gives the same bits in any grouping and
    order: integers (wrapping sums and products, min, max, bitwise ops) do; floats round."""
    return scalar.is_integer


def _log_step_prefix(em, part: V, combine, identity) -> V:
    """The exclusive scan of ``part`` over the active lanes in log2(W) steps (Hillis and
    Steele): inactive lanes hold the identity, every lane moves one to the right, then step
    k combines each lane with the one 2^k lanes to its left. Only for ``_exact_regrouped``
    types: the sums are grouped differently from the loop's."""
    b = em.b
    filled = b.select(em.exec, part, b.const(part.ty, identity))
    return b.select(em.exec, whole_wave_scan(b, em.wave_size, filled, combine, identity), b.zero(part.ty))


def whole_wave_scan(b, width: int, part: V, combine, identity) -> V:
    """The exclusive scan of every lane of ``part`` (lane 0: the identity) in log2(W) steps.
    (Scanning each 128-bit group of lanes first and then carrying across groups, so that most
    moves stay inside a register lane, took more x86 instructions: 71 against 58 for a
    ``<32 x i32>`` sum on haswell and znver3.)"""
    identities = b.const(part.ty, identity)
    scanned = b.shuffle(part, identities, [width + lane if lane < 1 else lane - 1 for lane in range(width)])
    distance = 1
    while distance < width:
        before = b.shuffle(scanned, identities,
                           [width + lane if lane < distance else lane - distance for lane in range(width)])
        scanned, distance = combine(b, before, scanned), distance * 2
    return scanned


def prefix_scan(em, inst, args):
    """Exclusive, left to right over the active lanes: a loop over the lanes, or for integers
    (``_exact_regrouped``) the log-step scan, whose results are the same bits."""
    b = em.b
    scalar = flat_scalars(inst.type)[0]
    combine, identity = reduce_ops(scalar)[inst.attrs["fn"]]
    parts = []
    for part in cast_value(b, args[0], inst.operands[0].type, scalar).parts:
        part = b.splat(part)
        if _exact_regrouped(scalar):
            parts.append(_log_step_prefix(em, part, combine, identity))
            continue
        ty = element(part.ty)
        running, results, counter = b.alloca(ty, zero=False), b.alloca(part.ty, zero=False), b.alloca("i32", False)
        b.store(b.const(ty, identity), running, align=8)
        b.store(b.zero(part.ty), results, align=64)
        b.store(V("i32", "0"), counter, align=4)
        head, body, done = b.label("scan"), b.label("scan.lane"), b.label("scan.done")
        b.br(head)
        b.start(head)
        lane = b.load("i32", counter, align=4)
        b.cbr(b.icmp("ult", lane, V("i32", str(em.wave_size))), body, done)
        b.start(body)
        total = b.load(ty, running, align=8)
        active = b.extract(em.exec, lane)
        b.store(b.insert(b.load(part.ty, results, align=64), total, lane), results, align=64)
        b.store(b.select(active, combine(b, total, b.extract(part, lane)), total), running, align=8)
        b.store(b.binop("add", lane, V("i32", "1")), counter, align=4)
        b.br(head)
        b.start(done)
        parts.append(b.select(em.exec, b.load(part.ty, results, align=64), b.zero(part.ty)))
    return Value(parts)


def ballot(em, inst, args):
    b = em.b
    bits = b.cast("zext", _ballot_bits(em, args[0], inst.operands[0].type), "i128")
    words = [b.cast("trunc", b.binop("lshr", bits, b.const("i128", 32 * k)), "i32") for k in range(4)]
    return Value(words)


def count_bits(em, inst, args):
    b = em.b
    bits = _ballot_bits(em, args[0], inst.operands[0].type)
    return Value([_to_width(b, b.call(bits.ty, "llvm.ctpop", [bits]), T.UINT)])


def prefix_count_bits(em, inst, args):
    b = em.b
    bits = b.cast("zext", _ballot_bits(em, args[0], inst.operands[0].type), "i64") if em.wave_size == 32 else \
        _ballot_bits(em, args[0], inst.operands[0].type)
    below = b.const(b.vec("i64"), [(1 << lane) - 1 for lane in range(em.wave_size)])
    counts = b.call(b.vec("i64"), "llvm.ctpop", [b.binop("and", b.splat(bits), below)])
    return Value([b.select(em.exec, b.cast("trunc", counts, b.vec("i32")), b.zero(b.vec("i32")))])


def any_true(em, inst, args):
    b = em.b
    return Value([b.icmp("ne", _ballot_bits(em, args[0], inst.operands[0].type), b.zero(b.bits_ty))])


def all_true(em, inst, args):
    b = em.b
    bits = _ballot_bits(em, args[0], inst.operands[0].type)
    return Value([b.icmp("eq", bits, b.mask_bits(em.exec))])


def all_equal(em, inst, args):
    b = em.b
    source = flat_scalars(inst.operands[0].type)[0]
    results = []
    for part in args[0].parts:
        if not is_vector(part.ty):
            results.append(V("i1", "true"))
            continue
        first = b.splat(wave_scalar(b, part, em.exec))
        same = b.fcmp("oeq", part, first) if source.kind == "float" else b.icmp("eq", part, first)
        results.append(b.icmp("eq", b.mask_bits(b.mask_and(em.exec, same)), b.mask_bits(em.exec)))
    if len(flat_scalars(inst.type)) == 1 and len(results) > 1:
        combined = results[0]
        for item in results[1:]:
            combined = b.binop("and", *unify(b, [combined, item]))
        results = [combined]
    return Value(results)


HANDLERS = {
    Op.DPP16: dpp16, Op.DPP8: dpp8, Op.PERMLANEX16: permlanex16, Op.DS_SWIZZLE: ds_swizzle,
    Op.DS_BPERMUTE: ds_bpermute, Op.LDS_EXCHANGE: lds_exchange, Op.READLANE: readlane,
    Op.READFIRSTLANE: readfirstlane, Op.WRITELANE: writelane, Op.SET_INACTIVE: set_inactive,
    Op.BALLOT_MASK: ballot_mask, Op.MBCNT: mbcnt, Op.BCNT: bcnt,
    Op.WAVE_LANE_INDEX: lane_index, Op.WAVE_LANE_COUNT: lane_count, Op.WAVE_IS_FIRST_LANE: is_first_lane,
    Op.WAVE_READ_LANE_AT: read_lane_at, Op.WAVE_READ_FIRST: read_first, Op.WAVE_SHUFFLE_XOR: shuffle_xor,
    Op.WAVE_ACTIVE: active_reduce, Op.WAVE_PREFIX: prefix_scan, Op.WAVE_BALLOT: ballot,
    Op.WAVE_COUNT_BITS: count_bits, Op.WAVE_PREFIX_COUNT_BITS: prefix_count_bits,
    Op.WAVE_ANY_TRUE: any_true, Op.WAVE_ALL_TRUE: all_true, Op.WAVE_ALL_EQUAL: all_equal,
    Op.QUAD_READ: quad_read, Op.QUAD_READ_LANE_AT: quad_read_lane_at,
}
