// conformance: out parameters are written back to the caller
// buffer: a uint32 = 74565 65535 65536 7
// buffer: o uint32[4]
// expect: o = 10029 65535 1000 7
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
void split(uint v, out uint lo, out uint hi) { lo = v & 0xFFFF; hi = v >> 16; }

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint lo, hi;
    split(a[id.x], lo, hi);
    o[id.x] = lo + hi * 1000;
}
