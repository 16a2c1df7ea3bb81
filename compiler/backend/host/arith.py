"""Host JIT emitters for lane-local operations: arithmetic, comparisons, conversions,
vector shaping, ``math`` and ``bits`` (the interpreter's ``interpret_arith``).

Every handler is ``handler(em, inst, args) -> Value`` (``em`` is the kernel
emitter, ``args`` the operands' ``Value``s) and works per component, on lane
vectors or on scalars alike. Choices the interpreter pins down, reproduced here:
integers wrap; integer ``div``/``rem`` by zero give all ones and ``INT_MIN / -1``
wraps (a safe divisor, then a select); float ``min``/``max`` return the non-NaN
operand (``llvm.minnum``); shift amounts use their low bits; ``fma`` rounds once;
``dot`` multiplies and adds in component order without contraction.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.ops import Op
from . import transcendentals
from .llvm_text import V, flat_scalars, ll_scalar, member_slices
from .values import Value, cast, cast_value, const_value, like, numpy_common, unify, vselect


def result_scalar(inst) -> T.ScalarType:
    return flat_scalars(inst.type)[0]


def aligned(em, inst, args, scalar: T.ScalarType, width: int | None = None) -> list[list[V]]:
    """Each operand's components cast to ``scalar`` and broadcast to ``width`` components;
    when any component is a lane vector, every scalar is splatted."""
    b = em.b
    width = width or len(flat_scalars(inst.type))
    rows = []
    for arg, operand in zip(args, inst.operands):
        parts = cast_value(b, arg, operand.type, scalar).parts
        if len(parts) == 1 and width > 1:
            parts = parts * width
        rows.append(parts)
    flat = unify(b, [part for row in rows for part in row])
    return [flat[k * width:(k + 1) * width] for k in range(len(rows))]


def per_component(em, inst, args, function, scalar: T.ScalarType | None = None) -> Value:
    scalar = scalar or result_scalar(inst)
    rows = aligned(em, inst, args, scalar)
    return Value([function(em.b, scalar, *column) for column in zip(*rows)])


# ---------------------------------------------------------------------------------------
# constants, thread inputs, markers
# ---------------------------------------------------------------------------------------


def const(em, inst, args):
    return const_value(em.b, inst.type, inst.attrs["value"])


def thread_input(em, inst, args):
    which = inst.attrs.get("which")
    parts = em.thread_input(which)
    first = int(inst.attrs.get("component", 0))
    width = len(flat_scalars(inst.type))
    return cast_value(em.b, Value(parts[first:first + width]), T.vector(T.UINT, width), result_scalar(inst))


def identity(em, inst, args):
    return args[0] if args else None


# ---------------------------------------------------------------------------------------
# arithmetic
# ---------------------------------------------------------------------------------------

_BINARY = {  # op: (float instruction, integer instruction)
    Op.ADD: ("fadd", "add"), Op.SUB: ("fsub", "sub"), Op.MUL: ("fmul", "mul"),
    Op.AND: (None, "and"), Op.OR: (None, "or"), Op.XOR: (None, "xor"),
}


def binary(em, inst, args):
    float_op, int_op = _BINARY[inst.op]

    def one(b, scalar, x, y):
        if scalar.kind == "bool" and inst.op in (Op.ADD, Op.MUL):
            return b.binop("or" if inst.op is Op.ADD else "and", x, y)
        return b.binop(float_op if scalar.kind == "float" else int_op, x, y)

    return per_component(em, inst, args, one)


def min_max(em, inst, args):
    is_min = inst.op is Op.MIN

    def one(b, scalar, x, y):
        if scalar.kind == "float":
            name = "llvm.minnum" if is_min else "llvm.maxnum"
        elif scalar.kind == "bool":
            return b.binop("and" if is_min else "or", x, y)
        else:
            name = ("llvm.smin" if is_min else "llvm.smax") if scalar.kind == "int" else \
                   ("llvm.umin" if is_min else "llvm.umax")
        return b.call(x.ty, name, [x, y])

    return per_component(em, inst, args, one)


def negate(em, inst, args):
    def one(b, scalar, x):
        return b.unop_fneg(x) if scalar.kind == "float" else b.binop("sub", b.zero(x.ty), x)

    return per_component(em, inst, args, one)


def absolute(em, inst, args):
    def one(b, scalar, x):
        if scalar.kind == "float":
            return b.call(x.ty, "llvm.fabs", [x])
        if scalar.kind == "int":
            return b.call(x.ty, "llvm.abs", [x, V("i1", "false")])
        return x

    return per_component(em, inst, args, one)


def bitwise_not(em, inst, args):
    return per_component(em, inst, args, lambda b, scalar, x: b.binop("xor", x, b.const(x.ty, -1)))


def fused_multiply_add(em, inst, args):
    def one(b, scalar, x, y, z):
        if scalar.kind == "float" and scalar.bits == 16:
            # llvm.fma.f16 becomes a libcall the JIT cannot resolve (a crash): fma in double,
            # exact for halves (the product is exact, the sum within 53 bits of it whenever
            # the result is a finite half), then one rounding to half
            wide = [b.cast("fpext", value, like(value, "double", b)) for value in (x, y, z)]
            return cast(b, b.call(wide[0].ty, "llvm.fma", wide), T.DOUBLE, scalar)
        if scalar.kind == "float":
            return b.call(x.ty, "llvm.fma", [x, y, z])
        return b.binop("add", b.binop("mul", x, y), z)

    return per_component(em, inst, args, one)


def shift(em, inst, args):
    scalar = result_scalar(inst)
    rows = aligned(em, inst, args, scalar)
    b = em.b
    parts = []
    for value, amount in zip(*rows):
        amount = b.binop("and", amount, b.const(amount.ty, scalar.bits - 1))
        op = "shl" if inst.op is Op.SHL else ("ashr" if scalar.kind == "int" else "lshr")
        parts.append(b.binop(op, value, amount))
    return Value(parts)


def divide(em, inst, args):
    def one(b, scalar, x, y):
        if scalar == T.FLOAT and inst.op is not Op.DIV:  # frem is fmodf: flushes by hand
            return b.flush(b.binop("frem", b.flush(x), b.flush(y)))
        if scalar.kind == "float":
            return b.binop("fdiv" if inst.op is Op.DIV else "frem", x, y)
        zero = b.icmp("eq", y, b.zero(y.ty))
        safe = b.select(zero, b.const(y.ty, 1), y)
        if scalar.kind == "int":  # INT_MIN / -1 wraps to INT_MIN (and its remainder is 0)
            overflow = b.binop("and", b.icmp("eq", x, b.const(x.ty, -(1 << (scalar.bits - 1)))),
                               b.icmp("eq", y, b.const(y.ty, -1)))
            safe = b.select(overflow, b.const(y.ty, 1), safe)
            op = "sdiv" if inst.op is Op.DIV else "srem"
        else:
            op = "udiv" if inst.op is Op.DIV else "urem"
        return b.select(zero, b.const(x.ty, -1), b.binop(op, x, safe))

    return per_component(em, inst, args, one)


# ---------------------------------------------------------------------------------------
# comparisons and selection
# ---------------------------------------------------------------------------------------

_PREDICATES = {  # op: (float, signed, unsigned)
    Op.EQ: ("oeq", "eq", "eq"), Op.NE: ("une", "ne", "ne"), Op.LT: ("olt", "slt", "ult"),
    Op.LE: ("ole", "sle", "ule"), Op.GT: ("ogt", "sgt", "ugt"), Op.GE: ("oge", "sge", "uge"),
}


def compare(em, inst, args):
    a, b_ = (flat_scalars(operand.type)[0] for operand in inst.operands)
    common = numpy_common(a, b_)
    float_p, signed_p, unsigned_p = _PREDICATES[inst.op]

    def one(b, scalar, x, y):
        if scalar.kind == "float":
            return b.fcmp(float_p, x, y)
        return b.icmp(signed_p if scalar.kind == "int" else unsigned_p, x, y)

    return per_component(em, inst, args, one, common)


def select(em, inst, args):
    b = em.b
    condition = cast(b, args[0].parts[0], flat_scalars(inst.operands[0].type)[0], T.BOOL) \
        if len(args[0].parts) == 1 else None
    if isinstance(inst.type, (T.ArrayType, T.StructType)):
        when_true, when_false = unify(b, args[1].parts + args[2].parts), None
        half = len(args[1].parts)
        when_true, when_false = when_true[:half], when_true[half:]
    else:
        scalar = result_scalar(inst)
        width = len(flat_scalars(inst.type))
        rows = []
        for arg, operand in zip(args[1:], inst.operands[1:]):
            parts = cast_value(b, arg, operand.type, scalar).parts
            rows.append(parts * width if len(parts) == 1 else parts)
        when_true, when_false = rows
    conditions = [condition] * len(when_true) if condition is not None else \
        [cast(b, part, flat_scalars(inst.operands[0].type)[0], T.BOOL) for part in args[0].parts]
    return Value([vselect(b, c, x, y) for c, x, y in zip(conditions, when_true, when_false)])


# ---------------------------------------------------------------------------------------
# conversions
# ---------------------------------------------------------------------------------------


def convert(em, inst, args):
    return cast_value(em.b, args[0], inst.operands[0].type, result_scalar(inst))


def _as_bits(b, part: V, scalar: T.ScalarType) -> V:
    if scalar.kind == "bool":
        return b.cast("zext", part, like(part, "i32", b))
    if scalar.kind == "float":
        return b.cast("bitcast", part, like(part, f"i{scalar.bits}", b))
    return part


def bitcast(em, inst, args):
    """Reinterpret the bytes of the components laid end to end (little endian)."""
    b = em.b
    sources = flat_scalars(inst.operands[0].type)
    pieces = [(_as_bits(b, part, scalar), 32 if scalar.kind == "bool" else scalar.bits)
              for part, scalar in zip(unify(b, args[0].parts), sources)]
    targets = flat_scalars(inst.type)
    if sum(bits for _, bits in pieces) != sum(t.bits for t in targets):
        raise NotImplementedError(f"bitcast changes the size: {inst.operands[0].type} -> {inst.type}")
    parts, cursor = [], 0
    for target in targets:
        parts.append(_bit_range(b, pieces, cursor, target))
        cursor += target.bits
    return Value(parts)


def _bit_range(b, pieces, start: int, target: T.ScalarType) -> V:
    """Bits ``start .. start + target.bits`` of the concatenated pieces, as ``target``."""
    width = target.bits
    int_ty = like(pieces[0][0], f"i{width}", b)
    result, position = None, 0
    for value, bits in pieces:
        low, high = max(start, position), min(start + width, position + bits)
        if low < high:
            piece = value
            if low > position:
                piece = b.binop("lshr", piece, b.const(piece.ty, low - position))
            if bits > width:
                piece = b.cast("trunc", piece, int_ty)
            elif bits < width:
                piece = b.cast("zext", piece, int_ty)
            if low - start:
                piece = b.binop("shl", piece, b.const(int_ty, low - start))
            result = piece if result is None else b.binop("or", result, piece)
        position += bits
    if target.kind == "float":
        return b.cast("bitcast", result, like(result, ll_scalar(target), b))
    return result


def f32_to_f16(em, inst, args):
    b = em.b
    parts = []
    for part in cast_value(b, args[0], inst.operands[0].type, T.FLOAT).parts:
        half = b.cast("fptrunc", part, like(part, "half", b))
        parts.append(b.cast("zext", b.cast("bitcast", half, like(part, "i16", b)), like(part, "i32", b)))
    return cast_value(b, Value(parts), T.vector(T.UINT, len(parts)), result_scalar(inst))


def f16_to_f32(em, inst, args):
    b = em.b
    parts = []
    for part in cast_value(b, args[0], inst.operands[0].type, T.UINT).parts:
        low = b.cast("trunc", part, like(part, "i16", b))
        parts.append(b.cast("fpext", b.cast("bitcast", low, like(part, "half", b)), like(part, "float", b)))
    return cast_value(b, Value(parts), T.vector(T.FLOAT, len(parts)), result_scalar(inst))


# ---------------------------------------------------------------------------------------
# vector shaping
# ---------------------------------------------------------------------------------------


def _is_aggregate(t) -> bool:
    return isinstance(t, (T.ArrayType, T.StructType))


def construct(em, inst, args):
    if _is_aggregate(inst.type):
        return Value([part for arg in args for part in arg.parts])
    scalar = result_scalar(inst)
    parts = []
    for arg, operand in zip(args, inst.operands):
        parts.extend(cast_value(em.b, arg, operand.type, scalar).parts)
    return Value(parts)


def _dynamic_index(em, inst, args, position: int) -> V | None:
    if "index" in inst.attrs:
        return None
    return args[position].parts[0]


def extract(em, inst, args):
    b = em.b
    source_type = inst.operands[0].type
    if _is_aggregate(source_type):
        return Value(args[0].parts[member_slices(source_type)[int(inst.attrs["index"])]])
    chunk = len(flat_scalars(inst.type))
    parts = args[0].parts
    index = _dynamic_index(em, inst, args, 1)
    if index is None:
        start = int(inst.attrs["index"]) * chunk
        picked = parts[start:start + chunk]
    else:  # a dynamic index outside the vector reads 0
        picked = []
        for offset in range(chunk):
            result = b.zero(parts[0].ty)
            for position in range(len(parts) // chunk):
                hit = b.icmp("eq", index, b.const(index.ty, position))
                result = vselect(b, hit, parts[position * chunk + offset], result)
            picked.append(result)
    return cast_value(b, Value(picked), T.vector(flat_scalars(source_type)[0], chunk), result_scalar(inst))


def insert(em, inst, args):
    b = em.b
    if _is_aggregate(inst.type):
        parts = list(args[0].parts)
        parts[member_slices(inst.type)[int(inst.attrs["index"])]] = args[1].parts
        return Value(parts)
    scalar = result_scalar(inst)
    parts = cast_value(b, args[0], inst.operands[0].type, scalar).parts
    new = cast_value(b, args[1], inst.operands[1].type, scalar).parts
    chunk = len(new)
    index = _dynamic_index(em, inst, args, 2)
    if index is None:
        start = int(inst.attrs["index"]) * chunk
        parts = list(parts)
        parts[start:start + chunk] = new
        return Value(parts)
    result = []
    for position, part in enumerate(parts):
        hit = b.icmp("eq", index, b.const(index.ty, position // chunk))
        result.append(vselect(b, hit, new[position % chunk], part))
    return Value(result)


def shuffle(em, inst, args):
    joined, types = [], []
    for arg, operand in zip(args, inst.operands):
        joined.extend(arg.parts)
        types.extend(flat_scalars(operand.type))
    scalar = result_scalar(inst)
    return Value([cast(em.b, joined[lane], types[lane], scalar) for lane in inst.attrs["lanes"]])


def dot(em, inst, args):
    scalar = result_scalar(inst)
    width = len(flat_scalars(inst.operands[0].type))
    rows = aligned(em, inst, args, scalar, width)
    b = em.b
    mul, add = ("fmul", "fadd") if scalar.kind == "float" else ("mul", "add")
    total = b.binop(mul, rows[0][0], rows[1][0])
    for k in range(1, width):
        total = b.binop(add, total, b.binop(mul, rows[0][k], rows[1][k]))
    return Value([total])


# ---------------------------------------------------------------------------------------
# math {fn=...}
# ---------------------------------------------------------------------------------------

# exp2, log2, sin, cos and rsqrt on float and half are transcendentals.primitive (the machine's
# definition); exp, log, pow, tan, atan... arrive expanded (ir/lower/intrinsics_math.py)
_UNARY_INTRINSICS = {
    "sqrt": "llvm.sqrt", "floor": "llvm.floor", "ceil": "llvm.ceil", "round": "llvm.roundeven",
    "trunc": "llvm.trunc",
}
_IN_OPERAND_TYPE = ("sign", "isnan", "isinf", "isfinite")


def _clamp01(b, x):
    """``saturate``: clamped to [0, 1], NaN gives 0 as D3D defines it."""
    x = b.select(b.fcmp("ord", x, x), x, b.zero(x.ty))
    x = b.call(x.ty, "llvm.maximum", [x, b.zero(x.ty)])
    return b.call(x.ty, "llvm.minimum", [x, b.const(x.ty, 1.0)])


# fp32 functions the JIT calls the C library for: its integer bit tests ignore MXCSR's DAZ and
# FTZ (``float_mode``), so their inputs and results flush here (fmodf of a denormal keeps it)
_LIBRARY_CALLS = {"fmod"}


def _math_one(b, name: str, scalar: T.ScalarType, xs: list[V]) -> V:
    if name in transcendentals.PRIMITIVES and scalar == T.HALF:  # through float, rounded back once
        return cast(b, transcendentals.primitive(b, name, cast(b, xs[0], T.HALF, T.FLOAT)), T.FLOAT, T.HALF)
    if name in transcendentals.PRIMITIVES and scalar == T.FLOAT:
        return transcendentals.primitive(b, name, xs[0])
    if name in _LIBRARY_CALLS and scalar == T.FLOAT:
        return b.flush(_math_value(b, name, scalar, [b.flush(x) for x in xs]))
    return _math_value(b, name, scalar, xs)


def _math_value(b, name: str, scalar: T.ScalarType, xs: list[V]) -> V:
    x = xs[0]
    one = b.const(x.ty, 1) if scalar.kind != "float" else b.const(x.ty, 1.0)
    if name in _UNARY_INTRINSICS:
        return b.call(x.ty, _UNARY_INTRINSICS[name], [x])
    if name == "rsqrt":
        return b.binop("fdiv", one, b.call(x.ty, "llvm.sqrt", [x]))
    if name == "rcp":
        return b.binop("fdiv", one, x)
    if name == "frac":
        return b.binop("fsub", x, b.call(x.ty, "llvm.floor", [x]))
    if name == "saturate":
        return _clamp01(b, x)
    if name == "fmod":
        return b.binop("frem", x, xs[1])
    if name == "lerp":
        return b.binop("fadd", x, b.binop("fmul", xs[2], b.binop("fsub", xs[1], x)))
    if name == "mad":
        mul, add = ("fmul", "fadd") if scalar.kind == "float" else ("mul", "add")
        return b.binop(add, b.binop(mul, x, xs[1]), xs[2])
    if name == "smoothstep":
        lo, hi, value = xs
        t = _clamp01(b, b.binop("fdiv", b.binop("fsub", value, lo), b.binop("fsub", hi, lo)))
        three_minus = b.binop("fsub", b.const(x.ty, 3.0), b.binop("fmul", b.const(x.ty, 2.0), t))
        return b.binop("fmul", b.binop("fmul", t, t), three_minus)
    if name == "step":
        return b.select(b.fcmp("oge", xs[1], x), one, b.zero(x.ty))
    if name == "sign":
        if scalar.kind == "float":
            # zeros, NaN and (flushed) fp32 denormals give x * 0: a zero of x's sign, or NaN
            same = b.binop("fmul", x, b.zero(x.ty))
            negative = b.select(b.fcmp("olt", x, b.zero(x.ty)), b.const(x.ty, -1.0), same)
            return b.select(b.fcmp("ogt", x, b.zero(x.ty)), one, negative)
        zero = b.zero(x.ty)
        if scalar.kind == "int":
            negative = b.select(b.icmp("slt", x, zero), b.const(x.ty, -1), zero)
            return b.select(b.icmp("sgt", x, zero), one, negative)
        return b.select(b.icmp("ugt", x, zero), one, zero)
    if name == "isnan":
        return b.fcmp("uno", x, x)
    if name in ("isinf", "isfinite"):
        magnitude = b.call(x.ty, "llvm.fabs", [x])
        return b.fcmp("oeq" if name == "isinf" else "olt", magnitude, b.const(x.ty, float("inf")))
    raise NotImplementedError(f"math function {name!r} is not supported by the host JIT")


def math_function(em, inst, args):
    name = inst.attrs.get("fn")
    result = result_scalar(inst)
    scalar = flat_scalars(inst.operands[0].type)[0] if name in _IN_OPERAND_TYPE else result
    if name in ("isnan", "isinf", "isfinite") and scalar.kind != "float":
        scalar = T.FLOAT
    rows = aligned(em, inst, args, scalar)
    parts = [_math_one(em.b, name, scalar, list(column)) for column in zip(*rows)]
    source = T.BOOL if name in ("isnan", "isinf", "isfinite") else scalar
    return Value([cast(em.b, part, source, result) for part in parts])


# ---------------------------------------------------------------------------------------
# bits {fn=...}
# ---------------------------------------------------------------------------------------


def _bits_one(b, name: str, x: V, scalar: T.ScalarType) -> V:
    zero = b.zero(x.ty)
    all_ones = b.const(x.ty, -1)
    if name == "countbits":
        return b.call(x.ty, "llvm.ctpop", [x])
    if name == "reversebits":
        return b.call(x.ty, "llvm.bitreverse", [x])
    if name == "firstbitlow":
        low = b.call(x.ty, "llvm.cttz", [x, V("i1", "true")])
        return b.select(b.icmp("eq", x, zero), all_ones, low)
    if name == "firstbithigh":
        if scalar.kind == "int":  # negative: the first bit that differs from the sign
            x = b.select(b.icmp("slt", x, zero), b.binop("xor", x, all_ones), x)
        leading = b.call(x.ty, "llvm.ctlz", [x, V("i1", "true")])
        high = b.binop("sub", b.const(x.ty, scalar.bits - 1), leading)
        return b.select(b.icmp("eq", x, zero), all_ones, high)
    raise NotImplementedError(f"bits function {name!r} is not supported by the host JIT")


def bit_function(em, inst, args):
    b = em.b
    name = inst.attrs.get("fn")
    source = flat_scalars(inst.operands[0].type)[0]
    result = result_scalar(inst)
    parts = []
    for part in args[0].parts:
        value = _bits_one(b, name, part, source)
        if source.bits != result.bits:  # the count, wrapped to the result's width
            value = b.cast("trunc" if result.bits < source.bits else "zext", value,
                           like(value, f"i{result.bits}", b))
        parts.append(value)
    return Value(parts)


HANDLERS = {
    Op.CONST: const, Op.THREAD_INPUT: thread_input,
    Op.NON_UNIFORM: identity, Op.WATERFALL_BEGIN: identity, Op.WATERFALL_END: identity,
    Op.ADD: binary, Op.SUB: binary, Op.MUL: binary, Op.AND: binary, Op.OR: binary, Op.XOR: binary,
    Op.MIN: min_max, Op.MAX: min_max, Op.NEG: negate, Op.ABS: absolute, Op.NOT: bitwise_not,
    Op.FMA: fused_multiply_add, Op.SHL: shift, Op.SHR: shift, Op.DIV: divide, Op.REM: divide,
    Op.EQ: compare, Op.NE: compare, Op.LT: compare, Op.LE: compare, Op.GT: compare, Op.GE: compare,
    Op.SELECT: select, Op.CONVERT: convert, Op.BITCAST: bitcast,
    Op.F32TOF16: f32_to_f16, Op.F16TOF32: f16_to_f32,
    Op.CONSTRUCT: construct, Op.EXTRACT: extract, Op.INSERT: insert, Op.SHUFFLE: shuffle, Op.DOT: dot,
    Op.MATH: math_function, Op.BITS: bit_function,
}

__all__ = ["HANDLERS", "aligned", "result_scalar", "thread_input"]
