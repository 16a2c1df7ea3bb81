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


def _signed(value: int) -> int:
    return value - (1 << 32) if value & 0x80000000 else value


_OPERATIONS = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "and": lambda a, b: a & b,
               "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b, "swap": lambda a, b: b,
               "umin": min, "umax": max,
               "smin": lambda a, b: min(a, b, key=_signed), "smax": lambda a, b: max(a, b, key=_signed)}


def buffer_atomic(fn: str, old: int, value: int, compare: int | None = None) -> int:
    """The new word of ``buffer_atomic_<fn>`` (``cmpswap``: ``value`` when ``old == compare``)."""
    if fn == "cmpswap":
        return (value if old == compare else old) & 0xFFFFFFFF
    return _OPERATIONS[fn](old, value) & 0xFFFFFFFF


def lds_atomic(match: re.Match, old: int, data: list[int]) -> int:
    """The new word of a ``DS_ATOMIC`` instruction; data is (value) or, for ds_cmpst, (compare, value)."""
    fn, kind = match.group(1), match.group(3)
    if fn == "cmpst":
        return buffer_atomic("cmpswap", old, data[1], data[0])
    key = {"min": "smin" if kind == "i32" else "umin", "max": "smax" if kind == "i32" else "umax",
           "wrxchg": "swap"}.get(fn, fn)
    return buffer_atomic(key, old, data[0])
