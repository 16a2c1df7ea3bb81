// conformance: a float4 accumulated across a divergent loop
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o float32[32]
// expect: o = 0 0 0 0 1 0 0.5 -1 3 1 1.5 -3 7 4 3.5 -7 0 0 0 0 7 4 3.5 -7 7 4 3.5 -7 0 0 0 0
StructuredBuffer<uint> a;
RWStructuredBuffer<float4> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4 acc = 0;
    for (uint i = 0; i < a[id.x] % 5; i++) { acc = acc * 2.0f + float4(1, i, 0.5f, -1); }
    o[id.x] = acc;
}
