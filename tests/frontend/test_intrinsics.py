"""Overload resolution of HLSL intrinsics and resource methods."""

import pytest

from shc.compiler.frontend import hlsl_types as T
from shc.compiler.frontend import intrinsic_signatures as table
from shc.compiler.frontend.intrinsics import (
    CONVERSION, EXACT, PROMOTION, TRUNCATION, IntrinsicError, Resolution, conversion_rank, describe,
    function_names, is_intrinsic, lookup_function, lookup_method, parse_signature,
)

SAMPLER = T.SamplerType("SamplerState")


def ty(name):
    """A type by its HLSL spelling ("float3", "half2x2", "void")."""
    if isinstance(name, T.Type):
        return name
    return T.VOID if name == "void" else T.BUILTIN_TYPES[name]


def call(name, *args, **options):
    return lookup_function(name, [ty(arg) for arg in args], **options)


def method(obj, name, *args):
    return lookup_method(obj, name, [ty(arg) for arg in args])


def names(types):
    return tuple(str(t) for t in types)


def res(kind, element=None):
    return T.ResourceType(kind, ty(element) if element else None)


# ---------------------------------------------------------------- the table

def test_every_signature_parses_and_every_entry_is_documented():
    for entry in table.FUNCTIONS + table.METHODS:
        assert entry.group in table.GROUPS, entry.name
        assert entry.doc and "\n" not in entry.doc, entry.name
        for text in entry.signatures:
            if "$" not in text:
                assert parse_signature(text).name == entry.name
    for name in function_names():
        assert describe(name).startswith(f"{name}: ")


def test_template_letters_have_docs_and_classes():
    assert set(table.TEMPLATE_DOCS) == set(table.TEMPLATES)


def test_is_intrinsic():
    assert is_intrinsic("clamp") and is_intrinsic("WaveShuffleXor") and is_intrinsic("InterlockedAdd")
    assert not is_intrinsic("Load") and not is_intrinsic("Clamp") and not is_intrinsic("foo")


def test_resolution_is_frozen():
    resolution = call("abs", "float")
    assert isinstance(resolution, Resolution)
    with pytest.raises(AttributeError):
        resolution.name = "x"


# ---------------------------------------------------------------- conversion costs

@pytest.mark.parametrize("src, dst, rank", [
    ("float3", "float3", EXACT),
    ("float", "float3", PROMOTION),
    ("half", "float", PROMOTION),
    ("int16_t", "int", PROMOTION),
    ("int", "float", CONVERSION),
    ("int", "float3", CONVERSION),
    ("float", "half", CONVERSION),
    ("int", "uint", CONVERSION),
    ("bool", "int", CONVERSION),
    ("float4", "float3", TRUNCATION),
    ("float3", "float", TRUNCATION),
    ("float4x4", "float3x3", TRUNCATION),
    ("float2", "float3", None),
    ("float3", "float2x2", None),
    ("float2x2", "float", None),
    ("float4", "float2x2", None),
])
def test_conversion_rank(src, dst, rank):
    assert conversion_rank(ty(src), ty(dst)) == rank


def test_resources_do_not_convert():
    assert conversion_rank(res("Texture2D", "float4"), T.FLOAT) is None
    assert conversion_rank(SAMPLER, SAMPLER) == EXACT


# ---------------------------------------------------------------- math

