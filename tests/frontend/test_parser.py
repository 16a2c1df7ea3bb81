"""The HLSL grammar: every construct of the compute subset, node fields and node positions.

Positions follow one rule per node kind: declarations sit at their name, types at
the type name, statements at their keyword (an expression statement where its
expression starts), operators at the operator, calls at the callee's name,
casts and parentheses-free groupings at their opening token.
"""

import pytest

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.frontend import ast
from shc.compiler.frontend.preprocess import preprocess


def only(decl_stmt):
    (var,) = decl_stmt.decls
    return var


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


# -------------------------------------------------------------- statements

@pytest.mark.parametrize("attribute, statement, kind", [
    ("[unroll]", "for (int i = 0; i < 4; i++) {}", ast.For),
    ("[unroll(4)]", "for (int i = 0; i < 4; i++) {}", ast.For),
    ("[loop]", "while (x) { x--; }", ast.While),
    ("[fastopt]", "do { x--; } while (x);", ast.DoWhile),
    ("[allow_uav_condition]", "for (;;) { break; }", ast.For),
    ("[branch]", "if (x) x = 0;", ast.If),
    ("[flatten]", "if (x) x = 0; else x = 1;", ast.If),
    ("[call]", "switch (x) { default: break; }", ast.Switch),
])
def test_statement_attributes(fe, attribute, statement, kind):
    (node,) = fe.body(f"{attribute} {statement}")
    assert isinstance(node, kind)
    (attr,) = node.attributes
    assert attr.name == attribute[1:].split("(")[0].rstrip("]")
    fe.assert_coord(attr, 2, 2)
    fe.assert_coord(node, 2, len(attribute) + 2)
    if "(4)" in attribute:
        assert attr.args[0].value == 4


def test_several_statement_attributes(fe):
    (node,) = fe.body("[unroll] [loop] for (;;) {}")
    assert [a.name for a in node.attributes] == ["unroll", "loop"]


def test_attribute_on_a_statement_that_cannot_take_one_is_a_warning(fe):
    unit, diagnostics = fe.run("void f() {\n  [unroll] return;\n}\n")
    assert isinstance(unit.decls[0].body.items[0], ast.Return)
    assert [(d.severity, d.coord.line, d.coord.col) for d in diagnostics.items] == [("warning", 2, 4)]


def test_switch_with_fall_through(fe):
    (switch,) = fe.body("switch (x) {\ncase 0:\ncase 1: x = 1;\ncase 1 + 1: x = 2; break;\ndefault: break;\n}")
    assert isinstance(switch.expr, ast.Identifier)
    assert [len(case.body) for case in switch.cases] == [0, 1, 2, 1]
    assert [getattr(case.value, "value", None) for case in switch.cases[:2]] == [0, 1]
    assert switch.cases[2].value.op == "+" and switch.cases[3].value is None
    fe.assert_coord(switch, 2, 1)
    fe.assert_coord(switch.cases[3], 6, 1)
    assert isinstance(switch.cases[2].body[1], ast.Break)


def test_switch_case_with_a_block_and_declarations(fe):
    (switch,) = fe.body("switch (1) { case 0: { int y = 1; break; } case 2: int z = 2; break; }")
    assert isinstance(switch.cases[0].body[0], ast.Compound)
    assert isinstance(switch.cases[1].body[0], ast.DeclStmt)


def test_loops(fe):
    do, loop, for_decl, for_expr, for_empty = fe.body(
        "do { x++; } while (x < 10);\nwhile (x) x--;\nfor (int i = 0, j = 1; i < j; ++i, j--) { continue; }\n"
        "for (x = 0; x < 2; x++) break;\nfor (;;) ;")
    assert isinstance(do.body, ast.Compound) and do.cond.op == "<"
    fe.assert_coord(do, 2, 1)
    assert isinstance(loop.body, ast.ExprStmt)
    assert [v.name for v in for_decl.init.decls] == ["i", "j"]
    assert isinstance(for_decl.step, ast.Comma)
    assert isinstance(for_decl.body.items[0], ast.Continue)
    fe.assert_coord(for_decl, 4, 1)
    fe.assert_coord(for_decl.init, 4, 6)
    assert isinstance(for_expr.init, ast.ExprStmt) and isinstance(for_expr.body, ast.Break)
    assert (for_empty.init, for_empty.cond, for_empty.step) == (None, None, None)
    assert isinstance(for_empty.body, ast.EmptyStmt)


