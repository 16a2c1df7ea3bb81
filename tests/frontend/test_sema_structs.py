"""Semantic analysis, HLSL 2021 structs: single inheritance, methods (implicit members, ``this``,
static methods, ``S::f``, out-of-line definitions), member operators, and what DXC rejects.

Every error test asserts the message and its exact position (line, column); ``kernel()``
(sema_helpers.py) puts the body after ``before``'s lines and three lines of entry head,
indented four columns.
"""

import os
import sys

import pytest

from shc.compiler.frontend import ast
from shc.compiler.frontend import hlsl_types as T

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import error, errors, init_type, kernel, local, nodes, valid  # noqa: E402

SHAPES = """
struct A { float x; float get() { return x * 2; } void set(float v) { x = v; } };
struct B : A { int y; float sum() { return get() + y + this.x; } };
class C : B { float x; };
"""


# -------------------------------------------------------------- inheritance


def test_a_derived_struct_holds_its_base_fields_first():
    program = valid(kernel("B b; C c; float v = b.x + b.y + c.x + c.y;", before=SHAPES))
    b, c = local(program, "b").type, local(program, "c").type
    assert b.fields == (("x", T.FLOAT), ("y", T.INT)) and b.base.name == "A"
    assert c.fields == (("B::x", T.FLOAT), ("y", T.INT), ("x", T.FLOAT))  # C's x hides the one it inherits
    assert c.derives_from(b) and c.derives_from(b.base) and not b.derives_from(c)
    assert init_type(program, "v") == "float"


def test_a_derived_struct_converts_to_its_base_only():
    valid(kernel("B b; A a = b; a = b; take(b); A d = (A)b;", before=SHAPES + "void take(A a) {}\n"))
    assert errors(kernel("A a; B b = a;", before=SHAPES)) == [(7, 16, "cannot convert from 'A' to 'B'")]


def test_the_base_must_be_a_struct():
    error("struct S : float4 { int a; };\n[numthreads(1, 1, 1)] void main() {}\n", 1, 12,
          "base of 'S' must be a struct, not 'float4'")


# ------------------------------------------------------------------- methods


def test_method_calls_resolve_to_the_nearest_struct_that_declares_the_name():
    program = valid(kernel("C c; float s = c.sum(); float g = c.get(); c.set(1);", before=SHAPES))
    calls = nodes(program.entry.body, ast.MethodCall)
    assert [(call.name, call.decl.owner.name, str(call.type)) for call in calls] == [
        ("sum", "B", "float"), ("get", "A", "float"), ("set", "A", "void")]


def test_inside_a_method_members_come_before_globals_and_after_locals():
    program = valid(kernel("S s; float v = s.own() + s.local() + s.both();", before="""
        static float x = 5;
        struct S {
            float x;
            float own() { return x; }
            float local() { float x = 1; return x; }
            float both() { return this.x; }
        };
    """))
    struct = next(d for d in program.unit.decls if isinstance(d, ast.StructDecl))
    own, local_x, both = struct.methods
    (read,) = nodes(own.body, ast.Identifier)
    assert isinstance(read.decl, ast.FieldRef) and (read.decl.index, read.decl.this_param) == (0, own.this_param)
    assert isinstance(nodes(local_x.body, ast.Identifier)[-1].decl, ast.VarDecl)
    this = nodes(both.body, ast.Identifier)[0]
    assert this.decl is both.this_param and this.decl.direction == "inout"


def test_methods_may_call_methods_declared_after_them():
    valid(kernel("S s; float v = s.first();", before="""
        struct S { float v; float first() { return second() + S::third(); }
                   float second() { return v; } static float third() { return 3; } };
    """))


def test_method_defined_outside_its_struct_replaces_the_declaration():
    program = valid(kernel("S s; s.bump(); float v = s.n;", before="""
        struct S { float n; void bump(); };
        void S::bump() { n += 1; }
    """))
    (call,) = nodes(program.entry.body, ast.MethodCall)
    assert call.decl.qualifier == "S" and call.decl.body is not None and call.decl.this_param is not None


def test_operator_methods():
    program = valid(kernel("V a, b; V c = a + b; bool e = a == b; float f = a[1]; V n = -a;", before="""
        struct V { float x;
                   V operator+(V o) { V r; r.x = x + o.x; return r; }
                   bool operator==(V o) { return x == o.x; }
                   float operator[](uint i) { return x * i; }
                   V operator-() { V r; r.x = -x; return r; } };
    """))
    assert [init_type(program, name) for name in "cefn"] == ["V", "bool", "float", "V"]
    binary = local(program, "c").init
    assert binary.decl.name == "operator+" and binary.decl.owner.name == "V"


# ---------------------------------------------------------------- rejections

