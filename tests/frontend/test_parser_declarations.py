"""The HLSL grammar, declarations: types, structs, typedefs and modifiers; resources,
registers and cbuffers; functions, parameters, semantics and attributes.

Node positions follow one rule per node kind (parser_helpers.py); ``fe`` is the shared
front end of tests/conftest.py.
"""

import os
import sys

import pytest

from shc.compiler.frontend import ast

sys.path.insert(0, os.path.dirname(__file__))
from parser_helpers import only  # noqa: E402


# ------------------------------------------------------------------- types

@pytest.mark.parametrize("name", [
    "bool", "int", "uint", "dword", "float", "half", "double", "min16float", "min16int", "min16uint",
    "float16_t", "int16_t", "uint16_t", "int64_t", "uint64_t", "float4", "int2", "bool3", "half4",
])
def test_scalar_and_vector_types(fe, name):
    decl = fe.decl(f"static {name} value;")
    var = only(decl)
    assert (var.type_spec.name, var.name, var.modifiers) == (name, "value", ["static"])
    fe.assert_coord(decl, 1, 8)
    fe.assert_coord(var.type_spec, 1, 8)
    fe.assert_coord(var, 1, 9 + len(name))


def test_vector_and_matrix_templates(fe):
    unit = fe.parse("vector<float, 4> a;\nmatrix<float, 4, 4> b;\nfloat4x4 c;\nvector<int, 2> d;\n")
    a, b, c, d = (only(stmt) for stmt in unit.decls)
    assert a.type_spec.name == "vector"
    element, size = a.type_spec.args
    assert (element.name, size.value) == ("float", 4)
    fe.assert_coord(element, 1, 8)
    fe.assert_coord(size, 1, 15)
    assert [getattr(arg, "value", getattr(arg, "name", None)) for arg in b.type_spec.args] == ["float", 4, 4]
    assert (c.type_spec.name, c.type_spec.args) == ("float4x4", [])
    assert d.type_spec.args[0].name == "int"


def test_template_argument_in_parentheses(fe):
    var = only(fe.decl("vector<float, (1 + 1)> v;"))
    assert var.type_spec.args[1].op == "+"


def test_multidimensional_arrays(fe):
    var = only(fe.decl("static const int N = 2;\nfloat a[2][3][N * 2];"))
    assert [type(dim).__name__ for dim in var.dims] == ["IntLiteral", "IntLiteral", "Binary"]
    assert [dim.value for dim in var.dims[:2]] == [2, 3]
    fe.assert_coord(var.dims[1], 2, 12)


def test_structs_nested_by_member(fe):
    unit = fe.parse("struct A { float x; int y; };\nstruct B {\n    A inner;\n    float2 v[2] : TEXCOORD0;\n};\n")
    a, b = unit.decls
    assert (a.name, [m.name for m in a.members]) == ("A", ["x", "y"])
    fe.assert_coord(a, 1, 8)
    inner, v = b.members
    assert (inner.type_spec.name, inner.name) == ("A", "inner")
    fe.assert_coord(inner, 3, 7)
    assert (v.dims[0].value, v.semantic) == (2, "TEXCOORD0")


def test_nested_struct_definitions_are_hoisted(fe):
    unit = fe.parse("struct Outer {\n    struct Inner { int i; } first;\n    Inner second;\n};\n")
    inner, outer = unit.decls
    assert (inner.name, outer.name) == ("Inner", "Outer")
    assert [(m.type_spec.name, m.name) for m in outer.members] == [("Inner", "first"), ("Inner", "second")]
    fe.assert_coord(inner, 2, 12)


def test_struct_with_declarators(fe):
    unit = fe.parse("struct S { float a; } s, t[2];\nstruct E {};\n")
    struct, variables, empty = unit.decls
    assert struct.name == "S" and [v.name for v in variables.decls] == ["s", "t"]
    assert all(v.type_spec.name == "S" for v in variables.decls)
    assert variables.decls[1].dims[0].value == 2
    assert (empty.name, empty.members) == ("E", [])
    (local,) = fe.body("struct P { int x; } p;\np.x = 1;")[:1]
    assert [type(d).__name__ for d in local.decls] == ["StructDecl", "VarDecl"]
    fe.assert_coord(local, 2, 8)


def test_struct_keyword_before_a_struct_type(fe):
    var = only(fe.decl("struct S { int a; };\nstruct S s;"))
    assert var.type_spec.name == "S"


def test_typedef(fe):
    unit = fe.parse("typedef float4 F4;\ntypedef const uint U2[2];\nF4 color = F4(1, 2, 3, 4);\nF4 cast = (F4)0;\n")
    f4, u2, color, cast = unit.decls
    assert (f4.name, f4.type_spec.name) == ("F4", "float4")
    fe.assert_coord(f4, 1, 16)
    assert (u2.type_spec.name, u2.type_spec.modifiers, u2.dims[0].value) == ("uint", ["const"], 2)
    assert only(color).type_spec.name == "F4"
    assert isinstance(only(color).init, ast.Construct) and only(color).init.type_spec.name == "F4"
    assert isinstance(only(cast).init, ast.Cast)


