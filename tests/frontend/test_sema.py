"""Semantic analysis: names, types, conversions, overloads, l-values and the entry-point rules.

Every error test asserts the message and the exact position (line, column) it is reported at.
Sources start at line 1 with their first line; kernels built with ``kernel()`` put the body
on lines 4 and later, indented four columns.
"""

from textwrap import dedent

import pytest

from shc.compiler.diagnostics import CompileError, Diagnostics
from shc.compiler.frontend import ast
from shc.compiler.frontend import hlsl_types as T
from shc.compiler.pipeline import Options, check_source

FILE = "t.hlsl"
HEAD = "[numthreads(8, 8, 1)]\nvoid main(uint3 id : SV_DispatchThreadID)\n{\n"


def source_of(text):
    return dedent(text).lstrip("\n")


def kernel(body, before=""):
    """A kernel whose body starts on line 4 (after ``before``'s lines), indented by four."""
    lines = "".join("    " + line + "\n" if line else "\n" for line in source_of(body).splitlines())
    return source_of(before) + HEAD + lines + "}\n"


def run(text, entry="main", defines=None):
    diagnostics = Diagnostics()
    try:
        program = check_source(text, FILE, Options(entry=entry, defines=defines or {}), diagnostics)
    except CompileError:
        program = None
    return program, diagnostics.items


def errors(text, **options):
    _, items = run(text, **options)
    return [(d.coord.line, d.coord.col, d.message) for d in items if d.severity == "error"]


def warnings(text, **options):
    _, items = run(text, **options)
    return [(d.coord.line, d.coord.col, d.message) for d in items if d.severity == "warning"]


def valid(text, **options):
    program, items = run(text, **options)
    assert [f"{d.coord}: {d.severity}: {d.message}" for d in items] == []
    return program


def error(text, line, col, message, **options):
    """``text`` has exactly one error, ``message`` at ``line``:``col``."""
    assert errors(text, **options) == [(line, col, message)]


def nodes(root, kind):
    found, stack = [], [root]
    while stack:
        current = stack.pop()
        if isinstance(current, kind):
            found.append(current)
        stack.extend(reversed(list(current.children())))
    return found


def local(program, name):
    """The VarDecl of the entry's local ``name`` (the first one in source order)."""
    return next(d for d in nodes(program.entry.body, ast.VarDecl) if d.name == name)


def init_type(program, name):
    return str(local(program, name).init.type)


def every_expression_is_typed(program):
    for expr in nodes(program.unit, ast.EXPRESSIONS):
        assert expr.type is not None, f"{type(expr).__name__} at {expr.coord} has no type"


# ------------------------------------------------------------------ scopes and names


def test_block_shadowing_resolves_to_the_innermost_declaration():
    program = valid(kernel("""
        int x = 1;
        {
            float x = 2.0;
            float a = x;
        }
        int b = x;
    """))
    outer, inner = [d for d in nodes(program.entry.body, ast.VarDecl) if d.name == "x"]
    assert local(program, "a").init.decl is inner and local(program, "a").init.type == T.FLOAT
    assert local(program, "b").init.decl is outer and local(program, "b").init.type == T.INT
    every_expression_is_typed(program)


def test_redefinition_in_the_same_scope_points_at_both():
    program, items = run(kernel("""
        int x = 1;
        float x = 2;
    """))
    assert program is None
    assert [(d.severity, d.coord.line, d.coord.col, d.message) for d in items] == [
        ("error", 5, 11, "redefinition of 'x'"),
        ("note", 4, 9, "previous definition is here"),
    ]


def test_a_parameter_cannot_be_redeclared_in_the_function_body():
    text = source_of("""
        float f(float v) { float v = 1; return v; }
        [numthreads(1, 1, 1)] void main() { f(1); }
    """)
    assert errors(text) == [(1, 26, "redefinition of 'v'")]


def test_for_init_is_scoped_to_the_loop():
    error(kernel("""
        for (int i = 0; i < 4; i++) { }
        for (int i = 0; i < 4; i++) { }
        i = 2;
    """), 6, 5, "use of undeclared identifier 'i'")


def test_undeclared_identifiers_are_reported_where_they_are_used():
    assert errors(kernel("""
        float a = b + 1;
        float c = d * e;
    """)) == [
        (4, 15, "use of undeclared identifier 'b'"),
        (5, 15, "use of undeclared identifier 'd'"),
        (5, 19, "use of undeclared identifier 'e'"),
    ]


def test_names_are_visible_from_their_declaration_on():
    text = source_of("""
        float f() { return later; }
        static float later = 1;
        [numthreads(1, 1, 1)] void main() { g(); }
        void g() { }
    """)
    assert errors(text) == [
        (1, 20, "use of undeclared identifier 'later'"),
        (3, 37, "use of undeclared identifier 'g'"),
    ]


