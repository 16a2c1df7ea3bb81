"""HLSL 2021's ``select``, ``and`` and ``or``: element-wise, both arms evaluated, scalars
broadcast; ``&&`` and ``||`` take scalars only (their vector form is ``and``/``or``).

Error tests assert the message and its exact position; ``kernel()`` puts the body on lines
4 and later, indented four columns.
"""

import os
import sys

import pytest

from shc.compiler.frontend import ast
from shc.compiler.frontend.intrinsics import lookup_function
from shc.compiler.frontend import hlsl_types as T

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import errors, kernel, nodes, valid  # noqa: E402


def result_of(name, *args):
    return str(lookup_function(name, [T.BUILTIN_TYPES[a] for a in args]).return_type)


@pytest.mark.parametrize("args, result", [
    (("bool", "float", "float"), "float"),
    (("bool3", "float3", "float3"), "float3"),
    (("bool2", "float", "float"), "float2"),  # scalar arms broadcast to the condition
    (("bool", "int4", "int4"), "int4"),  # a scalar condition picks whole vectors
    (("bool2", "uint2", "uint"), "uint2"),
    (("bool4", "bool4", "bool"), "bool4"),
    (("bool2x2", "float2x2", "float2x2"), "float2x2"),
])
def test_select_types(args, result):
    assert result_of("select", *args) == result


@pytest.mark.parametrize("name", ["and", "or"])
@pytest.mark.parametrize("args, result", [
    (("bool", "bool"), "bool"),
    (("bool3", "bool3"), "bool3"),
    (("bool3", "bool"), "bool3"),
    (("int2", "float2"), "bool2"),  # numbers convert to bool, as the operators do
])
def test_and_or_types(name, args, result):
    assert result_of(name, *args) == result


def test_select_and_or_in_a_kernel_are_typed():
    program = valid(kernel("""
        float3 v = float3(id);
        bool3 m = and(v > 1, !(v > 4));
        float3 r = select(or(m, v == 0), v, -v);
        float s = select(id.x > 2, 1.0, 2.0);
        outBuf[id.x] = r + s;
    """, before="RWStructuredBuffer<float3> outBuf;"))
    typed = sorted(str(call.type) for call in nodes(program.unit, ast.Call))
    assert typed == ["bool3", "bool3", "float", "float3"]


@pytest.mark.parametrize("op, name", [("&&", "and"), ("||", "or")])
def test_vector_logical_operators_are_errors(op, name):
    text = kernel(f"bool2 a = id.xy > 1;\nbool2 b = a {op} true;", before="")
    assert errors(text) == [(5, 17, "operands for short-circuiting logical binary operator must be scalar; "
                                    f"for vectors use '{name}'")]


def test_scalar_logical_operators_still_work():
    valid(kernel("bool a = id.x > 1 && id.y < 3 || !(id.z == 0);"))


def test_matrix_logical_operators_are_errors():
    text = kernel("float2x2 m = 1;\nbool2x2 n = m || m;")
    assert errors(text) == [(5, 19, "operands for short-circuiting logical binary operator must be scalar; "
                                    "for vectors use 'or'")]
