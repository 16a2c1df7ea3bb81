// conformance: a local resource chosen by a run-time condition does not map to one global resource (DXC rejects it)
// error: local resource not guaranteed to map to unique global resource
RWStructuredBuffer<uint> a;
RWStructuredBuffer<uint> b;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    RWStructuredBuffer<uint> t = a;
    if (id.x > 1)
        t = b;
    t[id.x] = 1;
}
