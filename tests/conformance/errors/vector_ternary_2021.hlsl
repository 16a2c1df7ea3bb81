// conformance: a vector condition in ?: is rejected in HLSL 2021 (use select)
// error: scalar
RWStructuredBuffer<float2> o;
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    bool2 c = bool2(true, false);
    o[0] = c ? float2(1, 2) : float2(3, 4);
}
