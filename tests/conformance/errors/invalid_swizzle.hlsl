// conformance: a swizzle naming a component the vector lacks is rejected
// error: swizzle
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2 v = float2(1, 2);
    o[0] = v.z;
}
