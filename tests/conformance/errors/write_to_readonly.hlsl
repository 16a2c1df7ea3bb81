// conformance: a StructuredBuffer (SRV) cannot be written
// error: read-only
StructuredBuffer<float> src;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    src[id.x] = 1.0f;
}
