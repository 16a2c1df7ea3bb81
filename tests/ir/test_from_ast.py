"""AST to IR: golden IR for small kernels, every sample lowering to valid structured SSA,
and lowered kernels run on the IR interpreter against hand-written expectations."""

from pathlib import Path
from textwrap import dedent

import numpy as np
import pytest

from shc.compiler.diagnostics import Diagnostics
from shc.compiler.frontend import hlsl_types as T
from shc.compiler.ir.from_ast import lower
from shc.compiler.ir.interpret import run_wave
from shc.compiler.ir.ops import Op
from shc.compiler.ir.printer import print_module
from shc.compiler.ir.reader import read_module
from shc.compiler.ir.dominance import reachable
from shc.compiler.ir.verify import verify
from shc.compiler.pipeline import Options, check_source, compile_file

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").glob("*.hlsl"))


def lower_source(source: str, defines: dict | None = None, wave_size: int = 32, filename: str = "kernel.hlsl"):
    diagnostics = Diagnostics()
    program = check_source(dedent(source), filename, Options(defines=defines or {}), diagnostics)
    module = lower(program, wave_size, diagnostics)
    assert diagnostics.error_count == 0, diagnostics.render()
    check_structure(module.function)
    return module


def ir(source: str) -> str:
    return print_module(lower_source(source), show_coords=False).strip()


def check_structure(function) -> None:
    """verify() (one terminator per block, phis match predecessors, operands dominate their
    uses) plus the structured-control-flow shape: every conditional branch or switch ends a
    region header, a loop's continue block, or is a conditional break (a loop condition that
    needed blocks of its own); every loop's continue block branches back."""
    verify(function)
    continues = {block.cont for block in function.blocks if block.kind == "loop"}
    merges = {block.merge for block in function.blocks if block.kind == "loop"}
    for block in function.blocks:
        terminators = [inst for inst in block.insts if inst.is_terminator]
        assert len(terminators) == 1 and block.insts[-1] is terminators[0], block.name
        if terminators[0].op in (Op.COND_BR, Op.SWITCH):
            structured = block.kind is not None or block in continues or merges & set(block.successors)
            assert structured, f"unstructured branch in ^{block.name}"
        if block.kind == "loop":
            assert block in block.cont.successors, f"^{block.cont.name} does not branch back"
    assert sum(inst.op is Op.RETURN for inst in function.instructions()) == 1
    for inst in function.instructions():
        assert operands_fit(inst), f"{inst.op.value} {inst.type} on {[str(o.type) for o in inst.operands]}"


SAME_TYPE = {Op.ADD, Op.SUB, Op.MUL, Op.DIV, Op.REM, Op.NEG, Op.FMA, Op.MIN, Op.MAX, Op.ABS, Op.AND, Op.OR,
             Op.XOR, Op.NOT, Op.SHL, Op.SHR, Op.PHI, Op.WAVE_ACTIVE, Op.WAVE_PREFIX, Op.QUAD_READ}


def operands_fit(inst) -> bool:
    """Every operand has the type its op needs: conversions and splats are explicit."""
    types = [operand.type for operand in inst.operands]
    if inst.op in SAME_TYPE:
        return all(t == inst.type for t in types)
    if inst.op in (Op.EQ, Op.NE, Op.LT, Op.LE, Op.GT, Op.GE):
        return types[0] == types[1] and inst.type == T.with_element(types[0], T.BOOL)
    if inst.op is Op.SELECT:
        return types[1] == types[2] == inst.type and types[0] in (T.BOOL, T.with_element(inst.type, T.BOOL))
    if inst.op is Op.CONSTRUCT and isinstance(inst.type, T.VectorType):
        return sum(getattr(t, "size", 1) for t in types) == inst.type.size \
            and all(t.element == inst.type.element for t in types)
    if inst.op is Op.COND_BR:
        return types == [T.BOOL]
    if inst.op in (Op.LDS_LOAD, Op.LDS_STORE, Op.SCRATCH_LOAD, Op.SCRATCH_STORE, Op.LDS_ATOMIC):
        return types[0] == T.UINT
    return True


ARITHMETIC = """
RWStructuredBuffer<float4> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    int k = i - 3;
    float x = k * 0.5;
    half h = x;
    half2 hv = h * 2;
    float4 v = hv.x + 1;
    result[i] = v * float4(hv, 0, 1);
}
"""