def test_if_else_chains_and_dangling_else(fe):
    chain, dangling = fe.body("if (a) b = 1; else if (c) b = 2; else b = 3;\nif (a) if (c) b = 4; else b = 5;")
    assert isinstance(chain.otherwise, ast.If) and isinstance(chain.otherwise.otherwise, ast.ExprStmt)
    fe.assert_coord(chain.otherwise, 2, 20)
    assert dangling.otherwise is None and dangling.then.otherwise is not None


def test_jumps_blocks_and_empty_statements(fe):
    items = fe.body("{ { } }\n;\nreturn;\ndiscard;")
    assert [type(i).__name__ for i in items] == ["Compound", "EmptyStmt", "Return", "Discard"]
    assert isinstance(items[0].items[0], ast.Compound)
    fe.assert_coord(items[1], 3, 1)
    fe.assert_coord(items[2], 4, 1)
    (ret,) = fe.body("return 1 + 2;")
    assert ret.value.op == "+"


def test_local_declarations(fe):
    decl, const, resource = fe.body("float a = 1, b[2] = {1, 2}, c;\nconst static float d = 2;\n"
                                    "Texture2D<float4> t = textures[0];")
    assert [v.name for v in decl.decls] == ["a", "b", "c"]
    assert isinstance(decl.decls[1].init, ast.InitList)
    assert only(const).modifiers == ["const", "static"]
    assert isinstance(only(resource).init, ast.Index)


# ------------------------------------------------------------- expressions

def test_comma_expression(fe):
    expr = fe.expr("a = 1, b = 2, c")
    assert isinstance(expr, ast.Comma) and len(expr.exprs) == 3
    fe.assert_coord(expr, 2, 6)
    assert [type(e).__name__ for e in expr.exprs] == ["Assign", "Assign", "Identifier"]


def test_ternary_is_right_associative(fe):
    expr = fe.expr("a ? b : c ? d : e")
    assert isinstance(expr, ast.Conditional) and isinstance(expr.otherwise, ast.Conditional)
    fe.assert_coord(expr, 2, 3)
    fe.assert_coord(expr.otherwise, 2, 11)


@pytest.mark.parametrize("op", ["=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^="])
def test_assignment_operators(fe, op):
    expr = fe.expr(f"x {op} y = 3")
    assert isinstance(expr, ast.Assign) and expr.op == op
    assert isinstance(expr.value, ast.Assign)  # right-associative
    fe.assert_coord(expr, 2, 3)


def test_increment_and_decrement(fe):
    pre_inc, post_dec = fe.body("++x;\nx--;")
    assert (pre_inc.expr.op, pre_inc.expr.postfix) == ("++", False)
    assert (post_dec.expr.op, post_dec.expr.postfix) == ("--", True)
    fe.assert_coord(pre_inc.expr, 2, 1)
    fe.assert_coord(post_dec.expr, 3, 2)
    fe.assert_coord(post_dec, 3, 1)


@pytest.mark.parametrize("text, tree", [
    ("a + b * c", ("+", "a", ("*", "b", "c"))),
    ("a * b + c", ("+", ("*", "a", "b"), "c")),
    ("a - b - c", ("-", ("-", "a", "b"), "c")),
    ("a << b + c", ("<<", "a", ("+", "b", "c"))),
    ("a < b == c", ("==", ("<", "a", "b"), "c")),
    ("a & b | c ^ d", ("|", ("&", "a", "b"), ("^", "c", "d"))),
    ("a && b || c", ("||", ("&&", "a", "b"), "c")),
    ("a || b && c", ("||", "a", ("&&", "b", "c"))),
    ("-a * b", ("*", ("-", "a"), "b")),
    ("!a && ~b", ("&&", ("!", "a"), ("~", "b"))),
    ("a % b / c", ("/", ("%", "a", "b"), "c")),
    ("a >= b != c <= d", ("!=", (">=", "a", "b"), ("<=", "c", "d"))),
    ("(a + b) * c", ("*", ("+", "a", "b"), "c")),
])
def test_operator_precedence(fe, text, tree):
    def shape(node):
        if isinstance(node, ast.Identifier):
            return node.name
        if isinstance(node, ast.Unary):
            return (node.op, shape(node.operand))
        return (node.op, shape(node.left), shape(node.right))
    assert shape(fe.expr(text)) == tree


