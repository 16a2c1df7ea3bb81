"""amdgcn handlers for lane-local operations: thread inputs, arithmetic, comparisons,
conversions, vector shaping, ``math`` and ``bits``.

The table maps each op to an emitter ``handler(k, inst) -> value``, where ``k`` is the
kernel emitter (``amdgcn.KernelEmitter``). Semantics follow the interpreter
(``ir/interpret_arith.py``) where LLVM can say the same thing cheaply; where the
hardware's own behaviour is what a driver would emit, that is used instead and
noted: integer division by zero and out-of-range float -> int conversions are
whatever ``udiv``/``fptosi`` give on the GPU, float division is the 2.5 ulp
``v_rcp_f32`` form D3D allows (``arcp afn``). A ``mul`` and an ``add`` stay two
roundings (no ``contract``), as in the interpreter. Shift amounts are masked to the
type's width, as the hardware and the interpreter do.
"""

from __future__ import annotations


from ...frontend import hlsl_types as T
from ...ir.ops import Op
from . import math as amdgcn_math
from .builder import FLOAT_FLAGS
from .values import (AmdgcnError, components, element_of, intrinsic_suffix, is_aggregate, llvm_type,
                            scalar_type, vector_of, with_count)

# ---------------------------------------------------------------------------------------
# thread inputs
# ---------------------------------------------------------------------------------------

_AXES = "xyz"


def used_components(k, inst) -> set[int]:
    """Components of a vector value its users read (extract / one-operand shuffle), else all."""
    used: set[int] = set()
    for user in k.users.get(inst, []):
        if user.op is Op.EXTRACT and "index" in user.attrs and len(user.operands) == 1:
            used.add(int(user.attrs["index"]))
        elif user.op is Op.SHUFFLE and len(user.operands) == 1:
            used.update(int(lane) for lane in user.attrs.get("lanes", []))
        else:
            return set(range(components(inst.type)))
    return used


def _thread_id(k, axis: int) -> str:
    if k.function.numthreads[axis] == 1:
        return "0"
    return k.call("i32", f"llvm.amdgcn.workitem.id.{_AXES[axis]}", [])


def _group_id(k, axis: int) -> str:
    return k.call("i32", f"llvm.amdgcn.workgroup.id.{_AXES[axis]}", [])


def group_index(k) -> str:
    """SV_GroupIndex: the thread id flattened x first (also the thread's lane order)."""
    nx, ny, nz = k.function.numthreads
    index = _thread_id(k, 0)
    if ny > 1 or nz > 1:
        upper = k.assign(f"mul nuw i32 {_thread_id(k, 2)}, {ny}")
        upper = k.assign(f"add nuw i32 {upper}, {_thread_id(k, 1)}")
        upper = k.assign(f"mul nuw i32 {upper}, {nx}")
        index = k.assign(f"add nuw i32 {upper}, {index}")
    return index


def thread_input(k, inst):
    which = inst.attrs.get("which")
    first = int(inst.attrs.get("component", 0))
    count = components(inst.type)
    if which == "group_index":
        parts = [group_index(k)] * count
    else:
        used = used_components(k, inst) if count > 1 else {0}
        parts = []
        for position in range(count):
            axis = first + position
            if position not in used or axis > 2:
                parts.append("0" if axis > 2 else "poison")
            elif which == "group_id":
                parts.append(_group_id(k, axis))
            elif which == "group_thread_id":
                parts.append(_thread_id(k, axis))
            elif which == "dispatch_thread_id":
                base = k.assign(f"mul i32 {_group_id(k, axis)}, {k.function.numthreads[axis]}")
                parts.append(k.assign(f"add i32 {base}, {_thread_id(k, axis)}"))
            else:
                raise AmdgcnError(f"unknown thread input {which!r}")
    value = k.build(parts, "i32")
    return k.convert(value, T.vector(T.UINT, count), inst.type)


