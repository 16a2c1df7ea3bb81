// conformance: numthreads over 1024 threads in total is rejected
// error: numthreads
RWStructuredBuffer<uint> o;
[numthreads(64, 32, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = 1;
}
