"""What the simulator's atomics compute: one lane's read-modify-write on a 32-bit word.

``buffer_atomic_<fn>`` and ``ds_<fn>[_rtn]_<type>`` name the same operations: ``umin``/
``umax`` compare unsigned, ``smin``/``smax`` (LDS: ``min``/``max`` with ``_i32``) signed,
``swap``/``wrxchg`` exchange, and the compare-and-swap forms store ``value`` only when the
word equals ``compare``. The caller reads the old word, stores the new one and hands the
old one back to the lane when the instruction returns it.
"""

from __future__ import annotations

import re

import numpy as np

DS_ATOMIC = re.compile(r"ds_(add|and|or|xor|min|max|wrxchg|cmpst)(_rtn)?_([uib])(32|64)$")


def _signed(value: int, bits: int = 32) -> int:
    return value - (1 << bits) if value >> (bits - 1) & 1 else value


_OPERATIONS = {"add": lambda a, b, bits: a + b, "sub": lambda a, b, bits: a - b, "and": lambda a, b, bits: a & b,
               "or": lambda a, b, bits: a | b, "xor": lambda a, b, bits: a ^ b, "swap": lambda a, b, bits: b,
               "umin": lambda a, b, bits: min(a, b), "umax": lambda a, b, bits: max(a, b),
               "smin": lambda a, b, bits: min(a, b, key=lambda v: _signed(v, bits)),
               "smax": lambda a, b, bits: max(a, b, key=lambda v: _signed(v, bits))}


def buffer_atomic(fn: str, old: int, value: int, compare: int | None = None, bits: int = 32) -> int:
    """The new word (``bits`` 64: dword pair, the ``_x2`` forms) of ``buffer_atomic_<fn>``
    (``cmpswap``: ``value`` when ``old == compare``)."""
    mask = (1 << bits) - 1
    if fn == "cmpswap":
        return (value if old == compare else old) & mask
    return _OPERATIONS[fn](old, value, bits) & mask


def lds_atomic(match: re.Match, old: int, data: list[int]) -> int:
    """The new value (``_u64``/``_i64``/``_b64``: a dword pair) of a ``DS_ATOMIC`` instruction; data is
    (value) or, for ds_cmpst, (compare, value)."""
    fn, kind, bits = match.group(1), match.group(3), int(match.group(4))
    if fn == "cmpst":
        return buffer_atomic("cmpswap", old, data[1], data[0], bits=bits)
    key = {"min": "smin" if kind == "i" else "umin", "max": "smax" if kind == "i" else "umax",
           "wrxchg": "swap"}.get(fn, fn)
    return buffer_atomic(key, old, data[0], bits=bits)


def lds_lane_atomic(machine, match: re.Match, words: np.ndarray, index: int, inst, lane: int) -> None:
    """One lane's ``DS_ATOMIC`` on the LDS words from ``index`` (two for the 64-bit forms); the
    ``_rtn`` forms hand the old value back to the lane."""
    count = int(match.group(4)) // 32

    def value(first: int, source) -> int:
        return sum(int(source[first + k]) << (32 * k) for k in range(count))

    old = value(index, words)
    data = [value(machine.regs(op)[1], machine.v[:, lane]) for op in inst.uses[1:]]
    new = lds_atomic(match, old, data)
    for k in range(count):
        words[index + k] = (new >> (32 * k)) & 0xFFFFFFFF
        if inst.defs:
            machine.v[machine.regs(inst.defs[0])[1] + k][lane] = (old >> (32 * k)) & 0xFFFFFFFF


def image_atomic(machine, inst, texels: np.ndarray, address: list) -> None:
    """``image_atomic_<fn>`` on each active lane's texel (the first channel's 32-bit word), in lane
    order; a returning one (``glc``, the data register also its result) hands the old word back."""
    fn = inst.mnemonic[len("image_atomic_"):]
    data = machine.regs(inst.defs[0] if inst.defs else inst.uses[0])[1]
    words = texels.view(np.uint32)
    for lane in np.flatnonzero(machine.exec):
        x, y = int(address[0][lane]), int(address[1][lane]) if len(address) > 1 else 0
        key = (int(address[2][lane]), y, x) if texels.ndim == 4 else (y, x) if texels.ndim >= 2 else (x,)
        inside = all(0 <= c < size for c, size in zip(key, texels.shape))
        old = int(words[key].flat[0]) if inside else 0
        if inside:
            compare = int(machine.v[data + 1][lane]) if fn == "cmpswap" else None
            new = buffer_atomic(fn, old, int(machine.v[data][lane]), compare)
            if words[key].ndim:
                words[key][0] = new
            else:
                words[key] = new
        if inst.defs:
            machine.v[data][lane] = old
