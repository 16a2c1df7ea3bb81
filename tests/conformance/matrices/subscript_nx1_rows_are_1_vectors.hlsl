// conformance: m[i] of a 3x1 matrix is a 1-vector, so m[i][0] reads and writes one element
// buffer: o int32[4]
// expect: o = 10 7 30 20
RWStructuredBuffer<int> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int3x1 m = int3x1(10, 20, 30);
    int1 r = m[1];
    m[1][0] = 7;
    o[0] = m[0][0]; o[1] = m[1].x; o[2] = m[2][0]; o[3] = r[0];
}
