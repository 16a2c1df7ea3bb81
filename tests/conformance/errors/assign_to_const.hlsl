// conformance: assigning to a static const is rejected
// error: const
RWStructuredBuffer<uint> o;
static const uint k = 3;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    k = 4;
    o[0] = k;
}
