// conformance: v[i] with a run-time index reads and writes one component
// buffer: a float32 = 1 2 3 4
// buffer: o float32[16]
// expect: o = 4 100 100 4 3 100 1 4 2 100 1 4 1 100 1 100
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4 v = a[0];
    uint i = id.x;
    v[i] = 100.0f;
    o[id.x] = float4(v[3 - i], v[i], v.x, v.w);
}
