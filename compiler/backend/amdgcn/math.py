"""amdgcn handlers for ``math {fn=...}`` (HLSL's names) and ``bits {fn=...}``.

The transcendentals arrive as the primitives the IR lowering leaves (``exp2``, ``log2``,
``sin``, ``cos``, ``rsqrt``, ``rcp``, ``sqrt``: ``ir/lower/intrinsics_math.py`` expands the
others); they use LLVM's intrinsics with ``afn``, which the AMDGPU backend turns into the
hardware's approximations (``v_exp_f32``, ``v_sin_f32``...), as a D3D driver does.
"""

from __future__ import annotations

import math

from ...frontend import hlsl_types as T
from .builder import FLOAT_FLAGS
from .values import AmdgcnError, components, element_of, intrinsic_suffix, llvm_type, with_count

_AFN = "afn"


class _Math:
    """Float helpers over one LLVM type (scalar or vector), for the expansions below."""

    def __init__(self, k, t: T.Type):
        self.k, self.t, self.llvm = k, t, llvm_type(t)

    def const(self, value) -> str:
        return self.k.literal(value, self.t)

    def op(self, opcode: str, a: str, b: str) -> str:
        return self.k.assign(f"{opcode} {FLOAT_FLAGS} {self.llvm} {a}, {b}")

    def add(self, a, b):
        return self.op("fadd", a, b)

    def sub(self, a, b):
        return self.op("fsub", a, b)

    def mul(self, a, b):
        return self.op("fmul", a, b)

    def div(self, a, b):
        return self.op("fdiv", a, b)

    def call(self, name: str, *args: str) -> str:
        return self.k.intrinsic(name, self.llvm, list(args), flags=_AFN)

    def select(self, condition: str, a: str, b: str) -> str:
        count = components(self.t)
        cond_type = "i1" if count == 1 else f"<{count} x i1>"
        return self.k.assign(f"select {cond_type} {condition}, {self.llvm} {a}, {self.llvm} {b}")

    def compare(self, predicate: str, a: str, b: str) -> str:
        return self.k.assign(f"fcmp {predicate} {self.llvm} {a}, {b}")


def _float_args(k, inst, target: T.Type) -> list[str]:
    return [k.arg_as(inst, index, target) for index in range(len(inst.operands))]


def _elementwise(k, inst, body):
    """``body(m, *args)`` with every operand converted to the result type."""
    return body(_Math(k, inst.type), *_float_args(k, inst, inst.type))


def _on_operand_type(k, inst, body):
    """``body(m, *args)`` in the first operand's component count, result element."""
    operand_type = with_count(inst.type, components(inst.operands[0].type))
    return body(_Math(k, operand_type), *_float_args(k, inst, operand_type))


def _length(m, v):
    parts = m.k.parts(v, m.t)
    element = _Math(m.k, element_of(m.t))
    total = element.mul(parts[0], parts[0])
    for part in parts[1:]:
        total = element.add(total, element.mul(part, part))
    return element.call("sqrt", total)


def _normalize(m, v):
    length = _length(m, v)
    element = _Math(m.k, element_of(m.t))
    inverse = element.div(element.const(1.0), length)
    return m.mul(v, m.k.splat(inverse, llvm_type(element_of(m.t)), components(m.t)))


def _cross(m, a, b):
    x = m.k.parts(a, m.t)
    y = m.k.parts(b, m.t)
    element = _Math(m.k, element_of(m.t))
    parts = [element.sub(element.mul(x[1], y[2]), element.mul(x[2], y[1])),
             element.sub(element.mul(x[2], y[0]), element.mul(x[0], y[2])),
             element.sub(element.mul(x[0], y[1]), element.mul(x[1], y[0]))]
    return m.k.build(parts, llvm_type(element_of(m.t)))


def _smoothstep(m, lo, hi, x):
    t = m.div(m.sub(x, lo), m.sub(hi, lo))
    t = m.call("minnum", m.call("maxnum", t, m.const(0.0)), m.const(1.0))
    return m.mul(m.mul(t, t), m.sub(m.const(3.0), m.mul(m.const(2.0), t)))


_FLOAT_FUNCTIONS = {
    "sqrt": lambda m, x: m.call("sqrt", x),
    "rsqrt": lambda m, x: m.div(m.const(1.0), m.call("sqrt", x)),
    "rcp": lambda m, x: m.div(m.const(1.0), x),
    "exp2": lambda m, x: m.call("exp2", x),
    "log2": lambda m, x: m.call("log2", x),
    "floor": lambda m, x: m.call("floor", x),
    "ceil": lambda m, x: m.call("ceil", x),
    "frac": lambda m, x: m.sub(x, m.call("floor", x)),
    "round": lambda m, x: m.call("rint", x),
    "trunc": lambda m, x: m.call("trunc", x),
    "sin": lambda m, x: m.call("sin", x),
    "cos": lambda m, x: m.call("cos", x),
    "saturate": lambda m, x: m.call("minnum", m.call("maxnum", x, m.const(0.0)), m.const(1.0)),
    "lerp": lambda m, a, b, s: m.add(a, m.mul(s, m.sub(b, a))),
    "clamp": lambda m, x, lo, hi: m.call("minnum", m.call("maxnum", x, lo), hi),
    "step": lambda m, edge, x: m.select(m.compare("oge", x, edge), m.const(1.0), m.const(0.0)),
    "smoothstep": _smoothstep,
    "mad": lambda m, a, b, c: m.add(m.mul(a, b), c),
    "fmod": lambda m, a, b: m.sub(a, m.mul(b, m.call("trunc", m.div(a, b)))),
    "degrees": lambda m, x: m.mul(x, m.const(180.0 / math.pi)),
    "radians": lambda m, x: m.mul(x, m.const(math.pi / 180.0)),
    "normalize": _normalize,
    "cross": _cross,
}
_FLOAT_REDUCTIONS = {
    "length": lambda m, v: _length(m, v),
    "distance": lambda m, a, b: _length(m, m.sub(a, b)),
}