def test_arithmetic_with_implicit_conversions_and_splats():
    """Conversions are explicit; literals arrive in their use's type; half stays half."""
    assert ir(ARITHMETIC) == dedent("""
        resource @result RWStructuredBuffer<float4> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=3}
          %2 = const float {value=0.5}
          %3 = const half {value=2.0}
          %4 = const half {value=1.0}
          %5 = const float {value=0.0}
          %6 = const float {value=1.0}
          %7 = sub uint %0, %1
          %8 = convert int %7
          %9 = convert float %8
          %10 = mul float %9, %2
          %11 = convert half %10
          %12 = mul half %11, %3
          %13 = construct half2 %12, %12
          %14 = add half %12, %4
          %15 = convert float %14
          %16 = construct float4 %15, %15, %15, %15
          %17 = convert float2 %13
          %18 = construct float4 %17, %5, %6
          %19 = mul float4 %16, %18
          buffer_store %0, %19 {resource="result"}
          ret
        }
    """).strip()


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


SWIZZLE = """
RWStructuredBuffer<float4> result;
groupshared float4 shared4[64];
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float4 v = result[i];
    v.zx = float2(1, 2);
    v.y = 3;
    shared4[i].wy = v.xy;
    shared4[i].z = v.w;
    result[i] = v;
}
"""


def test_swizzle_writes():
    """A swizzle write to a value is one two-operand shuffle; to groupshared memory, one store per run of\n    components (never a read-modify-write of the whole vector)."""
    assert ir(SWIZZLE) == dedent("""
        resource @result RWStructuredBuffer<float4> u0 space0
        groupshared @shared4 float4[64] offset 0 size 1024
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const float2 {value=[1.0, 2.0]}
          %2 = const float {value=3.0}
          %3 = const uint {value=16}
          %4 = const uint {value=4}
          %5 = const uint {value=12}
          %6 = const uint {value=8}
          %7 = buffer_load float4 %0 {resource="result"}
          %8 = shuffle float4 %7, %1 {lanes=[5, 1, 4, 3]}
          %9 = insert float4 %8, %2 {index=1}
          %10 = shuffle float2 %9 {lanes=[0, 1]}
          %11 = mul uint %0, %3
          %12 = extract float %10 {index=1}
          %13 = add uint %11, %4
          lds_store %13, %12 {var="shared4"}
          %14 = extract float %10 {index=0}
          %15 = add uint %11, %5
          lds_store %15, %14 {var="shared4"}
          %16 = extract float %8 {index=3}
          %17 = mul uint %0, %3
          %18 = add uint %17, %6
          lds_store %18, %16 {var="shared4"}
          buffer_store %0, %9 {resource="result"}
          ret
        }
    """).strip()


GROUPSHARED = """
struct Pair { uint key; float2 value; };
groupshared uint flags;
groupshared half2 tile[8][16];
groupshared Pair pairs[32];
RWStructuredBuffer<float> result;
[numthreads(64, 1, 1)]
void main(uint3 t : SV_GroupThreadID)
{
    tile[t.y][t.x] = half2(1, 2);
    pairs[t.x].value.y = tile[3][t.x + 1].y;
    GroupMemoryBarrierWithGroupSync();
    uint before;
    InterlockedOr(flags, 1u << t.x, before);
    result[t.x] = pairs[t.x ^ 1].value.y + before;
}
"""


