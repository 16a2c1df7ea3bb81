// conformance: an element-wise cast needs at least as many source elements as the target has
// error: cannot cast from 'float[3]' to 'float4'
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float a[3] = {1, 2, 3};
    o[0] = (float4)a;
}
