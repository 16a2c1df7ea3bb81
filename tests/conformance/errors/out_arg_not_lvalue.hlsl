// conformance: passing an rvalue to an out parameter is rejected
// error: l-value
RWStructuredBuffer<uint> o;
void f(out uint x) { x = 1; }
[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    f(3u);
    o[0] = 0;
}
