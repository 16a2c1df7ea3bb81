// conformance: half4 arithmetic stays in half precision
// buffer: a float16 = 1 1.024e+03 0.5 -3 2.048e+03 2 3 6.55e+04
// buffer: o float16[8]
// expect: o = 3 2.048e+03 2 -5 4.096e+03 5 7 inf
StructuredBuffer<half4> a;
RWStructuredBuffer<half4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    half4 v = a[id.x];
    o[id.x] = v * (half)2 + (half)1;
}
