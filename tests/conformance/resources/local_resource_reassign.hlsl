// conformance: a local resource reassigned, chosen by a constant condition and taken from a local array at unrolled indexes writes the global it resolves to
// wave: both
// buffer: a uint32[4]
// buffer: b uint32[4]
// expect: a = 10 111 212 313
// expect: b = 2000 2002 2004 2006
RWStructuredBuffer<uint> a;
RWStructuredBuffer<uint> b;
static const bool SWAP = true;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint i = id.x;
    RWStructuredBuffer<uint> t = a;
    t[i] = i;
    t = b;
    t[i] = 2 * i;
    if (SWAP) t = a;
    t[i] += 100 * i + 10;
    RWStructuredBuffer<uint> pair[2] = { a, b };
    [unroll] for (uint k = 1; k < 2; k++) pair[k][i] += 2000;
}