def test_a_function_used_as_a_value():
    error(kernel("float a = sqrt;"), 4, 15, "'sqrt' is a function; call it with ( )")


def test_calling_a_variable():
    error(kernel("float f = 1; f(2);"), 4, 18, "'f' is not a function")


# ------------------------------------------------------------------ implicit conversions


def test_scalar_splat_and_int_float_bool_conversions_are_silent():
    program = valid(kernel("""
        float4 v = 1.0;
        int3 n = 2;
        float f = n.x;
        int i = 1.5;
        bool b = 2;
        float g = true;
        uint u = -1;
        half h = f;
    """))
    assert local(program, "v").type == T.VectorType(T.FLOAT, 4)
    assert init_type(program, "v") == "float"
    assert init_type(program, "b") == "int"


def test_vector_truncation_compiles_with_a_warning():
    text = kernel("""
        float4 v = 1;
        float2 t = v;
        float s = v;
    """)
    program, _ = run(text)
    assert program is not None
    assert warnings(text) == [
        (5, 16, "implicit truncation of vector type ('float4' to 'float2')"),
        (6, 15, "implicit truncation of vector type ('float4' to 'float')"),
    ]


def test_truncation_in_binary_operators_and_arguments_warns():
    text = kernel("""
        float4 a = 1;
        float2 b = 2;
        float2 c = a * b;
        float d = dot(a, b);
    """, before="""
    """)
    assert warnings(text) == [
        (6, 18, "implicit truncation of vector type in '*' ('float4' and 'float2')"),
        (7, 19, "implicit truncation of vector type ('float4' to 'float2')"),
    ]


def test_widening_a_vector_is_an_error():
    error(kernel("float2 a = 1; float4 b = a;"), 4, 30, "cannot convert from 'float2' to 'float4'")


def test_struct_and_matrix_mismatches_are_errors():
    assert errors(kernel("""
        S s;
        float f = s;
        float2x2 m = 1;
        float3 v = m;
    """, before="struct S { float a; };\n")) == [
        (6, 15, "cannot convert from 'S' to 'float'"),
        (8, 16, "cannot convert from 'float2x2' to 'float3'"),
    ]


def test_untyped_literals_adapt_to_the_other_operand():
    program = valid(kernel("""
        half h = 1;
        half a = h * 2.0;
        half b = 0.5 + h;
        float c = 1 + 2.0;
        uint u = 3;
        uint d = u + 1;
        float e = u * 1.5;
    """))
    assert init_type(program, "a") == "half"
    assert init_type(program, "b") == "half"
    assert init_type(program, "c") == "float"
    assert init_type(program, "d") == "uint"
    assert init_type(program, "e") == "float"


def test_operator_result_types():
    program = valid(kernel("""
        int3 a = 1;
        uint3 b = 2;
        bool3 c = a < 2;
        uint3 d = a + b;
        float3 e = a * 1.0f;
        bool f = !true;
        int g = true + true;
        int h = ~5;
    """))
    assert init_type(program, "c") == "bool3"
    assert init_type(program, "d") == "uint3"
    assert init_type(program, "e") == "float3"
    assert init_type(program, "f") == "bool"
    assert init_type(program, "g") == "int"


def test_invalid_operands():
    assert errors(kernel("""
        S s;
        float a = s + 1;
        float b = 1.5 << 2;
        float c = ~1.5;
        float2x2 m = 1;
        float3 v = 2;
        float3 w = m + v;
    """, before="struct S { float a; };\n")) == [
        (6, 17, "invalid operands to binary '+' ('S' and 'int')"),
        (7, 19, "'<<' needs integer operands, not 'float' and 'int'"),
        (8, 15, "'~' needs an integer operand, not 'float'"),
        (11, 18, "operand shapes do not match for '+' ('float2x2' and 'float3')"),
    ]


def test_increment_needs_a_number_and_integers_do_not_divide_by_zero():
    assert errors(kernel("""
        bool b = true;
        b++;
        --b;
        int i = 4 / 0;
        uint u = 4 % (2 - 2);
        float f = 4.0 / 0;
    """)) == [
        (5, 6, "'++' needs a numeric operand, not 'bool'"),
        (6, 5, "'--' needs a numeric operand, not 'bool'"),
        (7, 15, "integer division by zero"),
        (8, 16, "integer remainder by zero"),
    ]