def identity(k, inst):
    """``non_uniform`` and the waterfall markers: the operand itself."""
    return k.arg(inst, 0)


# ---------------------------------------------------------------------------------------
# arithmetic
# ---------------------------------------------------------------------------------------

# op -> (float opcode, signed int opcode, unsigned int opcode)
_BINARY = {
    Op.ADD: ("fadd", "add", "add"), Op.SUB: ("fsub", "sub", "sub"), Op.MUL: ("fmul", "mul", "mul"),
    Op.DIV: ("fdiv", "sdiv", "udiv"), Op.REM: (None, "srem", "urem"),
    Op.AND: (None, "and", "and"), Op.OR: (None, "or", "or"), Op.XOR: (None, "xor", "xor"),
}


def _opcode(table_entry, element: T.ScalarType) -> str:
    float_op, signed_op, unsigned_op = table_entry
    if element.kind == "float":
        if float_op is None:
            raise AmdgcnError("bitwise operation on a float")
        return f"{float_op} {FLOAT_FLAGS}"
    return signed_op if element.kind == "int" else unsigned_op


def binary(k, inst):
    element = element_of(inst.type)
    llvm = llvm_type(inst.type)
    a, b = k.arg_as(inst, 0, inst.type), k.arg_as(inst, 1, inst.type)
    if inst.op is Op.REM and element.kind == "float":
        return float_remainder(k, llvm, a, b)
    return k.assign(f"{_opcode(_BINARY[inst.op], element)} {llvm} {a}, {b}")


def float_remainder(k, llvm: str, a: str, b: str) -> str:
    """``fmod``: ``a - b * trunc(a / b)`` (the sign of ``a``)."""
    quotient = k.assign(f"fdiv {FLOAT_FLAGS} {llvm} {a}, {b}")
    whole = k.intrinsic("trunc", llvm, [quotient])
    product = k.assign(f"fmul {FLOAT_FLAGS} {llvm} {b}, {whole}")
    return k.assign(f"fsub {FLOAT_FLAGS} {llvm} {a}, {product}")


def minimum_maximum(k, inst):
    element = element_of(inst.type)
    llvm = llvm_type(inst.type)
    a, b = k.arg_as(inst, 0, inst.type), k.arg_as(inst, 1, inst.type)
    return _min_max(k, inst.op is Op.MIN, element, llvm, a, b)


def _min_max(k, is_min: bool, element: T.ScalarType, llvm: str, a: str, b: str) -> str:
    if element.kind == "float":  # IEEE minNum/maxNum, the interpreter's fmin/fmax
        return k.intrinsic("minnum" if is_min else "maxnum", llvm, [a, b])
    prefix = "s" if element.kind == "int" else "u"
    return k.intrinsic(prefix + ("min" if is_min else "max"), llvm, [a, b])


def negate(k, inst):
    llvm = llvm_type(inst.type)
    a = k.arg_as(inst, 0, inst.type)
    if element_of(inst.type).kind == "float":
        return k.assign(f"fneg {llvm} {a}")
    return k.assign(f"sub {llvm} {k.zero(inst.type)}, {a}")


def absolute(k, inst):
    llvm = llvm_type(inst.type)
    a = k.arg_as(inst, 0, inst.type)
    if element_of(inst.type).kind == "float":
        return k.intrinsic("fabs", llvm, [a])
    if element_of(inst.type).kind == "uint":
        return a
    return k.call(llvm, f"llvm.abs.{intrinsic_suffix(llvm)}", [(llvm, a), ("i1", "false")])


def bitwise_not(k, inst):
    llvm = llvm_type(inst.type)
    return k.assign(f"xor {llvm} {k.arg_as(inst, 0, inst.type)}, {k.literal(-1, inst.type)}")


def fused_multiply_add(k, inst):
    llvm = llvm_type(inst.type)
    a, b, c = (k.arg_as(inst, index, inst.type) for index in range(3))
    if element_of(inst.type).kind == "float":
        return k.intrinsic("fma", llvm, [a, b, c])
    return k.assign(f"add {llvm} {k.assign(f'mul {llvm} {a}, {b}')}, {c}")