@pytest.mark.parametrize("name, args, params, ret", [
    ("abs", ("int3",), ("int3",), "int3"),
    ("abs", ("bool",), ("int",), "int"),
    ("max", ("float3", "int"), ("float3", "float3"), "float3"),
    ("min", ("int", "uint"), ("uint", "uint"), "uint"),
    ("clamp", ("float3", "float", "float"), ("float3",) * 3, "float3"),
    ("saturate", ("int2",), ("float2",), "float2"),
    ("sqrt", ("int3",), ("float3",), "float3"),
    ("sqrt", ("half2",), ("half2",), "half2"),
    # DXC's float_like functions compute a double in float (sema warns); any_float ones keep it
    ("rsqrt", ("double",), ("float",), "float"),
    ("sqrt", ("double3",), ("float3",), "float3"),
    ("pow", ("double", "double"), ("float", "float"), "float"),
    ("length", ("double2",), ("float2",), "float"),
    ("isnan", ("double",), ("float",), "bool"),
    ("rcp", ("double2",), ("double2",), "double2"),
    ("saturate", ("double",), ("double",), "double"),
    ("clamp", ("double", "double", "double"), ("double",) * 3, "double"),
    ("pow", ("float3", "float"), ("float3", "float3"), "float3"),
    ("atan2", ("half", "half"), ("half", "half"), "half"),
    ("dot", ("float3", "float3"), ("float3", "float3"), "float"),
    ("dot", ("int2", "int2"), ("int2", "int2"), "int"),
    ("cross", ("half3", "half3"), ("half3", "half3"), "half3"),
    ("length", ("half3",), ("half3",), "half"),
    ("distance", ("float2", "float2"), ("float2", "float2"), "float"),
    ("normalize", ("float4",), ("float4",), "float4"),
    ("mad", ("uint", "uint", "uint"), ("uint",) * 3, "uint"),
    ("fma", ("double", "double", "double"), ("double",) * 3, "double"),
    ("step", ("float", "float3"), ("float3", "float3"), "float3"),
    ("smoothstep", ("float", "float", "float2"), ("float2",) * 3, "float2"),
    ("sign", ("float3",), ("float3",), "int3"),
    ("sign", ("half",), ("half",), "int"),
    ("all", ("float3",), ("float3",), "bool"),
    ("any", ("bool2",), ("bool2",), "bool"),
    ("isnan", ("float2",), ("float2",), "bool2"),
    ("isinf", ("half",), ("half",), "bool"),
    ("isfinite", ("float4",), ("float4",), "bool4"),
    ("ldexp", ("float2", "float2"), ("float2", "float2"), "float2"),
    ("fmod", ("float", "int"), ("float", "float"), "float"),
    ("degrees", ("float",), ("float",), "float"),
    ("frac", ("float2x2",), ("float2x2",), "float2x2"),
])
def test_math(name, args, params, ret):
    resolution = call(name, *args)
    assert (names(resolution.param_types), str(resolution.return_type)) == (params, ret)
    assert resolution.group == "math" and resolution.name == name
    assert resolution.out_params == () and not resolution.uniform_result


def test_half_stays_half():
    assert str(call("lerp", "half3", "half3", "half").return_type) == "half3"
    assert str(call("max", "half", "half").return_type) == "half"
    assert T.SCALARS["min16float"] == T.HALF  # min16float is half
    assert call("sqrt", T.SCALARS["min16float"]).return_type == T.HALF


def test_mixed_half_and_float_computes_in_float():
    # DXC's usual arithmetic conversions: the wider float wins.
    resolution = call("lerp", "half3", "half3", "float")
    assert names(resolution.param_types) == ("float3", "float3", "float3")
    assert str(resolution.return_type) == "float3"


def test_literals_adapt_to_the_other_arguments():
    resolution = call("lerp", "half3", "half3", "float", literal_args=[2])
    assert names(resolution.param_types) == ("half3", "half3", "half3")
    assert str(call("max", "half3", "float", literal_args={1}).return_type) == "half3"
    assert str(call("min", "int16_t", "int", literal_args=(1,)).return_type) == "int16_t"
    # a float literal never becomes an integer; an int literal joins a bool as int
    assert str(call("max", "int", "float", literal_args=[1]).return_type) == "float"
    assert str(call("max", "uint", "int", literal_args=[1]).return_type) == "uint"
    assert str(call("WaveActiveSum", "bool").return_type) == "int"
    # all literals: their own types decide
    assert str(call("max", "float", "int", literal_args=(0, 1)).return_type) == "float"


def test_truncation_picks_the_smaller_shape_and_is_reported():
    resolution = call("dot", "float4", "float3")
    assert names(resolution.param_types) == ("float3", "float3")
    assert resolution.truncated_args == (0,)
    resolution = call("clamp", "float3", "int", "float2")
    assert names(resolution.param_types) == ("float2",) * 3
    assert resolution.truncated_args == (0,)
    assert call("cross", "float4", "float3").truncated_args == (0,)


