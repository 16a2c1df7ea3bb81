"""amdgcn handlers for memory: kernel arguments and descriptors, buffers, cbuffers, LDS,
scratch, atomics and barriers (textures: ``amdgcn_textures``).

Operand orders are AST lowering's (``ir/lower_resources.py``, see also
``ir/interpret_memory.py``); ``[i]`` (a resource-array index) comes first when the
binding is an array:

    buffer_load T [i], index {resource[, offset]}    -> raw.buffer.load (VGPR offset) or,
                                                        read-only at a uniform address,
                                                        s.buffer.load (SGPRs)
    buffer_store [i], index, value                   -> raw.buffer.store
    buffer_atomic T [i], index, value {fn}            -> raw.buffer.atomic.<fn> (returns old)
    cbuffer_load T [dynamic] {buffer, offset}         -> load from ptr addrspace(4), invariant
    lds_load / lds_store / lds_atomic                 -> addrspace(3) loads, stores, atomicrmw
    scratch_load / scratch_store                      -> the addrspace(5) alloca
    barrier {scope, sync}                             -> fences around llvm.amdgcn.s.barrier

Buffer element addresses are ``index * stride + offset`` bytes: stride is the
element's tight size (1 for byte-address buffers); typed buffers load their element
type raw (no format conversion: the registers are the same). A ``globallycoherent``
resource's loads and stores set ``glc``. Atomics return the value memory held
before. An unbounded or sized resource array is a descriptor table in constant
memory: each access loads its descriptor (from SGPRs when the index is uniform).
"""

from __future__ import annotations

import re

from ...frontend import hlsl_types as T
from ...ir.core import Binding, Module
from ...ir.lower.globals import tight_size
from ...ir.ops import Op
from .values import (AmdgcnError, element_of, intrinsic_suffix, llvm_type, memory_bytes,
                            memory_type, vector_of)

_CONSTANT_BUFFERS = ("cbuffer", "tbuffer", "ConstantBuffer")
_SAMPLERS = T.SAMPLER_KINDS
GLC = 1  # the cache-policy bit for coherent loads and stores
INVARIANT = "!invariant.load !1"


def is_texture(binding: Binding) -> bool:
    return T.RESOURCE_KINDS.get(binding.kind, (False, 0, False, False))[2]


def descriptor_type(binding: Binding) -> str:
    if is_texture(binding):
        return "<8 x i32>"
    return "<4 x i32>"


class KernelArguments:
    """The kernel's parameters (one per binding), the LDS array and the scratch alloca."""

    def __init__(self, module: Module):
        self.module = module
        self.bindings = {binding.name: binding for binding in module.bindings}
        self.names = {}
        for index, binding in enumerate(module.bindings):
            self.names[binding.name] = f"%r{index}." + re.sub(r"[^A-Za-z0-9._]", "_", binding.name)
        self.lds_size = max([var.offset + var.size for var in module.groupshared] + [module.lds_bytes])

    def binding(self, name: str) -> Binding:
        if name not in self.bindings:
            raise AmdgcnError(f"no resource line declares {name!r}")
        return self.bindings[name]

    def parameters(self) -> list[str]:
        params = []
        for binding in self.module.bindings:
            name = self.names[binding.name]
            if binding.kind in _CONSTANT_BUFFERS or binding.count != 1:
                align = 16 if binding.kind in _CONSTANT_BUFFERS else (32 if is_texture(binding) else 16)
                params.append(f"ptr addrspace(4) noalias readonly align {align} {name}")
            else:
                params.append(f"{descriptor_type(binding)} {name}")
        return params

    def globals_text(self) -> list[str]:
        if self.lds_size <= 0:
            return []
        return [f"@shc.lds = internal addrspace(3) global [{self.lds_size} x i8] poison, align 16"]

    def prologue(self, k) -> None:
        if self.module.scratch_bytes:
            k.emit(f"%shc.scratch = alloca [{self.module.scratch_bytes} x i8], align 16, addrspace(5)")

    def descriptor(self, k, inst, binding: Binding, position: int = 0) -> tuple[str, int]:
        """``(descriptor value, index of the next operand)`` for ``binding`` read by ``inst``
        from operand ``position`` (which is the array index when the binding is an array)."""
        name = self.names[binding.name]
        if binding.count == 1:
            return name, position
        index = k.arg_as(inst, position, T.UINT)
        llvm = descriptor_type(binding)
        slot = k.assign(f"getelementptr inbounds {llvm}, ptr addrspace(4) {name}, i32 {index}")
        align = 32 if llvm == "<8 x i32>" else 16
        return k.assign(f"load {llvm}, ptr addrspace(4) {slot}, align {align}, {INVARIANT}"), position + 1


