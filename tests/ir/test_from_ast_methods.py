"""AST to IR, struct methods: the object is stored back only when the method writes it (a
read-only method on a UAV element is one load, no store), a base's method on a derived object
writes back the base's fields only, and a struct's operator is an inlined call."""

import os
import sys

from shc.compiler.ir.ops import Op

sys.path.insert(0, os.path.dirname(__file__))
from from_ast_helpers import lower_source  # noqa: E402

ELEMENTS = """
struct P {
    float x;
    float y;
    float peek() { return x + y; }
    void bump() { x += 1; }
    void bump_twice() { bump(); this.bump(); }
};
RWStructuredBuffer<P> ps;
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main()
{
    %s
}
"""


def ops(source: str) -> list:
    return [inst.op for block in lower_source(source).function.blocks for inst in block.insts]


def test_a_method_that_only_reads_its_object_stores_nothing_back():
    assert ops(ELEMENTS % "o[0] = ps[1].peek();").count(Op.BUFFER_STORE) == 1  # o[0] only


def test_a_method_that_writes_its_object_stores_it_back():
    assert ops(ELEMENTS % "ps[1].bump();").count(Op.BUFFER_STORE) >= 1
    assert ops(ELEMENTS % "ps[1].bump_twice();").count(Op.BUFFER_STORE) >= 1  # through the calls it makes


def test_a_base_method_on_a_derived_element_writes_back_the_base_fields():
    source = """
    struct A { uint a; void set() { a = 7; } };
    struct B : A { uint b; };
    RWStructuredBuffer<B> bs;
    [numthreads(1, 1, 1)]
    void main() { bs[0].set(); }
    """
    stores = [inst for block in lower_source(source).function.blocks for inst in block.insts
              if inst.op == Op.BUFFER_STORE]
    assert len(stores) == 1  # field a only: b, which another thread may write, is left alone