@pytest.mark.parametrize("args, params, ret", [
    (("float", "float"), ("float", "float"), "float"),
    (("float", "float3"), ("float", "float3"), "float3"),
    (("float4", "int"), ("float4", "float"), "float4"),
    (("float", "float3x3"), ("float", "float3x3"), "float3x3"),
    (("float2x2", "half"), ("float2x2", "float"), "float2x2"),
    (("float3", "float3"), ("float3", "float3"), "float"),
    (("float4", "float4x3"), ("float4", "float4x3"), "float3"),
    (("float4x3", "float3"), ("float4x3", "float3"), "float4"),
    (("float2x3", "float3x4"), ("float2x3", "float3x4"), "float2x4"),
    (("float4x4", "float4x4"), ("float4x4", "float4x4"), "float4x4"),
    (("int2x2", "int2"), ("int2x2", "int2"), "int2"),
    (("half3x3", "half3"), ("half3x3", "half3"), "half3"),
])
def test_mul_shapes(args, params, ret):
    resolution = call("mul", *args)
    assert (names(resolution.param_types), str(resolution.return_type)) == (params, ret)
    assert resolution.truncated_args == ()


def test_mul_vector_against_larger_matrix_truncates():
    resolution = call("mul", "float3", "float4x4")
    assert names(resolution.param_types) == ("float3", "float3x4")
    assert str(resolution.return_type) == "float4"
    assert resolution.truncated_args == (1,)


def test_sincos_and_modf_have_out_params():
    resolution = call("sincos", "float3", "float3", "float3")
    assert resolution.out_params == (1, 2) and resolution.return_type == T.VOID
    resolution = call("modf", "float2", "float2")
    assert resolution.out_params == (1,) and str(resolution.return_type) == "float2"


# ---------------------------------------------------------------- bits and conversion

@pytest.mark.parametrize("name, args, params, ret", [
    ("countbits", ("uint",), ("uint",), "uint"),
    ("countbits", ("int2",), ("int2",), "uint2"),
    ("firstbithigh", ("int",), ("int",), "uint"),
    ("firstbitlow", ("uint4",), ("uint4",), "uint4"),
    ("reversebits", ("uint2",), ("uint2",), "uint2"),
])
def test_bits(name, args, params, ret):
    resolution = call(name, *args)
    assert (names(resolution.param_types), str(resolution.return_type)) == (params, ret)
    assert resolution.group == "bits"


@pytest.mark.parametrize("name, args, params, ret", [
    ("asuint", ("float3",), ("float3",), "uint3"),
    ("asuint", ("int",), ("int",), "uint"),
    ("asint", ("float2",), ("float2",), "int2"),
    ("asfloat", ("uint4",), ("uint4",), "float4"),
    ("asfloat", ("int",), ("int",), "float"),
    ("asuint", ("double", "uint", "uint"), ("double", "uint", "uint"), "void"),
    ("asdouble", ("uint", "uint"), ("uint", "uint"), "double"),
    ("f32tof16", ("float2",), ("float2",), "uint2"),
    ("f32tof16", ("half",), ("float",), "uint"),
    ("f16tof32", ("uint3",), ("uint3",), "float3"),
    ("f16tof32", ("int",), ("uint",), "float"),
])
def test_conversion(name, args, params, ret):
    resolution = call(name, *args)
    assert (names(resolution.param_types), str(resolution.return_type)) == (params, ret)
    assert resolution.group == "conversion"


def test_asuint_double_form_writes_its_outputs():
    assert call("asuint", "double2", "uint2", "uint2").out_params == (1, 2)


# ---------------------------------------------------------------- wave, quad, misc, barriers

UNIFORM = ["WaveGetLaneCount", "WaveReadLaneFirst", "WaveActiveAnyTrue", "WaveActiveAllTrue",
           "WaveActiveAllEqual", "WaveActiveBallot", "WaveActiveCountBits", "WaveActiveSum",
           "WaveActiveProduct", "WaveActiveMin", "WaveActiveMax", "WaveActiveBitAnd", "WaveActiveBitOr",
           "WaveActiveBitXor"]