def test_typedef_of_a_struct_and_local_typedef(fe):
    unit = fe.parse("struct S { int a; };\ntypedef S T;\nT t;\nvoid f() { typedef int I; I i = 1; }\n")
    assert only(unit.decls[2]).type_spec.name == "T"
    local_typedef, local_var = unit.decls[3].body.items
    assert isinstance(local_typedef.decls[0], ast.Typedef)
    assert only(local_var).type_spec.name == "I"


@pytest.mark.parametrize("text, modifiers", [
    ("static const float a = 1;", ["static", "const"]),
    ("uniform float b;", ["uniform"]),
    ("precise float c;", ["precise"]),
    ("row_major float4x4 d;", ["row_major"]),
    ("column_major float3x3 e;", ["column_major"]),
    ("snorm float f;", ["snorm"]),
    ("unorm float g;", ["unorm"]),
    ("extern volatile float h;", ["extern", "volatile"]),
    ("groupshared float i[64];", ["groupshared"]),
    ("globallycoherent RWByteAddressBuffer j;", ["globallycoherent"]),
    ("static const row_major float2x2 k = 0;", ["static", "const", "row_major"]),
])
def test_modifiers(fe, text, modifiers):
    assert only(fe.decl(text)).modifiers == modifiers


def test_unsigned_int_is_uint(fe):
    unit = fe.parse("unsigned int a;\nunsigned int2 b;\nunsigned min16int c;\n"
                    "static unsigned int d;\nuint e = (unsigned int)1;\nvector<unsigned int, 2> f;\n")
    a, b, c, d, e, f = (only(stmt) for stmt in unit.decls)
    assert [v.type_spec.name for v in (a, b, c, d)] == ["uint", "uint2", "min16uint", "uint"]
    assert a.modifiers == [] and d.modifiers == ["static"]
    fe.assert_coord(a.type_spec, 1, 10)
    assert e.init.type_spec.name == "uint"
    assert f.type_spec.args[0].name == "uint"


def test_unsigned_needs_an_integer_type(fe):
    assert fe.errors("unsigned float x;") == [("test.hlsl", 1, 10, "'unsigned' cannot be applied to 'float'")]


# --------------------------------------------------------------- resources

@pytest.mark.parametrize("text, kind", [
    ("Buffer<float4>", "Buffer"), ("RWBuffer<uint>", "RWBuffer"),
    ("StructuredBuffer<S>", "StructuredBuffer"), ("RWStructuredBuffer<S>", "RWStructuredBuffer"),
    ("ByteAddressBuffer", "ByteAddressBuffer"), ("RWByteAddressBuffer", "RWByteAddressBuffer"),
    ("Texture1D<float>", "Texture1D"), ("Texture1DArray<float>", "Texture1DArray"),
    ("Texture2D<float4>", "Texture2D"), ("Texture2DArray<float4>", "Texture2DArray"),
    ("Texture3D<float4>", "Texture3D"), ("TextureCube<float4>", "TextureCube"),
    ("TextureCubeArray<float4>", "TextureCubeArray"),
    ("RWTexture1D<float>", "RWTexture1D"), ("RWTexture1DArray<float2>", "RWTexture1DArray"),
    ("RWTexture2D<float4>", "RWTexture2D"), ("RWTexture2DArray<uint>", "RWTexture2DArray"),
    ("RWTexture3D<float4>", "RWTexture3D"), ("Texture2D", "Texture2D"),
    ("SamplerState", "SamplerState"), ("SamplerComparisonState", "SamplerComparisonState"),
    ("ConstantBuffer<S>", "ConstantBuffer"),
])
def test_resource_kinds(fe, text, kind):
    var = only(fe.decl(f"struct S {{ float a; }};\n{text} res;"))
    assert var.type_spec.name == kind
    has_argument = "<" in text
    assert len(var.type_spec.args) == has_argument
    fe.assert_coord(var.type_spec, 2, 1)


def test_resource_arrays_and_registers(fe):
    unit = fe.parse("Texture2D<float4> fixed[8] : register(t0);\n"
                    "Texture2D<float4> bindless[] : register(t0, space1);\n"
                    "RWStructuredBuffer<uint> counters : register(u3);\n"
                    "SamplerState linearClamp : register(s2, space0);\n"
                    "cbuffer C : register(b1) { float a; };\n"
                    "RWTexture2D<float4> upper : register(U7, space12);\n")
    fixed, bindless, counters, sampler = (only(stmt) for stmt in unit.decls[:4])
    assert fixed.dims[0].value == 8 and bindless.dims == [None]
    registers = [fixed.register, bindless.register, counters.register, sampler.register,
                 unit.decls[4].register, only(unit.decls[5]).register]
    assert [(r.kind, r.index, r.space) for r in registers] == [
        ("t", 0, 0), ("t", 0, 1), ("u", 3, 0), ("s", 2, 0), ("b", 1, 0), ("u", 7, 12)]
    fe.assert_coord(counters.register, 3, 46)


