// conformance: dot4add_i8packed: signed bytes multiplied pairwise and added to an int accumulator (wraps)
// buffer: a uint32 = 16909060 4294967295 2155905152 2139062143 16711935
// buffer: b uint32 = 16843009 4294967295 2155905152 2172748161 50201342
// buffer: acc int32 = 5 -1 2147483647 0 -7
// buffer: o int32[5]
// expect: o = 15 3 -2147418113 -64516 -3
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
StructuredBuffer<int> acc;
RWStructuredBuffer<int> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = dot4add_i8packed(a[id.x], b[id.x], acc[id.x]);
}