def shift(k, inst):
    element = element_of(inst.type)
    llvm = llvm_type(inst.type)
    value = k.arg_as(inst, 0, inst.type)
    amount = k.arg_as(inst, 1, inst.type)
    amount = k.assign(f"and {llvm} {amount}, {k.literal(element.bits - 1, inst.type)}")
    opcode = "shl" if inst.op is Op.SHL else ("ashr" if element.kind == "int" else "lshr")
    return k.assign(f"{opcode} {llvm} {value}, {amount}")


# ---------------------------------------------------------------------------------------
# comparisons and selection
# ---------------------------------------------------------------------------------------

_PREDICATES = {  # op -> (float, signed, unsigned)
    Op.EQ: ("oeq", "eq", "eq"), Op.NE: ("une", "ne", "ne"), Op.LT: ("olt", "slt", "ult"),
    Op.LE: ("ole", "sle", "ule"), Op.GT: ("ogt", "sgt", "ugt"), Op.GE: ("oge", "sge", "uge"),
}


def compare(k, inst):
    left, right = inst.operands
    common = T.common_scalar(element_of(left.type), element_of(right.type))
    operand_type = T.vector(common, max(components(left.type), components(right.type)))
    a, b = k.arg_as(inst, 0, operand_type), k.arg_as(inst, 1, operand_type)
    float_p, signed_p, unsigned_p = _PREDICATES[inst.op]
    if common.kind == "float":
        text = f"fcmp {float_p}"
    else:
        text = f"icmp {signed_p if common.kind == 'int' else unsigned_p}"
    result = k.assign(f"{text} {llvm_type(operand_type)} {a}, {b}")
    return k.convert(result, T.vector(T.BOOL, components(operand_type)), inst.type)


def select(k, inst):
    condition = inst.operands[0]
    llvm = llvm_type(inst.type)
    if is_aggregate(inst.type):
        a, b = k.arg(inst, 1), k.arg(inst, 2)
        cond = k.arg_as(inst, 0, T.BOOL)
        return k.assign(f"select i1 {cond}, {llvm} {a}, {llvm} {b}")
    a, b = k.arg_as(inst, 1, inst.type), k.arg_as(inst, 2, inst.type)
    cond_type = T.BOOL if components(condition.type) == 1 else T.vector(T.BOOL, components(inst.type))
    cond = k.arg_as(inst, 0, cond_type)
    return k.assign(f"select {llvm_type(cond_type)} {cond}, {llvm} {a}, {llvm} {b}")


# ---------------------------------------------------------------------------------------
# conversions
# ---------------------------------------------------------------------------------------


def convert_value(k, inst):
    return k.arg_as(inst, 0, inst.type)


def bitcast(k, inst):
    source = inst.operands[0].type
    value = k.arg(inst, 0)
    if element_of(inst.type).kind == "bool":
        raise AmdgcnError("bitcast to bool")
    if element_of(source).kind == "bool":
        widened = T.vector(T.UINT, components(source))
        value, source = k.convert(value, source, widened), widened
    return k.assign(f"bitcast {llvm_type(source)} {value} to {llvm_type(inst.type)}")


def f32_to_f16(k, inst):
    count = components(inst.type)
    value = k.arg_as(inst, 0, T.vector(T.FLOAT, count))
    halves = k.assign(f"fptrunc {vector_of('float', count)} {value} to {vector_of('half', count)}")
    bits = k.assign(f"bitcast {vector_of('half', count)} {halves} to {vector_of('i16', count)}")
    return k.assign(f"zext {vector_of('i16', count)} {bits} to {llvm_type(inst.type)}")


