// conformance: transpose of a uint3x4: element (r, c) moves to (c, r)
// buffer: o uint32[12]
// expect: o = 1 5 9 2 6 10 3 7 11 4 8 12
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint4x3 t = transpose(uint3x4(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12));
    [unroll] for (uint r = 0; r < 4; r++) { o[r * 3] = t[r].x; o[r * 3 + 1] = t[r].y; o[r * 3 + 2] = t[r].z; }
}
