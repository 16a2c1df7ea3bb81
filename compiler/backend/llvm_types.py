"""The LLVM spelling of an HLSL scalar type, shared by the host JIT and the amdgcn back end."""

from __future__ import annotations

from ..frontend import hlsl_types as T

_FLOATS = {16: "half", 32: "float", 64: "double"}


def scalar_type(scalar: T.ScalarType) -> str:
    """The LLVM type of one component: bool is i1, 16-bit types stay 16-bit."""
    if scalar.kind == "bool":
        return "i1"
    if scalar.kind == "float":
        return _FLOATS[scalar.bits]
    return f"i{scalar.bits}"
