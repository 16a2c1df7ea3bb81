"""Signatures and errors of the intrinsics lowered as compositions (reflect, refract, the SM 6.6
pack/unpack family, the packed dot products, AddUint64, D3DCOLORtoUBYTE4, the 16- and 64-bit
reinterpretations), the packed 8-bit types, rows of one-column matrices, and element-wise casts
to and from arrays, as DXC types them."""

import os
import sys

import pytest

from shc.compiler.frontend import hlsl_types as T
from shc.compiler.frontend.intrinsics import IntrinsicError, lookup_function

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import error, kernel, valid  # noqa: E402


def ty(name):
    return T.BUILTIN_TYPES[name]


def resolve(name, *args):
    resolution = lookup_function(name, [ty(arg) for arg in args])
    return tuple(str(t) for t in resolution.param_types), str(resolution.return_type)


@pytest.mark.parametrize(("name", "args", "params", "ret"), [
    ("asint16", ("half3",), ("half3",), "int16_t3"),
    ("asint16", ("uint16_t2x2",), ("uint16_t2x2",), "int16_t2x2"),
    ("asuint16", ("int16_t",), ("int16_t",), "uint16_t"),
    ("asfloat16", ("uint16_t4",), ("uint16_t4",), "half4"),
    ("asdouble", ("uint2", "uint2"), ("uint2", "uint2"), "double2"),
    ("reflect", ("float3", "float3"), ("float3", "float3"), "float3"),
    ("reflect", ("half2", "half2"), ("half2", "half2"), "half2"),
    ("refract", ("float3", "float3", "float"), ("float3", "float3", "float"), "float3"),
    ("refract", ("half4", "half4", "half"), ("half4", "half4", "half"), "half4"),
    ("D3DCOLORtoUBYTE4", ("float4",), ("float4",), "int4"),
    ("AddUint64", ("uint2", "uint2"), ("uint2", "uint2"), "uint2"),
    ("AddUint64", ("uint4", "uint4"), ("uint4", "uint4"), "uint4"),
    ("dot2add", ("half2", "half2", "float"), ("half2", "half2", "float"), "float"),
    ("dot4add_i8packed", ("uint", "uint", "int"), ("uint", "uint", "int"), "int"),
    ("dot4add_u8packed", ("uint", "uint", "uint"), ("uint", "uint", "uint"), "uint"),
    ("pack_u8", ("uint4",), ("uint4",), "uint8_t4_packed"),
    ("pack_u8", ("int16_t4",), ("int16_t4",), "uint8_t4_packed"),
    ("pack_s8", ("int4",), ("int4",), "int8_t4_packed"),
    ("pack_clamp_u8", ("int4",), ("int4",), "uint8_t4_packed"),
    ("pack_clamp_s8", ("int16_t4",), ("int16_t4",), "int8_t4_packed"),
    ("unpack_s8s16", ("int8_t4_packed",), ("int8_t4_packed",), "int16_t4"),
    ("unpack_s8s32", ("int8_t4_packed",), ("int8_t4_packed",), "int4"),
    ("unpack_u8u16", ("uint8_t4_packed",), ("uint8_t4_packed",), "uint16_t4"),
    ("unpack_u8u32", ("uint",), ("uint8_t4_packed",), "uint4"),  # a uint converts to the packed type
])
def test_signatures(name, args, params, ret):
    assert resolve(name, *args) == (params, ret)


@pytest.mark.parametrize(("name", "args", "fragment"), [
    ("AddUint64", ("uint", "uint"), "'AddUint64' takes 2-component or 4-component vectors (argument 1 is uint)"),
    ("AddUint64", ("uint3", "uint3"), "(argument 1 is uint3)"),
    ("asint16", ("float",), "'asint16' needs a 16-bit int16_t, uint16_t or half type, not float"),
    ("asfloat16", ("uint",), "needs a 16-bit int16_t, uint16_t or half type, not uint"),
    ("pack_u8", ("float4",), "'pack_u8' needs a 16- or 32-bit int or uint type, not float"),
    ("pack_s8", ("int64_t4",), "needs a 16- or 32-bit int or uint type, not int64_t"),
    ("pack_clamp_u8", ("uint4",), "'pack_clamp_u8' needs a 16- or 32-bit signed int type (int or int16_t), not uint"),
    ("pack_u8", ("uint3",), "cannot convert uint3 to uint4"),
    ("refract", ("float3", "float3"), "'refract' takes 3 arguments, not 2"),
    ("D3DCOLORtoUBYTE4", ("float3",), "cannot convert float3 to float4"),
])
def test_errors(name, args, fragment):
    with pytest.raises(IntrinsicError) as failure:
        lookup_function(name, [ty(arg) for arg in args])
    assert fragment in failure.value.message


def test_wrong_argument_types_are_positioned_errors():
    error(kernel("uint3 r = AddUint64(uint3(1, 2, 3), uint3(1, 2, 3));"), 4, 15,
          "'AddUint64' takes 2-component or 4-component vectors (argument 1 is uint3)")
    error(kernel("uint p = pack_clamp_u8(uint4(1, 2, 3, 4));"), 4, 14,
          "no matching overload for 'pack_clamp_u8' with arguments (uint4): 'pack_clamp_u8' needs a 16- or "
          "32-bit signed int type (int or int16_t), not uint")


def test_packed_types_are_uint_sized_and_convert_to_and_from_uint():
    assert T.size_in_bytes(T.UINT8_4_PACKED) == 4 and T.UINT8_4_PACKED != T.UINT
    valid(kernel("""
        uint8_t4_packed p = pack_u8(uint4(1, 2, 3, 4));
        int8_t4_packed q = (int8_t4_packed)0x80FF017Fu;
        uint bits = p;
        uint4 u = unpack_u8u32(bits);
        int4 s = unpack_s8s32(q);
        uint8_t4_packed r = int8_t4_packed(bits);
    """))


def test_rows_of_one_column_matrices_are_one_vectors():
    valid(kernel("""
        float3x1 m = float3x1(1, 2, 3);
        float1 row = m[2];
        m[1][0] = row[0] + m[0].x;
        int1x1 one = int1x1(5);
        int k = one[0][0];
    """))
    error(kernel("float3x1 m = float3x1(1, 2, 3); float f = m[0][1];"), 4, 52,
          "index 1 is out of range for a vector of 1 elements")


def test_element_wise_casts_to_and_from_arrays():
    valid(kernel("""
        float a[4] = {1, 2, 3, 4};
        float4 v = (float4)a;
        float2x2 m = (float2x2)a;
        float3 head = (float3)a;
        typedef int I6[6];
        I6 six = (I6)float2x3(1, 2, 3, 4, 5, 6);
        typedef uint U2x2[2][2];
        U2x2 nested = (U2x2)v;
        I6 splat = (I6)7;
    """))
    error(kernel("float a[3] = {1, 2, 3}; float4 v = (float4)a;"), 4, 40,
          "cannot cast from 'float[3]' to 'float4'")
    error(kernel("typedef int I5[5]; I5 b = (I5)uint2x2(1, 2, 3, 4);"), 4, 31,
          "cannot cast from 'uint2x2' to 'int[5]'")
