// conformance: more than 32 KiB of groupshared memory is rejected
// error: groupshared
RWStructuredBuffer<uint> o;
groupshared uint big[8193];
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    big[id.x] = 1;
    o[id.x] = big[id.x + 1];
}
