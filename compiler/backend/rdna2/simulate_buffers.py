"""The listing simulator's buffer instructions (MUBUF): loads, stores and atomics, in bytes.

A buffer is the bytes of the NumPy array bound under the binding's name (or, for a cbuffer
read at a per-lane offset, its bytes). The address of a lane is ``idxen`` index * stride,
``offen`` a byte offset, or both (a VGPR pair), plus the instruction's ``offset:``; it need not
be a multiple of 4 (``Load<half>`` at byte 2). Sizes come from the mnemonic: ``dword[xN]``
moves N dwords, ``ushort``/``short`` the low 16 bits of one VGPR. Bounds are checked per
dword as the hardware does for raw buffers: a dword past the end reads 0 and is not written.
Atomics act on one dword, or on a dword pair with the ``_x2`` forms (64-bit values in two
VGPRs, low dword first); see ``simulate_atomics.py`` for what each computes.
"""

from __future__ import annotations

import re

import numpy as np

from ...machine.texels import channel_bits, decode, encode
from . import simulate_atomics as atomics
from . import simulate_descriptors as descriptors

_DWORDS = {"dword": 1, "dwordx2": 2, "dwordx3": 3, "dwordx4": 4}


def _memory(machine, binding, element: int) -> np.ndarray:
    """The bytes of a binding, or of element ``element`` of a list bound to a resource array (a view
    of the bound array: stores land in it)."""
    if binding.name in machine.buffers:
        given = machine.buffers[binding.name]
        return (given[element] if isinstance(given, list) else given).reshape(-1).view(np.uint8)
    return np.frombuffer(bytes(machine.cbuffers.get(binding.name, b"")), np.uint8).copy()


def addresses(machine, inst, vaddr, stride: int, offset: int) -> np.ndarray:
    """Byte addresses per lane: ``idxen`` index * stride (the V#'s), ``offen`` a byte offset, both a
    VGPR pair (index, offset), plus the instruction's ``offset:``; in 64 bits, no wrap."""
    idxen, offen = "idxen" in inst.modifiers, "offen" in inst.modifiers
    if not (idxen or offen):
        return np.full(machine.wave, offset, np.int64)
    stride = stride if idxen else 1
    words = [machine.v[machine.regs(vaddr)[1] + k].astype(np.int64) for k in range(1 + (idxen and offen))]
    return words[0] * stride + offset + (words[1] if idxen and offen else 0)


def access(machine, inst) -> None:
    """``buffer_load_*``, ``buffer_store_*`` and ``buffer_atomic_*`` for the active lanes."""
    name = inst.mnemonic
    atomic = name.startswith("buffer_atomic_")
    store = "store" in name or (atomic and not inst.defs)
    data = inst.uses[0] if store else None
    rest = inst.uses[1:] if store else inst.uses
    vaddr, descriptor = rest[0], rest[1]
    binding, element = descriptors.resource(machine, machine.regs(descriptor)[1])
    words = [int(machine.s[machine.regs(descriptor)[1] + k]) & 0xFFFFFFFF for k in range(4)]
    memory = _memory(machine, binding, element)
    written = f"{binding.name}[{element}]" if isinstance(machine.buffers.get(binding.name), list) else binding.name
    offset = int(re.search(r"offset:(\d+)", inst.modifiers).group(1)) if "offset:" in inst.modifiers else 0
    base = addresses(machine, inst, vaddr, descriptors.buffer_stride(words), offset)
    first = machine.regs(inst.defs[0] if inst.defs else data)[1]
    record = getattr(machine, "record_store", None)  # set by simulate_group: who wrote each byte
    for lane in np.flatnonzero(machine.exec):
        address = int(base[lane])
        if atomic:
            size = 8 if name.endswith("_x2") else 4
            _atomic(machine, name[len("buffer_atomic_"):], memory, address, first, lane, bool(inst.defs))
        elif name.endswith("short"):
            size = 2
            _move(machine, memory, address, 2, first, lane, store)
        elif "_format_" in name:
            size = _formatted(machine, memory, address, descriptors.buffer_format(words), name, first, lane, store)
        else:
            size = 4 * _DWORDS[name.split("_")[-1]]
            for k in range(size // 4):
                _move(machine, memory, address + 4 * k, 4, first + k, lane, store)
        if record is not None and (store or atomic):
            record(inst, written, address, size)


def _move(machine, memory: np.ndarray, address: int, size: int, reg: int, lane: int, store: bool) -> None:
    """One lane's ``size`` bytes between ``memory[address:]`` and the low bytes of VGPR ``reg``."""
    inside = 0 <= address and address + size <= len(memory)
    if store:
        if inside:
            memory[address:address + size] = np.frombuffer(int(machine.v[reg][lane]).to_bytes(4, "little"),
                                                           np.uint8)[:size]
        return
    value = int.from_bytes(memory[address:address + size].tobytes(), "little") if inside else 0
    machine.v[reg][lane] = value


def _atomic(machine, fn: str, memory: np.ndarray, address: int, first: int, lane: int, returns: bool) -> None:
    """One lane's ``buffer_atomic_<fn>[_x2]``: data is (value) or, for cmpswap, (value, compare),
    each one VGPR or, with ``_x2``, a pair."""
    wide = fn.endswith("_x2")
    size, regs = (8, 2) if wide else (4, 1)
    if not (0 <= address and address + size <= len(memory)):
        return
    value = _read_regs(machine, first, regs, lane)
    compare = _read_regs(machine, first + regs, regs, lane) if fn.startswith("cmpswap") else None
    old = int.from_bytes(memory[address:address + size].tobytes(), "little")
    new = atomics.buffer_atomic(fn.removesuffix("_x2"), old, value, compare, bits=8 * size)
    memory[address:address + size] = np.frombuffer(new.to_bytes(size, "little"), np.uint8)
    if returns:
        for k in range(regs):
            machine.v[first + k][lane] = (old >> (32 * k)) & 0xFFFFFFFF


def _read_regs(machine, first: int, count: int, lane: int) -> int:
    return sum(int(machine.v[first + k][lane]) << (32 * k) for k in range(count))


def _formatted(machine, memory: np.ndarray, address: int, number: int, name: str, first: int, lane: int,
               store: bool) -> int:
    """One lane's ``buffer_load/store_format_<x..xyzw>`` of the element at ``address`` in the
    V#'s format: channels convert to 32 bits as textures do (``machine/texels.py``), the channels
    the format lacks read 0, 0, 0, 1; an element not wholly inside reads 0 and is not written.
    Returns the element's bytes."""
    bits, channels, kind = channel_bits(number)
    stored = np.dtype(f"{'f' if kind == 'float' else 'i' if kind == 'sint' else 'u'}{bits // 8}")
    texel = np.dtype(np.float32 if kind in ("float", "unorm") else np.int32 if kind == "sint" else np.uint32)
    scale = float((1 << bits) - 1) if kind == "unorm" else None
    size = stored.itemsize * channels
    count = len(name.rsplit("_", 1)[1])
    inside = 0 <= address and address + size <= len(memory)
    if store:
        if inside:
            element = memory[address:address + size].view(stored)
            values = decode(element[None, :], texel, scale)[0].view(np.uint32)
            for k in range(min(count, channels)):
                values[k] = machine.v[first + k][lane]
            element[:] = encode(values.view(texel)[None, :channels], stored, scale)[0]
        return size
    values = decode(memory[address:address + size].view(stored)[None, :], texel, scale)[0] if inside else \
        np.zeros(4, texel)
    for k in range(count):
        machine.v[first + k][lane] = values.view(np.uint32)[k]
    return size