def _integer_function(k, inst, name: str):
    llvm = llvm_type(inst.type)
    args = _float_args(k, inst, inst.type)
    signed = element_of(inst.type).kind == "int"
    lowest, highest = ("smin", "smax") if signed else ("umin", "umax")
    if name == "clamp":
        return k.intrinsic(lowest, llvm, [k.intrinsic(highest, llvm, [args[0], args[1]]), args[2]])
    if name == "mad":
        return k.assign(f"add {llvm} {k.assign(f'mul {llvm} {args[0]}, {args[1]}')}, {args[2]}")
    if name == "saturate":
        return args[0]
    raise AmdgcnError(f"math function {name!r} on {inst.type}")


def _classify(k, inst, name: str):
    """sign, isnan, isinf, isfinite, all, any: computed on the operand, result type differs."""
    operand = inst.operands[0]
    value = k.arg(inst, 0)
    llvm = llvm_type(operand.type)
    element = element_of(operand.type)
    count = components(operand.type)
    bools = T.vector(T.BOOL, count)
    if name in ("all", "any"):
        nonzero = k.convert(value, operand.type, bools)
        if count > 1:
            reduce = "and" if name == "all" else "or"
            nonzero = k.call("i1", f"llvm.vector.reduce.{reduce}.v{count}i1", [(f"<{count} x i1>", nonzero)])
        return k.convert(nonzero, T.BOOL, inst.type)
    if name == "sign":
        zero = k.zero(operand.type)
        compare = "fcmp" if element.kind == "float" else "icmp"
        greater, less = ("ogt", "olt") if element.kind == "float" else ("sgt", "slt")
        if element.kind == "uint":
            greater, less = "ugt", "ult"
        positive = k.convert(k.assign(f"{compare} {greater} {llvm} {value}, {zero}"), bools, inst.type)
        negative = k.convert(k.assign(f"{compare} {less} {llvm} {value}, {zero}"), bools, inst.type)
        return k.assign(f"sub {llvm_type(inst.type)} {positive}, {negative}")
    if element.kind != "float":
        truth = {"isnan": "false", "isinf": "false", "isfinite": "true"}[name]
        return k.convert(k.literal(truth == "true", bools), bools, inst.type)
    if name == "isnan":
        result = k.assign(f"fcmp uno {llvm} {value}, {value}")
    else:
        magnitude = k.intrinsic("fabs", llvm, [value])
        infinity = k.literal(float("inf"), operand.type)
        result = k.assign(f"fcmp {'oeq' if name == 'isinf' else 'olt'} {llvm} {magnitude}, {infinity}")
    return k.convert(result, bools, inst.type)


def math_function(k, inst):
    name = inst.attrs.get("fn")
    if name in ("sign", "isnan", "isinf", "isfinite", "all", "any"):
        return _classify(k, inst, name)
    if element_of(inst.type).kind != "float":
        return _integer_function(k, inst, name)
    if name in _FLOAT_REDUCTIONS:
        return _on_operand_type(k, inst, _FLOAT_REDUCTIONS[name])
    if name not in _FLOAT_FUNCTIONS:
        raise AmdgcnError(f"math function {name!r} has no amdgcn lowering")
    return _elementwise(k, inst, _FLOAT_FUNCTIONS[name])


def bit_function(k, inst):
    name = inst.attrs.get("fn")
    operand = inst.operands[0]
    llvm = llvm_type(operand.type)
    value = k.arg(inst, 0)
    element = element_of(operand.type)
    bits = element.bits
    suffix = intrinsic_suffix(llvm)
    if name == "countbits":
        result = k.intrinsic("ctpop", llvm, [value])
    elif name == "reversebits":
        result = k.intrinsic("bitreverse", llvm, [value])
    elif name in ("firstbitlow", "firstbithigh"):
        source = value
        if name == "firstbithigh" and element.kind == "int":  # negative: the first bit that differs from the sign
            negative = k.assign(f"icmp slt {llvm} {value}, {k.zero(operand.type)}")
            flipped = k.assign(f"xor {llvm} {value}, {k.literal(-1, operand.type)}")
            source = k.assign(f"select {_bools(operand.type)} {negative}, {llvm} {flipped}, {llvm} {value}")
        if name == "firstbitlow":
            found = k.call(llvm, f"llvm.cttz.{suffix}", [(llvm, source), ("i1", "true")])
        else:
            leading = k.call(llvm, f"llvm.ctlz.{suffix}", [(llvm, source), ("i1", "true")])
            found = k.assign(f"sub {llvm} {k.literal(bits - 1, operand.type)}, {leading}")
        empty = k.assign(f"icmp eq {llvm} {source}, {k.zero(operand.type)}")
        result = k.assign(f"select {_bools(operand.type)} {empty}, {llvm} {k.literal(-1, operand.type)}, "
                          f"{llvm} {found}")
    else:
        raise AmdgcnError(f"bits function {name!r} has no amdgcn lowering")
    target_bits = element_of(inst.type).bits
    if target_bits != bits:  # a 16- or 64-bit operand's count in a uint: zero-extend or truncate
        resized = with_count(T.scalar_of("uint", target_bits), components(operand.type))
        opcode = "zext" if target_bits > bits else "trunc"
        result = k.assign(f"{opcode} {llvm} {result} to {llvm_type(resized)}")
        return k.convert(result, resized, inst.type)
    return k.convert(result, operand.type, inst.type)


def _bools(t: T.Type) -> str:
    count = components(t)
    return "i1" if count == 1 else f"<{count} x i1>"
