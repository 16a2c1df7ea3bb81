// conformance: reflect(i, n) = i - 2 * dot(i, n) * n on float3 (n need not be unit length)
// buffer: i float32 = 1.0 -1.0 0.0 2.0 3.0 4.0 1.0 2.0 3.0 1.0 1.0 1.0
// buffer: n float32 = 0.0 1.0 0.0 0.0 0.0 1.0 1.0 0.0 0.0 1.0 1.0 0.0
// buffer: o float32[12]
// expect: o = 1.0 1.0 0.0 2.0 3.0 -4.0 -1.0 2.0 3.0 -3.0 -3.0 1.0
StructuredBuffer<float3> i;
StructuredBuffer<float3> n;
RWStructuredBuffer<float3> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = reflect(i[id.x], n[id.x]);
}
