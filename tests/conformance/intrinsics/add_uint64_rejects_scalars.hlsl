// conformance: AddUint64 takes uint2 or uint4 only: scalars are not splatted
// error: 'AddUint64' takes 2-component or 4-component vectors
RWStructuredBuffer<uint2> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = AddUint64(1u, 2u);
}
