"""Semantic analysis, l-values: what can be assigned to (locals, RW resources) and what
cannot (constants, cbuffer members, read-only resources, r-values).

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body on lines 4 and later, indented four columns.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import errors, kernel, source_of, valid  # noqa: E402


# ------------------------------------------------------------------ l-values


LVALUE_GLOBALS = """
cbuffer Constants { float scale; float4 tint; };
float uniformValue;
static const float K = 2;
Texture2D<float4> tex;
StructuredBuffer<float> ro;
RWTexture2D<float4> rw;
RWStructuredBuffer<float> outBuf;
ByteAddressBuffer raw;
RWByteAddressBuffer rwraw;
"""


def test_rw_resources_and_locals_are_writable():
    valid(kernel("""
        rw[id.xy] = tex[id.xy];
        outBuf[id.x] = ro[id.x] * scale;
        outBuf[id.x] += 1;
        rwraw.Store(0, raw.Load(0));
        float4 v = tint;
        v.x = K;
        v.yz++;
    """, before=LVALUE_GLOBALS))


def test_constants_and_read_only_resources_are_not_writable():
    assert errors(kernel("""
        scale = 1;
        tint.x += 2;
        uniformValue = 3;
        K = 4;
        K++;
        tex[id.xy] = 1;
        ro[id.x] = 2;
        raw.Store(0, 1u);
        outBuf = outBuf;
    """, before=LVALUE_GLOBALS)) == [
        (13, 5, "cannot assign to 'scale': constant buffer members are read-only"),
        (14, 10, "cannot assign to 'tint': constant buffer members are read-only"),
        (15, 5, "cannot assign to 'uniformValue': global variables without 'static' are uniform constants"),
        (16, 5, "cannot assign to const variable 'K'"),
        (17, 5, "cannot assign to const variable 'K'"),
        (18, 8, "cannot assign to an element of read-only resource 'tex' (Texture2D<float4>)"),
        (19, 7, "cannot assign to an element of read-only resource 'ro' (StructuredBuffer<float>)"),
        (20, 9, "'Store' is not a method of ByteAddressBuffer (ByteAddressBuffer is read-only; "
                "RWByteAddressBuffer has it)"),
        (21, 5, "cannot assign to resource 'outBuf'"),
    ]


def test_const_locals_and_parameters():
    text = source_of("""
        float f(const float x) { x = 1; return x; }
        [numthreads(1, 1, 1)] void main() { const int n = 1; n = 2; const int m; }
    """)
    assert errors(text) == [
        (1, 26, "cannot assign to const parameter 'x'"),
        (2, 54, "cannot assign to const variable 'n'"),
        (2, 71, "const variable 'm' must be initialized"),
    ]


def test_rvalues_are_not_assignable():
    assert errors(kernel("""
        float a;
        (a + 1) = 2;
        sqrt(a) = 1;
        (a)++;
        1++;
    """)) == [
        (5, 8, "expression is not assignable"),
        (6, 5, "expression is not assignable"),
        (8, 5, "expression is not assignable"),
    ]
