"""The transcendental primitives in LLVM IR, as ``compiler/machine/transcendentals.py`` defines
them: the f32 operand flushed and widened to double (exact), the C library's double function
(``llvm.exp2.f64``...), one rounding back to f32 (``fptrunc``), the result flushed. ``sin`` and
``cos`` first scale to turns with the listing's f32 multiply by f32(1/2pi), keep the signed
fraction of the turns (``t - trunc(t)``, its sign copied from t) and scale back by 2pi in double.
On lane vectors each call stays one vector operation (LLVM expands it to a call per lane, as it
did for the f32 functions before).
"""

from __future__ import annotations

from ...machine.turns import INV_TWO_PI, TWO_PI
from .llvm_text import V
from .values import like

PRIMITIVES = ("exp2", "log2", "rsqrt", "sin", "cos")


def _wide(b, x: V) -> V:
    return b.cast("fpext", b.flush(x), like(x, "double", b))


def _narrow(b, x: V) -> V:
    return b.flush(b.cast("fptrunc", x, like(x, "float", b)))


def _turns(b, x: V) -> V:
    """t - trunc(t) of x's turns t, with t's sign, in double (exact)."""
    turns = _wide(b, b.flush(b.binop("fmul", b.flush(x), b.const(x.ty, float(INV_TWO_PI)))))
    fraction = b.binop("fsub", turns, b.call(turns.ty, "llvm.trunc", [turns]))
    return b.call(turns.ty, "llvm.copysign", [fraction, turns])


def primitive(b, name: str, x: V) -> V:
    """f32 ``name(x)`` (lane vector or scalar), bit for bit the machine definition."""
    if name == "rsqrt":
        wide = _wide(b, x)
        return _narrow(b, b.binop("fdiv", b.const(wide.ty, 1.0), b.call(wide.ty, "llvm.sqrt", [wide])))
    if name in ("sin", "cos"):
        fraction = _turns(b, x)
        angle = b.binop("fmul", fraction, b.const(fraction.ty, TWO_PI))
        return _narrow(b, b.call(angle.ty, f"llvm.{name}", [angle]))
    wide = _wide(b, x)
    return _narrow(b, b.call(wide.ty, f"llvm.{name}", [wide]))
