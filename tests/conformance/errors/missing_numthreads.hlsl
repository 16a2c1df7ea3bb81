// conformance: a compute entry point without [numthreads] is rejected
// error: numthreads
RWStructuredBuffer<uint> o;
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = 1;
}
