"""What the simulator's atomics compute: one lane's read-modify-write on a 32-bit word.

``buffer_atomic_<fn>`` and ``ds_<fn>[_rtn]_<type>`` name the same operations: ``umin``/
``umax`` compare unsigned, ``smin``/``smax`` (LDS: ``min``/``max`` with ``_i32``) signed,
``swap``/``wrxchg`` exchange, and the compare-and-swap forms store ``value`` only when the
word equals ``compare``. The caller reads the old word, stores the new one and hands the
old one back to the lane when the instruction returns it.
"""

from __future__ import annotations

import re

DS_ATOMIC = re.compile(r"ds_(add|and|or|xor|min|max|wrxchg|cmpst)(_rtn)?_(u32|i32|b32)$")


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
    """The new word of a ``DS_ATOMIC`` instruction; data is (value) or, for ds_cmpst, (compare, value)."""
    fn, kind = match.group(1), match.group(3)
    if fn == "cmpst":
        return buffer_atomic("cmpswap", old, data[1], data[0])
    key = {"min": "smin" if kind == "i32" else "umin", "max": "smax" if kind == "i32" else "umax",
           "wrxchg": "swap"}.get(fn, fn)
    return buffer_atomic(key, old, data[0])