def test_wave_uniform_flags():
    wave = function_names("wave")
    assert set(UNIFORM) <= set(wave)
    for name in wave:
        entry = next(e for e in table.FUNCTIONS if e.name == name)
        assert entry.uniform_result == (name in UNIFORM), name


@pytest.mark.parametrize("name, args, params, ret, uniform", [
    ("WaveGetLaneIndex", (), (), "uint", False),
    ("WaveGetLaneCount", (), (), "uint", True),
    ("WaveIsFirstLane", (), (), "bool", False),
    ("WaveReadLaneAt", ("float3", "int"), ("float3", "uint"), "float3", False),
    ("WaveReadLaneFirst", ("bool",), ("bool",), "bool", True),
    ("WaveActiveAnyTrue", ("bool",), ("bool",), "bool", True),
    ("WaveActiveAllEqual", ("uint3",), ("uint3",), "bool3", True),
    ("WaveActiveBallot", ("bool",), ("bool",), "uint4", True),
    ("WaveActiveCountBits", ("bool",), ("bool",), "uint", True),
    ("WaveActiveSum", ("half4",), ("half4",), "half4", True),
    ("WaveActiveMax", ("int",), ("int",), "int", True),
    ("WaveActiveBitOr", ("uint2",), ("uint2",), "uint2", True),
    ("WavePrefixSum", ("float",), ("float",), "float", False),
    ("WavePrefixCountBits", ("bool",), ("bool",), "uint", False),
    ("WaveShuffleXor", ("half2", "uint"), ("half2", "uint"), "half2", False),
    ("WaveShuffleXor", ("float", "int"), ("float", "uint"), "float", False),
])
def test_wave(name, args, params, ret, uniform):
    resolution = call(name, *args)
    assert (names(resolution.param_types), str(resolution.return_type)) == (params, ret)
    assert resolution.group == "wave" and resolution.uniform_result == uniform


def test_quad_misc_and_barriers():
    resolution = call("QuadReadAcrossX", "float4")
    assert resolution.group == "quad" and str(resolution.return_type) == "float4"
    assert str(call("QuadReadAcrossDiagonal", "uint").return_type) == "uint"
    assert names(call("QuadReadLaneAt", "half2", "uint").param_types) == ("half2", "uint")
    resolution = call("NonUniformResourceIndex", "int")
    assert (resolution.group, names(resolution.param_types), resolution.return_type) == ("misc", ("uint",), T.UINT)
    for name in function_names("barrier"):
        resolution = call(name)
        assert (resolution.group, resolution.param_types, resolution.return_type) == ("barrier", (), T.VOID)
    assert len(function_names("barrier")) == 6


def test_wave_ops_reject_matrices_and_bitops_reject_floats():
    with pytest.raises(IntrinsicError, match="does not take matrices"):
        call("WaveActiveSum", "float2x2")
    with pytest.raises(IntrinsicError, match="needs an integer type, not float"):
        call("WaveActiveBitAnd", "float")


# ---------------------------------------------------------------- atomics

@pytest.mark.parametrize("name", ["InterlockedAdd", "InterlockedAnd", "InterlockedOr", "InterlockedXor",
                                  "InterlockedMin", "InterlockedMax"])
def test_interlocked_with_and_without_original(name):
    resolution = call(name, "uint", "uint")
    assert resolution.out_params == (0,) and resolution.group == "atomic"
    resolution = call(name, "int", "int", "int")
    assert resolution.out_params == (0, 2) and names(resolution.param_types) == ("int", "int", "int")


def test_interlocked_destination_decides_the_type():
    resolution = call("InterlockedAdd", "int", "uint")
    assert names(resolution.param_types) == ("int", "int")
    resolution = call("InterlockedMax", "uint", "int", "int")
    assert names(resolution.param_types) == ("uint", "uint", "uint")


def test_interlocked_exchange_and_compare():
    assert call("InterlockedExchange", "uint", "uint", "uint").out_params == (0, 2)
    assert call("InterlockedCompareExchange", "int", "int", "int", "int").out_params == (0, 3)
    assert call("InterlockedCompareStore", "uint", "uint", "uint").out_params == (0,)
    with pytest.raises(IntrinsicError, match="takes 3 arguments, not 2"):
        call("InterlockedExchange", "uint", "uint")


