// conformance: (float4)arr: an array of 4 ints cast element-wise to a float4
// buffer: o float32[4]
// expect: o = 1.0 -2.0 3.0 7.0
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int a[4] = {1, -2, 3, 7};
    float4 v = (float4)a;
    o[0] = v.x; o[1] = v.y; o[2] = v.z; o[3] = v.w;
}
