// conformance: calling a function with too many arguments is rejected
// error: no matching function
RWStructuredBuffer<uint> o;
uint f(uint x) { return x; }
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = f(1, 2);
}
