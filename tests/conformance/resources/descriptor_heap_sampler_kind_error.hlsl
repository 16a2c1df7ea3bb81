// conformance: SamplerDescriptorHeap holds samplers only: a texture cannot come from it (SM 6.6)
// error: an element of 'SamplerDescriptorHeap' initializes a sampler variable, not 'Texture2D<float4>'
RWStructuredBuffer<float4> result;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    Texture2D<float4> t = SamplerDescriptorHeap[0];
    result[0] = t.Load(int3(0, 0, 0));
}
