// conformance: cbuffer members: scalars and vectors packed in 16-byte rows
// constant: scale float32 = 2.5
// constant: count uint32 = 4
// constant: offset float32 = 10 20 30
// constant: extra float32 = 7 8
// buffer: o float32[1]
// expect: o = 37
cbuffer Params : register(b0) { float scale; uint count; float3 offset; float2 extra; };
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = scale * (float)count + offset.y + extra.x;
}
