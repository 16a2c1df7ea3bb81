"""AST to IR, control flow: if/else phis, loops with break and continue, switches with
fall-through, loop conditions with control flow of their own, unreachable merges."""

import os
import sys
from textwrap import dedent

import numpy as np

from shc.compiler.ir.dominance import reachable

sys.path.insert(0, os.path.dirname(__file__))
from from_ast_helpers import ir, lower_source, run  # noqa: E402


IF_ELSE = """
RWStructuredBuffer<float> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float x;
    if (i < 16)
        x = 1.0;
    else
        x = i * 2.0;
    result[i] = x;
}
"""


def test_if_else_merges_through_a_phi():
    """An uninitialised local set on both sides becomes one phi."""
    assert ir(IF_ELSE) == dedent("""
        resource @result RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=16}
          %2 = const float {value=1.0}
          %3 = const float {value=2.0}
          %4 = lt bool %0, %1
          selection ^if.end1
          cond_br %4, ^if.then1, ^if.else1
        ^if.then1:
          br ^if.end1
        ^if.else1:
          %5 = convert float %0
          %6 = mul float %5, %3
          br ^if.end1
        ^if.end1:
          %7 = phi float [%2, ^if.then1], [%6, ^if.else1]
          buffer_store %0, %7 {resource="result"}
          ret
        }
    """).strip()


LOOP = """
RWStructuredBuffer<uint> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    uint sum = 0;
    for (uint k = 0; k < i; ++k)
    {
        if (k == 3)
            continue;
        if (sum > 100)
            break;
        sum += k;
    }
    result[i] = sum;
}
"""


def test_loop_with_carried_values_break_and_continue():
    """The step lives in the continue block; continue and break are branches to it and to the merge."""
    assert ir(LOOP) == dedent("""
        resource @result RWStructuredBuffer<uint> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=0}
          %2 = const uint {value=3}
          %3 = const uint {value=100}
          %4 = const uint {value=1}
          br ^loop.header1
        ^loop.header1:
          %5 = phi uint [%1, ^entry], [%12, ^loop.cont1]
          %6 = phi uint [%1, ^entry], [%11, ^loop.cont1]
          %7 = lt bool %5, %0
          loop ^loop.end1 ^loop.cont1
          cond_br %7, ^loop.body1, ^loop.end1
        ^loop.body1:
          %8 = eq bool %5, %2
          selection ^if.end2
          cond_br %8, ^if.then2, ^if.end2
        ^if.then2:
          br ^loop.cont1
        ^if.end2:
          %9 = gt bool %6, %3
          selection ^if.end3
          cond_br %9, ^if.then3, ^if.end3
        ^if.then3:
          br ^loop.end1
        ^if.end3:
          %10 = add uint %6, %5
          br ^loop.cont1
        ^loop.cont1:
          %11 = phi uint [%6, ^if.then2], [%10, ^if.end3]
          %12 = add uint %5, %4
          br ^loop.header1
        ^loop.end1:
          buffer_store %0, %6 {resource="result"}
          ret
        }
    """).strip()


SWITCH = """
RWStructuredBuffer<uint> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    uint r = 0;
    switch (i & 7)
    {
    case 0:
        r = 10;             // falls through
    case 1:
        r += 1;
        break;
    case 2:
    case 3:
        r = 7;
        break;
    default:
        r = 99;
    }
    result[i] = r;
}
"""


def test_switch_with_fall_through_and_shared_labels():
    """Labels without statements share the next block; case 0 falls through into case 1."""
    assert ir(SWITCH) == dedent("""
        resource @result RWStructuredBuffer<uint> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=0}
          %2 = const uint {value=7}
          %3 = const uint {value=10}
          %4 = const uint {value=1}
          %5 = const uint {value=99}
          %6 = and uint %0, %2
          switch_merge ^switch.end1
          switch %6, ^switch.default1, ^switch.case1_0, ^switch.case1_1, ^switch.case1_2, ^switch.case1_2 {cases=[0, 1, 2, 3]}
        ^switch.case1_0:
          br ^switch.case1_1
        ^switch.case1_1:
          %7 = phi uint [%1, ^entry], [%3, ^switch.case1_0]
          %8 = add uint %7, %4
          br ^switch.end1
        ^switch.case1_2:
          br ^switch.end1
        ^switch.default1:
          br ^switch.end1
        ^switch.end1:
          %9 = phi uint [%8, ^switch.case1_1], [%2, ^switch.case1_2], [%5, ^switch.default1]
          buffer_store %0, %9 {resource="result"}
          ret
        }
    """).strip()


# --------------------------------------------------------- run on the interpreter


def test_loop_and_switch_kernels_compute_the_right_values():
    def loop(i):
        total = 0
        for k in range(i):
            if k == 3:
                continue
            if total > 100:
                break
            total += k
        return total

    assert run(LOOP, {"result": np.zeros(32, np.uint32)}).buffers["result"].tolist() == [loop(i) for i in range(32)]
    expected = {0: 11, 1: 1, 2: 7, 3: 7}
    switch = run(SWITCH, {"result": np.zeros(32, np.uint32)}).buffers["result"]
    assert switch.tolist() == [expected.get(i & 7, 99) for i in range(32)]


def test_a_loop_condition_with_control_flow_of_its_own():
    source = """
    RWStructuredBuffer<uint> result;
    bool Less(uint a, uint b)
    {
        if (a < b)
            return true;
        return false;
    }
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {
        uint a, b, total = 0;
        for (a = 0, b = i; Less(a, b); a++, b--)
            total += a;
        result[i] = total;
    }
    """

    def expected(i):
        a, b, total = 0, i, 0
        while a < b:
            total, a, b = total + a, a + 1, b - 1
        return total

    result = run(source, {"result": np.zeros(32, np.uint32)}).buffers["result"]
    assert result.tolist() == [expected(i) for i in range(32)]


def test_regions_that_no_path_leaves_keep_an_unreachable_merge():
    source = """
    RWStructuredBuffer<uint> result;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {
        uint s = 0;
        for (uint k = 0; k < 10; k++)
        {
            s += k;
            if (s > i) break; else continue;     // if.end is never reached
        }
        uint t = 0;
        for (uint n = 0; n < 4; n++)
        {
            switch (n) { case 0: t += 1; continue; default: t += 10; break; }
            t += 100;
        }
        for (;;) { t++; break; }                 // the continue block is never reached
        result[i] = s + t;
    }
    """

    def expected(i):
        s = 0
        for k in range(10):
            s += k
            if s > i:
                break
        return s + 1 + 3 * 110 + 1

    module = lower_source(source)
    unreachable = {block.name for block in module.function.blocks} - {block.name for block in reachable(module.function)}
    assert unreachable == {"if.end2", "loop.cont5"}
    result = run(source, {"result": np.zeros(32, np.uint32)}).buffers["result"]
    assert result.tolist() == [expected(i) for i in range(32)]
