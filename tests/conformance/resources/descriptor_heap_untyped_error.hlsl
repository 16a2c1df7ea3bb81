// conformance: an element of ResourceDescriptorHeap has no type until a resource variable receives it (SM 6.6)
// error: 'ResourceDescriptorHeap[i]' must initialize a local resource variable
RWStructuredBuffer<uint> result;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    result[0] = ResourceDescriptorHeap[0][id.x];
}