# ---------------------------------------------------------------------------------------
# typed words in and out of memory instructions
# ---------------------------------------------------------------------------------------


def _raw_type(t: T.Type) -> str:
    """The value of ``t`` as the bits memory holds: dwords, or 16-bit units (``half3``)."""
    size = memory_bytes(t)
    return vector_of("i32", size // 4) if size % 4 == 0 else vector_of("i16", size // 2)


def _pieces(t: T.Type) -> list[tuple[str, int]]:
    """The ``(LLVM type, byte offset)`` pieces one buffer access of ``t`` becomes: up to four
    dwords each, then a 16-bit piece when the size is not whole dwords."""
    words, tail = divmod(memory_bytes(t), 4)
    pieces = [(vector_of("i32", min(4, words - start)), 4 * start) for start in range(0, words, 4)]
    return pieces + [("i16", 4 * words)] if tail else pieces


def _count(llvm: str) -> int:
    return int(llvm[1:].split(" ")[0]) if llvm.startswith("<") else 1


def _join(k, loaded: list[str], pieces: list[tuple[str, int]], raw_type: str) -> str:
    """The pieces' values as one ``raw_type`` value."""
    if len(pieces) == 1:
        return loaded[0]
    unit = "i16" if "i16" in raw_type else "i32"
    parts = []
    for value, (piece_type, _) in zip(loaded, pieces):
        if unit == "i16" and piece_type != "i16":  # dwords split into 16-bit units
            halves = vector_of("i16", 2 * _count(piece_type))
            value, piece_type = k.assign(f"bitcast {piece_type} {value} to {halves}"), halves
        parts += [k.extract(value, piece_type, index) for index in range(_count(piece_type))]
    return k.build(parts, unit)


def _split(k, raw: str, raw_type: str, pieces: list[tuple[str, int]]) -> list[str]:
    """``raw`` cut into the pieces' values (the inverse of ``_join``)."""
    if len(pieces) == 1:
        return [raw]
    unit_bytes = 2 if "i16" in raw_type else 4
    values = []
    for piece_type, start in pieces:
        first = start // unit_bytes
        if piece_type == ("i16" if unit_bytes == 2 else "i32"):  # one unit
            values.append(k.extract(raw, raw_type, first))
            continue
        count = _count(piece_type) * 4 // unit_bytes
        lanes = ", ".join(f"i32 {first + j}" for j in range(count))
        unit = "i16" if unit_bytes == 2 else "i32"
        part = k.assign(f"shufflevector {raw_type} {raw}, {raw_type} poison, <{count} x i32> <{lanes}>")
        part_type = f"<{count} x {unit}>"
        values.append(part if part_type == piece_type else k.assign(f"bitcast {part_type} {part} to {piece_type}"))
    return values


def _from_memory(k, raw: str, raw_type: str, t: T.Type) -> str:
    """A loaded ``raw_type`` value as ``t`` (bool components: nonzero words)."""
    stored = memory_type(t)
    as_stored = raw if raw_type == llvm_type(stored) else k.assign(f"bitcast {raw_type} {raw} to {llvm_type(stored)}")
    return k.convert(as_stored, stored, t)


def _to_memory(k, value: str, t: T.Type) -> tuple[str, str]:
    stored = memory_type(t)
    as_stored = k.convert(value, t, stored)
    raw_type = _raw_type(t)
    if raw_type == llvm_type(stored):
        return as_stored, raw_type
    return k.assign(f"bitcast {llvm_type(stored)} {as_stored} to {raw_type}"), raw_type


def _alignment(t: T.Type) -> int:
    element = element_of(t)
    return 2 if element.kind != "bool" and element.bits == 16 else 4


# ---------------------------------------------------------------------------------------
# buffers
# ---------------------------------------------------------------------------------------


def element_stride(binding: Binding, value_type: T.Type) -> int:
    if "ByteAddress" in binding.kind:
        return 1
    if binding.element is not None:
        return tight_size(binding.element)
    return memory_bytes(value_type)


def _byte_offset(k, inst, binding: Binding, index_position: int, value_type: T.Type) -> str:
    """``index * stride + offset``, plus the ``dynamic_offset`` operand after ``index`` when present."""
    index = k.arg_as(inst, index_position, T.UINT)
    stride = element_stride(binding, value_type)
    offset = int(inst.attrs.get("offset", 0))
    address = index if stride == 1 else k.assign(f"mul i32 {index}, {stride}")
    if inst.attrs.get("dynamic_offset"):
        address = k.assign(f"add i32 {address}, {k.arg_as(inst, index_position + 1, T.UINT)}")
    return address if offset == 0 else k.assign(f"add i32 {address}, {offset}")


def _aux(binding: Binding) -> str:
    return str(GLC if binding.globally_coherent else 0)


def buffer_load(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    offset = _byte_offset(k, inst, binding, position, inst.type)
    raw_type = _raw_type(inst.type)
    pieces = _pieces(inst.type)
    scalar = (not T.RESOURCE_KINDS.get(binding.kind, (True,))[0] and not binding.globally_coherent
              and all(k.is_uniform(operand) for operand in inst.operands))
    loaded = []
    for piece_type, start in pieces:
        at = offset if start == 0 else k.assign(f"add i32 {offset}, {start}")
        if scalar and piece_type != "i16":  # SMEM has no 16-bit loads on gfx10
            loaded.append(k.call(piece_type, f"llvm.amdgcn.s.buffer.load.{intrinsic_suffix(piece_type)}",
                                 [("<4 x i32>", rsrc), ("i32", at), ("i32", "0")]))
        else:
            loaded.append(k.call(piece_type, f"llvm.amdgcn.raw.buffer.load.{intrinsic_suffix(piece_type)}",
                                 [("<4 x i32>", rsrc), ("i32", at), ("i32", "0"), ("i32", _aux(binding))]))
    return _from_memory(k, _join(k, loaded, pieces, raw_type), raw_type, inst.type)


def buffer_store(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    value_type = inst.operands[-1].type
    offset = _byte_offset(k, inst, binding, position, value_type)
    raw, raw_type = _to_memory(k, k.arg(inst, len(inst.operands) - 1), value_type)
    pieces = _pieces(value_type)
    for value, (piece_type, start) in zip(_split(k, raw, raw_type, pieces), pieces):
        at = offset if start == 0 else k.assign(f"add i32 {offset}, {start}")
        k.call("void", f"llvm.amdgcn.raw.buffer.store.{intrinsic_suffix(piece_type)}",
               [(piece_type, value), ("<4 x i32>", rsrc), ("i32", at), ("i32", "0"), ("i32", _aux(binding))])
    return None


_BUFFER_ATOMICS = {"add": "add", "and": "and", "or": "or", "xor": "xor", "exchange": "swap",
                   "cmpxchg": "cmpswap"}


def _atomic_name(fn: str, element: T.ScalarType, table: dict[str, str], signed_prefix: str) -> str:
    if fn in ("min", "max"):
        return (signed_prefix if element.kind == "int" else "u") + fn
    if fn not in table:
        raise AmdgcnError(f"atomic fn {fn!r} has no amdgcn lowering")
    return table[fn]


def buffer_atomic(k, inst):
    binding = k.arguments.binding(inst.attrs["resource"])
    rsrc, position = k.arguments.descriptor(k, inst, binding)
    fn = inst.attrs.get("fn")
    value_type = inst.type if inst.type != T.VOID else inst.operands[-1].type
    llvm = llvm_type(value_type)
    offset = _byte_offset(k, inst, binding, position, value_type)
    value = k.arg_as(inst, len(inst.operands) - 1, value_type)
    name = f"llvm.amdgcn.raw.buffer.atomic.{_atomic_name(fn, element_of(value_type), _BUFFER_ATOMICS, 's')}." \
           f"{intrinsic_suffix(llvm)}"
    data = [(llvm, value)]
    if fn == "cmpxchg":
        data.append((llvm, k.arg_as(inst, position + 1 + int(bool(inst.attrs.get("dynamic_offset"))), value_type)))
    return k.call(llvm, name, data + [("<4 x i32>", rsrc), ("i32", offset), ("i32", "0"), ("i32", "0")])


# ---------------------------------------------------------------------------------------
# constant buffers, LDS, scratch
# ---------------------------------------------------------------------------------------


def cbuffer_load(k, inst):
    binding = k.arguments.binding(inst.attrs["buffer"])
    base = k.arguments.names[binding.name]
    offset = int(inst.attrs.get("offset", 0))
    address = str(offset)
    if inst.operands:
        dynamic = k.arg_as(inst, 0, T.UINT)
        address = dynamic if offset == 0 else k.assign(f"add i32 {dynamic}, {offset}")
    pointer = k.assign(f"getelementptr inbounds i8, ptr addrspace(4) {base}, i32 {address}")
    stored = memory_type(inst.type)
    align = 16 if offset % 16 == 0 else (8 if offset % 8 == 0 else _alignment(inst.type))
    loaded = k.assign(f"load {llvm_type(stored)}, ptr addrspace(4) {pointer}, align {align}, {INVARIANT}")
    return k.convert(loaded, stored, inst.type)


# LDS is one addrspace(3) array, scratch one addrspace(5) alloca; both take byte addresses.
LDS = ("3", "@shc.lds")
SCRATCH = ("5", "%shc.scratch")


def _pointer(k, inst, space: tuple[str, str]) -> str:
    addrspace, base = space
    address = k.arg_as(inst, 0, T.UINT)
    return k.assign(f"getelementptr inbounds i8, ptr addrspace({addrspace}) {base}, i32 {address}")


def _load(k, inst, space: tuple[str, str]):
    stored = memory_type(inst.type)
    loaded = k.assign(f"load {llvm_type(stored)}, ptr addrspace({space[0]}) {_pointer(k, inst, space)}, "
                      f"align {_alignment(inst.type)}")
    return k.convert(loaded, stored, inst.type)


def _store(k, inst, space: tuple[str, str]):
    value_type = inst.operands[1].type
    stored = memory_type(value_type)
    value = k.arg_as(inst, 1, stored)
    k.emit(f"store {llvm_type(stored)} {value}, ptr addrspace({space[0]}) {_pointer(k, inst, space)}, "
           f"align {_alignment(value_type)}")
    return None


def lds_load(k, inst):
    return _load(k, inst, LDS)


def lds_store(k, inst):
    return _store(k, inst, LDS)


_RMW = {"add": "add", "and": "and", "or": "or", "xor": "xor", "exchange": "xchg"}


def lds_atomic(k, inst):
    fn = inst.attrs.get("fn")
    value_type = inst.type if inst.type != T.VOID else inst.operands[-1].type
    llvm = llvm_type(value_type)
    pointer = _pointer(k, inst, LDS)
    value = k.arg_as(inst, len(inst.operands) - 1, value_type)
    if fn == "cmpxchg":
        compare = k.arg_as(inst, 1, value_type)
        pair = k.assign(f"cmpxchg ptr addrspace(3) {pointer}, {llvm} {compare}, {llvm} {value} "
                        f'syncscope("workgroup") monotonic monotonic')
        return k.assign(f"extractvalue {{ {llvm}, i1 }} {pair}, 0")
    operation = _atomic_name(fn, element_of(value_type), _RMW, "")
    return k.assign(f'atomicrmw {operation} ptr addrspace(3) {pointer}, {llvm} {value} '
                    f'syncscope("workgroup") monotonic')


def scratch_load(k, inst):
    return _load(k, inst, SCRATCH)


def scratch_store(k, inst):
    return _store(k, inst, SCRATCH)


# ---------------------------------------------------------------------------------------
# barriers
# ---------------------------------------------------------------------------------------

_SCOPES = {"group": "workgroup", "device": "agent", "all": "agent"}


def barrier(k, inst):
    scope = _SCOPES.get(inst.attrs.get("scope", "group"))
    if scope is None:
        raise AmdgcnError(f"barrier scope {inst.attrs.get('scope')!r}")
    if inst.attrs.get("sync", True):
        k.emit(f'fence syncscope("{scope}") release')
        k.call("void", "llvm.amdgcn.s.barrier", [])
        k.emit(f'fence syncscope("{scope}") acquire')
    else:
        k.emit(f'fence syncscope("{scope}") acq_rel')
    return None


HANDLERS = {
    Op.BUFFER_LOAD: buffer_load, Op.BUFFER_STORE: buffer_store, Op.BUFFER_ATOMIC: buffer_atomic,
    Op.CBUFFER_LOAD: cbuffer_load,
    Op.LDS_LOAD: lds_load, Op.LDS_STORE: lds_store, Op.LDS_ATOMIC: lds_atomic,
    Op.SCRATCH_LOAD: scratch_load, Op.SCRATCH_STORE: scratch_store,
    Op.BARRIER: barrier,
}