def f16_to_f32(k, inst):
    count = components(inst.type)
    value = k.arg_as(inst, 0, T.vector(T.UINT, count))
    bits = k.assign(f"trunc {vector_of('i32', count)} {value} to {vector_of('i16', count)}")
    halves = k.assign(f"bitcast {vector_of('i16', count)} {bits} to {vector_of('half', count)}")
    return k.assign(f"fpext {vector_of('half', count)} {halves} to {llvm_type(inst.type)}")


# ---------------------------------------------------------------------------------------
# vector shaping
# ---------------------------------------------------------------------------------------


def construct(k, inst):
    llvm = llvm_type(inst.type)
    if is_aggregate(inst.type):
        members = ([inst.type.element] * inst.type.size if isinstance(inst.type, T.ArrayType)
                   else [field for _, field in inst.type.fields])
        result = "poison"
        for index, (operand, member) in enumerate(zip(inst.operands, members)):
            value = k.value(operand, inst) if is_aggregate(member) else k.arg_as(inst, index, member)
            result = k.assign(f"insertvalue {llvm} {result}, {llvm_type(member)} {value}, {index}")
        return result
    element = element_of(inst.type)
    parts = []
    for index, operand in enumerate(inst.operands):
        count = components(operand.type)
        value = k.arg_as(inst, index, T.vector(element, count))
        parts += k.parts(value, T.vector(element, count))
    if len(parts) != components(inst.type):
        raise AmdgcnError(f"construct of {len(parts)} components into {inst.type}")
    return k.build(parts, scalar_type(element))


def _chunk_lanes(start: int, count: int) -> str:
    return ", ".join(f"i32 {start + k}" for k in range(count))