@pytest.mark.parametrize("annotation, message", [
    ("register(x1)", "invalid register 'x1': expected t, u, s or b and a number"),
    ("register(u)", "invalid register 'u': expected t, u, s or b and a number"),
    ("register(u1, s2)", "invalid register space 's2': expected spaceN"),
])
def test_bad_registers(fe, annotation, message):
    assert fe.errors(f"RWBuffer<uint> b : {annotation};") == [("test.hlsl", 1, 29, message)]


def test_cbuffer_tbuffer_and_packoffset(fe):
    unit = fe.parse("cbuffer Params : register(b0)\n{\n    float4 scale : packoffset(c0);\n"
                    "    uint count : packoffset(c1.y);\n}\ntbuffer Lookup { float table[16]; };\ncbuffer Empty {}\n")
    params, lookup, empty = unit.decls
    assert (params.kind, params.name, [m.name for m in params.members]) == ("cbuffer", "Params", ["scale", "count"])
    fe.assert_coord(params, 1, 9)
    assert [m.packoffset for m in params.members] == ["c0", "c1.y"]
    fe.assert_coord(params.members[1], 4, 10)
    assert (lookup.kind, lookup.members[0].dims[0].value) == ("tbuffer", 16)
    assert (empty.name, empty.members) == ("Empty", [])


def test_cbuffer_trailing_semicolon_is_optional(fe):
    unit = fe.parse("cbuffer A { float a; }\ncbuffer B { float b; };\n;\nfloat c;")
    assert [type(d).__name__ for d in unit.decls] == ["CBuffer", "CBuffer", "DeclStmt"]


def test_vulkan_attributes(fe):
    unit = fe.parse("struct S { float4 v; };\n"
                    "[[vk::binding(0, 1)]] RWTexture2D<float4> image;\n"
                    "[[vk::push_constant]] ConstantBuffer<S> constants;\n"
                    "[[vk::push_constant]] cbuffer Push { uint p; };\n"
                    "[[vk::binding(3)]] [[vk::image_format(\"rgba8\")]] RWTexture2D<float4> other;\n")
    image, constants, push, other = only(unit.decls[1]), only(unit.decls[2]), unit.decls[3], only(unit.decls[4])
    (binding,) = image.attributes
    assert binding.name == "vk::binding" and [a.value for a in binding.args] == [0, 1]
    fe.assert_coord(binding, 2, 3)
    assert [a.name for a in constants.attributes] == ["vk::push_constant"]
    assert isinstance(push, ast.CBuffer) and [a.name for a in push.attributes] == ["vk::push_constant"]
    assert [(a.name, a.args[0] if a.args else None) for a in other.attributes][1] == ("vk::image_format", "rgba8")


# --------------------------------------------------------------- functions

def test_overloads_default_arguments_and_prototypes(fe):
    unit = fe.parse("float f(float a);\nfloat f(float a) { return a; }\n"
                    "float f(float2 a, float b = 2.0, int c = 1 + 1) { return a.x * b; }\nvoid g(void) {}\n")
    proto, first, second, g = unit.decls
    assert proto.body is None and isinstance(first.body, ast.Compound)
    assert [p.type_spec.name for p in second.params] == ["float2", "float", "int"]
    assert [type(p.default).__name__ for p in second.params] == ["NoneType", "FloatLiteral", "Binary"]
    fe.assert_coord(second, 3, 7)
    fe.assert_coord(second.params[1], 3, 25)
    assert g.params == []


def test_unnamed_parameters_and_void_parameter_lists(fe):
    unit = fe.parse("float g(float, in uint2);\nfloat h(void);\nvoid k(void x);\n")
    g, h, k = unit.decls
    assert [(p.name, p.type_spec.name, p.modifiers) for p in g.params] == [("", "float", []), ("", "uint2", ["in"])]
    fe.assert_coord(g.params[1], 1, 19)
    assert h.params == []
    assert [(p.name, p.type_spec.name) for p in k.params] == [("x", "void")]  # sema rejects it


def test_parameter_directions(fe):
    func = fe.decl("void f(in float a, out float b, inout float c, in out float d, float e, uniform float u) {}")
    assert [p.direction for p in func.params] == ["in", "out", "inout", "inout", "in", "in"]
    assert func.params[5].modifiers == ["uniform"]