def test_groupshared_addresses():
    """Tight layout, 4-byte aligned variables; y * 64 + x * 4 (+ 2 for .y of a half2); atomics return the old value."""
    assert ir(GROUPSHARED) == dedent("""
        struct @Pair { key: uint, value: float2 }
        resource @result RWStructuredBuffer<float> u0 space0
        groupshared @flags uint offset 0 size 4
        groupshared @tile half2[8][16] offset 4 size 512
        groupshared @pairs Pair[32] offset 516 size 384
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint3 {which="group_thread_id"}
          %1 = const half2 {value=[1.0, 2.0]}
          %2 = const uint {value=64}
          %3 = const uint {value=4}
          %4 = const uint {value=1}
          %5 = const uint {value=198}
          %6 = const uint {value=12}
          %7 = const uint {value=524}
          %8 = const uint {value=0}
          %9 = extract uint %0 {index=1}
          %10 = extract uint %0 {index=0}
          %11 = mul uint %9, %2
          %12 = mul uint %10, %3
          %13 = add uint %11, %12
          %14 = add uint %13, %3
          lds_store %14, %1 {var="tile"}
          %15 = extract uint %0 {index=0}
          %16 = extract uint %0 {index=0}
          %17 = add uint %16, %4
          %18 = mul uint %17, %3
          %19 = add uint %18, %5
          %20 = lds_load half %19 {var="tile"}
          %21 = convert float %20
          %22 = mul uint %15, %6
          %23 = add uint %22, %7
          lds_store %23, %21 {var="pairs"}
          barrier {scope="group", sync=true}
          %24 = extract uint %0 {index=0}
          %25 = shl uint %4, %24
          %26 = lds_atomic uint %8, %25 {fn="or", var="flags"}
          %27 = extract uint %0 {index=0}
          %28 = extract uint %0 {index=0}
          %29 = xor uint %28, %4
          %30 = mul uint %29, %6
          %31 = add uint %30, %7
          %32 = lds_load float %31 {var="pairs"}
          %33 = convert float %26
          %34 = add float %32, %33
          buffer_store %27, %34 {resource="result"}
          ret
        }
    """).strip()


CBUFFER = """
struct Light { float3 direction; float intensity; float2 extent; };
cbuffer Frame : register(b2)
{
    float scale;        // 0
    float3 offset;      // 4: fits the rest of row 0
    float2 size;        // 16
    float3 tint;        // 32: would cross row 1
    float weights[3];   // 48, 64, 80: elements a row apart
    Light light;        // 96: structs start a row
    uint count;         // 128: after the struct's whole rows
    half bias;          // 132
};
float gGlobal;
RWStructuredBuffer<float> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    result[i] = scale + offset.z + size.y + tint.x + weights[i % 3] + light.extent.y
              + count + bias + gGlobal;
}
"""


def test_cbuffer_packing():
    """16-byte rows: no vector crosses a row, arrays and structs start one, array elements are a row apart."""
    assert ir(CBUFFER) == dedent("""
        resource @$Globals cbuffer b0 space0
        resource @Frame cbuffer b2 space0
        resource @result RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=3}
          %2 = const uint {value=16}
          %3 = cbuffer_load float {buffer="Frame", offset=0}
          %4 = cbuffer_load float {buffer="Frame", offset=12}
          %5 = add float %3, %4
          %6 = cbuffer_load float {buffer="Frame", offset=20}
          %7 = add float %5, %6
          %8 = cbuffer_load float {buffer="Frame", offset=32}
          %9 = add float %7, %8
          %10 = rem uint %0, %1
          %11 = mul uint %10, %2
          %12 = cbuffer_load float %11 {buffer="Frame", offset=48}
          %13 = add float %9, %12
          %14 = cbuffer_load float {buffer="Frame", offset=116}
          %15 = add float %13, %14
          %16 = cbuffer_load uint {buffer="Frame", offset=128}
          %17 = convert float %16
          %18 = add float %15, %17
          %19 = cbuffer_load half {buffer="Frame", offset=132}
          %20 = convert float %19
          %21 = add float %18, %20
          %22 = cbuffer_load float {buffer="$Globals", offset=0}
          %23 = add float %21, %22
          buffer_store %0, %23 {resource="result"}
          ret
        }
    """).strip()


RESOURCES = """
struct Item { uint id; float3 position; };
StructuredBuffer<Item> items : register(t1);
Buffer<float4> colors;
ByteAddressBuffer raw;
Texture2DArray<float4> layers;
Texture2D<float> maps[4] : register(t8);
SamplerState linearClamp;
RWTexture2D<float4> image : register(u1);
RWByteAddressBuffer counters;
[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 p = items[id.x].position;
    float4 c = colors[id.y] + layers.Load(int4(id.xy, 2, 0)) + layers[uint3(id.xy, 1)];
    float m = maps[id.z & 3].SampleLevel(linearClamp, p.xy, 0);
    uint width, height;
    image.GetDimensions(width, height);
    uint previous;
    counters.InterlockedAdd(0, 1, previous);
    counters.Store2(8, raw.Load2(id.x * 8));
    image[id.xy] = c * m + float(width + previous);
}
"""


