"""AST to IR, memory: groupshared layout and atomics, cbuffer packing, resources and
implicit registers, local arrays in scratch; structs, arrays and statics run on the interpreter."""

import os
import sys
from textwrap import dedent

import numpy as np


sys.path.insert(0, os.path.dirname(__file__))
from from_ast_helpers import ir, lower_source, run  # noqa: E402


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
    """Tight layout, 4-byte aligned variables, the largest first; y * 64 + x * 4 (+ 2 for .y of a half2); atomics return the old value."""
    assert ir(GROUPSHARED) == dedent("""
        struct @Pair { key: uint, value: float2 }
        resource @result RWStructuredBuffer<float> u0 space0
        groupshared @tile half2[8][16] offset 0 size 512
        groupshared @pairs Pair[32] offset 512 size 384
        groupshared @flags uint offset 896 size 4
        func @main numthreads(64, 1, 1) wave32 {
        ^entry:
          %0 = thread_input uint3 {which="group_thread_id"}
          %1 = const half2 {value=[1.0, 2.0]}
          %2 = const uint {value=64}
          %3 = const uint {value=4}
          %4 = const uint {value=1}
          %5 = const uint {value=194}
          %6 = const uint {value=12}
          %7 = const uint {value=520}
          %8 = const uint {value=896}
          %9 = extract uint %0 {index=1}
          %10 = extract uint %0 {index=0}
          %11 = mul uint %9, %2
          %12 = mul uint %10, %3
          %13 = add uint %11, %12
          lds_store %13, %1 {var="tile"}
          %14 = extract uint %0 {index=0}
          %15 = extract uint %0 {index=0}
          %16 = add uint %15, %4
          %17 = mul uint %16, %3
          %18 = add uint %17, %5
          %19 = lds_load half %18 {var="tile"}
          %20 = convert float %19
          %21 = mul uint %14, %6
          %22 = add uint %21, %7
          lds_store %22, %20 {var="pairs"}
          barrier {scope="group", sync=true}
          %23 = extract uint %0 {index=0}
          %24 = shl uint %4, %23
          %25 = lds_atomic uint %8, %24 {fn="or", var="flags"}
          %26 = extract uint %0 {index=0}
          %27 = extract uint %0 {index=0}
          %28 = xor uint %27, %4
          %29 = mul uint %28, %6
          %30 = add uint %29, %7
          %31 = lds_load float %30 {var="pairs"}
          %32 = convert float %25
          %33 = add float %31, %32
          buffer_store %26, %33 {resource="result"}
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


# --------------------------------------------------------- run on the interpreter


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
