// conformance: && on vectors is rejected (use and())
// error: short-circuit
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    bool2 p = bool2(true, false) && bool2(true, true);
    o[0] = p.x ? 1 : 0;
}
