// conformance: recursion is rejected (HLSL has no recursion)
// error: recursi
RWStructuredBuffer<uint> o;
uint f(uint x) { return x == 0 ? 0 : f(x - 1); }
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = f(id.x);
}