def test_interlocked_rejects_float_and_vector_destinations():
    with pytest.raises(IntrinsicError, match="needs a 32- or 64-bit int or uint, not float"):
        call("InterlockedAdd", "float", "float")
    with pytest.raises(IntrinsicError, match="inout parameter needs uint, not uint2"):
        call("InterlockedAdd", "uint2", "uint")


# ---------------------------------------------------------------- errors

def test_no_matching_overload_message():
    with pytest.raises(IntrinsicError) as info:
        call("clamp", "float3", "float2x2", "float")
    message = str(info.value)
    assert message.startswith("no matching overload for 'clamp' with arguments (float3, float2x2, float)")
    assert info.value.notes == ("candidate: T clamp(T x, T lo, T hi) (vector and matrix arguments mixed)",)


@pytest.mark.parametrize("name, args, fragment", [
    ("dot", ("float2x2", "float2x2"), "no matching overload for 'dot' with arguments (float2x2, float2x2)"),
    ("cross", ("float2", "float2"), "argument 1: cannot convert float2 to float3"),
    ("countbits", ("float",), "'countbits' needs an integer type, not float"),
    ("asuint", ("half",), "no matching overload for 'asuint' with arguments (half)"),
    ("sqrt", (), "'sqrt' takes 1 argument, not 0"),
    ("GroupMemoryBarrier", ("int",), "takes 0 arguments, not 1"),
    ("abs", (res("Texture2D", "float4"),), "argument 1 has type Texture2D<float4>, not a numeric type"),
    ("foo", (), "unknown intrinsic function 'foo'"),
    ("ddx", ("float",), "'ddx' needs pixel-shader derivatives"),
])
def test_errors(name, args, fragment):
    with pytest.raises(IntrinsicError) as info:
        call(name, *args)
    assert fragment in str(info.value)


def test_every_candidate_is_listed_with_its_reason():
    with pytest.raises(IntrinsicError) as info:
        call("asuint", "half")
    assert len(info.value.notes) == 2
    assert "32-bit" in info.value.notes[0] and "takes 3 arguments" in info.value.notes[1]


def test_describe():
    text = describe("clamp")
    assert text.splitlines()[0] == "clamp: x limited to [lo, hi], per component"
    assert "    T clamp(T x, T lo, T hi)" in text and "where T is" in text
    text = describe("GetDimensions", res("Texture2DArray", "float4"))
    assert "void GetDimensions(uint mip, out uint width, out uint height, out uint elements, out uint levels)" in text


def test_optional_argument_count_in_message():
    with pytest.raises(IntrinsicError, match="'InterlockedAdd' takes 2 to 3 arguments, not 1"):
        call("InterlockedAdd", "uint")


# ---------------------------------------------------------------- resource methods

@pytest.mark.parametrize("kind, location", [
    ("Texture1D", "int2"), ("Texture1DArray", "int3"), ("Texture2D", "int3"), ("Texture2DArray", "int4"),
    ("Texture3D", "int4"), ("RWTexture1D", "int"), ("RWTexture2D", "int2"), ("RWTexture2DArray", "int3"),
    ("RWTexture3D", "int3"),
])
def test_texture_load_arity(kind, location):
    resolution = method(res(kind, "float4"), "Load", location)
    assert names(resolution.param_types) == (location,)
    assert str(resolution.return_type) == "float4" and resolution.group == "resource"
    assert not resolution.writes_resource


def test_texture_load_wrong_arity():
    with pytest.raises(IntrinsicError) as info:
        method(res("Texture2D", "float4"), "Load", "int2")
    assert str(info.value).startswith("no matching overload for 'Load' of Texture2D<float4> with arguments (int2)")
    assert "cannot convert int2 to int3" in info.value.notes[0]
    # DXC truncates a too-long location with a warning
    assert method(res("RWTexture2D", "float4"), "Load", "int3").truncated_args == (0,)
    resolution = method(res("RWTexture2D", "float"), "Load", "uint2")  # uint converts
    assert names(resolution.param_types) == ("int2",) and resolution.return_type == T.FLOAT


