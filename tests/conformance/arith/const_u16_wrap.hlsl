// conformance: constant-folded uint16_t arithmetic wraps at 16 bits
// buffer: o uint16[4]
// expect: o = 0 24464 2 65535
RWStructuredBuffer<uint16_t> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = (uint16_t)65535 + (uint16_t)1;
    o[1] = (uint16_t)300 * (uint16_t)300;
    o[2] = (uint16_t)1 << (uint16_t)17;
    o[3] = (uint16_t)0 - (uint16_t)1;
}
