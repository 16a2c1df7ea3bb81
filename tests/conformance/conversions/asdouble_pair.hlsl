// conformance: asdouble(low, high) builds a double from two uints
// buffer: a uint32 = 0 1 16
// buffer: o float64[3]
// expect: o = 1 1.0000009536743166 1.000015258789066
StructuredBuffer<uint> a;
RWStructuredBuffer<double> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = asdouble(x, 0x3ff00000u + x);
}