def test_an_error_in_a_subexpression_is_reported_once():
    error(kernel("""
        float4 v = sqrt(missing.xyzw) * 2 + float4(1, 2, 3, 4).xyz;
    """), 4, 21, "use of undeclared identifier 'missing'")
    error(kernel("""
        float2 v = 1;
        float4 w = float4(v.xyz, 1) + length(v);
    """), 5, 25, "invalid swizzle 'xyz' on 'float2'")


# ------------------------------------------------------------------ casts and constructors


def test_casts_and_constructors():
    program = valid(kernel("""
        float4 v = float4(1, 2, 3, 4);
        float4 w = float4(v.xy, 0, 1);
        float4 s = float4(2.0);
        float2 t = (float2)v;
        int3 n = (int3)1.5;
        float2x2 m = float2x2(v);
        float2x2 k = float2x2(1, 2, 3, 4);
    """))
    assert init_type(program, "t") == "float2"
    assert init_type(program, "n") == "int3"
    assert init_type(program, "m") == "float2x2"


def test_constructor_component_counts():
    assert errors(kernel("""
        float4 a = float4(1, 2, 3);
        float2 b = float2(1, 2, 3);
        S s;
        float3 c = float3(s, 1);
        S d = S(1);
    """, before="struct S { float a; };\n")) == [
        (5, 16, "'float4' constructor needs 4 components; 3 given"),
        (6, 16, "'float2' constructor needs 2 components; 3 given"),
        (8, 23, "cannot use 'S' in a 'float3' constructor"),
        (9, 11, "'S' cannot be constructed with ( ); use an initializer list"),
    ]


def test_invalid_casts():
    assert errors(kernel("""
        float2 a = 1;
        float4 b = (float4)a;
        S s;
        float c = (float)s;
    """, before="struct S { float a; };\n")) == [
        (6, 16, "cannot cast from 'float2' to 'float4'"),
        (8, 15, "cannot cast from 'S' to 'float'"),
    ]


def test_initializer_lists():
    program = valid(kernel("""
        float4 v = {1, 2, 3, 4};
        float2 a[2] = {1, 2, 3, 4};
        float2 b[] = {v, 1, 2};
        S s = {1, float2(2, 3)};
    """, before="struct S { float a; float2 b; };\n"))
    assert str(local(program, "b").type) == "float2[3]"
    assert errors(kernel("""
        float4 v = {1, 2, 3};
        S s = {1, 2};
        float a[2] = {tex, 1};
    """, before="struct S { float a; float2 b; };\nTexture2D tex;\n")) == [
        (6, 16, "initializer list has 3 values but 'float4' needs 4"),
        (7, 11, "initializer list has 2 values but 'S' needs 3"),
        (8, 19, "cannot use 'Texture2D<float4>' in an initializer list"),
    ]


# ------------------------------------------------------------------ user overloads


OVERLOADS = """
float f(float x) { return x; }
int f(int x) { return x; }
half h(half x, float y = 2, int z = 3) { return x; }
void g(out float x) { x = 1; }
void k(inout float2 x) { x += 1; }
"""


def calls(program):
    return {call.coord.line: call for call in nodes(program.entry.body, ast.Call)}


def test_exact_match_beats_conversion():
    program = valid(kernel("""
        f(1);
        f(1.0);
        f(true ? 1.0h : 2.0h);
        f(int2(1, 2).x);
    """, before=OVERLOADS))
    by_line = calls(program)
    assert [str(by_line[line].type) for line in (9, 10, 11, 12)] == ["int", "float", "float", "int"]
    assert by_line[9].decl.type == T.INT and by_line[11].decl.type == T.FLOAT


def test_ambiguous_call():
    error(kernel("f(1u);", before=OVERLOADS), 9, 5, "call to 'f' is ambiguous")


def test_default_arguments():
    program = valid(kernel("""
        h(1.0h);
        h(1.0h, 2);
        h(1.0h, 2, 3);
    """, before=OVERLOADS))
    assert all(call.type == T.HALF for call in calls(program).values())
    assert errors(kernel("h(1.0h, 2, 3, 4); h();", before=OVERLOADS)) == [
        (9, 5, "no matching function for call to 'h(half, int, int, int)'"),
        (9, 23, "no matching function for call to 'h()'"),
    ]


