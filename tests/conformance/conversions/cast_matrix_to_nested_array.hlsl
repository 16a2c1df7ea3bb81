// conformance: a 2x2 matrix cast to uint[2][2] keeps row-major order
// buffer: o uint32[4]
// expect: o = 1 2 3 4
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    typedef uint U[2][2];
    U a = (U)float2x2(1, 2, 3, 4);
    o[0] = a[0][0]; o[1] = a[0][1]; o[2] = a[1][0]; o[3] = a[1][1];
}
