// conformance: double +, -, * and / round to nearest even at 53 bits
// buffer: a float64 = 0.1 1e+300 3 1
// buffer: b float64 = 0.2 1e+300 7 3
// buffer: o float64[4]
// expect: o = 0.10000000000000009 4e+300 19.571428571428573 7.666666666666667
StructuredBuffer<double> a;
StructuredBuffer<double> b;
RWStructuredBuffer<double> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] + b[id.x]) * 2.0 - a[id.x] / b[id.x];
}