REJECTED = [
    ("struct S { float x; };\n[numthreads(1,1,1)] void main() { S s; s.f(); }\n",
     2, 42, "no method named 'f' in 'S'"),
    ("struct S { float x; };\n[numthreads(1,1,1)] void main() { S s; s.x(); }\n",
     2, 42, "'x' is a member of 'S', not a method"),
    ("float g() { return this.x; }\n", 1, 20, "'this' is only available in non-static methods"),
    ("struct S { float x; static float f() { return x; } };\n", 1, 47, "member 'x' used in static method 'S::f'"),
    ("struct S { static float f() { return this.x; } float x; };\n", 1, 38,
     "'this' is only available in non-static methods"),
    ("struct S { float f() { return 1; } };\n[numthreads(1,1,1)] void main() { S::f(); }\n",
     2, 38, "call to non-static method 'S::f' without an object"),
    ("struct S { float f() { return 1; } float f() { return 2; } };\n", 1, 42, "redefinition of 'S::f'"),
    ("struct S { float x; float x() { return 1; } };\n", 1, 27, "method 'x' has the name of a member of 'S'"),
    ("struct S { float f(); };\nfloat S::g() { return 1; }\n", 2, 10, "'S::g' defined here is not declared in 'S'"),
    ("struct S { float f(float a); };\nfloat S::f(float a) { return a; }\nfloat S::f(float b) { return b; }\n",
     3, 10, "redefinition of 'S::f'"),
    ("struct S { float f() { return 1; } };\n[numthreads(1,1,1)] void main() { S s; float v = s.f(2); }\n",
     2, 52, "no matching function for call to 'f(int)'"),
    ("struct S { float x; void bad() const { x = 1; } };\n", 1, 40, "cannot assign to member 'x' in a const method"),
    ("struct S { float x; void set() { x = 1; } float get() const { set(); return x; } };\n", 1, 63,
     "'S::set' is not a const method; it cannot be called on a const object"),
    ("struct S { float x; void set() { x = 1; } };\n[numthreads(1,1,1)] void main() { const S s = (S)0; s.set(); }\n",
     2, 55, "'S::set' is not a const method; it cannot be called on a const object"),
    ("struct S { static float f() const { return 1; } };\n", 1, 25, "'f' is a static method: it cannot be 'const'"),
    ("float g() const { return 1; }\n", 1, 7, "'g' is a function that is not a method: it cannot be 'const'"),
    ("struct S { float f() const; };\nfloat S::f() { return 1; }\n", 2, 10, "'S::f' is declared as a const method"),
    ("struct S { float x; void operator=(S o) {} };\n", 1, 26, "overloading 'operator=' is not allowed"),
    ("struct S { float x; void operator+=(S o) {} };\n", 1, 26, "overloading 'operator+=' is not allowed"),
    ("struct S { float x; S operator<<(int o) { return this; } };\n", 1, 23,
     "overloading 'operator<<' is not allowed"),
    ("struct S { float x; };\nS operator*(S a, S b) { return a; }\n", 2, 3,
     "overloading non-member 'operator*' is not allowed"),
    ("struct S { float x; S operator*(S a, S b) { return a; } };\n", 1, 23,
     "'operator*' has the wrong number of parameters (2)"),
    ("struct S { float x; };\n[numthreads(1,1,1)] void main() { S a, b; S c = a * b; }\n",
     2, 51, "invalid operands to binary '*' ('S' and 'S')"),
    ("struct F { float operator()(float x) { return x; } };\n[numthreads(1,1,1)] void main() { F f; f(2); }\n",
     2, 40, "calling 'f' through its struct's 'operator()' is not supported by shc"),
    (("struct S { float x; float operator[](uint i) { return x; } };\n"
      "[numthreads(1,1,1)] void main() { S a; a[0] = 1; }\n"), 2, 41, "expression is not assignable"),
]


@pytest.mark.parametrize("text, line, col, message", REJECTED, ids=[r[3] for r in REJECTED])
def test_rejected_as_dxc_does(text, line, col, message):
    if "main" not in text:
        text += "[numthreads(1, 1, 1)] void main() {}\n"
    assert errors(text) == [(line, col, message)]


def test_operators_need_hlsl_2021():
    text = "struct S { float x; S operator+(S o) { return o; } };\n[numthreads(1, 1, 1)] void main() {}\n"
    assert errors(text, hlsl_version=2018) == [(1, 23, "overloading 'operator+' needs HLSL 2021 (-HV 2021)")]
    valid(text)


def test_a_struct_with_methods_inside_a_loop_leaves_the_loop_as_it_was():
    valid(kernel("""
        for (int i = 0; i < 2; i++) {
            struct L { int k; int twice() { return k * 2; } };
            L l;
            l.k = i;
            if (l.twice() > 1) break;
        }
    """))
    assert errors(kernel("struct L { void f() { break; } };")) == [
        (4, 27, "'break' statement not in loop or switch statement")]
