"""A small textual LLVM IR builder for the host JIT (``host/module.py``).

llvmlite's ``ir`` layer does not model vector GEPs or opaque-pointer gathers, and
text is cheaper to build, so the host back end writes LLVM assembly itself. A
value is a ``V(ty, ref)``: its LLVM type text (``float``, ``<32 x i1>``, ``ptr``)
and its operand text (``%v12``, ``1.0``). Lane vectors are ``<W x T>``; a wave
value that is the same in every lane may stay a scalar ``T``.

    b = Builder(wave_size=32)
    x = b.binop("fadd", a, c)             # V("<32 x float>", "%v3")
    m = b.icmp("ult", i, b.const("i32", 7))
    b.call("<32 x float>", "llvm.minnum", [x, y])   # mangled and declared on first use
"""

from __future__ import annotations

import struct
from collections.abc import Iterator
from contextlib import contextmanager
from typing import NamedTuple

import numpy as np

from ...frontend import hlsl_types as T
from ..llvm_types import scalar_type

# ---------------------------------------------------------------------------------------
# types
# ---------------------------------------------------------------------------------------

ll_scalar = scalar_type  # the LLVM type of one component (shared with the amdgcn back end)


def memory_type(scalar: T.ScalarType) -> str:
    """How a component is stored in memory (bool as a 32-bit word)."""
    return "i32" if scalar.kind == "bool" else ll_scalar(scalar)


def memory_bytes(scalar: T.ScalarType) -> int:
    return 4 if scalar.kind == "bool" else scalar.bits // 8


def flat_scalars(t: T.Type) -> list[T.ScalarType]:
    """The scalar type of every component of ``t``, aggregates flattened member by member."""
    if isinstance(t, T.ScalarType):
        return [t]
    if isinstance(t, (T.VectorType, T.MatrixType)):
        return [t.element] * t.components
    if isinstance(t, T.ArrayType):
        if t.size is None:
            raise NotImplementedError(f"unsized array type {t} as a value")
        return flat_scalars(t.element) * t.size
    if isinstance(t, T.StructType):
        return [scalar for _, field in t.fields for scalar in flat_scalars(field)]
    if t == T.VOID:
        return []
    raise NotImplementedError(f"the host JIT has no value representation for type {t}")


def member_slices(t: T.Type) -> list[slice]:
    """For an array or struct: the component range of each element or field."""
    members = [t.element] * t.size if isinstance(t, T.ArrayType) else [field for _, field in t.fields]
    slices, start = [], 0
    for member in members:
        count = len(flat_scalars(member))
        slices.append(slice(start, start + count))
        start += count
    return slices


def is_vector(ty: str) -> bool:
    return ty.startswith("<")


def element(ty: str) -> str:
    """``<32 x float>`` -> ``float``; scalars are their own element."""
    return ty[ty.index("x") + 2:-1] if is_vector(ty) else ty


def is_float(ty: str) -> bool:
    return element(ty) in ("half", "float", "double")


def bit_width(ty: str) -> int:
    base = element(ty)
    return {"half": 16, "float": 32, "double": 64}.get(base) or int(base[1:])


def mangle(ty: str) -> str:
    """Intrinsic name suffix of a type: ``<32 x float>`` -> ``v32f32``, ``ptr`` -> ``p0``."""
    if is_vector(ty):
        count = ty[1:ty.index("x")].strip()
        return f"v{count}{mangle(element(ty))}"
    if ty == "ptr":
        return "p0"
    return {"half": "f16", "float": "f32", "double": "f64"}.get(ty, ty)


class V(NamedTuple):
    """An LLVM value: its type text and operand text."""

    ty: str
    ref: str

    def __str__(self) -> str:
        return f"{self.ty} {self.ref}"


# ---------------------------------------------------------------------------------------
# constants
# ---------------------------------------------------------------------------------------


def scalar_literal(ty: str, value) -> str:
    """A constant of a scalar LLVM type as LLVM writes it (floats in exact hex)."""
    if ty == "i1":
        return "true" if bool(value) else "false"
    if ty == "ptr":
        return "null"
    if ty == "half":
        bits = int(np.array(value, dtype=np.float16).view(np.uint16))
        return f"0xH{bits:04X}"
    if ty in ("float", "double"):
        exact = float(np.float32(value)) if ty == "float" else float(value)
        return "0x%016X" % struct.unpack("<Q", struct.pack("<d", exact))[0]
    bits = int(ty[1:])
    wrapped = int(value) & ((1 << bits) - 1)
    return str(wrapped - (1 << bits) if wrapped >> (bits - 1) else wrapped)