def test_array_parameters_and_modifiers_on_functions(fe):
    func = fe.decl("inline precise float sum(float values[4], const uint n) { return values[0]; }")
    assert func.modifiers == ["inline", "precise"]
    assert func.params[0].dims[0].value == 4 and func.params[1].modifiers == ["const"]


def test_semantics(fe):
    unit = fe.parse("struct V { float4 pos : SV_Position; };\n"
                    "float4 ps(float4 pos : SV_Position, uint id : SV_PrimitiveID) : SV_Target0 { return pos; }\n")
    assert unit.decls[0].members[0].semantic == "SV_Position"
    func = unit.decls[1]
    assert [p.semantic for p in func.params] == ["SV_Position", "SV_PrimitiveID"]
    assert func.semantic == "SV_Target0"


def test_entry_point_attributes(fe):
    func = fe.decl('[numthreads(8, 4, 1)]\n[WaveSize(32)]\n[shader("compute")]\n'
                   "void main(uint3 id : SV_DispatchThreadID, uint index : SV_GroupIndex,\n"
                   "          uint3 group : SV_GroupID, uint3 local : SV_GroupThreadID) {}\n")
    numthreads, wave_size, shader = func.attributes
    assert (numthreads.name, [a.value for a in numthreads.args]) == ("numthreads", [8, 4, 1])
    fe.assert_coord(numthreads, 1, 2)
    fe.assert_coord(numthreads.args[1], 1, 16)
    assert (wave_size.name, wave_size.args[0].value) == ("WaveSize", 32)
    assert (shader.name, shader.args) == ("shader", ["compute"])
    fe.assert_coord(func, 4, 6)
    assert [p.semantic for p in func.params] == [
        "SV_DispatchThreadID", "SV_GroupIndex", "SV_GroupID", "SV_GroupThreadID"]


def test_attribute_arguments_are_expressions(fe):
    func = fe.decl("#define GROUP 64\n[numthreads(GROUP * 2, 1, 1)] void main() {}")
    assert func.attributes[0].args[0].op == "*"


# ------------------------------------------- structs with bases, methods, operators

def test_struct_with_a_base_and_class_keyword(fe):
    unit = fe.parse("struct A { float x; };\nclass B : A { int y; };\n")
    a, b = unit.decls
    assert (a.base, b.name, b.base.name, [m.name for m in b.members]) == (None, "B", "A", ["y"])
    fe.assert_coord(b, 2, 7)
    fe.assert_coord(b.base, 2, 11)


def test_methods_are_kept_apart_from_members(fe):
    unit = fe.parse("struct S {\n    float x;\n    float get() { return x; }\n"
                    "    static S make(float v);\n    float y;\n};\n")
    (struct,) = unit.decls
    assert [m.name for m in struct.members] == ["x", "y"]
    get, make = struct.methods
    assert (get.name, get.body is not None, make.name, make.modifiers, make.body) == (
        "get", True, "make", ["static"], None)
    fe.assert_coord(get, 3, 11)
    assert struct.methods[1].return_type.name == "S"  # the struct's own name is a type inside its body


def test_operator_methods_are_named_by_their_symbol(fe):
    unit = fe.parse("struct V {\n    V operator+(V b);\n    bool operator==(V b);\n"
                    "    float operator[](uint i);\n    V operator-();\n};\n")
    assert [m.name for m in unit.decls[0].methods] == ["operator+", "operator==", "operator[]", "operator-"]
    fe.assert_coord(unit.decls[0].methods[0], 2, 7)


def test_method_defined_outside_its_struct(fe):
    unit = fe.parse("struct S { float f(); };\nfloat S::f() { return 1; }\n")
    definition = unit.decls[1]
    assert (definition.qualifier, definition.name, definition.body is not None) == ("S", "f", True)
    fe.assert_coord(definition, 2, 10)


def test_qualified_call_and_method_call(fe):
    call = fe.expr("S::make(1, 2)", prelude="struct S { static S make(int a, int b); };")
    assert isinstance(call, ast.Call) and (call.qualifier, call.name, len(call.args)) == ("S", "make", 2)
    method = fe.expr("s.get(3)", prelude="struct S { float get(int i); };\nS s;")
    assert isinstance(method, ast.MethodCall) and (method.obj.name, method.name) == ("s", "get")
    this = fe.expr("this.x")
    assert isinstance(this, ast.Member) and this.obj.name == "this"


def test_const_method(fe):
    (struct,) = fe.parse("struct S { float x; float get() const { return x; } float set(); };\n").decls
    get, set_ = struct.methods
    assert (get.const_method, get.modifiers, set_.const_method) == (True, [], False)
    assert fe.errors("struct S { float get() static; };\n") == [
        ("test.hlsl", 1, 24, "'static' cannot follow a function's parameters")]
