// conformance: transpose of a bool1x2
// buffer: o uint32[2]
// expect: o = 1 0
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    bool2x1 t = transpose(bool1x2(true, false));
    o[0] = t[0][0] ? 1 : 0; o[1] = t[1][0] ? 1 : 0;
}
