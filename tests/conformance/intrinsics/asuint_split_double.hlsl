// conformance: asuint(double, out low, out high) splits the bits into two uints
// buffer: d float64 = 1.0 -2.5 3.141592653589793 5e-324 -0.0 1e+300
// buffer: o uint32[12]
// expect: o = 0 1072693248 0 3221487616 1413754136 1074340347 1 0 0 2147483648 2281731484 2117592124
StructuredBuffer<double> d;
RWStructuredBuffer<uint> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint low, high;
    asuint(d[id.x], low, high);
    o[id.x * 2] = low;
    o[id.x * 2 + 1] = high;
}
