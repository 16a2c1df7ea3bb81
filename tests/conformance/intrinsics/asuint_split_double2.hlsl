// conformance: asuint(double2, out uint2 low, out uint2 high), per component
// buffer: d float64 = 1.0 -2.5 3.141592653589793 5e-324 -0.0 1e+300
// buffer: o uint32[12]
// expect: o = 0 0 1072693248 3221487616 1413754136 1 1074340347 0 0 2281731484 2147483648 2117592124
StructuredBuffer<double2> d;
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint2 low, high;
    asuint(d[id.x], low, high);
    o[id.x * 4] = low.x;
    o[id.x * 4 + 1] = low.y;
    o[id.x * 4 + 2] = high.x;
    o[id.x * 4 + 3] = high.y;
}