def test_binary_operator_positions(fe):
    expr = fe.expr("a +  b * c")
    fe.assert_coord(expr, 2, 3)
    fe.assert_coord(expr.right, 2, 8)
    fe.assert_coord(expr.right.left, 2, 6)


def test_casts(fe):
    scalar, struct, template, modified, paren = fe.body(
        "(float3)v;\n(S)0;\n(vector<float, 3>)v;\n(const float)v.x;\n(v);", prelude="struct S { int a; };\n")
    assert isinstance(scalar.expr, ast.Cast) and scalar.expr.type_spec.name == "float3"
    fe.assert_coord(scalar.expr, 3, 1)  # the prelude takes line 1
    fe.assert_coord(scalar.expr.type_spec, 3, 2)
    assert struct.expr.type_spec.name == "S" and struct.expr.expr.value == 0
    assert template.expr.type_spec.args[1].value == 3
    assert modified.expr.type_spec.modifiers == ["const"]
    assert isinstance(paren.expr, ast.Identifier)


def test_cast_binds_tighter_than_binary_operators(fe):
    expr = fe.expr("(float)a / b")
    assert expr.op == "/" and isinstance(expr.left, ast.Cast)


def test_constructors(fe):
    expr = fe.expr("float4(v.xy, 0, 1)")
    assert isinstance(expr, ast.Construct) and expr.type_spec.name == "float4"
    assert [type(a).__name__ for a in expr.args] == ["Member", "IntLiteral", "IntLiteral"]
    fe.assert_coord(expr, 2, 1)
    template = fe.expr("vector<float, 2>(1, 2)")
    assert template.type_spec.name == "vector" and len(template.args) == 2


def test_initializer_lists(fe):
    unit = fe.parse("static const float a[3] = { 1, 2, 3, };\nstatic const float2 m[2] = { {1, 2}, {3, 4} };\n"
                    "struct S { float x; int y; };\nstatic const S s = { 1.0, 2 };\n")
    a, m, s = only(unit.decls[0]), only(unit.decls[1]), only(unit.decls[3])
    assert [item.value for item in a.init.items] == [1, 2, 3]
    fe.assert_coord(a.init, 1, 27)
    assert [len(row.items) for row in m.init.items] == [2, 2]
    fe.assert_coord(m.init.items[1], 2, 38)
    assert len(s.init.items) == 2


def test_swizzles_and_member_access(fe):
    xyzw, rgba, repeated, lvalue, chain, call = fe.body(
        "v.xyzw;\nv.rgba;\nv.xxxx;\nv.xy = v.yx;\ns.inner.value.x;\nv.zyx.x;",
    )
    assert [e.expr.name for e in (xyzw, rgba, repeated)] == ["xyzw", "rgba", "xxxx"]
    fe.assert_coord(xyzw.expr, 2, 3)
    target = lvalue.expr.target
    assert isinstance(target, ast.Member) and target.name == "xy" and target.obj.name == "v"
    assert chain.expr.name == "x" and chain.expr.obj.obj.name == "inner"
    assert call.expr.obj.name == "zyx"


def test_matrix_members_and_swizzles_of_values(fe):
    m00, literal, result = fe.body("m._m00_m11;\n(1).xxx;\nf().x;")
    assert m00.expr.name == "_m00_m11"
    assert literal.expr.obj.value == 1
    assert isinstance(result.expr.obj, ast.Call)


def test_indexing(fe):
    array, matrix, texture, field = fe.body(
        "a[i][j];\nm[0][1];\ntex[uint2(i, j)];\nbuf[i].x;",
    )
    assert isinstance(array.expr, ast.Index) and isinstance(array.expr.obj, ast.Index)
    fe.assert_coord(array.expr, 2, 5)
    fe.assert_coord(array.expr.obj, 2, 2)
    assert matrix.expr.index.value == 1
    index = texture.expr.index
    assert isinstance(index, ast.Construct) and index.type_spec.name == "uint2"
    assert isinstance(field.expr, ast.Member) and isinstance(field.expr.obj, ast.Index)


