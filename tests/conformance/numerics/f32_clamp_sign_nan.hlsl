// conformance: clamp(nan, 0, 1) is 0 by the min/max rules; sign(nan) is 0
// clamp is min(max(x, lo), hi): max(nan, 0) = 0 (D3D), so the result is 0.
// buffer: a float32 = nan 0.5 -3 7
// buffer: b float32 = 0 0 0 0
// buffer: o uint32[4]
// expect: o = 100 205 0 210
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float x = a[id.x];
    o[id.x] = (uint)(clamp(x, 0.0f, 1.0f) * 10.0f) + 100u * (uint)(sign(x) + 1);
}