def vector_literal(ty: str, values) -> str:
    base = element(ty)
    values = list(values)
    if all(v == values[0] for v in values) and not (base in ("float", "double", "half") and values[0] != values[0]):
        return f"splat ({base} {scalar_literal(base, values[0])})"
    return "<" + ", ".join(f"{base} {scalar_literal(base, v)}" for v in values) + ">"


# ---------------------------------------------------------------------------------------
# the builder
# ---------------------------------------------------------------------------------------


_FLOAT_ARITHMETIC = ("fadd", "fsub", "fmul", "fdiv", "frem")
_FLOAT_INTRINSICS = {"llvm.minnum", "llvm.maxnum", "llvm.minimum", "llvm.maximum", "llvm.fma", "llvm.sqrt",
                     "llvm.exp", "llvm.exp2", "llvm.log", "llvm.log2", "llvm.log10", "llvm.floor", "llvm.ceil",
                     "llvm.roundeven", "llvm.trunc", "llvm.sin", "llvm.cos", "llvm.tan", "llvm.asin",
                     "llvm.acos", "llvm.atan", "llvm.sinh", "llvm.cosh", "llvm.tanh", "llvm.pow", "llvm.atan2"}


class Builder:
    """Appends instructions to the current basic block; declares intrinsics as they are used."""

    def __init__(self, wave_size: int):
        self.wave_size = wave_size
        self.lines: list[str] = []
        self.declarations: dict[str, str] = {}
        self.counter = 0
        self.terminated = True  # no block is open until ``start``
        self.current = ""  # the open basic block's label
        self.globals: list[str] = []
        self.entry_allocas: list[str] = []  # hoisted to the entry block
        self.entry_inits: list[str] = []  # zero stores into them, run once per call
        self.helpers: dict[str, str] = {}  # small out-of-line functions, by name
        # fp32 denormals flushed by instructions around each fp32 operation instead of by MXCSR
        # (a kernel with fp64 values: ``float_mode``)
        self.explicit_flush = False

    # -- names, blocks ---------------------------------------------------------------------

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def label(self, hint: str = "L") -> str:
        return self.fresh(hint + ".")

    def start(self, label: str) -> None:
        """Open basic block ``label`` (closing the current one with a branch to it if open)."""
        if not self.terminated:
            self.br(label)
        self.lines.append(f"{label}:")
        self.terminated = False
        self.current = label

    @contextmanager
    def detached(self) -> Iterator[list[str]]:
        """Build another function's body (an out-of-line helper) in the middle of this one: the
        yielded list collects its lines; this function's lines and open block come back after."""
        saved = self.lines, self.terminated, self.current
        self.lines, self.terminated = [], False
        try:
            yield self.lines
        finally:
            self.lines, self.terminated, self.current = saved

    def raw(self, text: str) -> None:
        self.lines.append("  " + text)

    def inst(self, ty: str, text: str) -> V:
        name = "%" + self.fresh()
        self.lines.append(f"  {name} = {text}")
        return V(ty, name)

    def terminate(self, text: str) -> None:
        self.lines.append("  " + text)
        self.terminated = True

    def br(self, label: str) -> None:
        self.terminate(f"br label %{label}")

    def cbr(self, condition: V, if_true: str, if_false: str) -> None:
        self.terminate(f"br {condition}, label %{if_true}, label %{if_false}")

    def ret(self, value: int) -> None:
        self.terminate(f"ret i32 {value}")

    # -- types -----------------------------------------------------------------------------

    def vec(self, ty: str, count: int | None = None) -> str:
        return f"<{count or self.wave_size} x {element(ty)}>"

    @property
    def mask_ty(self) -> str:
        return f"<{self.wave_size} x i1>"

    @property
    def bits_ty(self) -> str:
        return f"i{self.wave_size}"

    # -- constants -------------------------------------------------------------------------

    def const(self, ty: str, value) -> V:
        if is_vector(ty):
            count = int(ty[1:ty.index("x")])
            values = value if isinstance(value, (list, tuple, np.ndarray)) else [value] * count
            return V(ty, vector_literal(ty, values))
        return V(ty, scalar_literal(ty, value))

    def zero(self, ty: str) -> V:
        aggregate = is_vector(ty) or ty.startswith("[")
        return V(ty, "zeroinitializer" if aggregate else scalar_literal(ty, 0))

    def lane_mask(self, lanes) -> V:
        """A constant ``<W x i1>`` from W booleans."""
        return self.const(self.mask_ty, [bool(lane) for lane in lanes])

    def all_lanes(self) -> V:
        return self.const(self.mask_ty, True)

    def no_lanes(self) -> V:
        return self.zero(self.mask_ty)

    # -- arithmetic ------------------------------------------------------------------------

    def binop(self, op: str, a: V, b: V) -> V:
        if self.explicit_flush and op in _FLOAT_ARITHMETIC and element(a.ty) == "float":
            return self.flush(self.inst(a.ty, f"{op} {self.flush(a)}, {self.flush(b).ref}"))
        return self.inst(a.ty, f"{op} {a}, {b.ref}")

    def flush(self, x: V) -> V:
        """An fp32 (lane vector) with its denormals replaced by zeros of their sign."""
        int_ty = x.ty.replace("float", "i32")
        bits = self.cast("bitcast", x, int_ty)
        exponent = self.inst(int_ty, f"and {bits}, {self.const(int_ty, 0x7F800000).ref}")
        sign = self.inst(int_ty, f"and {bits}, {self.const(int_ty, -0x80000000).ref}")
        flushed = self.select(self.icmp("eq", exponent, self.zero(int_ty)), sign, bits)
        return self.cast("bitcast", flushed, x.ty)

    def unop_fneg(self, a: V) -> V:
        return self.inst(a.ty, f"fneg {a}")

    def _predicate_ty(self, ty: str) -> str:
        return self.vec("i1", int(ty[1:ty.index("x")])) if is_vector(ty) else "i1"

    def icmp(self, predicate: str, a: V, b: V) -> V:
        return self.inst(self._predicate_ty(a.ty), f"icmp {predicate} {a}, {b.ref}")

    def fcmp(self, predicate: str, a: V, b: V) -> V:
        if self.explicit_flush and element(a.ty) == "float":
            a, b = self.flush(a), self.flush(b)
        return self.inst(self._predicate_ty(a.ty), f"fcmp {predicate} {a}, {b.ref}")

    def select(self, condition: V, if_true: V, if_false: V) -> V:
        if if_true.ref == if_false.ref:
            return if_true
        return self.inst(if_true.ty, f"select {condition}, {if_true}, {if_false}")

    def cast(self, op: str, value: V, ty: str) -> V:
        if value.ty == ty and op in ("bitcast", "zext", "sext", "trunc", "fpext", "fptrunc"):
            return value
        return self.inst(ty, f"{op} {value} to {ty}")

    def call(self, ret: str, name: str, args: list[V], mangle_with: list[str] | None = None,
             attrs: str = "") -> V | None:
        """Call intrinsic/function ``name``; ``mangle_with`` lists the overloaded types."""
        full = name + "".join("." + mangle(ty) for ty in (mangle_with if mangle_with is not None else [ret]))
        if full not in self.declarations:
            params = ", ".join(arg.ty for arg in args)
            self.declarations[full] = f"declare {ret} @{full}({params}){attrs}"
        flushing = self.explicit_flush and name in _FLOAT_INTRINSICS and element(ret) == "float"
        if flushing:
            args = [self.flush(arg) for arg in args]
        text = f"call {ret} @{full}(" + ", ".join(str(arg) for arg in args) + ")"
        if ret == "void":
            self.raw(text)
            return None
        return self.flush(self.inst(ret, text)) if flushing else self.inst(ret, text)

    # -- vectors ---------------------------------------------------------------------------

    def splat(self, value: V, count: int | None = None) -> V:
        """A lane vector holding ``value`` in every lane (vectors pass through)."""
        if is_vector(value.ty):
            return value
        ty = self.vec(value.ty, count)
        if not value.ref.startswith("%"):
            return V(ty, f"splat ({value})")
        one = self.inst(self.vec(value.ty, 1), f"insertelement <1 x {value.ty}> poison, {value}, i64 0")
        count = count or self.wave_size
        return self.inst(ty, f"shufflevector {one}, <1 x {value.ty}> poison, <{count} x i32> zeroinitializer")

    def extract(self, vector: V, index: V | int) -> V:
        index_text = f"i32 {index}" if isinstance(index, int) else str(index)
        return self.inst(element(vector.ty), f"extractelement {vector}, {index_text}")

    def insert(self, vector: V, value: V, index: V | int) -> V:
        index_text = f"i32 {index}" if isinstance(index, int) else str(index)
        return self.inst(vector.ty, f"insertelement {vector}, {value}, {index_text}")

    def shuffle(self, a: V, b: V | None, mask: list[int | None]) -> V:
        """``shufflevector``: mask entries index a ++ b; None is poison."""
        b_text = b.ref if b is not None else "poison"
        entries = ", ".join("i32 poison" if m is None else f"i32 {m}" for m in mask)
        ty = self.vec(a.ty, len(mask))
        return self.inst(ty, f"shufflevector {a}, {a.ty} {b_text}, <{len(mask)} x i32> <{entries}>")

    # -- masks -----------------------------------------------------------------------------

    def mask_bits(self, mask: V) -> V:
        """A ``<W x i1>`` lane mask as a W-bit integer (bit i = lane i)."""
        return self.cast("bitcast", mask, self.bits_ty)

    def bits_mask(self, bits: V) -> V:
        return self.cast("bitcast", bits, self.mask_ty)

    def any_lane(self, mask: V) -> V:
        if mask.ref == "zeroinitializer":
            return V("i1", "false")
        return self.icmp("ne", self.mask_bits(mask), self.zero(self.bits_ty))

    def mask_and(self, a: V, b: V) -> V:
        if a.ref == "zeroinitializer" or b.ref == "zeroinitializer":
            return self.zero(self.mask_ty)
        if a.ref == b.ref or b.ref == self.all_lanes().ref:
            return a
        if a.ref == self.all_lanes().ref:
            return b
        return self.binop("and", a, b)

    def mask_or(self, a: V, b: V) -> V:
        if a.ref == "zeroinitializer":
            return b
        if b.ref == "zeroinitializer" or a.ref == b.ref:
            return a
        return self.binop("or", a, b)

    def mask_not(self, a: V) -> V:
        return self.binop("xor", a, self.all_lanes())

    # -- memory ----------------------------------------------------------------------------

    def alloca(self, ty: str, zero: bool = True) -> V:
        """A stack slot in the entry block, zeroed at the start of every call unless told not to."""
        slot = V("ptr", "%" + self.fresh("a"))
        self.entry_allocas.append(f"  {slot.ref} = alloca {ty}, align 64")
        if zero:
            self.entry_inits.append(f"  store {self.zero(ty)}, ptr {slot.ref}, align 64")
        return slot

    def load(self, ty: str, pointer: V, align: int = 1, volatile: bool = False) -> V:
        keyword = "load volatile" if volatile else "load"
        return self.inst(ty, f"{keyword} {ty}, {pointer}, align {align}")

    def store(self, value: V, pointer: V, align: int = 1) -> None:
        self.raw(f"store {value}, {pointer}, align {align}")

    def gep(self, pointer: V, offset: V) -> V:
        """Byte offset(s) from a pointer (or a vector of pointers)."""
        ty = self.vec("ptr", int(offset.ty[1:offset.ty.index("x")])) if is_vector(offset.ty) else pointer.ty
        return self.inst(ty, f"getelementptr i8, {pointer}, {offset}")

    # -- out-of-line helpers ----------------------------------------------------------------

    def helper(self, name: str, ret: str, params: list[str], body: list[str], memory: str) -> str:
        """Define ``@name`` once (internal, never inlined: one copy of a gather/scatter instead
        of one per use keeps instruction selection fast); returns the name."""
        if name not in self.helpers:
            signature = ", ".join(f"{ty} %p{index}" for index, ty in enumerate(params))
            lines = [f"define internal {ret} @{name}({signature}) #{1 if memory == 'read' else 2} {{"]
            lines += ["  " + line for line in body] + ["}", ""]
            self.helpers[name] = "\n".join(lines)
        return name

    # -- output ----------------------------------------------------------------------------

    def text(self, header: list[str]) -> str:
        attributes = ['attributes #1 = { noinline nounwind willreturn memory(argmem: read) }',
                      'attributes #2 = { noinline nounwind willreturn memory(argmem: readwrite) }']
        return "\n".join(header + self.globals + list(self.declarations.values()) + [""]
                         + list(self.helpers.values()) + self.lines + attributes) + "\n"