def test_method_calls(fe):
    calls = fe.body(
        "t.SampleLevel(s, float2(0, 0), 0);\nbab.Load(0);\nrw.Store(0, 1u);\nimage.GetDimensions(w, h);\n"
        "rw.InterlockedAdd(0, 1, old);\ntextures[NonUniformResourceIndex(w)].SampleLevel(s, float2(0, 0), 0);",
    )
    names = [stmt.expr.name for stmt in calls]
    assert names == ["SampleLevel", "Load", "Store", "GetDimensions", "InterlockedAdd", "SampleLevel"]
    assert all(isinstance(stmt.expr, ast.MethodCall) for stmt in calls)
    sample = calls[0].expr
    assert sample.obj.name == "t" and len(sample.args) == 3
    fe.assert_coord(sample, 2, 3)
    fe.assert_coord(calls[0], 2, 1)
    indexed = calls[5].expr
    assert isinstance(indexed.obj, ast.Index) and indexed.obj.index.name == "NonUniformResourceIndex"


def test_function_calls(fe):
    expr = fe.expr("max(a, min(b, 1))")
    assert isinstance(expr, ast.Call) and expr.name == "max" and expr.args[1].name == "min"
    fe.assert_coord(expr, 2, 1)
    fe.assert_coord(expr.args[1], 2, 8)
    assert fe.expr("GroupMemoryBarrierWithGroupSync()").args == []


def test_swizzle_of_literals(fe):
    integer, floating = fe.body("0.xxxx;\n1.0.xy;")
    assert (integer.expr.name, integer.expr.obj.value) == ("xxxx", 0)
    assert (floating.expr.name, floating.expr.obj.value) == ("xy", 1.0)
    fe.assert_coord(integer.expr, 2, 3)


def test_literals(fe):
    b, i, u, h, f, d = fe.body("true;\n017;\n0x1Fu;\n1.0h;\n.5f;\n1e-3;")
    assert (type(b.expr), b.expr.value) == (ast.BoolLiteral, True)
    assert (i.expr.value, i.expr.suffix) == (15, "")
    assert (u.expr.value, u.expr.suffix) == (31, "u")
    assert (h.expr.value, h.expr.suffix) == (1.0, "h")
    assert (f.expr.value, f.expr.suffix) == (0.5, "f")
    assert d.expr.value == 0.001
    fe.assert_coord(u.expr, 4, 1)


def test_literal_errors_have_positions(fe):
    assert fe.errors("int a = 09;\nfloat b = 1e400;\nint c = 99999999999999999999;\n") == [
        ("test.hlsl", 1, 9, "invalid digit in octal constant '09'"),
        ("test.hlsl", 2, 11, "floating-point constant '1e400' is too large"),
        ("test.hlsl", 3, 9, "integer constant '99999999999999999999' is too large"),
    ]


def test_calling_something_that_is_not_a_name(fe):
    assert fe.errors("void f() { (1 + 2)(3); }") == [
        ("test.hlsl", 1, 19, "called object is not a function or method")]


# ----------------------------------------------------------- syntax errors

def test_several_errors_in_one_run(fe):
    text = ("void a() {\n    int x = 1 +;\n    x = 2;\n}\n"
            "void b() {\n    float y = (2;\n}\n"
            "struct S { float z }\n"
            "void c() { return 1 }\n")
    assert fe.errors(text) == [
        ("test.hlsl", 2, 16, "expected expression before ';'"),
        ("test.hlsl", 6, 17, "expected ')' or ',' before ';'"),
        ("test.hlsl", 8, 19, "expected ';' before '}'"),
        ("test.hlsl", 9, 1, "expected ';' or 'identifier' before 'void'"),
        ("test.hlsl", 9, 20, "expected ';' before '}'"),
    ]


@pytest.mark.parametrize("text, error", [
    ("int a = 1\nint b = 2;\n", (1, 10, "expected ';' before 'int'")),
    ("void f() {\n  int a = 1\n  a = 2;\n}\n", (2, 12, "expected ';' before 'a'")),
    ("void f() { return 1 }\n", (1, 20, "expected ';' before '}'")),
    ("struct S { float x; }\nfloat y;\n", (2, 1, "expected ';' or 'identifier' before 'float'")),
    ("void f() { do {} while (1) }\n", (1, 27, "expected ';' before '}'")),
])
def test_missing_semicolon_is_repaired(fe, text, error):
    """One error, and the rest parses as if the ';' were there."""
    assert fe.errors(text) == [("test.hlsl", *error)]


def test_parse_continues_after_a_repair(fe):
    unit, diagnostics = fe.run("float a = 1\nfloat b = 2;\n")
    assert diagnostics.error_count == 1
    assert unit is not None and [only(d).name for d in unit.decls] == ["a", "b"]


