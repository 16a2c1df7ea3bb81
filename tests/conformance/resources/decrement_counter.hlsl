// conformance: DecrementCounter returns the hidden counter after the decrement: from 64, the values 0..63 once each
// buffer: o uint32[64]
// buffer: o_counter uint32 = 64
// expect: o_counter = 0
// expect: o = 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint slot = o.DecrementCounter();
    o[slot] += 1;
}
