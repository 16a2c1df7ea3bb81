// conformance: transpose of an int3x1 is an int1x3
// buffer: o int32[3]
// expect: o = -1 2 -3
RWStructuredBuffer<int> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int1x3 t = transpose(int3x1(-1, 2, -3));
    int3 row = t[0];
    o[0] = row.x; o[1] = t[0][1]; o[2] = t._m02;
}