@pytest.mark.parametrize("text, error", [
    ("void f() {\n  int x;\n", (2, 9, "expected '}' at end of input")),
    ("int x = max(1, 2", (1, 17, "expected ')' at end of input")),
    ("float a[4", (1, 10, "expected ']' at end of input")),
    ("int x =", (1, 8, "expected expression at end of input")),
    ("struct S { int a; }", (1, 20, "expected ';' at end of input")),
    ("float4", (1, 7, "expected 'identifier' at end of input")),
])
def test_end_of_input(fe, text, error):
    assert fe.errors(text) == [("test.hlsl", *error)]


@pytest.mark.parametrize("text, error", [
    ("void f() {}\n}\nint x;\n", (2, 1, "extraneous closing brace '}'")),
    ("Foo x;\n", (1, 1, "unknown type name 'Foo'")),
    ("void f() { Foo x; }\n", (1, 12, "unknown type name 'Foo'")),
    ("void f(Foo x) {}\n", (1, 8, "unknown type name 'Foo'")),
    ("struct S { Foo x; };\n", (1, 12, "unknown type name 'Foo'")),
    ("void f(int a,) {}\n", (1, 14, "expected a type before ')'")),
    ("void f() { if (1) else; }\n", (1, 19, "expected expression before 'else'")),
    ("RWTexture2D<float4 t;\n", (1, 20, "expected ',' or '>' before 't'")),
    ("int a; 5;\n", (1, 8, "expected a declaration before '5'")),
    ("void f() { int x = (1 + ); }\n", (1, 25, "expected expression before ')'")),
    ("cbuffer C : 5 { float a; };\n", (1, 13, "unexpected '5'")),
])
def test_error_messages(fe, text, error):
    assert fe.errors(text)[0] == ("test.hlsl", *error)


def test_recovery_at_semicolons_and_braces(fe):
    unit, diagnostics = fe.run("void f() {\n    x = = 1;\n    int ok = 2;\n}\nint y = ];\nfloat good;\n")
    assert [d.message for d in diagnostics.items] == ["expected expression before '='", "expected expression before ']'"]
    assert unit is not None


def test_many_errors_stop_at_the_limit(fe):
    text = "".join(f"void f{i}() {{ int x = (1 + ); }}\n" for i in range(80))
    _, diagnostics = fe.run(text)
    assert diagnostics.error_count == Diagnostics().max_errors


def test_one_parser_serves_many_inputs(fresh_parser):
    first = Diagnostics()
    fresh_parser.parse(preprocess("struct S { int a; };\n", "a.hlsl", first), first)
    second = Diagnostics()
    fresh_parser.parse(preprocess("S s;\n", "b.hlsl", second), second)
    assert [d.message for d in second.items] == ["unknown type name 'S'"]
    assert first.items == []


def test_lex_errors_do_not_cascade_into_parse_errors(fe):
    assert fe.errors("int a = @;\nint b = 1 $ 2;\n") == [
        ("test.hlsl", 1, 9, "invalid character '@'"),
        ("test.hlsl", 2, 11, "invalid character '$'"),
    ]


def test_pipeline_raises_compile_error_after_syntax_errors(shc_cache):
    from shc.compiler.pipeline import Options, parse_source
    diagnostics = Diagnostics()
    with pytest.raises(CompileError):
        parse_source("int x = ;\n", "bad.hlsl", Options(), diagnostics)
    assert diagnostics.render() == "bad.hlsl:1:9: error: expected expression before ';'\nint x = ;\n        ^"


# --------------------------------------------------------------- the tree

def test_dump_shows_fields_and_positions(fe):
    text = ast.dump(fe.parse("float4 v = float4(1, 2, 3, 4);\n"))
    assert text.splitlines()[:6] == [
        "TranslationUnit  @1:1",
        "  .decls:",
        "    DeclStmt  @1:1",
        "      .decls:",
        "        VarDecl name='v' storage='local'  @1:8",
        "          .type_spec:",
    ]
    assert "IntLiteral value=4  @1:28" in text


def test_visitor_dispatch_and_leftmost(fe):
    class Names(ast.NodeVisitor):
        def __init__(self):
            self.seen = []

        def visit_Identifier(self, node):
            self.seen.append(node.name)

    visitor = Names()
    expr = fe.expr("a.x = b[c] + d++")
    visitor.visit(expr)
    assert visitor.seen == ["a", "b", "c", "d"]
    assert ast.leftmost(expr).name == "a"
    assert ast.leftmost(expr.value.right).name == "d"