def test_texture_load_offset_and_default_element():
    resolution = method(res("Texture2D"), "Load", "int3", "int2")
    assert names(resolution.param_types) == ("int3", "int2") and str(resolution.return_type) == "float4"
    with pytest.raises(IntrinsicError):
        method(res("RWTexture2D", "float4"), "Load", "int2", "int2")


@pytest.mark.parametrize("kind, uv", [
    ("Texture1D", "float"), ("Texture2D", "float2"), ("Texture2DArray", "float3"), ("Texture3D", "float3"),
    ("TextureCube", "float3"), ("TextureCubeArray", "float4"),
])
def test_sample_level(kind, uv):
    resolution = method(res(kind, "half4"), "SampleLevel", SAMPLER, uv, "int")
    assert names(resolution.param_types) == ("SamplerState", uv, "float")
    assert str(resolution.return_type) == "half4"


def test_sample_level_with_offset_but_not_on_cubes():
    resolution = method(res("Texture2DArray", "float"), "SampleLevel", SAMPLER, "float3", "float", "int2")
    assert names(resolution.param_types)[-1] == "int2"
    with pytest.raises(IntrinsicError, match="takes 3 arguments, not 4"):
        method(res("TextureCube", "float4"), "SampleLevel", SAMPLER, "float3", "float", "int2")


def test_sampling_errors():
    with pytest.raises(IntrinsicError, match="RWTexture2D<float4> cannot be sampled"):
        method(res("RWTexture2D", "float4"), "SampleLevel", SAMPLER, "float2", "float")
    with pytest.raises(IntrinsicError, match="'Sample' needs implicit derivatives.*SampleLevel"):
        method(res("Texture2D", "float4"), "Sample", SAMPLER, "float2")
    with pytest.raises(IntrinsicError) as info:
        method(res("Texture2D", "float4"), "SampleLevel", T.SamplerType("SamplerComparisonState"), "float2", "float")
    assert "argument 1: cannot convert SamplerComparisonState to SamplerState" in info.value.notes[0]


def test_sample_grad_and_gather():
    resolution = method(res("Texture2DArray", "float4"), "SampleGrad", SAMPLER, "float3", "float2", "float2")
    assert names(resolution.param_types) == ("SamplerState", "float3", "float2", "float2")
    resolution = method(res("Texture2D", "uint2"), "Gather", SAMPLER, "float2")
    assert str(resolution.return_type) == "uint4"
    assert str(method(res("Texture2D", "float"), "GatherRed", SAMPLER, "float2", "int2").return_type) == "float4"
    with pytest.raises(IntrinsicError, match="'Gather' is not a method of Texture3D<float4>"):
        method(res("Texture3D", "float4"), "Gather", SAMPLER, "float3")


@pytest.mark.parametrize("kind, args, outs", [
    ("Texture1D", ("uint",), (0,)),
    ("Texture1DArray", ("uint", "uint"), (0, 1)),
    ("Texture2D", ("uint", "uint"), (0, 1)),
    ("Texture2D", ("uint", "uint", "uint", "uint"), (1, 2, 3)),  # mip, w, h, levels
    ("Texture2DArray", ("uint", "uint", "uint"), (0, 1, 2)),
    ("Texture2DArray", ("uint", "uint", "uint", "uint", "uint"), (1, 2, 3, 4)),
    ("Texture3D", ("uint", "uint", "uint"), (0, 1, 2)),
    ("TextureCube", ("uint", "uint"), (0, 1)),
    ("TextureCubeArray", ("uint", "uint", "uint"), (0, 1, 2)),
    ("RWTexture2D", ("uint", "uint"), (0, 1)),
    ("RWTexture2DArray", ("uint", "uint", "uint"), (0, 1, 2)),
])
def test_texture_get_dimensions(kind, args, outs):
    resolution = method(res(kind, "float4"), "GetDimensions", *args)
    assert resolution.out_params == outs and resolution.return_type == T.VOID
    assert names(resolution.param_types) == args


