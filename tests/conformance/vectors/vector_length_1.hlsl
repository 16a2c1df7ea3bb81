// conformance: float1 behaves as a one-component vector
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 3 3 3 1 15 15 15 5
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float1 v = a[id.x].x;
    float1 w = v * 3.0f;
    o[id.x] = float4(w.x, w.xx, v[0]);
}
