"""Lowering local resources (lower/resource_cells.py): each use resolves, at compile time,
to one global resource, or gets DXC's error at the use."""

from textwrap import dedent

import pytest
from shc.compiler.diagnostics import Diagnostics
from shc.compiler.ir.lower.from_ast import lower
from shc.compiler.ir.ops import Op
from shc.compiler.pipeline import Options, check_source

NOT_UNIQUE = "local resource not guaranteed to map to unique global resource"
HEAD = """RWStructuredBuffer<uint> a : register(u0);
RWStructuredBuffer<uint> b : register(u1);
cbuffer C : register(b0) { uint c; }
static const bool USE_B = true;
"""


def lowered(body: str, before: str = ""):
    """Lower a kernel (its body starts on the line after HEAD, ``before`` and the entry's line)."""
    source = HEAD + dedent(before) + "[numthreads(4, 1, 1)] void main(uint i : SV_DispatchThreadID) {\n" \
        + dedent(body) + "}\n"
    diagnostics = Diagnostics()
    program = check_source(source, "k.hlsl", Options(), diagnostics)
    module = lower(program, 32, diagnostics)
    errors = [(d.coord.line, d.coord.col, d.message) for d in diagnostics.items if d.severity == "error"]
    return module, errors


def stores(module) -> list[str]:
    return [inst.attrs["resource"] for inst in module.function.instructions() if inst.op is Op.BUFFER_STORE]


def test_reassignment_and_constant_choices_resolve():
    module, errors = lowered("""\
        RWStructuredBuffer<uint> t = a;
        t[i] = 1;
        t = b;
        t[i] = 2;
        if (USE_B) t = a; else t = b;
        t[i] = 3;
        RWStructuredBuffer<uint> pair[2] = { b, a };
        [unroll] for (uint k = 0; k < 2; k++) pair[k][i] = k;
        if (c > 1) { t = b; t[i] = 4; }
    """)
    assert errors == []
    assert stores(module) == ["a", "b", "a", "b", "a", "b"]


def test_a_choice_both_arms_agree_on_resolves():
    module, errors = lowered("""\
        RWStructuredBuffer<uint> t = a;
        if (c > 1) t = b; else t = b;
        t[i] = 1;
    """)
    assert errors == [] and stores(module) == ["b"]


@pytest.mark.parametrize("body, line, col", [  # line: of the body
    # a run-time condition chooses: DXC rejects it
    ("RWStructuredBuffer<uint> t = a;\nif (c > 1) t = b;\nt[i] = 1;\n", 3, 1),
    # a run-time index into a local array of resources
    ("RWStructuredBuffer<uint> arr[2] = { a, b };\narr[i & 1][i] = 1;\n", 2, 4),
    # a loop left a loop: the use at the top of the body sees a or b
    ("RWStructuredBuffer<uint> t = a;\nfor (uint n = 0; n < c; n++) { t[n] = 1; t = b; }\n", 2, 32),
    # after such a loop
    ("RWStructuredBuffer<uint> t = a;\nfor (uint n = 0; n < c; n++) t = b;\nt[i] = 1;\n", 3, 1),
    # a struct member set on one path only
    ("P p; p.k = 0;\nif (c == 0) p.buf = a;\np.buf[i] = p.k;\n", 3, 3),
    # a function whose result depends on its run-time argument
    ("choose(c)[i] = 1;\n", 1, 1),
])
def test_a_run_time_choice_is_dxcs_error_at_the_use(body, line, col):
    before = ("struct P { RWStructuredBuffer<uint> buf; uint k; };\n"
              "RWStructuredBuffer<uint> choose(uint x) { if (x > 2) return a; return b; }\n")
    _, errors = lowered(body, before)
    assert errors == [(line + 7, col, NOT_UNIQUE)]  # the body starts on line 8


def test_methods_and_out_parameters_carry_resources_back():
    before = """\
        struct Sink { RWStructuredBuffer<uint> buf; uint k;
                      void put(uint i) { buf[i] = k; }
                      void retarget(RWStructuredBuffer<uint> x) { buf = x; put(7); } };
        void set_a(out RWStructuredBuffer<uint> x) { x = a; }
    """
    module, errors = lowered("""\
        Sink s; s.buf = b; s.k = 5;
        s.put(i);
        s.retarget(a);
        s.put(i + 1);
        RWStructuredBuffer<uint> t = b;
        set_a(t);
        t[i] = 1;
    """, before)
    assert errors == []
    assert stores(module) == ["b", "a", "a", "a"]


def test_a_call_making_a_struct_of_resources_runs_once():
    before = """\
        struct P { RWStructuredBuffer<uint> buf; uint k; };
        P make(RWStructuredBuffer<uint> x, uint k) { InterlockedAdd(a[0], 1); P p; p.buf = x; p.k = k; return p; }
        void use(P p, uint i) { p.buf[i] = p.k; }
    """
    module, errors = lowered("""\
        P q = make(b, 9);
        q = make(a, 8);
        q.buf[i] = 1;
        use(make(b, 7), i);
    """, before)
    assert errors == []
    atomics = [inst for inst in module.function.instructions() if inst.op is Op.BUFFER_ATOMIC]
    assert len(atomics) == 3
    assert stores(module) == ["a", "b"]
