"""Writing LLVM IR text: fresh names, calls that declare their intrinsics, conversions.

The handlers of ``amdgcn_arith``, ``amdgcn_memory`` and ``amdgcn_wave`` get a
``Builder`` (the kernel emitter of ``amdgcn/module.py`` is one) and write through it:

    value = b.assign("fadd nsz float %a, %b")
    loaded = b.call("<4 x float>", "llvm.amdgcn.image.load.2d.v4f32.i32", [("i32", "15"), ...])
    words = b.to_dwords(value, T.HALF4)          # ["%t3", "%t4"]: two i32s

A call declares its callee once (``declarations``); intrinsic attributes come
from LLVM itself.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from .values import (AmdgcnError, components, element_of, intrinsic_suffix, llvm_type, scalar_literal,
                            scalar_type, vector_of)

# Fast-math flags for float arithmetic: the approximations D3D allows (reciprocals, 2.5 ulp
# division, transcendentals), as a driver compiles them. Not nnan/ninf (they would fold
# isnan/isinf away) and not contract: the IR rounds a mul and an add separately (the
# interpreter does), and LLVM's aggressive fma fusion keeps a mul's inputs and result
# alive together when the mul has other users.
FLOAT_FLAGS = "nsz arcp afn"


class Builder:
    def __init__(self, wave_size: int):
        self.wave_size = wave_size
        self.lines: list[str] = []
        self.declarations: dict[str, str] = {}
        self.counter = 0

    # -- text ------------------------------------------------------------------------------

    def fresh(self, hint: str = "t") -> str:
        self.counter += 1
        return f"%{hint}{self.counter}"

    def emit(self, line: str) -> None:
        self.lines.append("  " + line)

    def assign(self, rhs: str, hint: str = "t") -> str:
        name = self.fresh(hint)
        self.emit(f"{name} = {rhs}")
        return name

    def declare(self, ret: str, name: str, arg_types: list[str]) -> None:
        if name not in self.declarations:
            self.declarations[name] = f"declare {ret} @{name}({', '.join(arg_types)})"

    def call(self, ret: str, name: str, args: list[tuple[str, str]], hint: str = "t", flags: str = "") -> str | None:
        """Call ``@name`` with ``(type, value)`` arguments; the result's name (None for void).

        ``flags`` are fast-math flags for calls of float intrinsics (``afn``)."""
        self.declare(ret, name, [arg_type for arg_type, _ in args])
        text = f"call {flags + ' ' if flags else ''}{ret} @{name}(" + \
            ", ".join(f"{arg_type} {value}" for arg_type, value in args) + ")"
        if ret == "void":
            self.emit(text)
            return None
        return self.assign(text, hint)

    def intrinsic(self, base: str, llvm: str, args: list[str], flags: str = "") -> str:
        """``llvm.<base>.<suffix>`` over values that all have the result type ``llvm``."""
        return self.call(llvm, f"llvm.{base}.{intrinsic_suffix(llvm)}", [(llvm, arg) for arg in args], flags=flags)

    # -- vectors ---------------------------------------------------------------------------

    def extract(self, value: str, vector: str, index: int) -> str:
        if not vector.startswith("<"):
            return value
        return self.assign(f"extractelement {vector} {value}, i32 {index}")

    def build(self, parts: list[str], element: str) -> str:
        """A vector of ``parts`` (each an ``element``); one part is the scalar itself."""
        if len(parts) == 1:
            return parts[0]
        vector, result = vector_of(element, len(parts)), "poison"
        for index, part in enumerate(parts):
            result = self.assign(f"insertelement {vector} {result}, {element} {part}, i32 {index}")
        return result

    def splat(self, value: str, element: str, count: int) -> str:
        if count == 1:
            return value
        vector = vector_of(element, count)
        single = self.assign(f"insertelement {vector} poison, {element} {value}, i32 0")
        return self.assign(f"shufflevector {vector} {single}, {vector} poison, <{count} x i32> zeroinitializer")

    def parts(self, value: str, t: T.Type) -> list[str]:
        """The components of a scalar or vector value."""
        llvm = llvm_type(t)
        return [self.extract(value, llvm, k) for k in range(components(t))]

    def per_component(self, t: T.Type, values: list[str], types: list[T.Type], scalar_op) -> str:
        """``scalar_op(component values...)`` for each component of a result of type ``t``."""
        count = components(t)
        columns = [self.parts(value, value_type) if components(value_type) == count else [value] * count
                   for value, value_type in zip(values, types)]
        results = [scalar_op(*[column[k] for column in columns]) for k in range(count)]
        return self.build(results, scalar_type(element_of(t)))

    # -- conversions (HLSL value conversion, the interpreter's ``convert``) ---------------------

    def convert(self, value: str, source: T.Type, target: T.Type) -> str:
        """``value`` of type ``source`` as ``target``: element conversion, splat or truncation."""
        if llvm_type(source) == llvm_type(target):
            return value
        if T.element_of(source) is None or T.element_of(target) is None:
            raise AmdgcnError(f"no conversion from {source} to {target}")
        count, source_count = components(target), components(source)
        if source_count != count:
            if source_count == 1:
                scalar = self.convert(value, source, element_of(target))
                return self.splat(scalar, scalar_type(element_of(target)), count)
            if count == 1:
                first = self.extract(value, llvm_type(source), 0)
                return self.convert(first, element_of(source), target)
            if count < source_count:  # truncation keeps the first components
                lanes = ", ".join(f"i32 {k}" for k in range(count))
                llvm = llvm_type(source)
                value = self.assign(f"shufflevector {llvm} {value}, {llvm} poison, <{count} x i32> <{lanes}>")
                source = T.vector(element_of(source), count)
            else:
                raise AmdgcnError(f"no conversion from {source} to {target}")
        return self.convert_elements(value, source, target)

    def convert_elements(self, value: str, source: T.Type, target: T.Type) -> str:
        src, dst = element_of(source), element_of(target)
        from_type, to_type = llvm_type(source), llvm_type(target)
        if from_type == to_type:
            return value
        if dst.kind == "bool":
            zero = self.zero(source)
            compare = "fcmp une" if src.kind == "float" else "icmp ne"
            return self.assign(f"{compare} {from_type} {value}, {zero}")
        if src.kind == "bool":
            opcode = "uitofp" if dst.kind == "float" else "zext"
            return self.assign(f"{opcode} {from_type} {value} to {to_type}")
        if src.kind == "float" and dst.kind == "float":
            opcode = "fpext" if dst.bits > src.bits else "fptrunc"
        elif src.kind == "float":
            opcode = "fptosi" if dst.kind == "int" else "fptoui"
        elif dst.kind == "float":
            opcode = "sitofp" if src.kind == "int" else "uitofp"
        elif dst.bits == src.bits:
            return value  # int <-> uint of one width: the same bits
        elif dst.bits < src.bits:
            opcode = "trunc"
        else:
            opcode = "sext" if src.kind == "int" else "zext"
        return self.assign(f"{opcode} {from_type} {value} to {to_type}")

    def zero(self, t: T.Type) -> str:
        return self.literal(0, t)

    def literal(self, value, t: T.Type) -> str:
        element, count = element_of(t), components(t)
        if count == 1:
            return scalar_literal(value, element)
        llvm = scalar_type(element)
        return "<" + ", ".join([f"{llvm} {scalar_literal(value, element)}"] * count) + ">"

    # -- 32-bit words (what lane-exchange instructions move) -----------------------------------

    def to_dwords(self, value: str, t: T.Type) -> list[str]:
        """The value's register words as ``i32`` values: 16-bit components pack two to a word,
        64-bit components take two, a bool is 0 or 1."""
        element, count = element_of(t), components(t)
        llvm = llvm_type(t)
        if element.kind == "bool":
            widened = self.assign(f"zext {llvm} {value} to {vector_of('i32', count)}")
            return [self.extract(widened, vector_of("i32", count), k) for k in range(count)]
        bits = element.bits * count
        if element.bits == 16 and count % 2 == 1:  # pad to whole words
            wide_count = count + 1
            lanes = ", ".join(f"i32 {k}" for k in range(count)) + ", i32 " + str(count)
            source = value if count > 1 else self.assign(
                f"insertelement <1 x {llvm}> poison, {llvm} {value}, i32 0")
            source_type = f"<{count} x {scalar_type(element)}>"
            padded_type = f"<{wide_count} x {scalar_type(element)}>"
            value = self.assign(f"shufflevector {source_type} {source}, {source_type} zeroinitializer, "
                                f"<{wide_count} x i32> <{lanes}>")
            llvm, bits = padded_type, element.bits * wide_count
        words = bits // 32
        as_words = vector_of("i32", words)
        cast = value if llvm == as_words else self.assign(f"bitcast {llvm} {value} to {as_words}")
        return [self.extract(cast, as_words, k) for k in range(words)]

    def from_dwords(self, words: list[str], t: T.Type) -> str:
        """The inverse of ``to_dwords``."""
        element, count = element_of(t), components(t)
        llvm = llvm_type(t)
        packed = self.build(words, "i32")
        as_words = vector_of("i32", len(words))
        if element.kind == "bool":
            return self.assign(f"icmp ne {as_words} {packed}, zeroinitializer")
        if element.bits == 16 and count % 2 == 1:
            padded = f"<{count + 1} x {scalar_type(element)}>"
            wide = self.assign(f"bitcast {as_words} {packed} to {padded}")
            if count == 1:
                return self.assign(f"extractelement {padded} {wide}, i32 0")
            lanes = ", ".join(f"i32 {k}" for k in range(count))
            return self.assign(f"shufflevector {padded} {wide}, {padded} poison, <{count} x i32> <{lanes}>")
        return packed if llvm == as_words else self.assign(f"bitcast {as_words} {packed} to {llvm}")
