"""What the transcendental primitives compute: one definition for every executor.

After lowering (``ir/lower/intrinsics_math.py``) a kernel's transcendentals are the primitives
DXIL keeps and RDNA2 has an instruction for: ``exp2`` (``v_exp_f32``), ``log2`` (``v_log_f32``),
``sin`` / ``cos`` (``v_sin_f32`` / ``v_cos_f32`` of the angle scaled to turns), ``rsqrt``
(``v_rsq_f32``), with ``sqrt`` and ``rcp`` correctly rounded as before. The hardware's
instructions are approximations (about 1 ulp) whose exact results AMD does not document, so
shc models each as the correctly rounded function of what the instruction receives:

    exp2(x)   = f32(exp2(x))            evaluated in double, rounded once to f32
    log2(x)   = f32(log2(x))            (0 gives -inf, a negative x NaN)
    rsqrt(x)  = f32(1 / sqrt(x))        (+0 gives +inf, -0 gives -inf)
    sin(x)    = sin_turns(f32(x * f32(1 / 2pi)))   the f32 multiply the listing makes
    sin_turns(t) = f32(sin(2pi * r)),   r = t - trunc(t) with t's sign (exact in double)

and ``cos`` likewise. Inputs and results are f32 with denormals flushed to zeros of their
sign (D3D12's fp32 mode on RDNA2); half values go through f32 (widened exactly, rounded back
once). The IR interpreter and the listing simulator call these functions; the host JIT emits
the same operations in LLVM IR (``fpext``, the f64 libm function, ``fptrunc``), and the tests
compare the three bit for bit.

Why the executors agree bit for bit: the JIT's ``llvm.exp2.f64``, ``llvm.log2.f64``,
``llvm.sin.f64`` and ``llvm.cos.f64`` become calls of the C library's ``exp2``, ``log2``, ``sin``
and ``cos``, and the NumPy-side executors call those same C functions here, element by element
through ctypes (NumPy's own float64 ufuncs may differ from them in the last bit of double, which
a rounding to f32 would show for values close to a halfway point). Where no C math library can
be loaded, NumPy's float64 functions are used.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools

import numpy as np

from .turns import INV_TWO_PI, TWO_PI

_TO_TURNS = np.float32(INV_TWO_PI)
_FLT_MIN = np.float32(1.1754944e-38)


@functools.cache
def _c_math_library():
    """The C math library the JIT's calls resolve to, or None."""
    name = ctypes.util.find_library("m")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


def _c_function(name: str, fallback):
    """The C library's double function ``name`` over an array of doubles (``fallback`` without one)."""

    def function(x: np.ndarray) -> np.ndarray:
        library = _c_math_library()
        if library is None:
            return fallback(x)
        routine = getattr(library, name)
        routine.restype, routine.argtypes = ctypes.c_double, [ctypes.c_double]
        flat = np.ascontiguousarray(x, np.float64).reshape(-1)
        return np.fromiter(map(routine, flat.tolist()), np.float64, flat.size).reshape(np.shape(x))

    return function


_c_exp2, _c_log2 = _c_function("exp2", np.exp2), _c_function("log2", np.log2)
_c_sin, _c_cos = _c_function("sin", np.sin), _c_function("cos", np.cos)


def flush(values: np.ndarray) -> np.ndarray:
    """f32 denormals as zeros of their sign."""
    return np.where(np.abs(values) < _FLT_MIN, np.copysign(np.float32(0), values), values).astype(np.float32)


def _f32_function(double_function):
    """An f32 (or, through f32, f16) function: flushed input, evaluated in double, rounded once."""

    def function(values) -> np.ndarray:
        values = np.asarray(values)
        narrow = values.dtype == np.float16
        single = flush(values.astype(np.float32))
        with np.errstate(all="ignore"):
            result = flush(double_function(single.astype(np.float64)).astype(np.float32))
            return result.astype(np.float16) if narrow else result

    function.__doc__ = double_function.__doc__
    return function


def _signed_fraction(turns: np.ndarray) -> np.ndarray:
    """t - trunc(t), with t's sign (so -0 stays -0); exact for every double holding an f32."""
    return np.copysign(turns - np.trunc(turns), turns)


@_f32_function
def exp2(x):
    """``v_exp_f32``: 2 to the x."""
    return _c_exp2(x)


@_f32_function
def log2(x):
    """``v_log_f32``: the base-2 logarithm."""
    return _c_log2(x)


@_f32_function
def rsqrt(x):
    """``v_rsq_f32``: 1 / sqrt(x)."""
    return 1.0 / np.sqrt(x)


@_f32_function
def sin_turns(t):
    """``v_sin_f32``: the sine of t turns."""
    return _c_sin(TWO_PI * _signed_fraction(t))


@_f32_function
def cos_turns(t):
    """``v_cos_f32``: the cosine of t turns."""
    return _c_cos(TWO_PI * _signed_fraction(t))


def to_turns(x) -> np.ndarray:
    """The listing's ``v_mul_f32`` of x by f32(1/2pi), flushed."""
    x = np.asarray(x)
    with np.errstate(all="ignore"):
        return flush(flush(x.astype(np.float32)) * _TO_TURNS)


def sin(x) -> np.ndarray:
    """HLSL ``sin`` of an f32 (or f16) angle in radians."""
    x = np.asarray(x)
    result = sin_turns(to_turns(x))
    return result.astype(np.float16) if x.dtype == np.float16 else result


def cos(x) -> np.ndarray:
    """HLSL ``cos`` of an f32 (or f16) angle in radians."""
    x = np.asarray(x)
    result = cos_turns(to_turns(x))
    return result.astype(np.float16) if x.dtype == np.float16 else result


# HLSL's name -> the definition, for the executors that compute in NumPy
PRIMITIVES = {"exp2": exp2, "log2": log2, "rsqrt": rsqrt, "sin": sin, "cos": cos}
