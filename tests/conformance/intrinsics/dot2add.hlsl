// conformance: dot2add(half2 a, half2 b, float acc) = acc + a.x*b.x + a.y*b.y summed in float (no half overflow)
// buffer: a float16 = 1.0 2.0 1.0 -2.0 -1.0 2.0 65504.0 1.0 1.0 -65504.0 0.5 -0.25 0.125 3.0
// buffer: b float16 = 3.0 4.0 -3.0 4.0 3.0 -4.0 1.0 65504.0 -65504.0 1.0 4.0 8.0 -8.0 0.5
// buffer: acc float32 = 0.0 10.0 -30.0 0.0 -1e+07 0.25 1.0
// buffer: o float32[7]
// expect: o = 11.0 -1.0 -41.0 131008.0 -1.0131008e+07 0.25 1.5
StructuredBuffer<half2> a;
StructuredBuffer<half2> b;
StructuredBuffer<float> acc;
RWStructuredBuffer<float> o;

[numthreads(7, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = dot2add(a[id.x], b[id.x], acc[id.x]);
}
