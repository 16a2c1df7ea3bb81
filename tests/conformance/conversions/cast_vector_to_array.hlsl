// conformance: (int[4])float4 through a typedef: each component converted (truncated toward zero)
// buffer: o int32[4]
// expect: o = 1 -2 3 0
RWStructuredBuffer<int> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    typedef int I4[4];
    I4 a = (I4)float4(1.75, -2.5, 3.0, 0.5);
    [unroll] for (uint i = 0; i < 4; i++) o[i] = a[i];
}
