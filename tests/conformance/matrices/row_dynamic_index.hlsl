// conformance: m[i] with a run-time i is row i
// buffer: a float32 = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
// buffer: o float32[16]
// expect: o = 13 14 15 16 9 10 11 12 5 6 7 8 1 2 3 4
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4x4 x = float4x4(a[0], a[1], a[2], a[3]);
    o[id.x] = x[3 - id.x];
}
