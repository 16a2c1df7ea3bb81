// conformance: asdouble(low, high) builds a double from its two 32-bit halves
// buffer: lo uint32 = 0 0 1 1413754136 0 4294967295
// buffer: hi uint32 = 1072693248 3221225472 0 1074340347 2146435072 4293918719
// buffer: o float64[6]
// expect: o = 1.0 -2.0 5e-324 3.141592653589793 inf -1.7976931348623157e+308
StructuredBuffer<uint> lo;
StructuredBuffer<uint> hi;
RWStructuredBuffer<double> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asdouble(lo[id.x], hi[id.x]);
}
