// conformance: RWStructuredBuffer IncrementCounter returns the hidden counter before the increment: 64 distinct slots
// buffer: o uint32[72]
// buffer: o_counter uint32 = 8
// expect: o_counter = 72
// expect: o = 0 0 0 0 0 0 0 0 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint slot = o.IncrementCounter();
    o[slot] += 1;
}
