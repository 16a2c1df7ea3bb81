"""The host JIT's fp32 denormal mode: flushed to sign-preserved zero, as D3D12 runs RDNA2.

D3D flushes fp32 denormals on the input and output of float arithmetic (add, mul, fma,
divide, min/max, comparisons, the math functions) and keeps them through moves and
bitcasts; fp16 and fp64 keep theirs. x86 does the same for fp32 with two MXCSR bits: DAZ
(denormal inputs read as zero) and FTZ (denormal results become zero), both keeping the
sign, and neither touching integer moves, loads and stores. So ``shc_wave`` saves MXCSR on
entry, sets both bits, and restores the caller's MXCSR before it returns: the fp32
arithmetic costs nothing extra and NumPy on the worker thread never sees the mode.

The two bits also flush fp64, which D3D keeps. A kernel with any fp64 value therefore runs
with the caller's (IEEE) MXCSR, and the builder flushes around each fp32 operation instead
(``Builder.explicit_flush``: a bit test and a select per operand and result). The host back
end's own double arithmetic (the fp16 ``fma``; the transcendentals, evaluated in double from
flushed fp32 operands) never meets a double denormal that would survive its rounding back to
fp32. The C library's functions (``fmodf``, and the double ``exp2``, ``sin``... behind
``transcendentals.py``) test bits with integer instructions, which MXCSR does not reach: their
fp32 operands and results are flushed by hand in both modes.
"""

from __future__ import annotations

from ...frontend import hlsl_types as T
from ...ir.core import Function

MXCSR_DAZ = 0x0040
MXCSR_FTZ = 0x8000

# the function attributes telling LLVM's folds what the hardware does with fp32 denormals
FLUSHING_ATTRIBUTES = '"denormal-fp-math-f32"="preserve-sign,preserve-sign"'


def flushes_f32(function: Function) -> bool:
    """Whether the kernel runs with fp32 denormals flushed (it has no fp64 value)."""
    return not any(_has_double(inst.type) or any(_has_double(arg.type) for arg in inst.operands)
                   for inst in function.instructions())


def _has_double(t) -> bool:
    if isinstance(t, T.ScalarType):
        return t == T.DOUBLE
    if isinstance(t, (T.VectorType, T.MatrixType, T.ArrayType)):
        return _has_double(t.element)
    if isinstance(t, T.StructType):
        return any(_has_double(field) for _, field in t.fields)
    return False


def enter_lines() -> list[str]:
    """Entry-block lines saving MXCSR in ``%mxcsr.saved`` and setting DAZ and FTZ."""
    return ["  %mxcsr.saved = alloca i32, align 4",
            "  %mxcsr.new = alloca i32, align 4",
            "  call void @llvm.x86.sse.stmxcsr(ptr %mxcsr.saved)",
            "  %mxcsr.old = load i32, ptr %mxcsr.saved, align 4",
            f"  %mxcsr.flush = or i32 %mxcsr.old, {MXCSR_DAZ | MXCSR_FTZ}",
            "  store i32 %mxcsr.flush, ptr %mxcsr.new, align 4",
            "  call void @llvm.x86.sse.ldmxcsr(ptr %mxcsr.new)"]


def leave_line() -> str:
    """The line before ``ret`` giving the caller its MXCSR back."""
    return "call void @llvm.x86.sse.ldmxcsr(ptr %mxcsr.saved)"


DECLARATIONS = ["declare void @llvm.x86.sse.stmxcsr(ptr)", "declare void @llvm.x86.sse.ldmxcsr(ptr)"]
