"""Host JIT emitters for atomics on LDS and buffers, and for memory barriers without sync.

An atomic runs lane by lane in lane order, as the interpreter runs it
(``ir/interpret/memory.py``): each active lane whose address is in bounds does one
LLVM ``atomicrmw`` (or ``cmpxchg``) at sequential consistency and gets the old value;
an out-of-bounds lane does nothing and reads 0, D3D12's rule for UAV accesses.
Addresses and bounds come from ``memory.py``.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.ops import Op
from .llvm_text import V, flat_scalars, memory_bytes, memory_type
from .memory import (byte_address, element_address, in_bounds, lds_memory, slot_memory, split_array_index,
                     split_offset, Memory)
from .values import Value, cast
from .textures import is_texture, texel_place


_RMW = {"add": "add", "and": "and", "or": "or", "xor": "xor", "exchange": "xchg"}


def atomic(em, inst, memory: Memory, address: V, compare: Value | None, value: Value):
    """Lane by lane in lane order: each active, in-bounds lane's read-modify-write."""
    b = em.b
    fn = inst.attrs.get("fn")
    value_type = inst.type if inst.type != T.VOID else inst.operands[-1].type
    scalar = flat_scalars(value_type)[0]
    ty = memory_type(scalar)
    nbytes = memory_bytes(scalar)
    if fn in ("min", "max"):
        op = ("min" if fn == "min" else "max") if scalar.kind == "int" else ("umin" if fn == "min" else "umax")
    elif fn in _RMW or fn == "cmpxchg":
        op = _RMW.get(fn)
    else:
        raise NotImplementedError(f"atomic fn {fn!r} is not supported by the host JIT")
    source = flat_scalars(inst.operands[-1].type)[0]
    values = b.splat(cast(b, value.parts[0], source, scalar))
    compares = b.splat(cast(b, compare.parts[0], flat_scalars(inst.operands[-2].type)[0], scalar)) \
        if compare is not None else None
    ok, at = in_bounds(em, memory, address, nbytes)
    active = b.mask_and(em.exec, b.splat(ok))
    pointers = b.gep(memory.base, b.splat(at))
    results = b.alloca(f"[{em.wave_size} x {ty}]")
    remaining = b.alloca(b.bits_ty, zero=False)
    b.store(b.mask_bits(active), remaining, align=8)
    head, body, end = b.label("atomic"), b.label("atomic.lane"), b.label("atomic.done")
    b.br(head)
    b.start(head)
    bits = b.load(b.bits_ty, remaining, align=8)
    b.cbr(b.icmp("ne", bits, b.zero(b.bits_ty)), body, end)
    b.start(body)
    lane = b.call(b.bits_ty, "llvm.cttz", [bits, V("i1", "true")])
    pointer = b.extract(pointers, lane)
    operand = b.extract(values, lane)
    if op is None:
        pair = b.inst(f"{{ {ty}, i1 }}", f"cmpxchg ptr {pointer.ref}, {b.extract(compares, lane)}, {operand} "
                                         f"seq_cst seq_cst, align {nbytes}")
        old = b.inst(ty, f"extractvalue {pair}, 0")
    else:
        old = b.inst(ty, f"atomicrmw {op} ptr {pointer.ref}, {operand} seq_cst, align {nbytes}")
    slot = b.inst("ptr", f"getelementptr [{em.wave_size} x {ty}], ptr {results.ref}, i32 0, {lane}")
    b.store(old, slot, align=4)
    b.store(b.binop("and", bits, b.binop("sub", bits, b.const(bits.ty, 1))), remaining, align=8)
    b.br(head)
    b.start(end)
    if inst.type == T.VOID:
        return None
    gathered = b.load(b.vec(ty), results, align=64)
    return Value([cast(b, gathered, scalar, flat_scalars(inst.type)[0])])


def _atomic_operands(args: list[Value]) -> tuple[Value, Value | None, Value]:
    if len(args) == 3:
        return args[0], args[1], args[2]
    return args[0], None, args[1]


def lds_atomic(em, inst, args):
    address, compare, value = _atomic_operands(args)
    return atomic(em, inst, lds_memory(em), byte_address(em, address.parts[0], 1, 0), compare, value)


def buffer_atomic(em, inst, args):
    name = inst.attrs["resource"]
    plain = 3 if inst.attrs.get("fn") == "cmpxchg" else 2
    array_index, rest = split_array_index(em, inst, args, plain)
    index, dynamic, data = split_offset(inst, rest)
    compare, value = (data[0], data[1]) if len(data) == 2 else (None, data[0])
    if is_texture(em, name):  # an RW texture's texel: its whole coordinate, mip 0
        offset = 1 if array_index is not None else 0
        memory, address = texel_place(em, name, array_index, rest[0], inst.operands[offset].type)
        return atomic(em, inst, memory, address, compare, value)
    memory = slot_memory(em, name, array_index)
    return atomic(em, inst, memory, element_address(em, inst, name, index, dynamic), compare, value)


def barrier(em, inst, args):
    """A memory barrier without sync (a sync barrier stops the wave: ``HostEmitter.emit_barrier`` in module.py)."""
    em.b.raw("fence seq_cst")
    return None


HANDLERS = {
    Op.LDS_ATOMIC: lds_atomic, Op.BUFFER_ATOMIC: buffer_atomic,
    Op.BARRIER: barrier,
}

__all__ = ["HANDLERS"]
