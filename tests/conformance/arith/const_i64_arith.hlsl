// conformance: constant-folded int64_t arithmetic keeps 64 bits
// buffer: o int64[4]
// expect: o = 8589934588 1099511627776 -1 1666666666
RWStructuredBuffer<int64_t> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = (int64_t)0x7FFFFFFF * 4;
    o[1] = (int64_t)1 << 40;
    o[2] = (int64_t)-1 >> 70;
    o[3] = (int64_t)5000000000 / 3;
}