def test_resources_and_implicit_registers():
    """Loads, stores, sampling, sizes and atomics; unregistered resources take the lowest free register."""
    assert ir(RESOURCES) == dedent("""
        struct @Item { id: uint, position: float3 }
        resource @items StructuredBuffer<Item> t1 space0
        resource @colors Buffer<float4> t0 space0
        resource @raw ByteAddressBuffer t2 space0
        resource @layers Texture2DArray<float4> t3 space0
        resource @maps[4] Texture2D<float> t8 space0
        resource @linearClamp SamplerState s0 space0
        resource @image RWTexture2D<float4> u1 space0
        resource @counters RWByteAddressBuffer u0 space0
        func @main numthreads(8, 8, 1) wave32 {
        ^entry:
          %0 = thread_input uint3 {which="dispatch_thread_id"}
          %1 = const int {value=2}
          %2 = const int {value=0}
          %3 = const uint {value=1}
          %4 = const uint {value=0}
          %5 = const uint {value=3}
          %6 = const float {value=0.0}
          %7 = const uint {value=8}
          %8 = extract uint %0 {index=0}
          %9 = buffer_load float3 %8 {offset=4, resource="items"}
          %10 = extract uint %0 {index=1}
          %11 = buffer_load float4 %10 {resource="colors"}
          %12 = shuffle uint2 %0 {lanes=[0, 1]}
          %13 = convert int2 %12
          %14 = construct int4 %13, %1, %2
          %15 = convert uint4 %14
          %16 = texture_load float4 %15 {resource="layers"}
          %17 = add float4 %11, %16
          %18 = shuffle uint2 %0 {lanes=[0, 1]}
          %19 = construct uint3 %18, %3
          %20 = construct uint4 %19, %4
          %21 = texture_load float4 %20 {resource="layers"}
          %22 = add float4 %17, %21
          %23 = extract uint %0 {index=2}
          %24 = and uint %23, %5
          %25 = shuffle float2 %9 {lanes=[0, 1]}
          %26 = texture_sample float %24, %25, %6 {resource="maps", sampler="linearClamp"}
          %27 = resource_info uint2 {fields=["width", "height"], resource="image"}
          %28 = extract uint %27 {index=0}
          %29 = buffer_atomic uint %4, %3 {fn="add", resource="counters"}
          %30 = extract uint %0 {index=0}
          %31 = mul uint %30, %7
          %32 = buffer_load uint2 %31 {resource="raw"}
          buffer_store %7, %32 {resource="counters"}
          %33 = shuffle uint2 %0 {lanes=[0, 1]}
          %34 = construct float4 %26, %26, %26, %26
          %35 = mul float4 %22, %34
          %36 = add uint %28, %29
          %37 = convert float %36
          %38 = construct float4 %37, %37, %37, %37
          %39 = add float4 %35, %38
          texture_store %33, %39 {resource="image"}
          ret
        }
    """).strip()


SCRATCH = """
RWStructuredBuffer<float> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float fixed[2] = { 1, 2 };          // constant indexes only: SSA values
    float table[4] = { 1, 2, 3, 4 };    // indexed with i: scratch memory
    table[i & 3] += fixed[1];
    fixed[0] = table[(i + 1) & 3];
    result[i] = fixed[0] + fixed[1];
}
"""


def test_dynamically_indexed_local_array_goes_to_scratch():
    """Only the array indexed with a non-constant lives in scratch; the other stays in SSA values."""
    assert ir(SCRATCH) == dedent("""
        resource @result RWStructuredBuffer<float> u0 space0
        scratch 16
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const float {value=1.0}
          %2 = const float {value=2.0}
          %3 = const float {value=3.0}
          %4 = const float {value=4.0}
          %5 = const uint {value=0}
          %6 = const uint {value=4}
          %7 = const uint {value=8}
          %8 = const uint {value=12}
          %9 = const uint {value=3}
          %10 = const uint {value=1}
          scratch_store %5, %1 {var="table"}
          scratch_store %6, %2 {var="table"}
          scratch_store %7, %3 {var="table"}
          scratch_store %8, %4 {var="table"}
          %11 = and uint %0, %9
          %12 = mul uint %11, %6
          %13 = scratch_load float %12 {var="table"}
          %14 = add float %13, %2
          scratch_store %12, %14 {var="table"}
          %15 = add uint %0, %10
          %16 = and uint %15, %9
          %17 = mul uint %16, %6
          %18 = scratch_load float %17 {var="table"}
          %19 = add float %18, %2
          buffer_store %0, %19 {resource="result"}
          ret
        }
    """).strip()


