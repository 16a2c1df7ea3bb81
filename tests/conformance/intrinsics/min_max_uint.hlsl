// conformance: min / max on uint compare unsigned
// buffer: a uint32 = 4294967295 5 2147483648 2
// buffer: b uint32 = 1 6 2147483647 2
// buffer: o uint32[4]
// expect: o = 4294967295 9 2147483647 6
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = min(a[id.x], b[id.x]) ^ (max(a[id.x], b[id.x]) << 1);
}
