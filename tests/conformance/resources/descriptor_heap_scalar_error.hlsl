// conformance: a ResourceDescriptorHeap element cannot initialize a non-resource variable (SM 6.6)
// error: an element of 'ResourceDescriptorHeap' initializes a resource (not a sampler) variable, not 'uint'
RWStructuredBuffer<uint> result;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = ResourceDescriptorHeap[0];
    result[0] = x;
}
