// conformance: a run-time row index into a 4x1 matrix, read and written
// buffer: o uint32[4]
// expect: o = 5 6 70 8
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint4x1 m = uint4x1(5, 6, 7, 8);
    uint k = id.x + 2;
    m[k][0] = m[k][0] * 10;
    [unroll] for (uint i = 0; i < 4; i++) o[i] = m[i][0];
}