def test_default_arguments_must_be_trailing_and_in():
    text = source_of("""
        void f(int a = 1, int b) { }
        void g(out int a = 1) { a = 2; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    assert errors(text) == [
        (1, 23, "parameter 'b' needs a default value: it follows one that has it"),
        (2, 20, "out parameter 'a' cannot have a default value"),
    ]


def test_out_and_inout_arguments_need_lvalues():
    assert errors(kernel("""
        float a;
        float2 v;
        g(a);
        g(v.x);
        k(v);
        g(1.0);
        k(v + 1);
        g(K);
        k(v.xx);
    """, before=OVERLOADS + "static const float K = 1;\n")) == [
        (15, 7, "an out or inout argument must be an l-value (a variable, element or member)"),
        (16, 9, "an out or inout argument must be an l-value (a variable, element or member)"),
        (17, 7, "cannot pass const variable 'K' as an out or inout argument"),
        (18, 9, "cannot pass swizzle 'xx', which repeats a component as an out or inout argument"),
    ]


def test_functions_differing_only_in_return_type():
    text = source_of("""
        int f(int x) { return x; }
        float f(int x) { return x; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    error(text, 2, 7, "functions that differ only in their return type cannot be overloaded ('f')")


def test_function_redefinition():
    text = source_of("""
        int f(int x) { return x; }
        int f(int y) { return y; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    error(text, 2, 5, "redefinition of 'f'")


def test_a_prototype_lets_a_call_come_first_and_the_call_links_to_the_body():
    program = valid(source_of("""
        float twice(float x);
        [numthreads(1, 1, 1)] void main() { twice(1); }
        float twice(float x) { return 2 * x; }
    """))
    (call,) = nodes(program.entry.body, ast.Call)
    assert call.decl.body is not None


def test_a_called_prototype_without_body():
    text = source_of("""
        float twice(float x);
        [numthreads(1, 1, 1)] void main() { twice(1); }
    """)
    error(text, 2, 37, "function 'twice' is called but never defined")


def test_user_functions_overload_intrinsic_names():
    program = valid(kernel("""
        S s = {1};
        float a = max(s, 2);
        int b = max(1, 2);
    """, before="struct S { float v; };\nfloat max(S s, float f) { return f; }\n"))
    by_line = calls(program)
    assert by_line[7].decl.body is not None  # the user's max
    assert by_line[8].decl.name == "max" and by_line[8].type == T.INT  # the intrinsic


# ------------------------------------------------------------------ intrinsics (spot checks)


def test_intrinsic_calls_are_typed():
    program = valid(kernel("""
        float3 p = 1;
        float a = dot(p, p);
        float3 b = cross(p, p);
        float4 c = mul(float4x4(1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1), float4(p, 1));
        float d = sqrt(4);
        half e = max((half)1, 0.5);
        uint3 f = asuint(p);
        uint4 g = WaveActiveBallot(id.x == 0);
        uint h = WavePrefixSum(id.x);
        uint i = countbits(id.x) + firstbithigh(id.x);
        uint j = WaveShuffleXor(id.x, 1);
        bool k = WaveIsFirstLane();
        float l = QuadReadAcrossX(a);
        uint m = WaveReadLaneAt(id.x, 3);
    """))
    types = {name: init_type(program, name) for name in "abcdefghijklm"}
    assert types == {
        "a": "float", "b": "float3", "c": "float4", "d": "float", "e": "half", "f": "uint3",
        "g": "uint4", "h": "uint", "i": "uint", "j": "uint", "k": "bool", "l": "float", "m": "uint",
    }
    assert local(program, "a").init.decl.name == "dot"


def test_intrinsic_errors_are_reported_at_the_call():
    assert errors(kernel("""
        float a = dot(1, 2, 3);
        uint b = WaveGetLaneCount(1);
    """)) == [
        (4, 15, "no matching overload for 'dot' with arguments (int, int, int): 'dot' takes 2 "
                "arguments, not 3"),
        (5, 14, "no matching overload for 'WaveGetLaneCount' with arguments (int): "
                "'WaveGetLaneCount' takes 0 arguments, not 1"),
    ]


def test_resource_methods_are_typed():
    program = valid(kernel("""
        float4 a = tex.SampleLevel(smp, float2(0.5, 0.5), 0);
        float4 b = tex.Load(int3(0, 0, 0));
        uint c = raw.Load(0);
        uint w, h;
        tex.GetDimensions(w, h);
        raw.Store(4, c);
        uint old;
        raw.InterlockedAdd(0, 1, old);
    """, before="Texture2D<float4> tex;\nSamplerState smp;\nRWByteAddressBuffer raw;\n"))
    assert init_type(program, "a") == "float4" and init_type(program, "c") == "uint"


def test_interlocked_destinations():
    assert errors(kernel("""
        uint old;
        InterlockedAdd(counter, 1, old);
        InterlockedMax(buf[id.x], 1);
        uint mine = 0;
        InterlockedAdd(mine, 1, old);
        InterlockedAdd(ro[0], 1, old);
        InterlockedAdd(counter, 1, 2);
    """, before="groupshared uint counter;\nRWStructuredBuffer<uint> buf;\n"
                "StructuredBuffer<uint> ro;\n")) == [
        (11, 20, "the destination of an Interlocked operation must be groupshared memory or an "
                 "element of an RW resource"),
        (12, 22, "cannot pass an element of read-only resource 'ro' (StructuredBuffer<uint>) as an "
                 "out or inout argument"),
        (13, 32, "an out or inout argument must be an l-value (a variable, element or member)"),
    ]


# ------------------------------------------------------------------ swizzles


def test_swizzle_types():
    program = valid(kernel("""
        float4 v = 1;
        float3 a = v.xyz;
        float4 b = v.wzyx;
        float2 c = v.rg;
        float4 d = v.xxxx;
        float f = 2;
        float3 e = f.xxx;
        v.xz = float2(1, 2);
        f.x = 3;
    """))
    assert init_type(program, "a") == "float3" and init_type(program, "e") == "float3"
    member = local(program, "b").init
    assert member.swizzle == (3, 2, 1, 0)


@pytest.mark.parametrize("swizzle", ["xq", "xg", "z", "xyzwx", "rgbaa", "w"])
def test_invalid_swizzles(swizzle):
    error(kernel(f"float2 v = 1;\nfloat a = v.{swizzle}.x;"), 5, 17, f"invalid swizzle '{swizzle}' on 'float2'")


def test_repeated_components_are_not_assignable():
    assert errors(kernel("""
        float4 v = 1;
        v.xx = float2(1, 2);
        v.xyx += 1;
    """)) == [
        (5, 7, "cannot assign to swizzle 'xx', which repeats a component"),
        (6, 7, "cannot assign to swizzle 'xyx', which repeats a component"),
    ]


def test_member_access_on_things_without_members():
    error(kernel("float a[2]; float b = a.x;"), 4, 29,
          "member reference base type 'float[2]' is not a structure or vector")


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


# ------------------------------------------------------------------ structs, arrays, matrices


def test_struct_members():
    program = valid(kernel("""
        Outer o;
        o.inner.v = float2(1, 2);
        float a = o.inner.v.y;
        o.items[1].w = 3;
        Inner copy = o.inner;
        float b = data[id.x].v.x;
    """, before="""
        struct Inner { float2 v; float w; };
        struct Outer { Inner inner; Inner items[2]; };
        StructuredBuffer<Inner> data;
    """))
    assert init_type(program, "a") == "float" and init_type(program, "copy") == "Inner"
    assert errors(kernel("Inner i; i.z = 1;", before="struct Inner { float2 v; };\n")) == [
        (5, 16, "no member named 'z' in 'Inner'"),
    ]


def test_struct_declaration_errors():
    text = source_of("""
        struct S { float a; int a; Texture2D t; };
        struct S { float b; };
        [numthreads(1, 1, 1)] void main() { }
    """)
    assert errors(text) == [
        (1, 25, "duplicate member 'a'"),
        (1, 38, "resources are not allowed in structs"),
        (2, 8, "redefinition of type 'S'"),
    ]


def test_matrix_indexing_and_members():
    program = valid(kernel("""
        float2x3 m = 0;
        float3 row = m[1];
        float e = m[1][2];
        float z = m._m12;
        float2 o = m._11_23;
        m[0][1] = 5;
        m._m00 = 1;
    """))
    assert init_type(program, "row") == "float3"
    assert init_type(program, "e") == "float"
    assert local(program, "z").init.swizzle == (5,)
    assert local(program, "o").init.swizzle == (0, 5)


def test_index_range_and_subscript_errors():
    assert errors(kernel("""
        float2x3 m = 0;
        float3 a = m[2];
        float b = m._m22;
        float c = id[3];
        float arr[4];
        float d = arr[4];
        float e = arr[-1];
        float f = scalar[0];
    """, before="static float scalar = 1;\n")) == [
        (6, 18, "index 2 is out of range for a matrix of 2 elements"),
        (7, 17, "invalid matrix member '_m22' on 'float2x3'"),
        (8, 18, "index 3 is out of range for a vector of 3 elements"),
        (10, 19, "index 4 is out of range for an array of 4 elements"),
        (11, 19, "index -1 is out of range for an array of 4 elements"),
        (12, 21, "subscripted value of type 'float' is not an array, vector or matrix"),
    ]


def test_array_sizes_from_constants():
    program = valid(kernel("float a[N * 2]; uint n = 0; float b[2][N];",
                           before="static const uint N = 4;\n"))
    assert str(local(program, "a").type) == "float[8]"
    assert str(local(program, "b").type) == "float[2][4]"
    assert errors(kernel("uint n = 4; float a[n]; float b[0];")) == [
        (4, 25, "array size must be a positive integer constant"),
        (4, 37, "array size must be a positive integer constant"),
    ]


def test_unsized_arrays():
    program = valid(kernel("float b[] = {1, 2}; float c = table[2];", before="""
        static const float table[] = {1, 2, 3};
        Texture2D<float4> textures[] : register(t0, space1);
    """))
    assert str(local(program, "b").type) == "float[2]"
    assert [str(decl.type) for decl in program.globals] == ["float[3]", "Texture2D<float4>[]"]
    assert errors(kernel("float a[];", before="static float g[];\n")) == [
        (1, 14, "array 'g' needs a size or an initializer"),
        (5, 11, "array 'a' needs a size or an initializer"),
    ]


def test_template_spellings_of_vectors_and_matrices():
    program = valid(kernel("""
        vector<float, 3> v = 1;
        matrix<half, 2, 3> m = 0;
        vector<int, 2> n = 2;
        vector w = 0;
    """))
    assert [str(local(program, name).type) for name in "vmnw"] == ["float3", "half2x3", "int2", "float4"]
    assert errors(kernel("vector<float, 5> a; matrix<float, 0, 2> b; vector<S, 2> c;",
                         before="struct S { float x; };\n")) == [
        (5, 5, "'vector' size must be a constant from 1 to 4"),
        (5, 25, "'matrix' size must be a constant from 1 to 4"),
        (5, 48, "'vector' element must be a scalar type, not 'S'"),
    ]


def test_resource_indexing():
    assert errors(kernel("""
        float4 a = tex[id];
        float b = buf[id.xy];
        uint c = raw[0];
    """, before="Texture2D<float4> tex;\nStructuredBuffer<float> buf;\nByteAddressBuffer raw;\n")) == [
        (7, 20, "'Texture2D<float4>' is indexed with a uint2, not 'uint3'"),
        (8, 22, "'StructuredBuffer<float>' is indexed with a uint, not 'uint2'"),
        (9, 17, "'ByteAddressBuffer' has no [] operator; use Load/Store"),
    ]


# ------------------------------------------------------------------ statements


def test_switch_rules():
    valid(kernel("""
        switch (id.x) {
        case 0:
        case N + 1:
            break;
        default:
            for (int i = 0; i < 2; i++) { if (i) continue; }
            break;
        }
    """, before="static const uint N = 1;\n"))
    assert errors(kernel("""
        float f = 1;
        uint n = 2;
        switch (f) { case 1: break; }
        switch (id.x) {
        case 1: break;
        case 1: break;
        case n: break;
        default: break;
        default: break;
        }
    """)) == [
        (6, 13, "switch selector must be an integer scalar, not 'float'"),
        (9, 5, "duplicate 'case 1' label"),
        (10, 10, "case value must be an integer constant"),
        (12, 5, "duplicate 'default' label"),
    ]


def test_break_and_continue_outside_loops():
    assert errors(kernel("""
        break;
        continue;
        switch (id.x) { case 0: continue; }
        while (true) { break; }
        do { continue; } while (false);
    """)) == [
        (4, 5, "'break' statement not in loop or switch statement"),
        (5, 5, "'continue' statement not in loop statement"),
        (6, 29, "'continue' statement not in loop statement"),
    ]


def test_conditions_must_be_scalars():
    assert errors(kernel("""
        float2 v = 1;
        if (v) { }
        while (v) { }
        S s;
        for (; s; ) { }
        float a = s ? 1 : 2;
    """, before="struct S { float a; };\n")) == [
        (6, 9, "condition must be a scalar, not 'float2'"),
        (7, 12, "condition must be a scalar, not 'float2'"),
        (9, 12, "condition must be a scalar, not 'S'"),
        (10, 15, "condition must be a scalar or a vector, not 'S'"),
    ]


def test_a_vector_condition_selects_per_component():
    program = valid(kernel("""
        float4 v = 1;
        float4 a = v > 0 ? v : 0;
        int3 b = bool3(true, false, true) ? 1 : 2;
        float c = id.x > 3 ? 1.5 : 2;
    """))
    assert init_type(program, "a") == "float4"
    assert init_type(program, "b") == "int3"
    assert init_type(program, "c") == "float"
    assert warnings(kernel("float4 v = 1;\nfloat2 d = bool2(true, false) ? v : 0;")) == [
        (5, 35, "implicit truncation of vector type in '?:' ('bool2' condition and 'float4')"),
    ]


def test_return_type_checks():
    text = source_of("""
        struct S { float v; };
        S d() { return 1.5; }
        float a() { return; }
        void b() { return 1; }
        float2 c() { return float4(1, 2, 3, 4); }
        float e(int x) { if (x > 0) return 1; }
        [numthreads(1, 1, 1)] void main() { }
    """)
    _, items = run(text)
    assert [(d.severity, d.coord.line, d.coord.col, d.message) for d in items] == [
        ("error", 2, 16, "cannot convert from 'float' to 'S'"),
        ("error", 3, 13, "non-void function 'a' should return a value"),
        ("error", 4, 12, "void function 'b' should not return a value"),
        ("warning", 5, 21, "implicit truncation of vector type ('float4' to 'float2')"),
        ("warning", 6, 7, "not all control paths of 'e' return a value"),
    ]


def test_discard_is_rejected():
    error(kernel("if (id.x == 0) discard;"), 4, 20, "'discard' is only allowed in pixel shaders")


def test_groupshared_and_resources_in_the_wrong_place():
    assert errors(kernel("""
        groupshared float local;
        RWStructuredBuffer<uint> alias;
    """, before="groupshared float g = 1;\n")) == [
        (1, 19, "groupshared variables cannot have initializers"),
        (5, 23, "groupshared variables must be declared at global scope"),
        (6, 30, "a local resource variable must be initialized"),
    ]


def test_void_variables_and_parameters():
    text = source_of("""
        void f(void x) { }
        static void g;
        [numthreads(1, 1, 1)] void main() { }
    """)
    assert errors(text) == [
        (1, 13, "parameter 'x' cannot have type 'void'"),
        (2, 13, "variable 'g' cannot have type 'void'"),
    ]


def test_several_errors_are_reported_in_one_run():
    text = kernel("""
        float a = missing;
        int b = 1.5 << 1;
        float2 c = 1;
        c.xx = 2;
        break;
    """)
    assert len(errors(text)) == 4


# ------------------------------------------------------------------ the entry point


def test_program_facts():
    program = valid(kernel("outBuf[id.x] = 1;", before="""
        RWStructuredBuffer<float> outBuf;
        groupshared float scratch[64];
        groupshared uint counter;
        cbuffer C { float k; };
    """))
    assert program.entry.name == "main"
    assert program.numthreads == (8, 8, 1)
    assert program.wave_size is None
    assert program.groupshared_bytes == 64 * 4 + 4
    assert [d.name for d in program.resources] == ["outBuf"]
    assert [d.name for d in program.groupshared] == ["scratch", "counter"]


def test_missing_entry_point_names_the_file():
    program, items = run("void helper() { }\n")
    assert program is None
    assert [(d.coord.file, d.coord.line, d.message) for d in items] == [
        (FILE, 0, "entry point 'main' not found"),
    ]
    assert items[0].format() == "t.hlsl: error: entry point 'main' not found"


def test_another_entry_point_with_E():
    text = "[numthreads(4, 1, 1)] void other() { }\n"
    assert valid(text, entry="other").numthreads == (4, 1, 1)
    assert errors(text) == [(0, 0, "entry point 'main' not found")]


def test_numthreads_is_required():
    error("void main() { }\n", 1, 6, "compute entry point 'main' needs a [numthreads(x, y, z)] attribute")


@pytest.mark.parametrize("args, message", [
    ("1025, 1, 1", "numthreads x is 1025; it must be from 1 to 1024"),
    ("1, 1025, 1", "numthreads y is 1025; it must be from 1 to 1024"),
    ("1, 1, 65", "numthreads z is 65; it must be from 1 to 64"),
    ("0, 1, 1", "numthreads x is 0; it must be from 1 to 1024"),
    ("64, 4, 8", "numthreads(64, 4, 8) is 2048 threads; a group has at most 1024"),
    ("32, 32, 2", "numthreads(32, 32, 2) is 2048 threads; a group has at most 1024"),
    ("8, 8", "numthreads needs three integer constants: [numthreads(x, y, z)]"),
    ("8, n, 1", "numthreads needs three integer constants: [numthreads(x, y, z)]"),
])
def test_numthreads_limits(args, message):
    error(f"static uint n = 2;\n[numthreads({args})]\nvoid main() {{ }}\n", 2, 2, message)


@pytest.mark.parametrize("args", ["1024, 1, 1", "1, 1024, 1", "16, 1, 64", "32, 32, 1", "X, Y * 2, 1"])
def test_numthreads_at_the_limits_is_valid(args):
    valid(f"static const uint X = 16;\n#define Y 8\n[numthreads({args})]\nvoid main() {{ }}\n")


@pytest.mark.parametrize("size", [32, 64])
def test_wave_size_32_and_64(size):
    program = valid(f"[numthreads(64, 1, 1)]\n[WaveSize({size})]\nvoid main() {{ }}\n")
    assert program.wave_size == size


@pytest.mark.parametrize("args", ["16", "128", "48", "32, 64"])
def test_other_wave_sizes_are_errors(args):
    error(f"[numthreads(64, 1, 1)]\n[WaveSize({args})]\nvoid main() {{ }}\n", 2, 2,
          f"WaveSize({args}) is not supported: RDNA2 runs waves of 32 or 64 lanes")


def test_the_entry_point_returns_void():
    error("[numthreads(1, 1, 1)]\nint main() { return 0; }\n", 2, 5,
          "compute entry point 'main' must return void, not 'int'")


def test_the_four_compute_inputs_bind():
    program = valid(source_of("""
        [numthreads(8, 8, 1)]
        void main(uint3 g : SV_GroupID, uint3 t : SV_GroupThreadID, uint3 d : SV_DispatchThreadID,
                  uint i : SV_GroupIndex, uint2 xy : sv_dispatchthreadid, int x : SV_GroupThreadID)
        { }
    """))
    assert [p.semantic for p in program.entry.params][:4] == [
        "SV_GroupID", "SV_GroupThreadID", "SV_DispatchThreadID", "SV_GroupIndex",
    ]


def test_entry_parameter_errors():
    text = source_of("""
        [numthreads(8, 8, 1)]
        void main(float4 p : SV_Position, uint q, out uint3 g : SV_GroupID,
                  uint2 i : SV_GroupIndex, float3 d : SV_DispatchThreadID)
        { }
    """)
    assert errors(text) == [
        (2, 18, "'SV_Position' is not a compute shader input; use SV_GroupID, SV_GroupThreadID, "
                "SV_DispatchThreadID or SV_GroupIndex"),
        (2, 40, "entry point parameter 'q' needs a semantic (SV_GroupID, SV_GroupThreadID, "
                "SV_DispatchThreadID or SV_GroupIndex)"),
        (2, 53, "compute shader input 'g' cannot be 'out' or 'inout'"),
        (3, 17, "'SV_GroupIndex' is 'uint'; it cannot bind to 'uint2'"),
        (3, 43, "'SV_DispatchThreadID' is 'uint3'; it cannot bind to 'float3'"),
    ]


def test_groupshared_limit():
    at_limit = "groupshared float a[4096];\ngroupshared uint b[4096];\n[numthreads(1, 1, 1)] void main() { }\n"
    assert valid(at_limit).groupshared_bytes == 32 * 1024
    over = "groupshared float a[4096];\ngroupshared uint b[4096];\ngroupshared half c;\n" \
           "groupshared float4 d[2];\n[numthreads(1, 1, 1)] void main() { }\n"
    error(over, 3, 18, "groupshared memory is 32802 bytes in total; the limit is 32768 (32 KiB)")


def test_direct_recursion():
    text = source_of("""
        uint fact(uint n) { return n <= 1 ? 1 : n * fact(n - 1); }
        [numthreads(1, 1, 1)] void main() { fact(3); }
    """)
    error(text, 1, 45, "recursive call to 'fact' ('fact' calls itself): HLSL does not allow recursion")


def test_mutual_recursion_through_a_prototype():
    text = source_of("""
        void pong(uint n);
        void ping(uint n) { if (n > 0) pong(n - 1); }
        void pong(uint n) { if (n > 0) ping(n - 1); }
        [numthreads(1, 1, 1)] void main() { ping(3); }
    """)
    error(text, 3, 32, "recursive call to 'ping' (ping -> pong -> ping): HLSL does not allow recursion")


def test_entry_point_defined_twice():
    text = source_of("""
        [numthreads(1, 1, 1)] void main() { }
        [numthreads(1, 1, 1)] void main(uint i : SV_GroupIndex) { }
    """)
    error(text, 2, 28, "entry point 'main' is overloaded; it must be defined once")


def test_unknown_attributes_warn():
    text = "[numthreads(1, 1, 1)]\n[fancy]\nvoid main() { [wobble] for (;;) { break; } }\n"
    assert warnings(text) == [
        (3, 16, "unknown attribute 'wobble' ignored"),
        (2, 2, "unknown attribute 'fancy' ignored"),
    ]


def test_every_expression_in_a_sample_is_typed():
    import pathlib

    sample = pathlib.Path(__file__).resolve().parents[2] / "samples" / "prefix_sum.hlsl"
    diagnostics = Diagnostics()
    program = check_source(sample.read_text(), str(sample), Options(), diagnostics)
    every_expression_is_typed(program)
    for identifier in nodes(program.unit, ast.Identifier):
        assert identifier.decl is not None, identifier.coord
    for call in nodes(program.unit, (ast.Call, ast.MethodCall)):
        assert call.decl is not None, call.coord
