// conformance: compound assignments +=, -=, *=, <<=, |= in sequence
// buffer: a uint32 = 0 1 7 4294967295
// buffer: b uint32 = 0 0 0 0
// buffer: o uint32[4]
// expect: o = 201 189 53 213
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = b[id.x] + 0; uint v = a[id.x]; v += 3; v *= 5; v -= 1; v <<= 2; v |= 1; v ^= 0xF0; o[id.x] = v;
}