def test_get_dimensions_float_form_and_no_mip_form_on_rw():
    resolution = method(res("Texture2D", "float4"), "GetDimensions", "uint", "float", "float", "float")
    assert names(resolution.param_types) == ("uint", "float", "float", "float")
    resolution = method(res("Texture2D", "float4"), "GetDimensions", "int", "int")  # converts, uint form
    assert names(resolution.param_types) == ("uint", "uint")
    with pytest.raises(IntrinsicError):
        method(res("RWTexture2D", "float4"), "GetDimensions", "uint", "uint", "uint", "uint")
    with pytest.raises(IntrinsicError, match="out parameter needs uint, not uint2"):
        method(res("Buffer", "float"), "GetDimensions", "uint2")


def test_buffers():
    point = T.StructType("Point", (("x", T.FLOAT), ("y", T.FLOAT)))
    for kind in ("StructuredBuffer", "RWStructuredBuffer"):
        resolution = method(res(kind, point), "Load", "uint")
        assert resolution.return_type == point and names(resolution.param_types) == ("int",)
        assert method(res(kind, point), "GetDimensions", "uint", "uint").out_params == (0, 1)
    for kind in ("Buffer", "RWBuffer"):
        assert str(method(res(kind, "float4"), "Load", "int").return_type) == "float4"
        assert method(res(kind, "float4"), "GetDimensions", "uint").out_params == (0,)


@pytest.mark.parametrize("kind", ["ByteAddressBuffer", "RWByteAddressBuffer"])
def test_byte_address_loads(kind):
    buffer = res(kind)
    for suffix, ret in (("", "uint"), ("2", "uint2"), ("3", "uint3"), ("4", "uint4")):
        resolution = method(buffer, "Load" + suffix, "uint")
        assert str(resolution.return_type) == ret and not resolution.writes_resource
    assert method(buffer, "GetDimensions", "uint").out_params == (0,)


def test_byte_address_stores_and_atomics():
    buffer = res("RWByteAddressBuffer")
    resolution = method(buffer, "Store3", "int", "uint3")
    assert names(resolution.param_types) == ("uint", "uint3") and resolution.writes_resource
    assert method(buffer, "Store", "uint", "uint").writes_resource
    resolution = method(buffer, "InterlockedAdd", "uint", "uint", "uint")
    assert (resolution.group, resolution.out_params, resolution.writes_resource) == ("atomic", (2,), True)
    assert method(buffer, "InterlockedMax", "uint", "int").out_params == ()
    assert method(buffer, "InterlockedCompareExchange", "uint", "uint", "uint", "uint").out_params == (3,)
    assert method(buffer, "InterlockedExchange", "uint", "uint", "uint").out_params == (2,)
    with pytest.raises(IntrinsicError, match="argument 2: cannot convert uint2 to uint3"):
        method(buffer, "Store3", "uint", "uint2")


def test_not_a_method():
    with pytest.raises(IntrinsicError, match=r"^'Store' is not a method of Texture2D<float4>$"):
        method(res("Texture2D", "float4"), "Store", "uint", "uint")
    with pytest.raises(IntrinsicError, match="ByteAddressBuffer is read-only; RWByteAddressBuffer has it"):
        method(res("ByteAddressBuffer"), "Store", "uint", "uint")
    with pytest.raises(IntrinsicError, match="'Load' is not a method of TextureCube<float4>"):
        method(res("TextureCube", "float4"), "Load", "int4")
    with pytest.raises(IntrinsicError, match="'SampleLevel' is not a method of SamplerState"):
        method(SAMPLER, "SampleLevel")
    with pytest.raises(IntrinsicError, match="'x' is not a method of float3"):
        method(ty("float3"), "x")


def test_transpose_swaps_rows_and_columns():
    result = lookup_function("transpose", [T.MatrixType(T.FLOAT, 3, 4)])
    assert result.return_type == T.MatrixType(T.FLOAT, 4, 3)
    half = lookup_function("transpose", [T.MatrixType(T.HALF, 2, 2)])
    assert half.return_type == T.MatrixType(T.HALF, 2, 2)
