// conformance: dot4add_u8packed: unsigned bytes multiplied pairwise and added to a uint accumulator (wraps)
// buffer: a uint32 = 16909060 4294967295 2155905152 2139062143 16711935
// buffer: b uint32 = 16843009 4294967295 2155905152 2172748161 50201342
// buffer: acc uint32 = 5 4294967295 0 1 4294705152
// buffer: o uint32[5]
// expect: o = 15 260099 65536 65533 4294834692
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
StructuredBuffer<uint> acc;
RWStructuredBuffer<uint> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = dot4add_u8packed(a[id.x], b[id.x], acc[id.x]);
}
