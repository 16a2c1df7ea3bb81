"""Semantic analysis of local resource values (frontend/resource_values.py): DXC accepts
reassigned local resources, local arrays of resources and struct members of resource type;
memory cannot hold a resource. Whether each use resolves to one global resource is decided
in lowering (tests/ir/test_lower_local_resources.py)."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from sema_helpers import errors, kernel, source_of, valid  # noqa: E402

GLOBALS = """
RWStructuredBuffer<uint> a : register(u0);
RWStructuredBuffer<uint> b : register(u1);
"""


def test_local_resources_are_reassigned_collected_and_held_in_structs():
    valid(kernel("""
        RWStructuredBuffer<uint> t = a;
        t = b;
        RWStructuredBuffer<uint> arr[2] = { a, b };
        arr[1] = a;
        RWStructuredBuffer<uint> all[] = { a, b, a };
        P p;
        p.buf = t;
        p.buf[id.x] = p.k;
        all[2][id.x] = arr[0][id.x];
    """, GLOBALS + "struct P { RWStructuredBuffer<uint> buf; uint k; };\n"))


def test_resources_through_parameters_and_results():
    valid(kernel("""
        put(pick(b), id.x);
    """, GLOBALS + "RWStructuredBuffer<uint> pick(RWStructuredBuffer<uint> x) { return x; }\n"
                   "void put(RWStructuredBuffer<uint> x, uint i) { x[i] = 1; }\n"))


def test_resource_initializer_list_errors():
    text = kernel("""
        RWStructuredBuffer<uint> arr[2] = { a, 1 };
        RWStructuredBuffer<uint> three[3] = { a, b };
    """, GLOBALS)
    assert errors(text) == [
        (6, 44, "cannot initialize an element of 'RWStructuredBuffer<uint>[2]' with 'int'"),
        (7, 41, "initializer list has 2 values but 'RWStructuredBuffer<uint>[3]' needs 3"),
    ]


def test_global_resources_and_memory_cannot_hold_resources():
    text = source_of("""
        RWStructuredBuffer<uint> a : register(u0);
        struct P { RWStructuredBuffer<uint> buf; uint k; };
        StructuredBuffer<P> s : register(t0);
        groupshared P shared_p;
        static P static_p;
        [numthreads(1, 1, 1)] void main() { a = a; }
    """)
    assert errors(text) == [
        (3, 1, "the buffer element 'P' holds a resource"),
        (4, 15, "a struct holding a resource must be a local variable, not groupshared"),
        (5, 10, "a struct holding a resource must be a local variable, not static"),
        (6, 37, "cannot assign to resource 'a'"),
    ]
