// conformance: dot of float4 is the sum of products
// buffer: a float32 = 1 0 -1 2
// buffer: o float32[4]
// expect: o = 60 53 46 67
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = dot(float4(x, 2, 3, 4), float4(5, x, 7, 8));
}
