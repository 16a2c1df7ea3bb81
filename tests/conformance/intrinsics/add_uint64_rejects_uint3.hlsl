// conformance: AddUint64 takes uint2 or uint4 only: a uint3 is an error
// error: 'AddUint64' takes 2-component or 4-component vectors
RWStructuredBuffer<uint3> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = AddUint64(uint3(1, 2, 3), uint3(4, 5, 6));
}
