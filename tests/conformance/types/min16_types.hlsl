// conformance: min16float / min16uint are 16-bit types (16-bit types on)
// With 16-bit types enabled, min16uint is uint16_t: 30000 * 3 wraps at 16 bits.
// buffer: a uint32 = 1 65537 30000 7
// buffer: o uint32[4]
// expect: o = 8 8 24469 26
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    min16uint u = (min16uint)a[id.x];
    min16float h = (min16float)2.5;
    o[id.x] = (uint)(u * (min16uint)3) + (uint)(h * (min16float)2);
}