WAVE = """
RWStructuredBuffer<float> result;
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float v = result[i];
    float quad = QuadReadAcrossX(v) + QuadReadAcrossY(v) + QuadReadAcrossDiagonal(v)
               + QuadReadLaneAt(v, 2);
    float wave = WaveActiveSum(v) + WavePrefixProduct(v) + WaveActiveMax(v)
               + WaveReadLaneAt(v, 5) + WaveReadLaneFirst(v) + WaveShuffleXor(v, 16);
    uint4 ballot = WaveActiveBallot(v > 0);
    uint bits = WaveActiveCountBits(v > 0) + WavePrefixCountBits(v > 1) + WaveActiveBitOr(i)
              + WaveGetLaneIndex() + WaveGetLaneCount();
    if (WaveIsFirstLane() && WaveActiveAllTrue(v > -1))
        result[i] = quad + wave + ballot.x + bits;
}
"""


def test_wave_and_quad_operations():
    """Wave intrinsics keep their meaning; a wave op on the right of && is not evaluated by skipped lanes."""
    assert ir(WAVE) == dedent("""
        resource @result RWStructuredBuffer<float> u0 space0
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=2}
          %2 = const uint {value=5}
          %3 = const uint {value=16}
          %4 = const float {value=0.0}
          %5 = const float {value=1.0}
          %6 = const float {value=-1.0}
          %7 = buffer_load float %0 {resource="result"}
          %8 = quad_read float %7 {lanes=[1, 0, 3, 2]}
          %9 = quad_read float %7 {lanes=[2, 3, 0, 1]}
          %10 = add float %8, %9
          %11 = quad_read float %7 {lanes=[3, 2, 1, 0]}
          %12 = add float %10, %11
          %13 = quad_read_lane_at float %7, %1
          %14 = add float %12, %13
          %15 = wave_active float %7 {fn="sum"}
          %16 = wave_prefix float %7 {fn="product"}
          %17 = add float %15, %16
          %18 = wave_active float %7 {fn="max"}
          %19 = add float %17, %18
          %20 = wave_read_lane_at float %7, %2
          %21 = add float %19, %20
          %22 = wave_read_first float %7
          %23 = add float %21, %22
          %24 = wave_shuffle_xor float %7, %3
          %25 = add float %23, %24
          %26 = gt bool %7, %4
          %27 = wave_ballot uint4 %26
          %28 = gt bool %7, %4
          %29 = wave_count_bits uint %28
          %30 = gt bool %7, %5
          %31 = wave_prefix_count_bits uint %30
          %32 = add uint %29, %31
          %33 = wave_active uint %0 {fn="or"}
          %34 = add uint %32, %33
          %35 = wave_lane_index uint
          %36 = add uint %34, %35
          %37 = wave_lane_count uint
          %38 = add uint %36, %37
          %39 = wave_is_first_lane bool
          selection ^and.end1
          cond_br %39, ^and.rhs1, ^and.end1
        ^and.rhs1:
          %40 = gt bool %7, %6
          %41 = wave_all_true bool %40
          br ^and.end1
        ^and.end1:
          %42 = phi bool [%39, ^entry], [%41, ^and.rhs1]
          selection ^if.end2
          cond_br %42, ^if.then2, ^if.end2
        ^if.then2:
          %43 = add float %14, %25
          %44 = extract uint %27 {index=0}
          %45 = convert float %44
          %46 = add float %43, %45
          %47 = convert float %38
          %48 = add float %46, %47
          buffer_store %0, %48 {resource="result"}
          br ^if.end2
        ^if.end2:
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


SHORT_CIRCUIT = """
RWStructuredBuffer<uint> result;
groupshared uint hits;
bool Count(uint x)
{
    uint old;
    InterlockedAdd(hits, 1, old);
    return x > old;
}
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    bool cheap = i > 3 && i < 60;             // no side effects: and
    bool counted = i > 3 && Count(i);         // an atomic on the right: control flow
    uint pick = cheap ? i : 7;                // select
    result[i] = pick + (counted ? 1 : 0);
}
"""


def test_short_circuit_only_when_the_right_side_has_side_effects():
    """&& with a side-effect-free right side is an and; with an atomic inside, control flow."""
    assert ir(SHORT_CIRCUIT) == dedent("""
        resource @result RWStructuredBuffer<uint> u0 space0
        groupshared @hits uint offset 0 size 4
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint {which="group_index"}
          %1 = const uint {value=3}
          %2 = const uint {value=60}
          %3 = const int {value=1}
          %4 = const uint {value=1}
          %5 = const uint {value=0}
          %6 = const uint {value=7}
          %7 = const int {value=0}
          %8 = gt bool %0, %1
          %9 = lt bool %0, %2
          %10 = and bool %8, %9
          %11 = gt bool %0, %1
          selection ^and.end1
          cond_br %11, ^and.rhs1, ^and.end1
        ^and.rhs1:
          %12 = lds_atomic uint %5, %4 {fn="add", var="hits"}
          %13 = gt bool %0, %12
          br ^and.end1
        ^and.end1:
          %14 = phi bool [%11, ^entry], [%13, ^and.rhs1]
          %15 = select uint %10, %0, %6
          %16 = select int %14, %3, %7
          %17 = convert uint %16
          %18 = add uint %15, %17
          buffer_store %0, %18 {resource="result"}
          ret
        }
    """).strip()


# ------------------------------------------------------------------- samples


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_every_sample_lowers_to_valid_structured_ssa(sample):
    module = lower_source(sample.read_text(), filename=str(sample))
    assert module.function.blocks and module.bindings
    assert all(inst.coord.line > 0 for inst in module.function.instructions())  # every line is known
    text = print_module(module)
    assert print_module(read_module(text)) == text  # the text form reads back


@pytest.mark.parametrize("wave_size", [32, 64])
@pytest.mark.parametrize("sample", SAMPLES, ids=lambda path: path.name)
def test_every_sample_compiles_with_the_verifier_between_passes(sample, wave_size):
    diagnostics = Diagnostics()
    module = compile_file(str(sample), Options(wave_size=wave_size, verify=True), diagnostics)
    assert diagnostics.error_count == 0 and "liveness" in module.analyses
    assert not [item for item in diagnostics.items if "unroll" in item.message]  # every [unroll] honoured


SPD_VARIANTS = [{}, {"SPD_NO_WAVE_OPERATIONS": "1"}, {"A_HALF": "1"},
                {"A_HALF": "1", "SPD_NO_WAVE_OPERATIONS": "1"}, {"SPD_LINEAR_SAMPLER": "1"}]


@pytest.mark.parametrize("defines", SPD_VARIANTS, ids=lambda d: "+".join(d) or "default")
def test_spd_variants_lower_without_scratch_or_errors(defines):
    path = ROOT / "samples" / "spd.hlsl"
    module = lower_source(path.read_text(), defines, filename=str(path))
    assert module.scratch_bytes == 0  # every local lives in registers
    ops = {inst.op for inst in module.function.instructions()}
    assert Op.BARRIER in ops and Op.BUFFER_ATOMIC in ops
    assert (Op.QUAD_READ_LANE_AT in ops) == ("SPD_NO_WAVE_OPERATIONS" not in defines)
    text = print_module(module, show_coords=False)
    if "A_HALF" in defines:  # the packed path computes in 16 bits
        assert " half4 " in text and "groupshared @spdIntermediateRG half2[16][16]" in text
    coherent = [binding for binding in module.bindings if binding.globally_coherent]
    assert {binding.name for binding in coherent} == {"spdGlobalAtomic", "imgDst6"}
    assert next(b for b in module.bindings if b.name == "imgDst").count == 12


def test_unbounded_resource_array_in_another_space():
    module = lower_source((ROOT / "samples" / "texture_array_nonuniform.hlsl").read_text())
    textures = next(binding for binding in module.bindings if binding.name == "textures")
    assert (textures.register, textures.space, textures.count) == ("t0", 1, None)
    sample = next(inst for inst in module.function.instructions() if inst.op is Op.TEXTURE_SAMPLE
                  and inst.operands[0].op is Op.NON_UNIFORM)
    assert sample.attrs == {"resource": "textures", "sampler": "linearSampler"}


def test_wave_size_attribute_overrides_the_option():
    module = lower_source((ROOT / "samples" / "downsample_shuffle.hlsl").read_text(), wave_size=32)
    assert module.function.wave_size == 64


# ------------------------------------------------------ coordinates, errors


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


@pytest.mark.parametrize("statement, message", [
    ("uint i = result[1]; result[0] = tex.SampleLevel(samp, float2(0, 0), 0, int2(i, 0)).x;",
     "3:37: error: a non-constant texel offset"),
    ("result[0] = tex.SampleGrad(samp, float2(0, 0), float2(1, 0), float2(0, 1)).x;",
     "3:17: error: the resource method 'SampleGrad'"),
    ("for (;;) {}", "3:1: error: a loop that never exits"),
])
def test_what_the_ir_cannot_express_is_one_clear_error(statement, message):
    source = ("RWStructuredBuffer<float> result; Texture2D<float4> tex; SamplerState samp;\n"
              "[numthreads(1, 1, 1)] void main() {\n" + statement + "\n}\n")
    diagnostics = Diagnostics()
    program = check_source(source, "kernel.hlsl", Options(), diagnostics)
    lower(program, 32, diagnostics)
    assert [item.severity for item in diagnostics.items] == ["error"]
    rendered = diagnostics.items[0].format()
    assert rendered.startswith("kernel.hlsl:" + message) and rendered.endswith("is not supported by shc's IR yet")


# --------------------------------------------------------- run on the interpreter


def run(source: str, buffers: dict, wave_size: int = 32, **options):
    return run_wave(lower_source(source, wave_size=wave_size), wave_size=wave_size, buffers=buffers, **options)


def test_inlined_early_returns_and_out_arguments_compute_the_right_values():
    def clip(x):
        total = 1.0
        if x < 0:
            return 0.5 + total + 0
        total += x
        return (10.0 + total + 1) if x > 10 else (x * 2 + total + 0)

    result = run(INLINE, {"result": np.zeros(32, np.float32)}).buffers["result"]
    assert result.tolist() == [clip(i - 5.0) for i in range(32)]


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


AGGREGATES = """
struct Particle { float3 position; uint id; };
RWStructuredBuffer<float> result;
static uint calls = 10;
Particle Make(uint id)
{
    calls += 1;
    Particle p = { float3(id, 2 * id, 3), id };
    return p;
}
[numthreads(64, 1, 1)]
void main(uint i : SV_GroupIndex)
{
    float table[4] = { 1, 10, 100, 1000 };
    Particle both[2] = { Make(i), Make(i + 1) };
    both[1].position.y += table[i & 3];
    table[(i + 1) & 3] = both[0].position.x;
    result[i] = both[1].position.y + table[(i + 1) & 3] + calls + both[1].id;
}
"""


def test_structs_arrays_statics_and_scratch_compute_the_right_values():
    def expected(i):
        table = [1, 10, 100, 1000]
        y = 2 * (i + 1) + table[i & 3]
        return y + i + 12 + (i + 1)

    module = lower_source(AGGREGATES)
    assert module.scratch_bytes == 16  # only `table` is indexed dynamically
    result = run(AGGREGATES, {"result": np.zeros(32, np.float32)}).buffers["result"]
    assert result.tolist() == [expected(i) for i in range(32)]


@pytest.mark.parametrize("wave_size", [32, 64])
def test_a_wave_op_behind_a_short_circuit_runs_only_in_the_lanes_that_reach_it(wave_size):
    source = """
    RWStructuredBuffer<uint> result;
    [numthreads(64, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {
        bool odd = (i & 1) != 0;
        result[i] = (odd && WaveActiveCountBits(true) == WaveGetLaneCount() / 2) ? 1 : 0;
    }
    """
    result = run(source, {"result": np.zeros(wave_size, np.uint32)}, wave_size).buffers["result"]
    assert result.tolist() == [i & 1 for i in range(wave_size)]


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


INTRINSICS = """
RWStructuredBuffer<float4> o;
RWStructuredBuffer<uint> u;
[numthreads(64, 1, 1)]
void main(uint gi : SV_GroupIndex)
{
    float x = gi * 0.25;
    float3 v = float3(x, 1, 2);
    float s, c;
    sincos(x, s, c);
    float ip;
    float fr = modf(x, ip);
    float a = clamp(x, 0.5, 2) + saturate(x) + lerp(1, 3, 0.5) + length(v) + distance(v, 0) + dot(v, v)
            + step(1, x) + degrees(1) + radians(1) + mad(x, 2, 1) + abs(-x) + min(x, 1) + max(x, 2)
            + sqrt(x) + rsqrt(x + 1) + exp2(x) + log2(x + 1) + floor(x) + ceil(x) + frac(x) + round(x)
            + trunc(x) + pow(x, 2) + s + c + fr + ip + sign(x) + mul(v, v) + mul(2, x) + fmod(x, 1)
            + (isnan(x) ? 1 : 0) + (all(v) ? 1 : 0) + (any(v > 5) ? 1 : 0);
    float3 n = normalize(v) + cross(v, float3(0, 0, 1)) + mul(v, 2);
    uint bits = countbits(gi) + firstbithigh(gi) + firstbitlow(gi) + reversebits(gi) + asuint(x)
              + f32tof16(x) + (uint)f16tof32(0x3c00u) + mad(gi, 2u, 1u);
    int ib = asint(1.0f) + (int)asfloat(0x3f800000u);
    o[gi] = float4(n, a);
    u[gi] = bits + ib;
}
"""


def test_math_and_bit_intrinsics_expand_to_the_right_values():
    state = run(INTRINSICS, {"o": np.zeros((32, 4), np.float32), "u": np.zeros(32, np.uint32)})
    # lane 0: x = 0, v = (0, 1, 2). The nonzero terms of a: clamp 0.5, lerp 2, length and
    # distance sqrt(5) each, dot 5, degrees(1), radians(1), mad 1, max 2, rsqrt 1, exp2 1, cos 1,
    # mul(v, v) 5.
    a = 0.5 + 2 + 2 * np.sqrt(5) + 5 + 180 / np.pi + np.pi / 180 + 1 + 2 + 1 + 1 + 1 + 5
    n = state.buffers["o"][0]
    assert n[:3] == pytest.approx([1.0, 2 + 1 / np.sqrt(5), 4 + 2 / np.sqrt(5)], rel=1e-6)
    assert n[3] == pytest.approx(a, rel=1e-6)
    # firstbithigh(0) = firstbitlow(0) = 0xffffffff, f16tof32(0x3c00) = 1, mad = 1; asint(1.0) + 1
    assert state.buffers["u"][0] == 0x3F800000 + 1


@pytest.mark.parametrize("wave_size", [32, 64])
def test_prefix_sum_sample_runs_wave_by_wave(wave_size):
    """Each wave only reads the totals of the waves before it, so running the group's waves
    in order with the LDS carried over is a faithful schedule."""
    module = lower_source((ROOT / "samples" / "prefix_sum.hlsl").read_text(), wave_size=wave_size)
    data = np.random.default_rng(wave_size).integers(0, 1000, 256).astype(np.uint32)
    count = 200
    buffers = {"input": data, "output": np.zeros(256, np.uint32), "blockSums": np.zeros(1, np.uint32)}
    lds = np.zeros(module.lds_bytes, np.uint8)
    for wave in range(256 // wave_size):
        lanes = np.arange(wave_size) + wave * wave_size
        state = run_wave(module, wave_size, lane_inputs={"group_index": lanes}, buffers=buffers,
                         cbuffers={"scanConstants": {0: count}}, lds=lds)
        buffers, lds = state.buffers, state.lds
    values = np.where(np.arange(256) < count, data, 0)
    exclusive = np.concatenate([[0], np.cumsum(values)[:-1]])
    assert buffers["output"][:count].tolist() == exclusive[:count].tolist()
    assert not buffers["output"][count:].any()
    assert buffers["blockSums"][0] == values.sum()


def test_scalar_swizzles_and_deep_expressions():
    terms = " + ".join(["i"] * 3000)  # deeper than Python's default recursion limit allows
    module = lower_source(f"""
    RWStructuredBuffer<uint> result;
    [numthreads(1, 1, 1)]
    void main(uint i : SV_GroupIndex)
    {{
        uint s = i;
        s.x = 3;            // .x of a scalar is the scalar
        result[s.x] = {terms};
    }}
    """)
    store = next(inst for inst in module.function.instructions() if inst.op is Op.BUFFER_STORE)
    assert store.operands[0].attrs == {"value": 3}
    assert sum(inst.op is Op.ADD for inst in module.function.instructions()) == 2999