def extract(k, inst):
    source = inst.operands[0]
    source_llvm = llvm_type(source.type)
    if is_aggregate(source.type):
        return k.assign(f"extractvalue {source_llvm} {k.arg(inst, 0)}, {int(inst.attrs['index'])}")
    chunk = components(inst.type)
    width = components(source.type)
    value = k.arg(inst, 0)
    if width == 1:
        return value
    if "index" in inst.attrs:
        index = int(inst.attrs["index"])
        if chunk == 1:
            return k.extract(value, source_llvm, index)
        return k.assign(f"shufflevector {source_llvm} {value}, {source_llvm} poison, "
                        f"<{chunk} x i32> <{_chunk_lanes(index * chunk, chunk)}>")
    index = k.arg_as(inst, 1, T.UINT)
    result = k.zero(inst.type)  # a dynamic index outside the vector reads 0
    for position in range(width // chunk):
        part = (k.extract(value, source_llvm, position) if chunk == 1 else
                k.assign(f"shufflevector {source_llvm} {value}, {source_llvm} poison, "
                         f"<{chunk} x i32> <{_chunk_lanes(position * chunk, chunk)}>"))
        hit = k.assign(f"icmp eq i32 {index}, {position}")
        result = k.assign(f"select i1 {hit}, {llvm_type(inst.type)} {part}, {llvm_type(inst.type)} {result}")
    return result


def insert(k, inst):
    llvm = llvm_type(inst.type)
    if is_aggregate(inst.type):
        member = inst.operands[1].type
        return k.assign(f"insertvalue {llvm} {k.arg(inst, 0)}, {llvm_type(member)} {k.arg(inst, 1)}, "
                        f"{int(inst.attrs['index'])}")
    element = element_of(inst.type)
    chunk = components(inst.operands[1].type)
    base = k.arg_as(inst, 0, inst.type)
    part_type = T.vector(element, chunk)
    part = k.arg_as(inst, 1, part_type)
    pieces = k.parts(part, part_type)
    if "index" in inst.attrs:
        return _insert_at(k, llvm, base, pieces, int(inst.attrs["index"]) * chunk, scalar_type(element))
    index = k.arg_as(inst, 2, T.UINT)
    result = base  # a dynamic index outside the vector changes nothing
    for position in range(components(inst.type) // chunk):
        candidate = _insert_at(k, llvm, base, pieces, position * chunk, scalar_type(element))
        hit = k.assign(f"icmp eq i32 {index}, {position}")
        result = k.assign(f"select i1 {hit}, {llvm} {candidate}, {llvm} {result}")
    return result


def _insert_at(k, llvm: str, base: str, pieces: list[str], start: int, element: str) -> str:
    if not llvm.startswith("<"):
        return pieces[0]
    for offset, piece in enumerate(pieces):
        base = k.assign(f"insertelement {llvm} {base}, {element} {piece}, i32 {start + offset}")
    return base


def shuffle(k, inst):
    element = element_of(inst.type)
    lanes = [int(lane) for lane in inst.attrs["lanes"]]
    types = [operand.type for operand in inst.operands]
    llvm_types = {llvm_type(t) for t in types}
    if len(llvm_types) == 1 and all(components(t) > 1 for t in types) and len(types) <= 2 and \
            element_of(types[0]) == element:
        vector = llvm_types.pop()
        second = k.arg(inst, 1) if len(types) == 2 else "poison"
        if len(lanes) == 1:
            joined = k.assign(f"shufflevector {vector} {k.arg(inst, 0)}, {vector} {second}, "
                              f"<1 x i32> <i32 {lanes[0]}>")
            return k.assign(f"extractelement <1 x {scalar_type(element)}> {joined}, i32 0")
        mask = ", ".join(f"i32 {lane}" for lane in lanes)
        return k.assign(f"shufflevector {vector} {k.arg(inst, 0)}, {vector} {second}, <{len(lanes)} x i32> <{mask}>")
    pool = []
    for index, t in enumerate(types):
        value = k.arg_as(inst, index, T.vector(element, components(t)))
        pool += k.parts(value, T.vector(element, components(t)))
    return k.build([pool[lane] for lane in lanes], scalar_type(element))


def dot(k, inst):
    count = components(inst.operands[0].type)
    operand_type = with_count(inst.type, count)
    a = k.parts(k.arg_as(inst, 0, operand_type), operand_type)
    b = k.parts(k.arg_as(inst, 1, operand_type), operand_type)
    return _sum_of_products(k, inst.type, a, b)


def _sum_of_products(k, t: T.Type, a: list[str], b: list[str]) -> str:
    llvm = llvm_type(t)
    floats = element_of(t).kind == "float"
    mul, add = ("fmul " + FLOAT_FLAGS, "fadd " + FLOAT_FLAGS) if floats else ("mul", "add")
    total = k.assign(f"{mul} {llvm} {a[0]}, {b[0]}")
    for left, right in zip(a[1:], b[1:]):
        total = k.assign(f"{add} {llvm} {total}, {k.assign(f'{mul} {llvm} {left}, {right}')}")
    return total


HANDLERS = {
    Op.THREAD_INPUT: thread_input,
    Op.NON_UNIFORM: identity, Op.WATERFALL_BEGIN: identity, Op.WATERFALL_END: identity,
    Op.ADD: binary, Op.SUB: binary, Op.MUL: binary, Op.DIV: binary, Op.REM: binary,
    Op.AND: binary, Op.OR: binary, Op.XOR: binary,
    Op.MIN: minimum_maximum, Op.MAX: minimum_maximum,
    Op.NEG: negate, Op.ABS: absolute, Op.NOT: bitwise_not, Op.FMA: fused_multiply_add,
    Op.SHL: shift, Op.SHR: shift,
    Op.EQ: compare, Op.NE: compare, Op.LT: compare, Op.LE: compare, Op.GT: compare, Op.GE: compare,
    Op.SELECT: select,
    Op.CONVERT: convert_value, Op.BITCAST: bitcast, Op.F32TOF16: f32_to_f16, Op.F16TOF32: f16_to_f32,
    Op.CONSTRUCT: construct, Op.EXTRACT: extract, Op.INSERT: insert, Op.SHUFFLE: shuffle, Op.DOT: dot,
    Op.MATH: amdgcn_math.math_function, Op.BITS: amdgcn_math.bit_function,
}
