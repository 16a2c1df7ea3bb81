"""AST to IR, functions: inlining with out/inout and default arguments, early returns
(from the entry point, inside loops and switches), the callee's lines kept."""

import os
import sys
from textwrap import dedent

import numpy as np

from shc.compiler.ir.ops import Op

sys.path.insert(0, os.path.dirname(__file__))
from from_ast_helpers import ir, lower_source, run  # noqa: E402


INLINE = """
RWStructuredBuffer<float> result;
float Clip(float x, out uint flag, inout float total, float bias = 0.5)
{
    flag = 0;
    if (x < 0)
        return bias;
    total += x;
    if (x > 10)
    {
        flag = 1;
        return 10;
    }
    return x * 2;
}
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float total = 1;
    uint flag;
    float y = Clip(i - 5.0, flag, total);
    result[i] = y + total + flag;
}
"""


def test_inlining_with_out_inout_default_argument_and_early_returns():
    """`if (c) return ...; rest` puts rest in the else arm; the result and the out/inout values are phis."""
    assert ir(INLINE) == dedent("""
        resource @result RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const float {value=1.0}
          %2 = const float {value=5.0}
          %3 = const float {value=0.5}
          %4 = const uint {value=0}
          %5 = const float {value=0.0}
          %6 = const float {value=10.0}
          %7 = const uint {value=1}
          %8 = const float {value=2.0}
          %9 = convert float %0
          %10 = sub float %9, %2
          %11 = lt bool %10, %5
          selection ^if.end1
          cond_br %11, ^if.then1, ^if.else1
        ^if.then1:
          br ^if.end1
        ^if.else1:
          %12 = add float %1, %10
          %13 = gt bool %10, %6
          selection ^if.end2
          cond_br %13, ^if.then2, ^if.else2
        ^if.then2:
          br ^if.end2
        ^if.else2:
          %14 = mul float %10, %8
          br ^if.end2
        ^if.end2:
          %15 = phi float [%6, ^if.then2], [%14, ^if.else2]
          %16 = phi uint [%7, ^if.then2], [%4, ^if.else2]
          br ^if.end1
        ^if.end1:
          %17 = phi float [%3, ^if.then1], [%15, ^if.end2]
          %18 = phi uint [%4, ^if.then1], [%16, ^if.end2]
          %19 = phi float [%1, ^if.then1], [%12, ^if.end2]
          %20 = add float %17, %19
          %21 = convert float %18
          %22 = add float %20, %21
          buffer_store %0, %22 {resource="result"}
          ret
        }
    """).strip()


EARLY_RETURN = """
cbuffer Constants { uint count; };
RWStructuredBuffer<uint> result;
uint FirstSquareAtLeast(uint x)
{
    for (uint k = 0; k < 16; k++)
    {
        if (k * k >= x)
            return k;
    }
    return 16;
}
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    if (i >= count)
        return;
    result[i] = FirstSquareAtLeast(i);
}
"""


def test_early_return_from_entry_and_return_inside_a_loop():
    """A return inside a loop sets the returned flag and breaks; the code after the loop runs under !returned."""
    assert ir(EARLY_RETURN) == dedent("""
        resource @Constants cbuffer b0 space0
        resource @result RWStructuredBuffer<uint> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const bool {value=false}
          %2 = const bool {value=true}
          %3 = const uint {value=0}
          %4 = const uint {value=16}
          %5 = const uint {value=1}
          %6 = cbuffer_load uint {buffer="Constants", offset=0}
          %7 = ge bool %0, %6
          selection ^if.end1
          cond_br %7, ^if.then1, ^if.else1
        ^if.then1:
          br ^if.end1
        ^if.else1:
          br ^loop.header2
        ^loop.header2:
          %8 = phi uint [%3, ^if.else1], [%12, ^loop.cont2]
          %9 = lt bool %8, %4
          loop ^loop.end2 ^loop.cont2
          cond_br %9, ^loop.body2, ^loop.end2
        ^loop.body2:
          %10 = mul uint %8, %8
          %11 = ge bool %10, %0
          selection ^if.end3
          cond_br %11, ^if.then3, ^if.end3
        ^if.then3:
          br ^loop.end2
        ^if.end3:
          br ^loop.cont2
        ^loop.cont2:
          %12 = add uint %8, %5
          br ^loop.header2
        ^loop.end2:
          %13 = phi bool [%1, ^loop.header2], [%2, ^if.then3]
          selection ^ret.join4
          cond_br %13, ^ret.join4, ^ret.rest4
        ^ret.rest4:
          br ^ret.join4
        ^ret.join4:
          %14 = phi uint [%8, ^loop.end2], [%4, ^ret.rest4]
          buffer_store %0, %14 {resource="result"}
          br ^if.end1
        ^if.end1:
          ret
        }
    """).strip()


def test_inlined_code_keeps_the_callee_lines():
    module = lower_source("""
        RWStructuredBuffer<float> result;
        float Twice(float x)
        {
            return x * 2;
        }
        [numthreads(64, 1, 1)]
        void main(uint i : SV_GroupIndex)
        {
            result[i] = Twice(result[i]);
        }
    """)
    lines = {inst.op: inst.coord.line for inst in module.function.instructions()}
    assert lines[Op.MUL] == 5 and lines[Op.BUFFER_LOAD] == 10 and lines[Op.BUFFER_STORE] == 10
    assert all(inst.coord.file == "kernel.hlsl" for inst in module.function.instructions())


# --------------------------------------------------------- run on the interpreter


def test_inlined_early_returns_and_out_arguments_compute_the_right_values():
    def clip(x):
        total = 1.0
        if x < 0:
            return 0.5 + total + 0
        total += x
        return (10.0 + total + 1) if x > 10 else (x * 2 + total + 0)

    result = run(INLINE, {"result": np.zeros(32, np.float32)}).buffers["result"]
    assert result.tolist() == [clip(i - 5.0) for i in range(32)]


RETURNS = """
RWStructuredBuffer<uint> result;
uint Search(uint x)
{
    for (uint i = 0; i < 8; i++)
        for (uint j = 0; j < 8; j++)
            if (i * j == x)
                return i * 100 + j;     // leaves both loops
    return 999;
}
uint Pick(uint x)
{
    switch (x % 4)
    {
    case 1:
        return 5;
    case 2:
        x = 30;
        break;
    default:
        break;
    }
    return x + 1;
}
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    uint n = 0;
    do { n += 2; } while (n < i);
    if (i == 31)
        return;
    result[i] = Search(i) * 1000 + Pick(i) + n * 1000000;
}
"""


def test_returns_out_of_nested_loops_and_switches():
    def search(x):
        for i in range(8):
            for j in range(8):
                if i * j == x:
                    return i * 100 + j
        return 999

    def pick(x):
        return {1: 5, 2: 31}.get(x % 4, x + 1)

    def do_while(i):
        n = 2
        while n < i:
            n += 2
        return n

    result = run(RETURNS, {"result": np.full(32, 7, np.uint32)}).buffers["result"]
    expected = [search(i) * 1000 + pick(i) + do_while(i) * 1000000 for i in range(31)] + [7]
    assert result.tolist() == expected
