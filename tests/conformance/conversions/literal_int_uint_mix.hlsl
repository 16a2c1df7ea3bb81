// conformance: a negative literal compared with uint converts to uint
// -1 becomes 0xFFFFFFFF, so no uint is greater (DXC warns; the comparison is unsigned).
// buffer: a uint32 = 0 5 4294967295
// buffer: o uint32[3]
// expect: o = 0 0 0
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = (x > -1) ? 1u : 0u;
}
